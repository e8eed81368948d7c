/*
 * grid.c -- a Cartesian grid of r dimensions over a communicator, and one
 * one-dimensional sub-communicator per grid direction (paper Sec. 3.4,
 * Listing 4). Sub-communicator P_i groups the ranks that differ only in
 * coordinate i: a redistribution on P_i is the paper's slab exchange,
 * executed concurrently by every P_i group.
 *
 * Ranks are laid on the grid by a placement (placement.c): row-major in
 * the caller's order by default. The grid communicator is built on a copy
 * of the caller's reordered so that its rank order is the grid's row-major
 * order, and MPI_Cart_create itself never reorders.
 *
 * A plan's grid (grid_create_on) is made on the plan's own communicator,
 * with no duplicate, no Cartesian communicator and no reordered copy: each
 * sub-communicator is the group and order MPI_Cart_sub would give, made
 * from the plan's communicator directly. This saves the Cartesian
 * communicator's context id, and the simulated time SimGrid's SMPI charges
 * for MPI_Cart_create and MPI_Cart_sub, which grows with the ranks. With
 * the row placement (grid position = rank) every rank knows its line's
 * members, so each sub-communicator is one MPI_Comm_create_group,
 * collective over the line alone; other placements use one MPI_Comm_split,
 * which exchanges every rank's color and key over the whole communicator
 * (O(P) per rank in real MPIs; in SMPI a linear gather at rank 0, whose
 * host time grows with P).
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "grid.h"
#include "lifetime.h"
#include "placement.h"

int grid_choose_dims(int size, int ndims, const int *dims, int *chosen)
{
    if (ndims < 1 || ndims > DISTFFT_MAX_DIMS)
        return error_fail(DISTFFT_ERR_GRID,
                          "grid dimensionality %d must be in 1..%d", ndims,
                          DISTFFT_MAX_DIMS);
    int64_t fixed = 1;
    for (int i = 0; i < ndims; i++) {
        int d = dims ? dims[i] : 0;
        if (d < 0)
            return error_fail(DISTFFT_ERR_GRID,
                              "grid dims[%d] = %d must be >= 0 (0: choose)", i, d);
        chosen[i] = d;
        if (d > 0) fixed *= d;
        if (fixed > size) break;
    }
    if (fixed > size || size % fixed != 0)
        return error_fail(DISTFFT_ERR_GRID,
                          "grid dims do not fit %d ranks (fixed dims multiply "
                          "to %lld, which must divide %d)",
                          size, (long long)fixed, size);
    int all_fixed = 1;
    for (int i = 0; i < ndims; i++) all_fixed &= chosen[i] > 0;
    if (all_fixed && fixed != size)
        return error_fail(DISTFFT_ERR_GRID,
                          "grid dims multiply to %lld but the communicator "
                          "has %d ranks", (long long)fixed, size);
    if (MPI_Dims_create(size, ndims, chosen) != MPI_SUCCESS)
        return error_fail(DISTFFT_ERR_GRID, "MPI_Dims_create failed for %d ranks",
                          size);
    return DISTFFT_SUCCESS;
}

int grid_free(struct distfft_grid_s *grid)
{
    int rc = DISTFFT_SUCCESS;
    if (!grid) return rc;
    for (int i = 0; i < grid->ndims; i++)
        if (grid->subcomms[i] != MPI_COMM_NULL) KEEP_MPI(lifetime_comm_free(&grid->subcomms[i]));
    if (grid->comm != MPI_COMM_NULL) KEEP_MPI(lifetime_comm_free(&grid->comm));
    free(grid);
    return rc;
}

static int check_create(int size, int ndims, const int *dims, distfft_placement placement,
                        int node_size, int busy_direction, const distfft_grid *grid_out,
                        int *chosen, replicated_args *args)
{
    const char *where = "distfft_grid_create";
    if (!grid_out) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: grid (out-handle) is NULL", where);
    if (ndims < 1 || ndims > DISTFFT_MAX_DIMS)
        return error_fail(DISTFFT_ERR_GRID, "%s: ndims = %d must be in 1..%d", where, ndims, DISTFFT_MAX_DIMS);
    if (!distfft_placement_name(placement))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown placement %d", where, (int)placement);
    if (node_size < 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: node_size = %d must be >= 0 (0: find the nodes)",
                          where, node_size);
    if (busy_direction < 0 || busy_direction >= ndims)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: busy_direction = %d must be in 0..%d", where,
                          busy_direction, ndims - 1);
    replicated_add(args, ndims, "grid ndims");
    for (int i = 0; i < ndims; i++) replicated_add(args, dims ? dims[i] : 0, "grid dims[%d]", i);
    replicated_add(args, placement, "placement");
    replicated_add(args, node_size, "node_size");
    replicated_add(args, busy_direction, "busy_direction");
    return grid_choose_dims(size, ndims, dims, chosen);
}

/* The checks (agreed with the arguments and `pending`, a local failure of
 * the caller's, over comm) and the object, ready for grid_free before
 * anything can fail; *rank and *size: this rank's in comm and comm's,
 * asked before the agreement. Collective on comm. */
static int grid_start(MPI_Comm comm, int pending, int ndims, const int *dims,
                      distfft_placement placement, int node_size, int busy_direction,
                      const distfft_grid *grid_out, int *rank, int *size,
                      struct distfft_grid_s **grid_made)
{
    int rc = DISTFFT_SUCCESS;
    struct distfft_grid_s *grid = NULL;
    *grid_made = NULL;
    replicated_args args;
    replicated_init(&args);
    int chosen[DISTFFT_MAX_DIMS];
    int local = pending ? pending : mpi_rank_size(comm, rank, size);
    if (local == DISTFFT_SUCCESS)
        local = check_create(*size, ndims, dims, placement, node_size, busy_direction, grid_out,
                             chosen, &args);
    TRY(error_agree_replicated(comm, local, &args));

    grid = calloc(1, sizeof *grid);
    if (grid) {
        grid->ndims = ndims;
        grid->comm = MPI_COMM_NULL;
        grid->placement = placement;
        for (int i = 0; i < ndims; i++) {
            grid->dims[i] = chosen[i];
            grid->subcomms[i] = MPI_COMM_NULL;
        }
    }
    TRY(error_agree(comm, grid ? DISTFFT_SUCCESS
                               : error_fail(DISTFFT_ERR_MEMORY, "grid object")));
    *grid_made = grid;
    return DISTFFT_SUCCESS;
fail:
    free(grid); /* made here but failed on another rank: nothing in it yet */
    return rc;
}

int distfft_grid_create_placed(MPI_Comm comm, int ndims, const int *dims,
                               distfft_placement placement, int node_size,
                               int busy_direction, distfft_grid *grid_out)
{
    error_clear();
    if (grid_out) *grid_out = NULL;
    if (comm == MPI_COMM_NULL)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_grid_create: comm is "
                          "MPI_COMM_NULL");
    int rc = DISTFFT_SUCCESS, rank = 0, size = 1;
    MPI_Comm work = MPI_COMM_NULL, ordered = MPI_COMM_NULL;
    struct distfft_grid_s *grid = NULL;

    /* Our own duplicate first: everything after runs on it, with errors
     * returned rather than aborting. A local call failing on some ranks
     * only (setting the error handler) is kept for the next agreement,
     * which every rank reaches. */
    TRY_MPI(MPI_Comm_dup(comm, &work));
    int pending = CHECK_MPI(MPI_Comm_set_errhandler(work, MPI_ERRORS_RETURN));
    TRY(grid_start(work, pending, ndims, dims, placement, node_size, busy_direction, grid_out,
                   &rank, &size, &grid));

    int index;
    TRY(placement_grid_index(work, rank, size, ndims, grid->dims, placement, node_size, 0,
                             busy_direction, &index));
    if (index != rank || placement != DISTFFT_PLACEMENT_ROW) {
        TRY_MPI(MPI_Comm_split(work, 0, index, &ordered));
        keep_mpi(&pending, MPI_Comm_set_errhandler(ordered, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler(ordered)");
    }
    int periods[DISTFFT_MAX_DIMS] = {0}, keep[DISTFFT_MAX_DIMS] = {0};
    TRY_MPI(MPI_Cart_create(ordered != MPI_COMM_NULL ? ordered : work, ndims, grid->dims,
                            periods, 0, &grid->comm));
    keep_mpi(&pending, MPI_Comm_set_errhandler(grid->comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler(grid)");
    /* ordered by index, never reordered: this rank is `index` on grid->comm */
    TRY_MPI(MPI_Cart_coords(grid->comm, index, ndims, grid->coords));
    for (int i = 0; i < ndims; i++) {
        keep[i] = 1;
        TRY_MPI(MPI_Cart_sub(grid->comm, keep, &grid->subcomms[i]));
        keep_mpi(&pending, MPI_Comm_set_errhandler(grid->subcomms[i], MPI_ERRORS_RETURN),
                 "MPI_Comm_set_errhandler(subcomm)");
        keep[i] = 0;
    }
    TRY(error_agree(work, pending));
    if (ordered != MPI_COMM_NULL) TRY_MPI(MPI_Comm_free(&ordered));
    TRY_MPI(MPI_Comm_free(&work));
    *grid_out = grid;
    return DISTFFT_SUCCESS;

fail:
    KEEP(grid_free(grid));
    if (ordered != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(&ordered));
    if (work != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(&work));
    return rc;
}

/* The tag of the sub-communicators' MPI_Comm_create_group: each rank makes
 * them one after the other, so one tag serves every direction. */
enum { GRID_LINE_TAG = 31415 };

/* The group of each direction's line through grid position `index` on
 * comm, whose rank is the position (the row placement): members
 * index + (k - coords[i]) * stride_i for k = 0..dims[i]-1. Local. */
static int line_groups(MPI_Comm comm, const struct distfft_grid_s *grid, int index, MPI_Group *groups)
{
    int rc = DISTFFT_SUCCESS, largest = 1;
    for (int i = 0; i < grid->ndims; i++) largest = grid->dims[i] > largest ? grid->dims[i] : largest;
    int *members = malloc((size_t)largest * sizeof *members);
    if (!members) return error_fail(DISTFFT_ERR_MEMORY, "grid line members");
    MPI_Group all = MPI_GROUP_NULL;
    TRY_MPI(MPI_Comm_group(comm, &all));
    for (int i = 0; i < grid->ndims; i++) {
        int stride = 1;
        for (int j = i + 1; j < grid->ndims; j++) stride *= grid->dims[j];
        for (int k = 0; k < grid->dims[i]; k++) members[k] = index + (k - grid->coords[i]) * stride;
        TRY_MPI(MPI_Group_incl(all, grid->dims[i], members, &groups[i]));
    }
fail:
    free(members);
    if (all != MPI_GROUP_NULL) KEEP_MPI(MPI_Group_free(&all));
    return rc;
}

static int groups_free(int ndims, MPI_Group *groups)
{
    int rc = DISTFFT_SUCCESS;
    for (int i = 0; i < ndims; i++)
        if (groups[i] != MPI_GROUP_NULL) KEEP_MPI(MPI_Group_free(&groups[i]));
    return rc;
}

int grid_create_on(MPI_Comm comm, int ndims, const int *dims, distfft_placement placement, int node_size,
                   int node, int busy_direction, struct distfft_grid_s **grid_out)
{
    int rc = DISTFFT_SUCCESS, index, rank = 0, size = 1, pending = DISTFFT_SUCCESS;
    struct distfft_grid_s *grid = NULL;
    MPI_Group groups[DISTFFT_MAX_DIMS];
    for (int i = 0; i < DISTFFT_MAX_DIMS; i++) groups[i] = MPI_GROUP_NULL;
    TRY(grid_start(comm, DISTFFT_SUCCESS, ndims, dims, placement, node_size, busy_direction, grid_out,
                   &rank, &size, &grid));
    TRY(placement_grid_index(comm, rank, size, ndims, grid->dims, placement, node_size, node,
                             busy_direction, &index));
    /* The coordinates of grid position `index`, row-major as MPI_Cart_coords
     * would give them on a communicator ordered by index. */
    for (int i = ndims - 1, rest = index; i >= 0; i--) {
        grid->coords[i] = rest % grid->dims[i];
        rest /= grid->dims[i];
    }
    /* P_i: the ranks whose coordinates differ in i only (the same row-major
     * index with coordinate i zeroed), ordered by coordinate i -- the group
     * and order MPI_Cart_sub keeps. */
    if (placement == DISTFFT_PLACEMENT_ROW) {
        TRY(error_agree(comm, line_groups(comm, grid, index, groups)));
        for (int i = 0; i < ndims; i++)
            TRY_MPI(MPI_Comm_create_group(comm, groups[i], GRID_LINE_TAG, &grid->subcomms[i]));
    } else {
        for (int i = 0; i < ndims; i++) {
            int line = 0;
            for (int j = 0; j < ndims; j++) line = line * grid->dims[j] + (j == i ? 0 : grid->coords[j]);
            TRY_MPI(MPI_Comm_split(comm, line, grid->coords[i], &grid->subcomms[i]));
        }
    }
    /* local calls, failing on some ranks only: agreed once every
     * sub-communicator is made */
    for (int i = 0; i < ndims; i++)
        keep_mpi(&pending, MPI_Comm_set_errhandler(grid->subcomms[i], MPI_ERRORS_RETURN),
                 "MPI_Comm_set_errhandler(subcomm)");
    int freed = groups_free(ndims, groups);
    if (pending == DISTFFT_SUCCESS) pending = freed;
    TRY(error_agree(comm, pending));
    *grid_out = grid;
    return DISTFFT_SUCCESS;

fail:
    KEEP(groups_free(ndims, groups));
    KEEP(grid_free(grid));
    return rc;
}

int distfft_grid_create(MPI_Comm comm, int ndims, const int *dims,
                        distfft_grid *grid_out)
{
    return distfft_grid_create_placed(comm, ndims, dims, DISTFFT_PLACEMENT_ROW, 0,
                                      ndims >= 1 ? ndims - 1 : 0, grid_out);
}

int distfft_grid_destroy(distfft_grid *grid)
{
    error_clear();
    if (!grid)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_grid_destroy: NULL");
    int rc = grid_free(*grid);
    *grid = NULL;
    return rc;
}

int distfft_grid_ndims(const struct distfft_grid_s *grid)
{
    return grid ? grid->ndims : 0;
}

void distfft_grid_dims(const struct distfft_grid_s *grid, int *dims)
{
    for (int i = 0; grid && dims && i < grid->ndims; i++) dims[i] = grid->dims[i];
}

void distfft_grid_coords(const struct distfft_grid_s *grid, int *coords)
{
    for (int i = 0; grid && coords && i < grid->ndims; i++)
        coords[i] = grid->coords[i];
}

MPI_Comm distfft_grid_subcomm(const struct distfft_grid_s *grid, int direction)
{
    if (!grid || direction < 0 || direction >= grid->ndims) return MPI_COMM_NULL;
    return grid->subcomms[direction];
}
