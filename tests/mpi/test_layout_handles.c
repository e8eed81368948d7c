/*
 * test_layout_handles.c -- every MPI object that layouts, reshapes and
 * plans in layouts create is freed by the matching destroy, and failing
 * calls leave nothing behind (issue 22; as test_handles.c does for plans,
 * redistributions and halos). Linked with tests/support/mpi_handle_counter.c
 * (PMPI wrappers) and the static library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distfft.h"
#include "mpi_handle_counter.h"

static int me, P, failures;

static void check_clean(const mpi_handle_counts *before, int call_ok, const char *name)
{
    mpi_handle_counts now = mpi_handle_counts_now();
    int ok = call_ok && now.comms == before->comms && now.datatypes == before->datatypes &&
             now.groups == before->groups && now.requests == before->requests && now.windows == before->windows &&
             now.created > before->created;
    if (!ok)
        fprintf(stderr, "[rank %d] %s: left %ld comms, %ld datatypes, %ld requests; call %s\n", me, name,
                now.comms - before->comms, now.datatypes - before->datatypes, now.requests - before->requests,
                call_ok ? "behaved" : "failed");
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all) failures++;
    if (me == 0) printf("%s %s\n", all ? "ok  " : "FAIL", name);
}

static void slabs(const int64_t *n, int axis, int64_t *start, int64_t *shape)
{
    for (int a = 0; a < 3; a++) {
        start[a] = 0;
        shape[a] = n[a];
    }
    distfft_decompose(n[axis], P, me, &shape[axis], &start[axis]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    const int64_t n[3] = {6, 5, 4};
    int64_t s0[3], n0[3], s1[3], n1[3];
    slabs(n, 0, s0, n0);
    slabs(n, 1, s1, n1);

    mpi_handle_counts before = mpi_handle_counts_now();
    distfft_layout a = NULL, b = NULL;
    int ok = !distfft_layout_from_box(MPI_COMM_WORLD, 3, n, s0, n0, &a) &&
             !distfft_layout_from_box(MPI_COMM_WORLD, 3, n, s1, n1, &b);
    distfft_layout copy = NULL;
    int64_t whole_start[3] = {0, 0, 0};
    ok = ok && !distfft_layout_destroy(&a) && !distfft_layout_destroy(&b);
    check_clean(&before, ok, "layouts made and destroyed");

    before = mpi_handle_counts_now();
    int rc = distfft_layout_from_box(MPI_COMM_WORLD, 3, n, whole_start, n, &copy); /* every rank: all */
    check_clean(&before, P == 1 ? rc == 0 && !distfft_layout_destroy(&copy) : rc == DISTFFT_ERR_SHAPE && !copy,
                "layout failing: boxes overlap");

    distfft_layout_from_box(MPI_COMM_WORLD, 3, n, s0, n0, &a);
    distfft_layout_from_box(MPI_COMM_WORLD, 3, n, s1, n1, &b);
    double _Complex *x = calloc(120, sizeof *x), *y = calloc(120, sizeof *y);
    distfft_method methods[] = {DISTFFT_METHOD_ALLTOALLW, DISTFFT_METHOD_ALLTOALLV, DISTFFT_METHOD_ISEND_WAITALL,
                                DISTFFT_METHOD_AUTO};
    for (int m = 0; m < 4; m++) {
        before = mpi_handle_counts_now();
        distfft_reshape_options options;
        distfft_reshape_options_init(&options);
        options.method = methods[m];
        distfft_reshape reshape = NULL;
        ok = !distfft_reshape_create(a, b, DISTFFT_COMPLEX_DOUBLE, 1, &options, &reshape) &&
             !distfft_reshape_execute(reshape, x, y, DISTFFT_FORWARD) && !distfft_reshape_execute(reshape, y, x, DISTFFT_BACKWARD) &&
             !distfft_reshape_destroy(&reshape);
        char name[64];
        snprintf(name, sizeof name, "reshape %s", distfft_method_name(methods[m]));
        check_clean(&before, ok, name);
    }

    before = mpi_handle_counts_now();
    distfft_options options;
    distfft_options_init(&options);
    options.rigor = DISTFFT_ESTIMATE;
    distfft_plan plan = NULL;
    ok = !distfft_plan_create_layouts(MPI_COMM_WORLD, 3, n, DISTFFT_DOUBLE, &options, b, a, &plan) &&
         !distfft_plan_execute(plan, x, y, DISTFFT_FORWARD) && !distfft_plan_execute(plan, y, x, DISTFFT_BACKWARD) && !distfft_plan_destroy(&plan);
    check_clean(&before, ok, "plan in layouts");

    before = mpi_handle_counts_now();
    const int64_t other[3] = {6, 5, 5};
    rc = distfft_plan_create_layouts(MPI_COMM_WORLD, 3, other, DISTFFT_DOUBLE, &options, a, NULL, &plan);
    check_clean(&before, rc == DISTFFT_ERR_SHAPE && !plan, "plan in layouts failing: layout of another shape");

    distfft_layout_destroy(&a);
    distfft_layout_destroy(&b);
    free(x);
    free(y);
    if (me == 0) printf("test_layout_handles: %d failed (%d ranks)\n", failures, P);
    MPI_Finalize();
    return failures ? 1 : 0;
}
