/*
 * test_placement.c -- rank placement on the process grid: names; node-aware
 * placement with a pretended node size keeps the busy direction's
 * sub-communicators inside nodes; Morton order on a 2x4 grid; every
 * placement is a bijection; plans placed row-major, in Morton order and
 * node-aware compute the same transform.
 *
 *   mpiexec -n 8 test_placement
 */
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

/* Every member of the busy direction's group is on this rank's pretended
 * node (world rank / node_size). */
static int group_in_node(MPI_Comm subcomm, int rank, int node_size)
{
    int members, node = rank / node_size, low, high;
    MPI_Comm_size(subcomm, &members);
    MPI_Allreduce(&node, &low, 1, MPI_INT, MPI_MIN, subcomm);
    MPI_Allreduce(&node, &high, 1, MPI_INT, MPI_MAX, subcomm);
    return low == high;
}

/* Grid positions are a bijection: no two ranks share coordinates. */
static int bijective(MPI_Comm comm, const distfft_grid grid, int ndims, const int *dims)
{
    int coords[DISTFFT_MAX_DIMS], size, index = 0;
    distfft_grid_coords(grid, coords);
    for (int i = 0; i < ndims; i++) index = index * dims[i] + coords[i];
    MPI_Comm_size(comm, &size);
    int *all = malloc(size * sizeof *all), *seen = calloc(size, sizeof *seen), ok = 1;
    MPI_Allgather(&index, 1, MPI_INT, all, 1, MPI_INT, comm);
    for (int p = 0; p < size; p++) {
        ok &= all[p] >= 0 && all[p] < size && !seen[all[p]];
        if (ok) seen[all[p]] = 1;
    }
    free(all);
    free(seen);
    return ok;
}

static void check_grids(test_suite *suite)
{
    int size = suite->size, rank = suite->rank;
    for (int a = 1; a <= size; a++) {
        if (size % a) continue;
        int dims[2] = {a, size / a};
        for (int busy = 0; busy < 2; busy++) {
            int node_size = dims[busy];
            distfft_grid grid = NULL;
            int rc = distfft_grid_create_placed(suite->comm, 2, dims, DISTFFT_PLACEMENT_NODE, node_size,
                                                busy, &grid);
            int ok = rc == DISTFFT_SUCCESS && bijective(suite->comm, grid, 2, dims) &&
                     group_in_node(distfft_grid_subcomm(grid, busy), rank, node_size);
            test_case(suite, ok, "node placement %dx%d, node size %d: P%d inside nodes",
                      dims[0], dims[1], node_size, busy);
            distfft_grid_destroy(&grid);
        }
        distfft_grid grid = NULL;
        int rc = distfft_grid_create_placed(suite->comm, 2, dims, DISTFFT_PLACEMENT_MORTON, 0, 0, &grid);
        test_case(suite, rc == DISTFFT_SUCCESS && bijective(suite->comm, grid, 2, dims),
                  "Morton placement %dx%d is a bijection", dims[0], dims[1]);
        if (rc == DISTFFT_SUCCESS && dims[0] == 2 && dims[1] == 4) {
            /* Codes interleave (c1 bit 0, c0 bit 0, c1 bit 1): rank k sits
             * where those bits spell k. */
            int coords[2];
            distfft_grid_coords(grid, coords);
            int expect0 = (rank >> 1) & 1, expect1 = (rank & 1) | (((rank >> 2) & 1) << 1);
            test_case(suite, coords[0] == expect0 && coords[1] == expect1, "Morton order on 2x4");
        }
        distfft_grid_destroy(&grid);
    }
    /* Real nodes (node_size 0): every rank of this machine is on one node. */
    int dims[1] = {size};
    distfft_grid grid = NULL;
    int rc = distfft_grid_create_placed(suite->comm, 1, dims, DISTFFT_PLACEMENT_NODE, 0, 0, &grid);
    test_case(suite, rc == DISTFFT_SUCCESS && bijective(suite->comm, grid, 1, dims),
              "node placement with nodes found by MPI_Comm_split_type");
    distfft_grid_destroy(&grid);
}

static void check_names(test_suite *suite)
{
    distfft_placement placement;
    int ok = 1;
    for (int p = DISTFFT_PLACEMENT_ROW; p <= DISTFFT_PLACEMENT_NODE; p++)
        ok &= distfft_placement_from_name(distfft_placement_name(p), &placement) == DISTFFT_SUCCESS &&
              placement == (distfft_placement)p;
    test_case(suite, ok, "placement names round trip");
    test_case(suite, distfft_placement_from_name("diagonal", &placement) == DISTFFT_ERR_ARGUMENT &&
                     strstr(distfft_last_error(), "diagonal") != NULL,
              "unknown placement name refused");
    distfft_grid grid = NULL;
    int dims[1] = {suite->size};
    int rc = distfft_grid_create_placed(suite->comm, 1, dims, (distfft_placement)7, 0, 0, &grid);
    test_case(suite, rc == DISTFFT_ERR_ARGUMENT && grid == NULL, "unknown placement value refused");
    rc = distfft_grid_create_placed(suite->comm, 1, dims, DISTFFT_PLACEMENT_NODE, -2, 0, &grid);
    test_case(suite, rc == DISTFFT_ERR_ARGUMENT && grid == NULL, "negative node size refused");
}

/* A plan's forward output, gathered on rank 0. */
static double complex *forward_gathered(test_suite *suite, const int64_t *shape, const int *dims,
                                        distfft_placement placement, int node_size)
{
    distfft_options options;
    distfft_options_init(&options);
    options.grid_ndims = 2;
    memcpy(options.grid_dims, dims, 2 * sizeof *dims);
    options.placement = placement;
    options.node_size = node_size;
    options.method = DISTFFT_METHOD_ALLTOALLW;
    options.rigor = DISTFFT_ESTIMATE;
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(suite->comm, 3, shape, DISTFFT_DOUBLE, &options, &plan);
    test_case(suite, rc == DISTFFT_SUCCESS, "plan with placement %s", distfft_placement_name(placement));
    if (rc != DISTFFT_SUCCESS) return NULL;
    int64_t in_shape[3], in_start[3], out_shape[3], out_start[3], out_global[3];
    distfft_plan_input_block(plan, in_shape, in_start);
    distfft_plan_output_block(plan, out_shape, out_start);
    distfft_plan_output_shape(plan, out_global);
    int busy = dims[0] > dims[1] ? 0 : 1; /* the larger extent; the last on ties */
    if (placement == DISTFFT_PLACEMENT_NODE && node_size == dims[busy]) {
        /* Ranks of one pretended node form a group of the busy direction:
         * they share their block along the other direction's axis. */
        int64_t mine = in_start[1 - busy], low, high;
        MPI_Comm node;
        MPI_Comm_split(suite->comm, suite->rank / node_size, suite->rank, &node);
        MPI_Allreduce(&mine, &low, 1, MPI_INT64_T, MPI_MIN, node);
        MPI_Allreduce(&mine, &high, 1, MPI_INT64_T, MPI_MAX, node);
        MPI_Comm_free(&node);
        test_case(suite, low == high, "node-aware plan keeps P%d (the busy direction) inside nodes", busy);
    }
    void *in = distfft_malloc(16 * (test_product(3, in_shape) + 1));
    void *out = distfft_malloc(16 * (test_product(3, out_shape) + 1));
    test_fill(DISTFFT_COMPLEX_DOUBLE, 3, shape, in_shape, in_start, 1, 0, in);
    rc = distfft_plan_execute(plan, in, out, DISTFFT_FORWARD);
    double complex *global = test_gather_double(suite->comm, DISTFFT_COMPLEX_DOUBLE, 3, out_global,
                                                out_shape, out_start, out, &rc);
    distfft_free(in);
    distfft_free(out);
    distfft_plan_destroy(&plan);
    return global;
}

static void check_plans(test_suite *suite)
{
    int size = suite->size, dims[2] = {size, 1};
    for (int a = 2; a * a <= size; a++)
        if (size % a == 0) dims[0] = size / a, dims[1] = a; /* largest extent first */
    int64_t shape[3] = {9, 8, 7};
    double complex *row = forward_gathered(suite, shape, dims, DISTFFT_PLACEMENT_ROW, 0);
    double complex *morton = forward_gathered(suite, shape, dims, DISTFFT_PLACEMENT_MORTON, 0);
    double complex *node = forward_gathered(suite, shape, dims, DISTFFT_PLACEMENT_NODE,
                                            dims[dims[0] > dims[1] ? 0 : 1]);
    int ok = 1;
    if (suite->rank == 0) {
        int64_t n = test_product(3, shape);
        double tolerance = test_tolerance(DISTFFT_DOUBLE, n) * test_max_abs(n, row);
        ok = row && morton && node && test_max_abs_diff(n, row, morton) <= tolerance &&
             test_max_abs_diff(n, row, node) <= tolerance;
    }
    test_case(suite, ok, "row, Morton and node-aware plans agree (grid %dx%d)", dims[0], dims[1]);
    free(row);
    free(morton);
    free(node);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite suite;
    test_suite_init(&suite, "test_placement", MPI_COMM_WORLD);
    check_names(&suite);
    check_grids(&suite);
    check_plans(&suite);
    int status = test_suite_finish(&suite);
    MPI_Finalize();
    return status;
}
