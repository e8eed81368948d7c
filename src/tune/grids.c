/*
 * grids.c -- which process grids a plan may use (paper 000 Sec. 3.4-3.6;
 * paper 001's adaptive, lowest-degree decomposition). A grid "fits" when
 * every rank holds data in every layout the plan passes through: in the
 * working order of the axes (plan/algebra.c), direction i splits positions
 * i and i+1 in turn. Pure arithmetic but for MPI_Dims_create.
 */
#include <stdbool.h>

#include "../grid.h"
#include "../plan/algebra.h"
#include "tune.h"

static bool grid_fits(const grid_candidate *grid, const int64_t *shape, const int *order)
{
    for (int i = 0; i < grid->ndims; i++)
        if (grid->dims[i] > shape[order[i]] || grid->dims[i] > shape[order[i + 1]]) return false;
    return true;
}

/* Append the ordered factorisations of `rest` into the remaining extents
 * (each >= 2) of a grid of `grid->ndims` directions, from direction i. */
static void add_factorisations(grid_candidate *grid, int i, int rest, const int64_t *shape,
                               const int *order, grid_candidate *list, int *count)
{
    if (*count == TUNE_MAX_GRIDS) return;
    if (i == grid->ndims - 1) {
        grid->dims[i] = rest;
        if (rest >= 2 && grid_fits(grid, shape, order)) list[(*count)++] = *grid;
        return;
    }
    for (int f = 2; f <= rest / 2; f++)
        if (rest % f == 0) {
            grid->dims[i] = f;
            add_factorisations(grid, i + 1, rest / f, shape, order, list, count);
        }
}

int grid_candidates(int size, int ndims, const int64_t *shape, const distfft_kind *kinds,
                    grid_candidate *list)
{
    int order[DISTFFT_MAX_DIMS], count = 0;
    algebra_working_order(ndims, kinds, order);
    for (int r = 1; r < ndims && count < TUNE_MAX_GRIDS; r++) {
        grid_candidate grid = {.ndims = r};
        add_factorisations(&grid, 0, size, shape, order, list, &count);
    }
    return count;
}

/* The lowest grid dimensionality whose MPI_Dims_create grid fits, or the
 * highest possible one if none does. */
static int lowest_fitting_ndims(int size, int ndims, const int64_t *shape, const int *order)
{
    for (int r = 1; r < ndims; r++) {
        grid_candidate grid = {.ndims = r};
        if (MPI_Dims_create(size, r, grid.dims) != MPI_SUCCESS) continue; /* alike everywhere */
        if (grid_fits(&grid, shape, order)) return r;
    }
    return ndims - 1;
}

int grid_default(int size, int ndims, const int64_t *shape, const distfft_options *options,
                 grid_candidate *grid)
{
    int order[DISTFFT_MAX_DIMS];
    algebra_working_order(ndims, options->kinds, order);
    *grid = (grid_candidate){.ndims = options->grid_ndims};
    if (!grid->ndims) grid->ndims = lowest_fitting_ndims(size, ndims, shape, order);
    return grid_choose_dims(size, grid->ndims, options->grid_ndims ? options->grid_dims : NULL, grid->dims);
}
