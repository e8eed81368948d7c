/*
 * test_handles.c -- every MPI object distfft creates is freed by destroy,
 * for every redistribution method and several grids, halo exchanges of
 * both variants, and by failing calls.
 *
 * Linked with tests/support/mpi_handle_counter.c (PMPI wrappers) and the
 * STATIC library, so each MPI_Comm_dup, MPI_Type_create_subarray, MPI_Isend
 * ... that distfft makes is counted. After each create / execute / destroy
 * cycle the counts of live communicators, datatypes, groups and requests
 * (and windows: the shm method's shared ones) must be back to zero on
 * every rank, and the cycle must have created
 * something (so a counter that sees nothing cannot pass).
 * --quick (busy-polling MPIs, oversubscribed): no 4-D plans.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distfft.h"
#include "mpi_handle_counter.h"

static int me, P, failures, cases;

/* One case: nothing may be left, and something must have been made. */
static void check_clean(const mpi_handle_counts *before, int expect_created,
                        int call_ok, const char *name)
{
    mpi_handle_counts now = mpi_handle_counts_now();
    long left[5] = {now.comms - before->comms,
                    now.datatypes - before->datatypes,
                    now.groups - before->groups,
                    now.requests - before->requests,
                    now.windows - before->windows};
    long made = now.created - before->created;
    int ok = left[0] == 0 && left[1] == 0 && left[2] == 0 && left[3] == 0 &&
             left[4] == 0 && (!expect_created || made > 0) && call_ok;
    if (!ok)
        fprintf(stderr, "[rank %d] %s: left %ld comms, %ld datatypes, %ld "
                "groups, %ld requests, %ld windows (%ld objects created); "
                "call %s\n", me, name, left[0], left[1], left[2], left[3],
                left[4], made, call_ok ? "behaved" : "failed");
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    cases++;
    if (!all) failures++;
    if (me == 0) printf("%s %s\n", all ? "ok  " : "FAIL", name);
}

static void *zeros(size_t bytes)
{
    void *p = distfft_malloc(bytes ? bytes : 1);
    if (!p) abort();
    memset(p, 0, bytes ? bytes : 1);
    return p;
}

static int64_t product(int n, const int64_t *shape)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++) p *= shape[i];
    return p;
}

/* Create a plan, run it both ways, destroy it. */
static void plan_cycle_placed(int ndims, const int64_t *shape, int grid_ndims,
                              distfft_kind last_kind, int64_t batch,
                              distfft_method method,
                              distfft_placement placement, int node_size,
                              const char *name)
{
    mpi_handle_counts before = mpi_handle_counts_now();
    distfft_options o;
    distfft_options_init(&o);
    o.grid_ndims = grid_ndims;
    o.method = method;
    o.batch = batch;
    o.kinds[ndims - 1] = last_kind;
    o.placement = placement;
    o.node_size = node_size;
    /* "auto" measures only when FFTW does; keep FFTW planning cheap else */
    o.rigor = method == DISTFFT_METHOD_AUTO ? DISTFFT_MEASURE
                                            : DISTFFT_ESTIMATE;
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(MPI_COMM_WORLD, ndims, shape, DISTFFT_DOUBLE,
                                 &o, &plan);
    int ok = rc == DISTFFT_SUCCESS;
    if (ok) {
        int64_t in_shape[DISTFFT_MAX_DIMS], out_shape[DISTFFT_MAX_DIMS];
        distfft_type in_type, out_type;
        distfft_plan_input_block(plan, in_shape, NULL);
        distfft_plan_output_block(plan, out_shape, NULL);
        distfft_plan_types(plan, &in_type, &out_type);
        size_t in_bytes = (size_t)(batch * product(ndims, in_shape)) *
                          distfft_type_size(in_type);
        size_t out_bytes = (size_t)(batch * product(ndims, out_shape)) *
                           distfft_type_size(out_type);
        void *x = zeros(in_bytes), *y = zeros(out_bytes);
        ok = distfft_plan_execute(plan, x, y, DISTFFT_FORWARD) == DISTFFT_SUCCESS &&
             distfft_plan_execute(plan, y, x, DISTFFT_BACKWARD) == DISTFFT_SUCCESS;
        distfft_free(x);
        distfft_free(y);
        ok = distfft_plan_destroy(&plan) == DISTFFT_SUCCESS && ok;
    }
    if (!ok)
        fprintf(stderr, "[rank %d] %s: %s\n", me, name, distfft_last_error());
    check_clean(&before, 1, ok, name);
}

static void plan_cycle(int ndims, const int64_t *shape, int grid_ndims,
                       distfft_kind last_kind, int64_t batch,
                       distfft_method method, const char *name)
{
    plan_cycle_placed(ndims, shape, grid_ndims, last_kind, batch, method,
                      DISTFFT_PLACEMENT_ROW, 0, name);
}

/* A redistribution n0 x n1 x 5 from alignment 1 to 0 on MPI_COMM_WORLD. */
static void redist_cycle(int64_t n0, int64_t n1, distfft_method method,
                         const char *name)
{
    mpi_handle_counts before = mpi_handle_counts_now();
    int64_t in_shape[3] = {n0, n1, 5}, out_shape[3] = {n0, n1, 5};
    distfft_decompose(n0, P, me, &in_shape[0], NULL);
    distfft_decompose(n1, P, me, &out_shape[1], NULL);
    distfft_redist redist = NULL;
    int rc = distfft_redist_create(MPI_COMM_WORLD, DISTFFT_COMPLEX_FLOAT, 3,
                                   in_shape, 1, out_shape, 0, 2, method,
                                   &redist);
    if (rc == DISTFFT_SUCCESS) {
        size_t element = distfft_type_size(DISTFFT_COMPLEX_FLOAT);
        void *in = zeros(2 * (size_t)product(3, in_shape) * element);
        void *out = zeros(2 * (size_t)product(3, out_shape) * element);
        rc = distfft_redist_execute(redist, in, out);
        distfft_free(in);
        distfft_free(out);
        int destroyed = distfft_redist_destroy(&redist);
        if (rc == DISTFFT_SUCCESS) rc = destroyed;
    }
    if (rc != DISTFFT_SUCCESS)
        fprintf(stderr, "[rank %d] %s: %s\n", me, name, distfft_last_error());
    check_clean(&before, 1, rc == DISTFFT_SUCCESS, name);
}

/* Distinct chunk lengths of n points in P blocks (distfft_decompose). */
static int distinct_lengths(int64_t n)
{
    int64_t seen[2] = {-1, -1};
    int count = 0;
    for (int p = 0; p < P; p++) {
        int64_t length;
        distfft_decompose(n, P, p, &length, NULL);
        if (length > 0 && length != seen[0] && length != seen[1] && count < 2)
            seen[count++] = length;
    }
    return count;
}

/* alltoallw holds one datatype per distinct chunk length, its shifts in
 * the displacements (2 to 4 per exchange, not 2P), unless a shift exceeds
 * the message limit: then one per chunk, as in the paper. */
static void alltoallw_datatypes(const char *limit, const char *name)
{
    if (limit) setenv("DISTFFT_MAX_MESSAGE", limit, 1);
    mpi_handle_counts before = mpi_handle_counts_now();
    int64_t n0 = 3 * P + 1, n1 = 2 * P;        /* receive: 2 lengths, send: 1 */
    int64_t in_shape[3] = {n0, n1, 5}, out_shape[3] = {n0, n1, 5};
    distfft_decompose(n0, P, me, &in_shape[0], NULL);
    distfft_decompose(n1, P, me, &out_shape[1], NULL);
    distfft_redist redist = NULL;
    int rc = distfft_redist_create(MPI_COMM_WORLD, DISTFFT_COMPLEX_FLOAT, 3, in_shape, 1,
                                   out_shape, 0, 2, DISTFFT_METHOD_ALLTOALLW, &redist);
    long held = mpi_handle_counts_now().datatypes - before.datatypes;
    long expected = limit ? 2L * P : distinct_lengths(n1) + distinct_lengths(n0);
    if (held != expected)
        fprintf(stderr, "[rank %d] %s: %ld datatypes held, expected %ld\n", me, name, held,
                expected);
    int destroyed = distfft_redist_destroy(&redist);
    if (limit) unsetenv("DISTFFT_MAX_MESSAGE");
    check_clean(&before, 1, rc == DISTFFT_SUCCESS && destroyed == DISTFFT_SUCCESS &&
                                held == expected, name);
}

/* A halo exchange (3-D, 2 fields, wide periodic halos) of either variant,
 * and a failing create. */
static void halo_cycle(distfft_halo_variant variant, const char *name)
{
    mpi_handle_counts before = mpi_handle_counts_now();
    const int64_t shape[3] = {7, 5, 4}, low[3] = {2, 1, 1}, high[3] = {1, 3, 1};
    const int periodic[3] = {1, 1, 0};
    int64_t local[3] = {7, 5, 4}, start[3] = {0, 0, 0};
    distfft_decompose(7, P, me, &local[0], &start[0]);
    distfft_halo halo = NULL;
    distfft_layout layout = NULL;
    int rc = distfft_layout_from_box(MPI_COMM_WORLD, 3, shape, start, local, &layout);
    if (rc == DISTFFT_SUCCESS)
        rc = distfft_layout_halo_create(layout, DISTFFT_COMPLEX_FLOAT, low, high, periodic, 2, variant, &halo);
    if (layout) {
        int destroyed = distfft_layout_destroy(&layout);
        if (rc == DISTFFT_SUCCESS) rc = destroyed;
    }
    if (rc == DISTFFT_SUCCESS) {
        int64_t count = distfft_halo_padded_block(halo, NULL, NULL);
        void *array = zeros((size_t)count * distfft_type_size(DISTFFT_COMPLEX_FLOAT));
        rc = distfft_halo_execute(halo, array);
        distfft_free(array);
        int destroyed = distfft_halo_destroy(&halo);
        if (rc == DISTFFT_SUCCESS) rc = destroyed;
    }
    if (rc != DISTFFT_SUCCESS)
        fprintf(stderr, "[rank %d] %s: %s\n", me, name, distfft_last_error());
    check_clean(&before, 1, rc == DISTFFT_SUCCESS, name);

    /* a padded extent past INT_MAX: datatypes refuse it after the agreement
     * (pack would allocate it) */
    if (variant != DISTFFT_HALO_DATATYPES) return;
    before = mpi_handle_counts_now();
    const int64_t wide[3] = {(int64_t)1 << 31, 1, 1};
    rc = distfft_layout_from_box(MPI_COMM_WORLD, 3, shape, start, local, &layout);
    if (rc == DISTFFT_SUCCESS)
        rc = distfft_layout_halo_create(layout, DISTFFT_COMPLEX_FLOAT, wide, high, periodic, 2, variant, &halo);
    int refused = rc == DISTFFT_ERR_UNSUPPORTED && !halo;
    if (halo) distfft_halo_destroy(&halo);
    if (layout) distfft_layout_destroy(&layout);
    check_clean(&before, 1, refused, "halo create failing: extent past INT_MAX");
}

/* Calls that fail after the library made its own objects. */
static void failing_calls(void)
{
    mpi_handle_counts before = mpi_handle_counts_now();
    const int64_t zero[3] = {8, 0, 6}, good[3] = {8, 8, 6};
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(MPI_COMM_WORLD, 3, zero, DISTFFT_DOUBLE, NULL, &plan);
    check_clean(&before, 1, rc != DISTFFT_SUCCESS, "plan_create failing: 0 extent");

    before = mpi_handle_counts_now();
    distfft_options o;
    distfft_options_init(&o);
    o.grid_ndims = 2;
    o.grid_dims[0] = P + 1;
    o.grid_dims[1] = 1;
    rc = distfft_plan_create(MPI_COMM_WORLD, 3, good, DISTFFT_DOUBLE, &o, &plan);
    check_clean(&before, 1, rc != DISTFFT_SUCCESS, "plan_create failing: grid does not fit");

    if (P > 1) {
        before = mpi_handle_counts_now();
        const int64_t other[3] = {8, 9, 6};
        rc = distfft_plan_create(MPI_COMM_WORLD, 3,
                                 me == P - 1 ? other : good, DISTFFT_DOUBLE,
                                 NULL, &plan);
        check_clean(&before, 1, rc != DISTFFT_SUCCESS, "plan_create failing: shape differs");
    }

    before = mpi_handle_counts_now();
    int dims[1] = {P + 1};
    distfft_grid grid = NULL;
    rc = distfft_grid_create(MPI_COMM_WORLD, 1, dims, &grid);
    check_clean(&before, 1, rc != DISTFFT_SUCCESS, "grid_create failing: dims do not fit");

    before = mpi_handle_counts_now();
    int64_t shape[3] = {8, 6, 5};
    distfft_redist redist = NULL;
    rc = distfft_redist_create(MPI_COMM_WORLD, DISTFFT_REAL_DOUBLE, 3, shape,
                               1, shape, 1, 1, DISTFFT_METHOD_ALLTOALLW,
                               &redist);
    check_clean(&before, 1, rc != DISTFFT_SUCCESS, "redist_create failing: axis_in == axis_out");

    /* Failing executions must not start anything either. */
    o.grid_ndims = 1;
    o.grid_dims[0] = 0;
    o.rigor = DISTFFT_ESTIMATE;
    if (distfft_plan_create(MPI_COMM_WORLD, 3, good, DISTFFT_DOUBLE, &o,
                            &plan) == DISTFFT_SUCCESS) {
        before = mpi_handle_counts_now();
        rc = distfft_plan_execute(plan, NULL, NULL, DISTFFT_FORWARD);
        check_clean(&before, 0, rc != DISTFFT_SUCCESS,
                    "plan_execute failing: NULL buffers");
        distfft_plan_destroy(&plan);
    }
}

/* The counter itself: objects made here are seen while live, and gone
 * once freed or completed. */
static void counter_works(void)
{
    mpi_handle_counts before = mpi_handle_counts_now();
    MPI_Comm comm;
    MPI_Datatype type;
    MPI_Request requests[2];
    MPI_Win window;
    double *slice = NULL;
    int value = me, got = -1;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Type_contiguous(2, MPI_INT, &type);
    MPI_Irecv(&got, 1, MPI_INT, me, 0, comm, &requests[0]);
    MPI_Isend(&value, 1, MPI_INT, me, 0, comm, &requests[1]);
    MPI_Win_allocate_shared(sizeof(double), sizeof(double), MPI_INFO_NULL,
                            MPI_COMM_SELF, &slice, &window);
    mpi_handle_counts live = mpi_handle_counts_now();
    int seen = live.comms - before.comms == 1 &&
               live.datatypes - before.datatypes == 1 &&
               live.requests - before.requests == 2 &&
               live.windows - before.windows == 1;
    MPI_Status statuses[2]; /* MPI_STATUSES_IGNORE: GCC warns with MPICH */
    MPI_Waitall(2, requests, statuses);
    MPI_Win_free(&window);
    MPI_Type_free(&type);
    MPI_Comm_free(&comm);
    check_clean(&before, 1, seen && got == me,
                "the counter sees a comm, a datatype, two requests and a "
                "shared window");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    char name[160];
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;

    counter_works();
    mpi_handle_counts start = mpi_handle_counts_now();
    for (int m = 0; distfft_method_name((distfft_method)m); m++) {
        distfft_method method = (distfft_method)m;
        const char *method_name = distfft_method_name(method);
        if (method == DISTFFT_METHOD_STAGED || method == DISTFFT_METHOD_NCCL || method == DISTFFT_METHOD_CUDA_IPC)
            continue; /* device memory only */
        /* vector needs equal blocks: shapes divisible on 1-4 ranks */
        int vector = method == DISTFFT_METHOD_VECTOR;
        const int64_t shape3[3] = {8, 6, 5}, shape4[4] = {4, 6, 3, 5},
                      even3[3] = {12, 12, 10}, even4[4] = {12, 12, 6, 10};
        snprintf(name, sizeof name, "%s: c2c slab", method_name);
        plan_cycle(3, vector ? even3 : shape3, 1, DISTFFT_C2C, 1, method, name);
        snprintf(name, sizeof name, "%s: r2c pencil", method_name);
        plan_cycle(3, vector ? even3 : shape3, 2, DISTFFT_R2C, 1, method, name);
        snprintf(name, sizeof name, "%s: r2c 4-D on a 3-D grid, batch 2",
                 method_name);
        if (!quick)
            plan_cycle(4, vector ? even4 : shape4, 3, DISTFFT_R2C, 2, method, name);
        snprintf(name, sizeof name, "%s: redistribution, batch 2",
                 method_name);
        redist_cycle(vector ? 12 : 8, vector ? 12 : 6, method, name);
    }
    if (P > 1) { /* refused on unequal blocks, after making communicators */
        mpi_handle_counts before = mpi_handle_counts_now();
        const int64_t odd[3] = {7, 6, 5};
        distfft_options o;
        distfft_options_init(&o);
        o.grid_ndims = 1;
        o.method = DISTFFT_METHOD_VECTOR;
        o.rigor = DISTFFT_ESTIMATE;
        distfft_plan plan = NULL;
        int rc = distfft_plan_create(MPI_COMM_WORLD, 3, odd, DISTFFT_DOUBLE, &o, &plan);
        check_clean(&before, 1, rc == DISTFFT_ERR_UNSUPPORTED && !plan,
                    "vector: plan refused on unequal blocks");
    }

    alltoallw_datatypes(NULL, "alltoallw: one datatype per chunk length");
    alltoallw_datatypes("7", "alltoallw: one datatype per chunk beyond the message limit");

    /* Rank placements other than row order make communicators of their own. */
    const int64_t shape3[3] = {8, 6, 5};
    plan_cycle_placed(3, shape3, 2, DISTFFT_C2C, 1, DISTFFT_METHOD_ALLTOALLW,
                      DISTFFT_PLACEMENT_MORTON, 0, "placement morton: pencil");
    plan_cycle_placed(3, shape3, 2, DISTFFT_C2C, 1, DISTFFT_METHOD_ALLTOALLW,
                      DISTFFT_PLACEMENT_NODE, 0,
                      "placement node (found by MPI): pencil");
    plan_cycle_placed(3, shape3, 2, DISTFFT_C2C, 1, DISTFFT_METHOD_ALLTOALLW,
                      DISTFFT_PLACEMENT_NODE, 2,
                      "placement node (nodes of 2 ranks): pencil");
    /* The node-aware methods on pretended nodes (windows, node maps). */
    for (int size = 1; size <= 3; size++) {
        snprintf(name, sizeof name, "shm: pencil, nodes of %d ranks", size);
        plan_cycle_placed(3, shape3, 2, DISTFFT_C2C, 1, DISTFFT_METHOD_SHM,
                          DISTFFT_PLACEMENT_ROW, size, name);
        snprintf(name, sizeof name, "hierarchical: slab, nodes of %d ranks",
                 size);
        plan_cycle_placed(3, shape3, 1, DISTFFT_C2C, 1,
                          DISTFFT_METHOD_HIERARCHICAL, DISTFFT_PLACEMENT_NODE,
                          size, name);
    }

    mpi_handle_counts before = mpi_handle_counts_now();
    distfft_grid grid = NULL;
    int ok = distfft_grid_create(MPI_COMM_WORLD, 2, NULL, &grid) ==
             DISTFFT_SUCCESS;
    ok = ok && distfft_grid_destroy(&grid) == DISTFFT_SUCCESS;
    check_clean(&before, 1, ok, "grid create/destroy");

    before = mpi_handle_counts_now();
    const int64_t global[2] = {P, 3};
    int64_t local_shape[2] = {1, 3}, start_at[2] = {me, 0};
    double local[3] = {1, 2, 3}, *all = zeros(3 * (size_t)P * sizeof(double));
    distfft_layout rows = NULL;
    ok = distfft_layout_from_box(MPI_COMM_WORLD, 2, global, start_at, local_shape, &rows) == DISTFFT_SUCCESS &&
         distfft_layout_gather(rows, DISTFFT_REAL_DOUBLE, 1, local, 0, all) == DISTFFT_SUCCESS &&
         distfft_layout_scatter(rows, DISTFFT_REAL_DOUBLE, 1, all, 0, local) == DISTFFT_SUCCESS;
    ok = distfft_layout_destroy(&rows) == DISTFFT_SUCCESS && ok;
    distfft_free(all);
    check_clean(&before, 1, ok, "gather and scatter");

    failing_calls();
    halo_cycle(DISTFFT_HALO_DATATYPES, "halo datatypes: create, execute, destroy");
    halo_cycle(DISTFFT_HALO_PACK, "halo pack: create, execute, destroy");

    /* And over the whole run. */
    check_clean(&start, 1, 1, "whole run");
    if (me == 0)
        printf("test_handles: %d passed, %d failed\n", cases - failures,
               failures);
    MPI_Finalize();
    return failures ? 1 : 0;
}
