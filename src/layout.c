/*
 * layout.c -- local block of a global array in one alignment (see layout.h):
 * along an axis distributed by grid direction i, this rank holds part p_i of
 * M_i by Alg. 1; along the other axes it holds everything.
 */
#include "layout.h"

void layout_block(const layout *array_layout, const int *grid_dims,
                  const int *grid_coords, int64_t *local_shape,
                  int64_t *global_start)
{
    for (int axis = 0; axis < array_layout->ndims; axis++) {
        int64_t n = array_layout->global_shape[axis], start = 0;
        int direction = array_layout->distributed_by[axis];
        if (direction != NOT_DISTRIBUTED)
            distfft_decompose(array_layout->global_shape[axis],
                              grid_dims[direction], grid_coords[direction], &n,
                              &start);
        if (local_shape) local_shape[axis] = n;
        if (global_start) global_start[axis] = start;
    }
}
