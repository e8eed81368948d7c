/*
 * test_plan_print.c -- the nested print of a plan (distfft_plan_describe_verbose):
 * verbosity 0 is distfft_plan_describe's line byte for byte; from 1 on an
 * exchange shows its method's inner phases on lines of their own --
 * hierarchical's gather, between-node exchange and scatter, shm's window
 * -- and from 2 on each transform shows FFTW's own plan. Nodes of 2 ranks
 * are pretended (options.node_size), so leaders are the even ranks. Rank 0
 * prints its trees.
 *
 *   mpiexec -n 4 test_plan_print
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

/* The nested print at `verbosity`, malloc'd; NULL on failure. */
static char *print_plan(distfft_plan plan, int verbosity)
{
    int length = distfft_plan_describe_verbose(plan, verbosity, NULL, 0);
    if (length < 0) return NULL;
    char *text = malloc((size_t)length + 1);
    if (text && distfft_plan_describe_verbose(plan, verbosity, text, (size_t)length + 1) != length) {
        free(text);
        return NULL;
    }
    return text;
}

static distfft_plan make_plan(test_suite *suite, distfft_method method)
{
    int64_t shape[3] = {8, 8, 8};
    distfft_options options;
    distfft_options_init(&options);
    options.grid_ndims = 1;
    options.method = method;
    options.node_size = 2;
    options.rigor = DISTFFT_ESTIMATE;
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(suite->comm, 3, shape, DISTFFT_DOUBLE, &options, &plan);
    test_case(suite, rc == DISTFFT_SUCCESS, "%s plan created", distfft_method_name(method));
    return plan;
}

/* Verbosity 0 against distfft_plan_describe; and a truncated buffer still
 * reports the whole length. */
static void check_line(test_suite *suite, distfft_plan plan)
{
    char line[4096], short_buffer[16];
    int length = distfft_plan_describe(plan, line, sizeof line);
    char *same = print_plan(plan, 0);
    test_case(suite, same && strcmp(same, line) == 0 && !strchr(same, '\n'),
              "verbosity 0 is distfft_plan_describe's line");
    free(same);
    char *tree = print_plan(plan, 1);
    int tree_length = tree ? (int)strlen(tree) : -1;
    test_case(suite, distfft_plan_describe_verbose(plan, 1, short_buffer, sizeof short_buffer) == tree_length &&
                  strlen(short_buffer) == sizeof short_buffer - 1 && tree_length > length,
              "a truncated nested print returns the whole length");
    free(tree);
}

static int has(const char *text, const char *piece)
{
    return text && strstr(text, piece) != NULL;
}

static void check_hierarchical(test_suite *suite)
{
    distfft_plan plan = make_plan(suite, DISTFFT_METHOD_HIERARCHICAL);
    if (!plan) return;
    check_line(suite, plan);
    char *tree = print_plan(plan, 1), *full = print_plan(plan, 2);
    int leader = suite->rank % 2 == 0 || suite->size == 1;
    int multinode = suite->size > 2;
    if (suite->rank == 0) printf("verbosity 1 on rank 0:\n%s\n", tree ? tree : "(none)");
    int exchanges = suite->size > 1; /* one rank: the whole transform is local */
    test_case(suite, !exchanges || (has(tree, "\n  (redist hierarchical") && has(tree, "\n    (nodes ")),
              "the exchange and its phases on lines of their own");
    test_case(suite, !multinode || (leader ? has(tree, "(gather from 1 member: ") && has(tree, "(between ") &&
                                                 has(tree, "(scatter to 1 member: ")
                                           : has(tree, "(gather to the leader: ") &&
                                                 has(tree, "(scatter from the leader: ")),
              "hierarchical shows gather, between and scatter");
    test_case(suite, has(tree, "\n  (backward\n    (fft c2c"), "every backward step under (backward");
    test_case(suite, !has(tree, "(dft-") && has(full, "\n    (dft-"),
              "FFTW's plans at verbosity 2 only, under their steps");
    if (suite->rank == 0) printf("verbosity 2 on rank 0:\n%s\n", full ? full : "(none)");
    free(tree);
    free(full);
    distfft_plan_destroy(&plan);
}

static void check_shm(test_suite *suite)
{
    distfft_plan plan = make_plan(suite, DISTFFT_METHOD_SHM);
    if (!plan) return;
    check_line(suite, plan);
    char *tree = print_plan(plan, 1);
    if (suite->rank == 0) printf("shm, verbosity 1 on rank 0:\n%s\n", tree ? tree : "(none)");
    /* the pretended nodes of 2 share this machine's memory: each has a window */
    test_case(suite, suite->size == 1 || (has(tree, "\n    (domain 2 of ") && has(tree, "\n    (window slice ") &&
                                         has(tree, "(messages outside the domain: ")),
              "shm shows its domain, window and messages");
    /* a plan's exchange writes into its output in the window: one copy,
     * on every run (a pair of ranks shares memory where size >= 2; the
     * last of an odd size is a domain of its own, without a window) */
    int paired = suite->size > 1 && (suite->size % 2 == 0 || suite->rank < suite->size - 1);
    test_case(suite, !paired || (has(tree, "(output in the window ") && has(tree, "(0 of 0 runs)")),
              "shm's plan exchanges have their output in the window");
    free(tree);
    size_t bytes = (size_t)distfft_plan_local_size(plan) * 16 + 16;
    void *in = distfft_malloc(bytes), *out = distfft_malloc(bytes);
    if (in && out) {
        memset(in, 0, bytes);
        memset(out, 0, bytes);
        test_case(suite, distfft_plan_execute(plan, in, out, DISTFFT_FORWARD) == DISTFFT_SUCCESS &&
                      distfft_plan_execute(plan, out, in, DISTFFT_BACKWARD) == DISTFFT_SUCCESS, "shm plan runs");
        tree = print_plan(plan, 1);
        if (suite->rank == 0) printf("shm after a forward and a backward run:\n%s\n", tree ? tree : "(none)");
        test_case(suite, !paired || (has(tree, "(1 of 1 runs)") && !has(tree, "(0 of 1 runs)")),
                  "every run of a plan's shm exchange takes the one copy");
        free(tree);
    }
    distfft_free(in);
    distfft_free(out);
    distfft_plan_destroy(&plan);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite suite;
    test_suite_init(&suite, "test_plan_print", MPI_COMM_WORLD);
    test_case(&suite, distfft_plan_describe_verbose(NULL, 1, NULL, 0) == -1, "NULL plan: -1");
    check_hierarchical(&suite);
    check_shm(&suite);
    int rc = test_suite_finish(&suite);
    MPI_Finalize();
    return rc;
}
