/*
 * test_auto.c -- the "auto" communication method: plan-time measurement of
 * every method per exchange, the same choice on every rank, results equal
 * to the paper's alltoallw, and estimate mode taking alltoallw unmeasured.
 *
 *   mpiexec -n 4 test_auto
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static distfft_plan make_plan(MPI_Comm comm, int ndims, const int64_t *shape, int grid_ndims,
                              distfft_method method, distfft_rigor rigor)
{
    distfft_options options;
    distfft_options_init(&options);
    options.grid_ndims = grid_ndims;
    options.method = method;
    options.rigor = rigor;
    distfft_plan plan = NULL;
    if (distfft_plan_create(comm, ndims, shape, DISTFFT_DOUBLE, &options, &plan) != DISTFFT_SUCCESS)
        fprintf(stderr, "test_auto: %s\n", distfft_last_error());
    return plan;
}

/* The auto plan's output agrees with alltoallw's; it names its choices. */
static void check_plan(test_suite *suite, int ndims, const int64_t *shape, int grid_ndims)
{
    char shape_text[64], name[128];
    test_shape_string(ndims, shape, shape_text, sizeof shape_text);
    snprintf(name, sizeof name, "%s grid_ndims=%d", shape_text, grid_ndims);
    distfft_plan tuned = make_plan(suite->comm, ndims, shape, grid_ndims, DISTFFT_METHOD_AUTO, DISTFFT_MEASURE);
    distfft_plan paper = make_plan(suite->comm, ndims, shape, grid_ndims, DISTFFT_METHOD_ALLTOALLW, DISTFFT_MEASURE);
    test_case(suite, tuned && paper, "create auto and alltoallw plans %s", name);
    if (!tuned || !paper) return;

    char text[2048];
    distfft_plan_describe(tuned, text, sizeof text);
    int names_choice = strstr(text, "(tuning ") != NULL && strstr(text, "redist auto") == NULL;
    uint64_t hash = test_hash_string(text), low = hash, high = hash;
    MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_UINT64_T, MPI_MIN, suite->comm);
    MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_UINT64_T, MPI_MAX, suite->comm);
    /* The tuning time in the text may differ; compare the text before it. */
    char *tuning = strstr(text, " (tuning ");
    if (tuning) *tuning = '\0';
    hash = test_hash_string(text);
    low = high = hash;
    MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_UINT64_T, MPI_MIN, suite->comm);
    MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_UINT64_T, MPI_MAX, suite->comm);
    test_case(suite, names_choice && low == high, "every rank picks the same methods %s", name);

    int64_t in_shape[DISTFFT_MAX_DIMS], in_start[DISTFFT_MAX_DIMS], out_shape[DISTFFT_MAX_DIMS];
    distfft_plan_input_block(tuned, in_shape, in_start);
    distfft_plan_output_block(tuned, out_shape, NULL);
    int64_t in_count = test_product(ndims, in_shape), out_count = test_product(ndims, out_shape);
    double complex *input = distfft_malloc(16 * (in_count + 1));
    double complex *first = distfft_malloc(16 * (out_count + 1));
    double complex *second = distfft_malloc(16 * (out_count + 1));
    test_fill(DISTFFT_COMPLEX_DOUBLE, ndims, shape, in_shape, in_start, 1, 0, input);
    int rc = distfft_plan_execute(tuned, input, first, DISTFFT_FORWARD);
    if (rc == DISTFFT_SUCCESS) rc = distfft_plan_execute(paper, input, second, DISTFFT_FORWARD);
    double error = test_max_abs_diff(out_count, first, second);
    double largest = test_max_abs(out_count, second);
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, suite->comm);
    MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_DOUBLE, MPI_MAX, suite->comm);
    test_case(suite, rc == DISTFFT_SUCCESS &&
                     error <= test_tolerance(DISTFFT_DOUBLE, test_product(ndims, shape)) * largest,
              "auto plan agrees with alltoallw %s", name);
    distfft_free(input);
    distfft_free(first);
    distfft_free(second);
    distfft_plan_destroy(&tuned);
    distfft_plan_destroy(&paper);
}

/* Estimate mode: no measurement, the paper's method. */
static void check_estimate(test_suite *suite)
{
    int64_t shape[3] = {6, 7, 5};
    distfft_plan plan = make_plan(suite->comm, 3, shape, 2, DISTFFT_METHOD_AUTO, DISTFFT_ESTIMATE);
    char text[2048] = "";
    if (plan) distfft_plan_describe(plan, text, sizeof text);
    int size;
    MPI_Comm_size(suite->comm, &size);
    int ok = plan && strstr(text, "(tuning ") == NULL &&
             (size == 1 || strstr(text, "redist alltoallw") != NULL);
    test_case(suite, ok, "estimate mode takes alltoallw without measuring");
    distfft_plan_destroy(&plan);
}

/* The public redistribution with auto moves data exactly. */
static void check_redist(test_suite *suite)
{
    int64_t global[3] = {5, 7, 11};
    int size, rank;
    MPI_Comm_size(suite->comm, &size);
    MPI_Comm_rank(suite->comm, &rank);
    int64_t in_shape[3] = {5, 0, 11}, in_start[3] = {0, 0, 0};
    int64_t out_shape[3] = {0, 7, 11}, out_start[3] = {0, 0, 0};
    distfft_decompose(global[1], size, rank, &in_shape[1], &in_start[1]);
    distfft_decompose(global[0], size, rank, &out_shape[0], &out_start[0]);
    distfft_redist redist = NULL;
    int rc = distfft_redist_create(suite->comm, DISTFFT_COMPLEX_FLOAT, 3, in_shape, 0, out_shape, 1,
                                   2, DISTFFT_METHOD_AUTO, &redist);
    size_t in_bytes = 2 * 8 * test_product(3, in_shape) + 8, out_bytes = 2 * 8 * test_product(3, out_shape) + 8;
    void *in = malloc(in_bytes), *out = malloc(out_bytes);
    test_fill(DISTFFT_COMPLEX_FLOAT, 3, global, in_shape, in_start, 2, 1, in);
    if (rc == DISTFFT_SUCCESS) rc = distfft_redist_execute(redist, in, out);
    int64_t wrong = rc == DISTFFT_SUCCESS
        ? test_check_exact(DISTFFT_COMPLEX_FLOAT, 3, global, out_shape, out_start, 2, out, NULL, 0) : 1;
    test_case(suite, rc == DISTFFT_SUCCESS && wrong == 0, "distfft_redist_create with auto");
    free(in);
    free(out);
    distfft_redist_destroy(&redist);

    distfft_method method;
    test_case(suite, distfft_method_from_name("auto", &method) == DISTFFT_SUCCESS &&
                     method == DISTFFT_METHOD_AUTO &&
                     strcmp(distfft_method_name(DISTFFT_METHOD_AUTO), "auto") == 0,
              "the name auto");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite suite;
    test_suite_init(&suite, "test_auto", MPI_COMM_WORLD);
    int64_t cube[3] = {12, 10, 9}, prime[3] = {5, 7, 11}, four[4] = {4, 6, 5, 3};
    check_plan(&suite, 3, cube, 1);
    check_plan(&suite, 3, prime, 2);
    check_plan(&suite, 4, four, 3);
    check_estimate(&suite);
    check_redist(&suite);
    int status = test_suite_finish(&suite);
    MPI_Finalize();
    return status;
}
