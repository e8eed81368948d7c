/*
 * placement.c -- laying ranks on the process grid.
 *
 * Every placement is a bijection from the ranks of the caller's
 * communicator to grid positions; the grid is then built on a communicator
 * reordered so that its rank order is row-major in the grid (grid.c). The
 * three orders:
 *
 *   row     rank k sits at row-major position k (MPI_Cart_create with no
 *           reordering): the last direction's groups are consecutive ranks.
 *   morton  rank k sits at the k-th position in Z-order: positions sorted by
 *           their Morton code, the bits of the coordinates interleaved
 *           (the last direction's bit least significant; directions that
 *           have run out of bits drop out, so any extents work). Nearby
 *           ranks form compact blocks in every direction at once.
 *   node    ranks are sorted by (node, rank within node), then laid
 *           row-major with the busy direction varying fastest: its groups
 *           are runs of consecutive ranks of one node, so the exchange with
 *           the most traffic stays inside nodes when the node holds a
 *           multiple of its extent.
 */
#include <stdint.h>
#include <stdlib.h>

#include "error.h"
#include "node.h"
#include "placement.h"

static int row_major_index(int ndims, const int *dims, const int *coords)
{
    int index = 0;
    for (int i = 0; i < ndims; i++) index = index * dims[i] + coords[i];
    return index;
}

static void row_major_coords(int ndims, const int *dims, int index, int *coords)
{
    for (int i = ndims - 1; i >= 0; i--) {
        coords[i] = index % dims[i];
        index /= dims[i];
    }
}

static uint64_t morton_code(int ndims, const int *dims, const int *coords)
{
    uint64_t code = 0;
    int bit = 0;
    for (int b = 0; b < 31; b++)
        for (int i = ndims - 1; i >= 0; i--)
            if (dims[i] > (1 << b) && bit < 64) code |= (uint64_t)((coords[i] >> b) & 1) << bit++;
    return code;
}

typedef struct {
    uint64_t key;
    int position;
} keyed;

static int compare_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->position > y->position) - (x->position < y->position);
}

static int morton_index(int rank, int size, int ndims, const int *dims, int *index)
{
    keyed *positions = malloc((size_t)size * sizeof *positions);
    if (!positions) return error_fail(DISTFFT_ERR_MEMORY, "Morton placement table");
    int coords[DISTFFT_MAX_DIMS];
    for (int p = 0; p < size; p++) {
        row_major_coords(ndims, dims, p, coords);
        positions[p] = (keyed){morton_code(ndims, dims, coords), p};
    }
    qsort(positions, (size_t)size, sizeof *positions, compare_keyed);
    *index = positions[rank].position;
    free(positions);
    return DISTFFT_SUCCESS;
}

static int node_index(MPI_Comm comm, int rank, int size, int ndims, const int *dims,
                      int node_size, int known, int busy, int *index)
{
    int rc = DISTFFT_SUCCESS, mine[2];
    int *all = malloc(2 * (size_t)size * sizeof *all);
    keyed *ranks = malloc((size_t)size * sizeof *ranks);
    /* Agree on the tables first: finding the nodes is collective. */
    TRY(error_agree(comm, all && ranks ? DISTFFT_SUCCESS
                                       : error_fail(DISTFFT_ERR_MEMORY, "node placement table")));
    /* (node, rank): a node's ranks in comm's order (node.h; a known label,
     * plan_comms, spares the split) */
    mine[1] = rank;
    TRY(error_agree(comm, node_label_find(comm, rank, node_size, known, &mine[0])));
    TRY_MPI(MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, comm));
    for (int p = 0; p < size; p++)
        ranks[p] = (keyed){((uint64_t)all[2 * p] << 32) | (uint32_t)all[2 * p + 1], p};
    qsort(ranks, (size_t)size, sizeof *ranks, compare_keyed);
    int order = 0;
    while (ranks[order].position != rank) order++;

    /* Position `order` in the row-major order with `busy` moved last. */
    int coords[DISTFFT_MAX_DIMS];
    coords[busy] = order % dims[busy];
    order /= dims[busy];
    for (int i = ndims - 1; i >= 0; i--) {
        if (i == busy) continue;
        coords[i] = order % dims[i];
        order /= dims[i];
    }
    *index = row_major_index(ndims, dims, coords);
fail:
    free(all);
    free(ranks);
    return rc;
}

int placement_grid_index(MPI_Comm comm, int rank, int size, int ndims, const int *dims,
                         distfft_placement placement, int node_size, int node,
                         int busy_direction, int *index)
{
    switch (placement) {
    case DISTFFT_PLACEMENT_MORTON:
        return error_agree(comm, morton_index(rank, size, ndims, dims, index));
    case DISTFFT_PLACEMENT_NODE:
        return node_index(comm, rank, size, ndims, dims, node_size, node, busy_direction, index);
    default:
        *index = rank;
        return DISTFFT_SUCCESS;
    }
}
