/*
 * layout_grid.h -- the process grid of a plan made in the caller's layouts
 * (distfft_plan_create_layouts with an automatic grid): the candidate whose
 * own blocks leave the most of the caller's data in place.
 */
#ifndef DISTFFT_API_LAYOUT_GRID_H
#define DISTFFT_API_LAYOUT_GRID_H

#include "../layouts/layout_value.h"

/* With options->grid_ndims == 0 and row placement: among the default grid
 * and tune/'s candidates, find the one whose input and output blocks share
 * the most bytes with the caller's boxes (what the reshapes at the ends
 * need not move); when it keeps more than the default grid, set
 * options->grid_ndims and grid_dims to it. Pure arithmetic on replicated
 * values (every rank chooses alike); the request must be valid. Local. */
void layout_grid_choose(int size, int ndims, const int64_t *shape, distfft_precision precision,
                        const struct distfft_layout_s *layout_in, const struct distfft_layout_s *layout_out,
                        distfft_options *options);

#endif
