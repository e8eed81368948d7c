/*
 * reference.c -- a serial forward transform of every kind, one axis at a
 * time, for distfft-bench --check.
 *
 * Deliberately plain: the array is held as double complex throughout (real
 * data as complex with zero imaginary part, which every real-to-real kind
 * keeps zero), and each axis is one FFTW 1-D guru64 plan with every other
 * axis as a "howmany" loop:
 *   r2c        first, from the real input into a complex array whose axis
 *              has n/2+1 points;
 *   c2c        an in-place 1-D DFT, sign -1;
 *   dct/dst    FFTW's REDFT/RODFT00..11, in place on the real and the
 *              imaginary parts (one more loop of 2, stride 1 double);
 *   cheb       REDFT00, then a_k /= c_k (n-1), c_0 = c_{n-1} = 2, else 1;
 * then the whole array is scaled by the normalisation, with N the product of
 * the logical lengths (n for c2c and r2c, 2(n-1) for dct1, 2(n+1) for dst1,
 * 2n for the other dct/dst, 1 for cheb and none). Axes of different kinds
 * commute (each is a real or complex linear map along its own axis), so the
 * order does not matter except that r2c, which needs real data, comes first.
 */
#include "reference.h"

#include <math.h>

#include <fftw3.h>

#include "check.h" /* reading elements; the NaN-proof maximum */

static int is_real_to_real(distfft_kind kind)
{
    return kind != DISTFFT_C2C && kind != DISTFFT_R2C && kind != DISTFFT_NONE;
}

void bench_reference_types(int ndims, const distfft_kind *kinds,
                           distfft_precision precision,
                           distfft_type *input_type, distfft_type *output_type)
{
    int has_r2c = 0, has_c2c = 0;
    for (int axis = 0; axis < ndims; ++axis) {
        has_r2c |= kinds[axis] == DISTFFT_R2C;
        has_c2c |= kinds[axis] == DISTFFT_C2C;
    }
    distfft_type real = precision == DISTFFT_FLOAT ? DISTFFT_REAL_FLOAT
                                                   : DISTFFT_REAL_DOUBLE;
    distfft_type complex = precision == DISTFFT_FLOAT ? DISTFFT_COMPLEX_FLOAT
                                                      : DISTFFT_COMPLEX_DOUBLE;
    *input_type = has_r2c || !has_c2c ? real : complex;
    *output_type = has_r2c || has_c2c ? complex : real;
}

void bench_reference_output_shape(int ndims, const int64_t *shape,
                                  const distfft_kind *kinds,
                                  int64_t *output_shape)
{
    for (int axis = 0; axis < ndims; ++axis)
        output_shape[axis] =
            kinds[axis] == DISTFFT_R2C ? shape[axis] / 2 + 1 : shape[axis];
}

static fftw_r2r_kind fftw_kind(distfft_kind kind)
{
    switch (kind) {
    case DISTFFT_DCT2: return FFTW_REDFT10;
    case DISTFFT_DCT3: return FFTW_REDFT01;
    case DISTFFT_DCT4: return FFTW_REDFT11;
    case DISTFFT_DST1: return FFTW_RODFT00;
    case DISTFFT_DST2: return FFTW_RODFT10;
    case DISTFFT_DST3: return FFTW_RODFT01;
    case DISTFFT_DST4: return FFTW_RODFT11;
    case DISTFFT_R2HC: return FFTW_R2HC;
    case DISTFFT_HC2R: return FFTW_HC2R;
    case DISTFFT_DHT: return FFTW_DHT;
    default: return FFTW_REDFT00; /* dct1 and cheb */
    }
}

double bench_logical_length(distfft_kind kind, int64_t n)
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

/* C-order strides (in elements) of `shape`, and the element count. */
static int64_t strides_of(int ndims, const int64_t *shape, int64_t *strides)
{
    int64_t total = 1;
    for (int axis = ndims - 1; axis >= 0; --axis) {
        strides[axis] = total;
        total *= shape[axis];
    }
    return total;
}

/* The loops over every axis but `axis`, strides scaled by in_unit/out_unit;
 * returns how many. */
static int loops_except(int ndims, int axis, const int64_t *shape,
                        const int64_t *in_strides, int64_t in_unit,
                        const int64_t *out_strides, int64_t out_unit,
                        fftw_iodim64 *loops)
{
    int count = 0;
    for (int other = 0; other < ndims; ++other)
        if (other != axis)
            loops[count++] = (fftw_iodim64){shape[other],
                                            in_strides[other] * in_unit,
                                            out_strides[other] * out_unit};
    return count;
}

/* Forward transform of one field, in place in `data` (of the output shape;
 * for an r2c plan `real` holds the real input). Returns 0 or -1. */
static int transform_field(int ndims, const int64_t *shape,
                           const int64_t *output_shape,
                           const distfft_kind *kinds, double *real,
                           fftw_complex *data)
{
    int64_t strides[DISTFFT_MAX_DIMS], real_strides[DISTFFT_MAX_DIMS];
    strides_of(ndims, output_shape, strides);
    strides_of(ndims, shape, real_strides);
    fftw_iodim64 loops[DISTFFT_MAX_DIMS + 1];
    /* FFTW_ESTIMATE plans without touching the arrays. */
    for (int axis = 0; axis < ndims; ++axis) {
        if (kinds[axis] != DISTFFT_R2C)
            continue;
        fftw_iodim64 dim = {shape[axis], real_strides[axis], strides[axis]};
        int count = loops_except(ndims, axis, shape, real_strides, 1, strides,
                                 1, loops);
        fftw_plan plan = fftw_plan_guru64_dft_r2c(1, &dim, count, loops, real,
                                                  data, FFTW_ESTIMATE);
        if (plan == NULL)
            return -1;
        fftw_execute(plan);
        fftw_destroy_plan(plan);
    }
    for (int axis = 0; axis < ndims; ++axis) {
        distfft_kind kind = kinds[axis];
        int64_t n = output_shape[axis];
        fftw_plan plan = NULL;
        if (kind == DISTFFT_C2C) {
            fftw_iodim64 dim = {n, strides[axis], strides[axis]};
            int count = loops_except(ndims, axis, output_shape, strides, 1,
                                     strides, 1, loops);
            plan = fftw_plan_guru64_dft(1, &dim, count, loops, data, data,
                                        FFTW_FORWARD, FFTW_ESTIMATE);
        } else if (is_real_to_real(kind)) {
            /* In doubles: the real part at 2i, the imaginary part at 2i+1. */
            fftw_iodim64 dim = {n, 2 * strides[axis], 2 * strides[axis]};
            int count = loops_except(ndims, axis, output_shape, strides, 2,
                                     strides, 2, loops);
            loops[count++] = (fftw_iodim64){2, 1, 1};
            fftw_r2r_kind r2r_kind = fftw_kind(kind);
            plan = fftw_plan_guru64_r2r(1, &dim, count, loops, (double *)data,
                                        (double *)data, &r2r_kind,
                                        FFTW_ESTIMATE);
        } else {
            continue; /* r2c (done) or none */
        }
        if (plan == NULL)
            return -1;
        fftw_execute(plan);
        fftw_destroy_plan(plan);
        if (kind == DISTFFT_CHEB) {
            int64_t total = strides[0] * output_shape[0];
            for (int64_t index = 0; index < total; ++index) {
                int64_t k = index / strides[axis] % n;
                double c = (k == 0 || k == n - 1) ? 2.0 : 1.0;
                data[index][0] /= c * (double)(n - 1);
                data[index][1] /= c * (double)(n - 1);
            }
        }
    }
    return 0;
}

int bench_reference_error(distfft_precision precision, distfft_norm norm,
                          int ndims, const int64_t *shape,
                          const distfft_kind *kinds, int64_t batch,
                          const void *input, const void *output,
                          double *error)
{
    distfft_type input_type, output_type;
    bench_reference_types(ndims, kinds, precision, &input_type, &output_type);
    int64_t output_shape[DISTFFT_MAX_DIMS], strides[DISTFFT_MAX_DIMS];
    bench_reference_output_shape(ndims, shape, kinds, output_shape);
    int64_t input_total = strides_of(ndims, shape, strides);
    int64_t output_total = strides_of(ndims, output_shape, strides);
    int has_r2c = 0;
    double logical_total = 1.0;
    for (int axis = 0; axis < ndims; ++axis) {
        has_r2c |= kinds[axis] == DISTFFT_R2C;
        logical_total *= bench_logical_length(kinds[axis], shape[axis]);
    }
    double scale = norm == DISTFFT_NORM_ORTHO     ? 1.0 / sqrt(logical_total)
                   : norm == DISTFFT_NORM_FORWARD ? 1.0 / logical_total
                                                  : 1.0;

    fftw_complex *data = fftw_malloc((size_t)output_total * sizeof *data);
    double *real = has_r2c ? fftw_malloc((size_t)input_total * sizeof *real)
                           : NULL;
    int status = data == NULL || (has_r2c && real == NULL) ? -1 : 0;
    double largest_reference = 0.0, largest_difference = 0.0;
    for (int64_t field = 0; field < batch && status == 0; ++field) {
        for (int64_t index = 0; index < input_total; ++index) {
            double re, im;
            bench_element(input_type, input, field * input_total + index, &re,
                          &im);
            if (has_r2c) {
                real[index] = re;
            } else {
                data[index][0] = re;
                data[index][1] = im;
            }
        }
        status = transform_field(ndims, shape, output_shape, kinds, real, data);
        for (int64_t index = 0; index < output_total && status == 0; ++index) {
            double re = data[index][0] * scale, im = data[index][1] * scale;
            double ours_re, ours_im;
            bench_element(output_type, output, field * output_total + index,
                          &ours_re, &ours_im);
            largest_reference =
                bench_max_or_nan(largest_reference, hypot(re, im));
            largest_difference = bench_max_or_nan(
                largest_difference, hypot(ours_re - re, ours_im - im));
        }
    }
    fftw_free(data);
    fftw_free(real);
    if (status == 0)
        *error = largest_difference / largest_reference;
    return status;
}
