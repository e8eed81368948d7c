/*
 * padding.h -- zero-padding and truncation in spectral space along padded
 * axes of a local block (dealiasing, the 3/2 rule). Knows nothing of MPI.
 *
 * A padded axis has M points in physical space and N retained modes in
 * spectral space (serial_spec.retained). The serial transform of the axis
 * runs at length M in a scratch array of the "big" spectral shape; these
 * helpers move the retained modes between it and the "small" spectral
 * block the plan's exchanges carry:
 *   c2c axes     modes 0..ceil(N/2)-1 at the start, the negative ones at the
 *                end; for even N the Nyquist mode N/2 is split in half
 *                between +N/2 and M-N/2 (pad) or the two are summed
 *                (truncate), so truncate(pad(x)) == x;
 *   r2c's axis   the Hermitian half: modes 0..N/2 (big length M/2+1); for
 *                even N the Nyquist mode is halved (pad) or becomes twice
 *                its real part (truncate: +N/2 plus its conjugate -N/2);
 *   r2r axes     the first N coefficients (the rest zero).
 */
#ifndef DISTFFT_SERIAL_PADDING_H
#define DISTFFT_SERIAL_PADDING_H

#include <stdbool.h>
#include <stdint.h>

#include "serial_fft.h"

/* Does the transform pad or truncate any axis? */
bool serial_is_padded(const serial_spec *spec);

/* The spectral-side local shapes of a padded transform: `big` (length M
 * along padded axes; M/2+1 along an r2c/c2r axis) and `small` (N, resp.
 * N/2+1). Elements per field are their products. */
void serial_padded_shapes(const serial_spec *spec, int64_t *big, int64_t *small);

/* Bytes of the big spectral array (batch included): the scratch a padded
 * step needs. */
int64_t serial_padded_scratch_bytes(const serial_spec *spec);

/* small (the retained modes) -> big (zeroed first, then filled). */
void serial_pad(const serial_spec *spec, const void *small, void *big);

/* big -> small (only the retained modes, Nyquist folded). */
void serial_truncate(const serial_spec *spec, const void *big, void *small);

#endif
