/*
 * test_concurrent.c -- several threads of one rank (MPI_THREAD_MULTIPLE):
 * what distfft promises and what it refuses (include/distfft.h, "Threads").
 *
 *  1. Promised: threads executing DIFFERENT plans at the same time (and a
 *     redistribution beside them), each plan made by the main thread: the
 *     results are bit-identical to the same plans executed one after the
 *     other (options.threads = 1, so deterministic).
 *  2. Refused: a plan creation that starts while another thread of the
 *     process is inside plan creation or destruction returns
 *     DISTFFT_ERR_UNSUPPORTED on every rank of its communicator (FFTW's
 *     planner is not thread-safe); nothing hangs, and the plan being made
 *     by the other thread is unaffected or refused alike on every rank.
 * Without MPI_THREAD_MULTIPLE the program says so and passes.
 * The race-detector build (build-tsan/, scripts/test --long) runs it too.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "distfft.h"

static int me, P, failures;

static void check(int ok, const char *what)
{
    int all = ok;
    MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all) failures++;
    if (me == 0) printf("%s %s\n", all ? "ok  " : "FAIL", what);
}

typedef struct {
    distfft_plan plan;
    double *in, *out, *back;
    size_t n_in, n_out;
    int rounds, rc;
} job;

static int64_t product(int n, const int64_t *shape)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++) p *= shape[i];
    return p;
}

static void make_job(job *j, MPI_Comm comm, const int64_t *shape, distfft_method method)
{
    memset(j, 0, sizeof *j);
    distfft_options o;
    distfft_options_init(&o);
    o.rigor = DISTFFT_ESTIMATE;
    o.method = method;
    j->rc = distfft_plan_create(comm, 3, shape, DISTFFT_DOUBLE, &o, &j->plan);
    if (j->rc) return;
    int64_t in_shape[3], out_shape[3];
    distfft_plan_input_block(j->plan, in_shape, NULL);
    distfft_plan_output_block(j->plan, out_shape, NULL);
    j->n_in = 2 * (size_t)product(3, in_shape);   /* complex doubles */
    j->n_out = 2 * (size_t)product(3, out_shape);
    j->in = distfft_malloc((j->n_in + 1) * sizeof(double));
    j->back = distfft_malloc((j->n_in + 1) * sizeof(double));
    j->out = distfft_malloc((j->n_out + 1) * sizeof(double));
    for (size_t k = 0; k < j->n_in; k++) j->in[k] = (double)((k * 7919 + (size_t)me * 31) % 1000);
    j->rounds = 20;
}

static void *run_job(void *arg)
{
    job *j = arg;
    for (int r = 0; r < j->rounds && !j->rc; r++) {
        j->rc = distfft_plan_execute(j->plan, j->in, j->out, DISTFFT_FORWARD);
        if (!j->rc) j->rc = distfft_plan_execute(j->plan, j->out, j->back, DISTFFT_BACKWARD);
    }
    return NULL;
}

static void free_job(job *j)
{
    distfft_plan_destroy(&j->plan);
    distfft_free(j->in);
    distfft_free(j->out);
    distfft_free(j->back);
}

/* 1. two threads, two plans (on two duplicates of the world) */
static void concurrent_execution(void)
{
    const int64_t shape_a[3] = {12, 10, 8}, shape_b[3] = {9, 14, 6};
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    job jobs[2], alone[2];
    make_job(&jobs[0], a, shape_a, DISTFFT_METHOD_ALLTOALLW);
    make_job(&jobs[1], b, shape_b, DISTFFT_METHOD_ISEND_WAITALL);
    make_job(&alone[0], a, shape_a, DISTFFT_METHOD_ALLTOALLW);
    make_job(&alone[1], b, shape_b, DISTFFT_METHOD_ISEND_WAITALL);
    int made = !jobs[0].rc && !jobs[1].rc && !alone[0].rc && !alone[1].rc;
    check(made, "four plans made by the main thread");
    if (made) {
        alone[0].rounds = alone[1].rounds = 1;
        run_job(&alone[0]);
        run_job(&alone[1]);
        pthread_t threads[2];
        for (int t = 0; t < 2; t++) pthread_create(&threads[t], NULL, run_job, &jobs[t]);
        for (int t = 0; t < 2; t++) pthread_join(threads[t], NULL);
        int ok = !jobs[0].rc && !jobs[1].rc && !alone[0].rc && !alone[1].rc;
        for (int t = 0; ok && t < 2; t++)
            ok = !memcmp(jobs[t].out, alone[t].out, jobs[t].n_out * sizeof(double)) &&
                 !memcmp(jobs[t].back, alone[t].back, jobs[t].n_in * sizeof(double));
        check(ok, "two threads execute two plans at once, 20 rounds each: "
                  "bit-identical to one after the other");
    }
    for (int t = 0; t < 2; t++) {
        free_job(&jobs[t]);
        free_job(&alone[t]);
    }
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
}

typedef struct {
    MPI_Comm comm;
    double delay;
    int rc;
    distfft_plan plan;
} creation;

static void *create_later(void *arg)
{
    creation *c = arg;
    struct timespec pause = {(time_t)c->delay, (long)((c->delay - (time_t)c->delay) * 1e9)};
    nanosleep(&pause, NULL);
    const int64_t shape[3] = {8, 8, 8};
    distfft_options o;
    distfft_options_init(&o);
    o.rigor = DISTFFT_ESTIMATE;
    o.method = DISTFFT_METHOD_ALLTOALLW;
    c->rc = distfft_plan_create(c->comm, 3, shape, DISTFFT_DOUBLE, &o, &c->plan);
    return NULL;
}

/* 2. Rank 0's first thread is inside plan creation on comm A (waiting in
 * the agreement for the last rank, whose thread starts 1 s late) when its
 * second thread starts a creation on comm B: that one is refused. */
static void concurrent_creation(void)
{
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    creation first = {.comm = a, .delay = me == P - 1 ? 1.0 : 0.0},
             second = {.comm = b, .delay = 0.3};
    pthread_t threads[2];
    pthread_create(&threads[0], NULL, create_later, &first);
    pthread_create(&threads[1], NULL, create_later, &second);
    for (int t = 0; t < 2; t++) pthread_join(threads[t], NULL);
    int codes[2] = {first.rc, second.rc}, low[2], high[2];
    MPI_Allreduce(codes, low, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(codes, high, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    check(low[1] == DISTFFT_ERR_UNSUPPORTED && high[1] == DISTFFT_ERR_UNSUPPORTED && !second.plan,
          "a creation starting while another thread creates a plan: refused on every rank "
          "(DISTFFT_ERR_UNSUPPORTED)");
    check(low[0] == high[0] && (first.rc == DISTFFT_SUCCESS) == (first.plan != NULL),
          "the other creation: the same outcome on every rank");
    distfft_plan_destroy(&first.plan);
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (me == 0) printf("test_concurrent: MPI gives no MPI_THREAD_MULTIPLE; nothing to check\n");
        MPI_Finalize();
        return 0;
    }
    concurrent_execution();
    concurrent_creation();
    if (me == 0) printf("test_concurrent: %s (%d ranks)\n", failures ? "FAIL" : "ok", P);
    MPI_Finalize();
    return failures ? 1 : 0;
}
