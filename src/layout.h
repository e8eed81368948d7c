/*
 * layout.h -- how a global array lies on a process grid in one alignment.
 *
 * A layout is the global shape plus, for each axis, the grid direction that
 * distributes it (or NOT_DISTRIBUTED). Axes not distributed are complete on
 * every rank; the aligned axis of the paper is one of them. With the grid
 * coordinates, Alg. 1 gives each rank's block: its local shape and global
 * start.
 */
#ifndef DISTFFT_LAYOUT_H
#define DISTFFT_LAYOUT_H

#include <stdint.h>

#include "distfft.h"

#define NOT_DISTRIBUTED (-1)

typedef struct {
    int ndims;
    int64_t global_shape[DISTFFT_MAX_DIMS];
    int distributed_by[DISTFFT_MAX_DIMS]; /* grid direction, or NOT_DISTRIBUTED */
} layout;

/* This rank's block: local_shape and global_start (either may be NULL). */
void layout_block(const layout *array_layout, const int *grid_dims,
                  const int *grid_coords, int64_t *local_shape,
                  int64_t *global_start);

#endif
