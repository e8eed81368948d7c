/*
 * reshape_choice.h -- the reshape between two layouts with its method
 * chosen (fixed, or "auto": both methods timed as an exchange's are), for
 * distfft_reshape_create and for plans made with layouts.
 */
#ifndef DISTFFT_API_RESHAPE_CHOICE_H
#define DISTFFT_API_RESHAPE_CHOICE_H

#include "../layouts/reshape.h"

/* Local checks of two layouts passed together (same ranks, ndims, global
 * shape); `where` names the call. Local; the caller agrees. */
int reshape_check_layouts(const struct distfft_layout_s *in, const struct distfft_layout_s *out,
                          const char *where);

/* The reshape of two checked, agreed layouts with `method` (AUTO: timed
 * unless rigor is DISTFFT_ESTIMATE, then alltoallw). Collective on the
 * layouts' communicator; agreed. */
int reshape_choose(const struct distfft_layout_s *in, const struct distfft_layout_s *out, distfft_type type,
                   int64_t batch, distfft_method method, distfft_rigor rigor, struct distfft_reshape_s **reshape);

#endif
