/*
 * layout_grid.c -- which process grid a plan in the caller's layouts uses
 * (see layout_grid.h). A reshape at an end moves every element that the
 * caller's box and the plan's own block of the same rank do not share; so
 * the grid whose blocks overlap the caller's boxes most makes the cheapest
 * reshapes -- none at all when the caller's layout is one of the plan's.
 * The blocks of every rank on every candidate come from the step algebra
 * (plain arithmetic, no MPI), so the choice costs no communication; it is
 * skipped beyond LAYOUT_GRID_MAX_RANKS ranks, where it would cost more
 * than it saves at plan time.
 */
#include <string.h>

#include "../plan/algebra.h"
#include "../tune/tune.h"
#include "../types.h"
#include "layout_grid.h"

#define LAYOUT_GRID_MAX_RANKS 4096

/* Bytes of the caller's boxes that the plan's own blocks on `grid` hold
 * on the same ranks; -1 when a layout is not of the plan's shape. */
static int64_t bytes_kept(int size, int ndims, const int64_t *shape, distfft_precision precision,
                          const struct distfft_layout_s *in, const struct distfft_layout_s *out,
                          const distfft_options *options, const grid_candidate *grid)
{
    algebra_input input = {.ndims = ndims, .precision = precision, .batch = 1, .rigor = DISTFFT_ESTIMATE,
                           .norm = options->norm, .threads = 1, .grid_ndims = grid->ndims,
                           .complex_data = options->complex_data != 0};
    memcpy(input.shape, shape, ndims * sizeof(int64_t));
    memcpy(input.kinds, options->kinds, sizeof input.kinds);
    memcpy(input.grid_dims, grid->dims, sizeof input.grid_dims);
    for (int a = 0; a < ndims; a++) input.padded[a] = algebra_padded_length(shape[a], options->padding[a]);
    static algebra_steps steps; /* large; the planner is not thread-safe anyway (wisdom) */
    int64_t kept = 0;
    for (int r = 0; r < size; r++) {
        for (int d = grid->ndims - 1, rest = r; d >= 0; d--) { /* row-major, as ROW placement */
            input.grid_coords[d] = rest % grid->dims[d];
            rest /= grid->dims[d];
        }
        algebra_build(&input, &steps);
        if ((in && memcmp(in->global_shape, steps.in_shape, ndims * sizeof(int64_t))) ||
            (out && memcmp(out->global_shape, steps.out_shape, ndims * sizeof(int64_t))))
            return -1;
        if (in)
            kept += layout_intersect(ndims, layout_start(in, r), layout_shape(in, r), steps.input_start,
                                     steps.input_local, NULL, NULL) *
                    (int64_t)distfft_type_size(steps.input_type);
        if (out)
            kept += layout_intersect(ndims, layout_start(out, r), layout_shape(out, r), steps.output_start,
                                     steps.output_local, NULL, NULL) *
                    (int64_t)distfft_type_size(steps.output_type);
    }
    return kept;
}

void layout_grid_choose(int size, int ndims, const int64_t *shape, distfft_precision precision,
                        const struct distfft_layout_s *in, const struct distfft_layout_s *out,
                        distfft_options *options)
{
    if (options->grid_ndims != 0 || options->placement != DISTFFT_PLACEMENT_ROW || size > LAYOUT_GRID_MAX_RANKS)
        return;
    if ((in && (in->ndims != ndims || in->size != size)) || (out && (out->ndims != ndims || out->size != size)))
        return; /* the plan refuses such layouts later, on every rank */
    grid_candidate fallback, list[TUNE_MAX_GRIDS];
    if (grid_default(size, ndims, shape, options, &fallback) != DISTFFT_SUCCESS) return;
    int64_t best = bytes_kept(size, ndims, shape, precision, in, out, options, &fallback);
    if (best < 0) return;
    int count = grid_candidates(size, ndims, shape, options->kinds, list), chosen = -1;
    for (int c = 0; c < count; c++) {
        int64_t kept = bytes_kept(size, ndims, shape, precision, in, out, options, &list[c]);
        if (kept > best) {
            best = kept;
            chosen = c;
        }
    }
    if (chosen < 0) return; /* the default grid (or tuning's choice) is as good */
    options->grid_ndims = list[chosen].ndims;
    memcpy(options->grid_dims, list[chosen].dims, sizeof list[chosen].dims);
}
