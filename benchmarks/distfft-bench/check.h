/*
 * check.h -- test input and error measures of distfft-bench --check.
 *
 * The input is a deterministic function of each element's linear global
 * index, so every decomposition of the same shape sees the same global
 * array. Complex arrays are interleaved (re, im) pairs of float or double,
 * as fftw_complex / fftwf_complex; real arrays plain floats or doubles. The
 * serial reference is in reference.h. All functions here are local.
 */
#ifndef BENCH_CHECK_H
#define BENCH_CHECK_H

#include <stdint.h>

#include "distfft.h"

/* Whether elements of `type` are complex. */
int bench_type_is_complex(distfft_type type);

/* Fill the local block (local_shape at global_start) of field `field` of a
 * batch of global arrays of global_shape. Element i of the whole batch (i
 * the C-order index over batch x global_shape) gets
 *   real part      splitmix64(2 i)     mapped to [-1, 1),
 *   imaginary part splitmix64(2 i + 1) mapped to [-1, 1) (complex types),
 * so a real input is the real part of the complex one. */
void bench_fill_input(distfft_type type, int ndims, const int64_t *global_shape,
                      const int64_t *local_shape, const int64_t *global_start,
                      int64_t field, void *local);

/* Element `index` of an array of `type`, as doubles (imaginary part 0 for
 * a real type). */
void bench_element(distfft_type type, const void *values, int64_t index,
                   double *real, double *imaginary);

/* max(current, candidate) that lets a NaN win, so a NaN result can never
 * pass a check. */
double bench_max_or_nan(double current, double candidate);

/* Largest modulus of `count` elements of `type` (0 for none). */
double bench_max_modulus(distfft_type type, const void *values, int64_t count);

/* Largest modulus of the element-wise difference of two arrays of `type`. */
double bench_max_difference(distfft_type type, const void *first,
                            const void *second, int64_t count);

/* Tolerance of the checks: 8 * eps * log2(N), N = max(total elements, 2). */
double bench_tolerance(distfft_precision precision, int64_t total_elements);

#endif /* BENCH_CHECK_H */
