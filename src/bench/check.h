/*
 * check.h -- test input and error measures of distfft-bench --check.
 *
 * The input is a deterministic function of each element's linear global
 * index, so every decomposition of the same shape sees the same global
 * array. Complex arrays are interleaved (re, im) pairs of float or double,
 * as fftw_complex / fftwf_complex. All functions here are local.
 */
#ifndef BENCH_CHECK_H
#define BENCH_CHECK_H

#include <stdint.h>

#include "distfft.h"

/* The complex element type of a precision. */
distfft_type bench_complex_type(distfft_precision precision);

/* Fill the local block (local_shape at global_start) of a global array of
 * global_shape with values whose real and imaginary parts lie in [-1, 1]. */
void bench_fill_input(distfft_precision precision, int ndims,
                      const int64_t *global_shape, const int64_t *local_shape,
                      const int64_t *global_start, void *local);

/* Largest modulus of `count` complex elements (0 for none). */
double bench_max_modulus(distfft_precision precision, const void *values,
                         int64_t count);

/* Largest modulus of the element-wise difference of two complex arrays. */
double bench_max_difference(distfft_precision precision, const void *first,
                            const void *second, int64_t count);

/* Serial reference: the forward FFT of the C-ordered global array `input`
 * (in `precision`), computed by FFTW in double precision with `norm`
 * applied, compared with `output` (in `precision`):
 * max|output - reference| / max|reference|. Returns 0 and sets *error, or -1
 * if memory or an FFTW plan could not be had. */
int bench_serial_error(distfft_precision precision, distfft_norm norm,
                       int ndims, const int64_t *shape, const void *input,
                       const void *output, double *error);

/* Tolerance of the checks: 8 * eps * log2(N), N = max(total elements, 2). */
double bench_tolerance(distfft_precision precision, int64_t total_elements);

#endif /* BENCH_CHECK_H */
