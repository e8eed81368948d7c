/*
 * serial_fft.h -- serial FFTs along chosen axes of a local, C-ordered,
 * strided block, by FFTW's guru64 interface. Knows nothing of MPI.
 *
 * One serial_fft transforms the contiguous range of axes [first_axis,
 * last_axis] of an array of `shape` (with a leading batch dimension); every
 * other axis becomes an FFTW "howmany" loop dimension with its own stride,
 * so no copies or loops of ours are involved. Precision is a runtime
 * argument: fftw_ or fftwf_ is chosen inside.
 */
#ifndef DISTFFT_SERIAL_FFT_H
#define DISTFFT_SERIAL_FFT_H

#include <stdbool.h>
#include <stdint.h>

#include "distfft.h"

typedef struct serial_fft serial_fft;

/* Plan a transform of sign DISTFFT_FORWARD or DISTFFT_BACKWARD. in and out
 * are the planning arrays (overwritten unless rigor is ESTIMATE); in == out
 * plans an in-place transform. preserve_input: an out-of-place transform
 * must leave its input untouched. An empty block plans a no-op. Local. */
int serial_fft_create(distfft_precision precision, int ndims,
                      const int64_t *shape, int64_t batch, int first_axis,
                      int last_axis, int sign, distfft_rigor rigor,
                      bool preserve_input, void *in, void *out,
                      serial_fft **fft);

/* Execute on new arrays with the planned alignment and in-placeness. */
void serial_fft_execute(const serial_fft *fft, void *in, void *out);

void serial_fft_destroy(serial_fft *fft);

/* Is `pointer` aligned as FFTW's own allocator aligns (so a plan made on
 * distfft_malloc'ed arrays may run on it)? NULL counts as aligned. */
bool serial_fft_aligned(distfft_precision precision, const void *pointer);

/* Multiply `count` complex elements by `factor`. */
void serial_scale(distfft_precision precision, void *data, int64_t count,
                  double factor);

#endif
