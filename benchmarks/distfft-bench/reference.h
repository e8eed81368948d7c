/*
 * reference.h -- the serial reference of distfft-bench --check.
 *
 * The forward transform of a whole (gathered) global array, computed on one
 * rank in double precision by applying the kinds one axis at a time with
 * FFTW 1-D plans, then the normalisation. It shares nothing with the
 * library but the public header: the kinds, the output shape and the
 * element types are worked out here from their documented definitions, so
 * a mistake in the library's planning shows up as a difference. Local.
 */
#ifndef BENCH_REFERENCE_H
#define BENCH_REFERENCE_H

#include <stdint.h>

#include "distfft.h"

/* The element types the documentation gives for these kinds: the input is
 * real when an axis is r2c or no axis is c2c; the output is complex when an
 * axis is c2c or r2c. */
void bench_reference_types(int ndims, const distfft_kind *kinds,
                           distfft_precision precision,
                           distfft_type *input_type, distfft_type *output_type);

/* The global output shape the documentation gives: the r2c axis has n/2+1
 * points, every other axis keeps its length. */
void bench_reference_output_shape(int ndims, const int64_t *shape,
                                  const distfft_kind *kinds,
                                  int64_t *output_shape);

/* Compare `output` (batch fields of the reference output shape, of type
 * reference_types' output type in `precision`) with the serial forward
 * transform of `input` (batch fields of `shape`, of the reference input
 * type): *error = max|output - reference| / max|reference| over all fields.
 * Returns 0, or -1 if memory or an FFTW plan could not be had. */
int bench_reference_error(distfft_precision precision, distfft_norm norm,
                          int ndims, const int64_t *shape,
                          const distfft_kind *kinds, int64_t batch,
                          const void *input, const void *output,
                          double *error);

/* The length N that counts for normalisation along an axis (as
 * distfft_norm defines it). */
double bench_logical_length(distfft_kind kind, int64_t n);

#endif /* BENCH_REFERENCE_H */
