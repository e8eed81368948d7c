/*
 * direct_reference.h -- a forward transform of every kind by direct O(n^2)
 * sums per axis, from the textbook definitions (FFTW's manual for the r2r
 * kinds, as scipy.fft.dct/dst with norm=None), summed in long double
 * complex (a reference for long-double transforms too).
 *
 * Independent of FFTW on purpose: it is what the randomized sweep compares
 * the library against. Cost: (elements) x (sum of the axis lengths), so keep
 * arrays small (a few thousand elements).
 */
#ifndef DISTFFT_DIRECT_REFERENCE_H
#define DISTFFT_DIRECT_REFERENCE_H

#include <complex.h>
#include <stdint.h>

#include "distfft.h"

/* Logical length of an axis of n points under `kind` (the N of the
 * normalisations in distfft.h): n (c2c, r2c, r2hc, hc2r, dht), 2(n-1),
 * 2(n+1), 2n, or 1. */
double direct_logical_length(distfft_kind kind, int64_t n);

/* The forward transform of a whole global array `input` of `shape` (real
 * input as complex with zero imaginary part), normalised by `norm`; returns
 * a malloc'ed array of the output shape (the r2c axis has n/2+1 points). */
double complex *direct_forward(int ndims, const int64_t *shape,
                               const distfft_kind *kinds, distfft_norm norm,
                               const double complex *input);

/* The same in long double: input and result long double complex. */
long double complex *direct_forward_long(int ndims, const int64_t *shape,
                                         const distfft_kind *kinds, distfft_norm norm,
                                         const long double complex *input);

/* The retained modes of a padded forward transform (distfft.h
 * options.padding): `full` is direct_forward at the padded lengths
 * `padded`; the result has the spectral lengths `shape` (the r2c axis
 * shape/2+1): c2c axes keep their wavenumbers (even Nyquist: +N/2 and -N/2
 * summed), r2c's axis the first N/2+1 (even Nyquist: plus its conjugate
 * mirror), real-to-real axes the first N. A malloc'ed array. */
double complex *direct_truncate(int ndims, const int64_t *shape, const int64_t *padded,
                                const distfft_kind *kinds, const double complex *full);

#endif
