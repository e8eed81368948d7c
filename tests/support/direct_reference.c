/*
 * direct_reference.c -- forward transforms by direct sums (see
 * direct_reference.h). Axes are applied from the last to the first, in
 * long double complex arithmetic: the r2c axis is the DFT with its rows
 * past n/2 left out, and sums along different axes commute, so the r2c
 * axis may be any. FFTW's halfcomplex kinds are real matrices: r2hc's row
 * k <= n/2 is the real part of the DFT's row k, a row k > n/2 the
 * imaginary part of row n-k; hc2r is its inverse times n.
 */
#include "direct_reference.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.141592653589793238462643383279502884L

/* The angle 2 pi j k / n, its product reduced mod n (small and exact). */
static long double turn(int64_t n, int64_t j, int64_t k)
{
    return 2 * PI * (long double)((j * k) % n) / (long double)n;
}

/* Entry (k, j) of the forward matrix of `kind` on n points. */
static long double complex entry(distfft_kind kind, int64_t n, int64_t k, int64_t j)
{
    long double dk = (long double)k, dj = (long double)j, dn = (long double)n;
    switch (kind) {
    case DISTFFT_C2C: case DISTFFT_R2C: return cexpl(-I * turn(n, j, k));
    case DISTFFT_DCT1: case DISTFFT_CHEB: {
        long double value = (j == 0 || j == n - 1 ? 1.0L : 2.0L) * cosl(PI * dj * dk / (dn - 1));
        if (kind == DISTFFT_CHEB) value /= (k == 0 || k == n - 1 ? 2.0L : 1.0L) * (dn - 1);
        return value;
    }
    case DISTFFT_DCT2: return 2 * cosl(PI * (dj + 0.5L) * dk / dn);
    case DISTFFT_DCT3: return (j == 0 ? 1.0L : 2.0L) * cosl(PI * dj * (dk + 0.5L) / dn);
    case DISTFFT_DCT4: return 2 * cosl(PI * (dj + 0.5L) * (dk + 0.5L) / dn);
    case DISTFFT_DST1: return 2 * sinl(PI * (dj + 1) * (dk + 1) / (dn + 1));
    case DISTFFT_DST2: return 2 * sinl(PI * (dj + 0.5L) * (dk + 1) / dn);
    case DISTFFT_DST3: return (j == n - 1 ? 1.0L : 2.0L) * sinl(PI * (dj + 1) * (dk + 0.5L) / dn);
    case DISTFFT_DST4: return 2 * sinl(PI * (dj + 0.5L) * (dk + 0.5L) / dn);
    /* halfcomplex out: r_k for k <= n/2, then i_{n-k} (Im e^{-ix} = -sin x) */
    case DISTFFT_R2HC: return 2 * k <= n ? cosl(turn(n, j, k)) : -sinl(turn(n, j, n - k));
    /* halfcomplex in: r_0, 2 r_j, the even r_{n/2} once, then i_{n-j} */
    case DISTFFT_HC2R:
        if (j == 0 || 2 * j == n) return cosl(turn(n, j, k));
        return 2 * j < n ? 2 * cosl(turn(n, j, k)) : -2 * sinl(turn(n, n - j, k));
    case DISTFFT_DHT: return cosl(turn(n, j, k)) + sinl(turn(n, j, k));
    default: return j == k ? 1.0L : 0.0L;
    }
}

double direct_logical_length(distfft_kind kind, int64_t n)
{
    switch (kind) {
    case DISTFFT_C2C: case DISTFFT_R2C: case DISTFFT_R2HC: case DISTFFT_HC2R: case DISTFFT_DHT:
        return (double)n;
    case DISTFFT_DCT1: return 2.0 * (double)(n - 1);
    case DISTFFT_DST1: return 2.0 * (double)(n + 1);
    case DISTFFT_CHEB: case DISTFFT_NONE: return 1.0;
    default: return 2.0 * (double)n;
    }
}

static int64_t product(int ndims, const int64_t *shape)
{
    int64_t total = 1;
    for (int a = 0; a < ndims; a++) total *= shape[a];
    return total;
}

/* out (n_out points along `axis`) = the matrix of `kind` applied along axis
 * of in (shape). */
static void apply_axis(int ndims, const int64_t *shape, int axis,
                       distfft_kind kind, int64_t n_out,
                       const long double complex *in, long double complex *out)
{
    int64_t n = shape[axis];
    int64_t outer = product(axis, shape);
    int64_t inner = product(ndims - axis - 1, shape + axis + 1);
    long double complex *matrix = malloc((size_t)(n_out * n + 1) * sizeof *matrix);
    for (int64_t k = 0; k < n_out; k++)
        for (int64_t j = 0; j < n; j++) matrix[k * n + j] = entry(kind, n, k, j);
    for (int64_t o = 0; o < outer; o++)
        for (int64_t k = 0; k < n_out; k++)
            for (int64_t i = 0; i < inner; i++) {
                long double complex sum = 0;
                for (int64_t j = 0; j < n; j++)
                    sum += matrix[k * n + j] * in[(o * n + j) * inner + i];
                out[(o * n_out + k) * inner + i] = sum;
            }
    free(matrix);
}

long double complex *direct_forward_long(int ndims, const int64_t *shape,
                                         const distfft_kind *kinds, distfft_norm norm,
                                         const long double complex *input)
{
    int64_t current[DISTFFT_MAX_DIMS];
    memcpy(current, shape, (size_t)ndims * sizeof *current);
    int64_t total = product(ndims, shape);
    long double complex *data = malloc((size_t)(total + 1) * sizeof *data);
    memcpy(data, input, (size_t)total * sizeof *data);
    long double logical = 1.0L;
    for (int a = 0; a < ndims; a++) logical *= direct_logical_length(kinds[a], shape[a]);
    for (int a = ndims - 1; a >= 0; a--) {
        if (kinds[a] == DISTFFT_NONE) continue;
        int64_t next[DISTFFT_MAX_DIMS];
        memcpy(next, current, sizeof next);
        next[a] = kinds[a] == DISTFFT_R2C ? shape[a] / 2 + 1 : shape[a];
        long double complex *result = malloc((size_t)(product(ndims, next) + 1) * sizeof *result);
        apply_axis(ndims, current, a, kinds[a], next[a], data, result);
        free(data);
        data = result;
        memcpy(current, next, sizeof next);
    }
    long double scale = norm == DISTFFT_NORM_FORWARD ? 1.0L / logical
                      : norm == DISTFFT_NORM_ORTHO ? 1.0L / sqrtl(logical) : 1.0L;
    total = product(ndims, current);
    for (int64_t i = 0; i < total; i++) data[i] *= scale;
    return data;
}

double complex *direct_forward(int ndims, const int64_t *shape,
                               const distfft_kind *kinds, distfft_norm norm,
                               const double complex *input)
{
    int64_t total = product(ndims, shape), out_total = 1;
    long double complex *wide = calloc((size_t)total + 1, sizeof *wide);
    for (int64_t i = 0; i < total; i++) wide[i] = input[i];
    long double complex *result = direct_forward_long(ndims, shape, kinds, norm, wide);
    for (int a = 0; a < ndims; a++) out_total *= kinds[a] == DISTFFT_R2C ? shape[a] / 2 + 1 : shape[a];
    double complex *narrow = malloc((size_t)(out_total + 1) * sizeof *narrow);
    for (int64_t i = 0; i < out_total; i++) narrow[i] = (double complex)result[i];
    free(wide);
    free(result);
    return narrow;
}

/* Where index k of a padded axis (n retained of m) reads in the full
 * spectrum (distfft.h options.padding): one or two places. */
static int truncation_targets(distfft_kind kind, int64_t n, int64_t m, int64_t k, int64_t *at)
{
    at[0] = k;
    if (kind != DISTFFT_C2C || m == n) return 1;
    if (n % 2 == 0 && k == n / 2) {
        at[1] = m - k;
        return 2;
    }
    if (k > n / 2) at[0] = k + m - n;
    return 1;
}

double complex *direct_truncate(int ndims, const int64_t *shape, const int64_t *padded,
                                const distfft_kind *kinds, const double complex *full)
{
    int64_t out_shape[DISTFFT_MAX_DIMS], full_shape[DISTFFT_MAX_DIMS], stride[DISTFFT_MAX_DIMS];
    int64_t total = 1, step = 1;
    int r2c = -1;
    for (int a = ndims - 1; a >= 0; a--) {
        int half = kinds[a] == DISTFFT_R2C;
        if (half) r2c = a;
        out_shape[a] = half ? shape[a] / 2 + 1 : shape[a];
        full_shape[a] = half ? padded[a] / 2 + 1 : padded[a];
        stride[a] = step;
        step *= full_shape[a];
        total *= out_shape[a];
    }
    double complex *out = malloc((size_t)total * sizeof *out + 1);
    int64_t index[DISTFFT_MAX_DIMS] = {0};
    for (int64_t i = 0; i < total; i++) {
        int64_t at[DISTFFT_MAX_DIMS][2];
        int count[DISTFFT_MAX_DIMS], combos = 1;
        for (int a = 0; a < ndims; a++) {
            count[a] = truncation_targets(kinds[a], shape[a], padded[a], index[a], at[a]);
            combos *= count[a];
        }
        /* r2c's even Nyquist: +N/2 plus its mirror -N/2, the conjugate of
         * the c2c axes' negated index. */
        int fold = r2c >= 0 && padded[r2c] != shape[r2c] && shape[r2c] % 2 == 0 &&
                   index[r2c] == shape[r2c] / 2;
        double complex sum = 0;
        for (int c = 0; c < combos; c++) {
            int64_t offset = 0, mirror = 0;
            for (int a = 0, rest = c; a < ndims; a++) {
                int64_t k = at[a][rest % count[a]];
                rest /= count[a];
                offset += k * stride[a];
                mirror += (kinds[a] == DISTFFT_C2C ? (full_shape[a] - k) % full_shape[a] : k) * stride[a];
            }
            sum += full[offset];
            if (fold) sum += conj(full[mirror]);
        }
        out[i] = sum;
        for (int a = ndims - 1; a >= 0 && ++index[a] == out_shape[a]; a--) index[a] = 0;
    }
    return out;
}
