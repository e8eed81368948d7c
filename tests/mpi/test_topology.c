/*
 * test_topology.c -- the cost model's view of where each rank's exchange
 * partners sit (model_topology_create, src/model/predict.c: gathered and
 * worked out on rank 0, scattered back) against a reference computed here
 * the plain way, every rank from an allgather of every rank's grid index
 * and node label. Pretended nodes of 1-3 ranks, 1-D to 3-D grids, ranks
 * placed on the grid in order and reversed; internal API.
 *
 *   mpiexec -n 4 test_topology
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "model/predict.h"

static int me, P, failures, cases;

static void reference(int node_size, int ndims, const int *dims, int index, model_topology *t)
{
    memset(t, 0, sizeof *t);
    int label = me / node_size * node_size, mine[2] = {index, label};
    int *all = malloc(2 * (size_t)P * sizeof *all), *rank_at = malloc((size_t)P * sizeof *rank_at);
    MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < P; r++) rank_at[all[2 * r]] = r;
    t->plan_ranks = P;
    for (int r = 0; r < P; r++) {
        t->ranks_per_node += all[2 * r + 1] == label;
        int first = 1; /* the first rank of its label */
        for (int q = 0; q < r; q++) first &= all[2 * q + 1] != all[2 * r + 1];
        t->plan_nodes += first;
    }
    int coords[8], rest = index;
    for (int d = ndims - 1; d >= 0; d--) {
        coords[d] = rest % dims[d];
        rest /= dims[d];
    }
    for (int d = 0; d < ndims; d++) {
        int stride = 1;
        for (int e = d + 1; e < ndims; e++) stride *= dims[e];
        t->group_size[d] = dims[d];
        for (int k = 0; k < dims[d]; k++) {
            int member = rank_at[index + (k - coords[d]) * stride], other = all[2 * member + 1];
            t->peers_on_node[d] += k != coords[d] && other == label;
            int first = 1;
            for (int j = 0; j < k; j++) first &= all[2 * rank_at[index + (j - coords[d]) * stride] + 1] != other;
            t->nodes_in_group[d] += first;
        }
    }
    free(all);
    free(rank_at);
}

static void check(int node_size, int ndims, const int *dims, int reversed)
{
    int index = reversed ? P - 1 - me : me;
    model_topology got, want;
    int rc = model_topology_create(MPI_COMM_WORLD, NULL, node_size, 0, ndims, dims, index, &got);
    reference(node_size, ndims, dims, index, &want);
    int ok = rc == DISTFFT_SUCCESS && memcmp(&got, &want, sizeof got) == 0, all = 0;
    if (!ok)
        fprintf(stderr, "[rank %d] nodes of %d, %d-D grid, %s: rc %d; ranks per node %d/%d, nodes %d/%d, "
                "peers on node %d/%d, nodes in group %d/%d (got/want, direction 0)\n", me, node_size, ndims,
                reversed ? "reversed" : "in order", rc, got.ranks_per_node, want.ranks_per_node,
                got.plan_nodes, want.plan_nodes, got.peers_on_node[0], want.peers_on_node[0],
                got.nodes_in_group[0], want.nodes_in_group[0]);
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    cases++;
    failures += !all;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    for (int node_size = 1; node_size <= 3; node_size++)
        for (int reversed = 0; reversed <= 1; reversed++) {
            int one[1] = {P};
            check(node_size, 1, one, reversed);
            for (int ndims = 2; ndims <= 3; ndims++) {
                int dims[3] = {0, 0, 0};
                MPI_Dims_create(P, ndims, dims);
                check(node_size, ndims, dims, reversed);
            }
        }
    if (me == 0) printf("test_topology: %d of %d cases passed on %d ranks\n", cases - failures, cases, P);
    MPI_Finalize();
    return failures ? 1 : 0;
}
