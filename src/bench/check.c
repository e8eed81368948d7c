/*
 * check.c -- deterministic test input and the error measures of --check.
 *
 * Input values come from a 64-bit mixing function (splitmix64's finaliser)
 * of the linear global index: cheap, decomposition-independent, and without
 * the structure (symmetries, zeros) of analytic test functions that could
 * hide a misplaced block. The serial reference is always computed in double
 * precision so that a float transform is judged against an exact-enough
 * answer, not against another float transform.
 */
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include <fftw3.h>

distfft_type bench_complex_type(distfft_precision precision)
{
    return precision == DISTFFT_FLOAT ? DISTFFT_COMPLEX_FLOAT
                                      : DISTFFT_COMPLEX_DOUBLE;
}

static uint64_t mix64(uint64_t value)
{
    value += 0x9e3779b97f4a7c15u;
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9u;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebu;
    return value ^ (value >> 31);
}

/* Map 53 random bits onto [-1, 1). */
static double to_signed_unit(uint64_t bits)
{
    return (double)(bits >> 11) * 0x1.0p-52 - 1.0;
}

void bench_fill_input(distfft_precision precision, int ndims,
                      const int64_t *global_shape, const int64_t *local_shape,
                      const int64_t *global_start, void *local)
{
    int64_t count = 1;
    int64_t global_stride[DISTFFT_MAX_DIMS];
    int64_t counter[DISTFFT_MAX_DIMS];
    for (int axis = ndims - 1; axis >= 0; --axis) {
        global_stride[axis] =
            axis == ndims - 1 ? 1 : global_stride[axis + 1] * global_shape[axis + 1];
        counter[axis] = 0;
        count *= local_shape[axis];
    }
    double *double_values = local;
    float *float_values = local;
    for (int64_t position = 0; position < count; ++position) {
        int64_t global_index = 0;
        for (int axis = 0; axis < ndims; ++axis)
            global_index += (global_start[axis] + counter[axis]) * global_stride[axis];
        double real = to_signed_unit(mix64(2 * (uint64_t)global_index));
        double imaginary = to_signed_unit(mix64(2 * (uint64_t)global_index + 1));
        if (precision == DISTFFT_FLOAT) {
            float_values[2 * position] = (float)real;
            float_values[2 * position + 1] = (float)imaginary;
        } else {
            double_values[2 * position] = real;
            double_values[2 * position + 1] = imaginary;
        }
        /* Next multi-index in C order. */
        for (int axis = ndims - 1; axis >= 0; --axis) {
            if (++counter[axis] < local_shape[axis])
                break;
            counter[axis] = 0;
        }
    }
}

/* Real and imaginary parts of element `index` as doubles. */
static void element(distfft_precision precision, const void *values,
                    int64_t index, double *real, double *imaginary)
{
    if (precision == DISTFFT_FLOAT) {
        const float *float_values = values;
        *real = float_values[2 * index];
        *imaginary = float_values[2 * index + 1];
    } else {
        const double *double_values = values;
        *real = double_values[2 * index];
        *imaginary = double_values[2 * index + 1];
    }
}

/* max(a, b) that lets a NaN win, so a NaN result can never pass a check. */
static double max_or_nan(double current, double candidate)
{
    return (candidate > current || isnan(candidate)) && !isnan(current)
               ? candidate : current;
}

double bench_max_modulus(distfft_precision precision, const void *values,
                         int64_t count)
{
    double largest = 0.0;
    for (int64_t index = 0; index < count; ++index) {
        double real, imaginary;
        element(precision, values, index, &real, &imaginary);
        largest = max_or_nan(largest, hypot(real, imaginary));
    }
    return largest;
}

double bench_max_difference(distfft_precision precision, const void *first,
                            const void *second, int64_t count)
{
    double largest = 0.0;
    for (int64_t index = 0; index < count; ++index) {
        double first_real, first_imaginary, second_real, second_imaginary;
        element(precision, first, index, &first_real, &first_imaginary);
        element(precision, second, index, &second_real, &second_imaginary);
        largest = max_or_nan(largest, hypot(first_real - second_real,
                                            first_imaginary - second_imaginary));
    }
    return largest;
}

static double forward_scale(distfft_norm norm, int64_t total_elements)
{
    switch (norm) {
    case DISTFFT_NORM_ORTHO: return 1.0 / sqrt((double)total_elements);
    case DISTFFT_NORM_FORWARD: return 1.0 / (double)total_elements;
    case DISTFFT_NORM_BACKWARD: break;
    }
    return 1.0;
}

int bench_serial_error(distfft_precision precision, distfft_norm norm,
                       int ndims, const int64_t *shape, const void *input,
                       const void *output, double *error)
{
    int64_t total = 1;
    fftw_iodim64 dims[DISTFFT_MAX_DIMS];
    for (int axis = ndims - 1; axis >= 0; --axis) {
        dims[axis].n = shape[axis];
        dims[axis].is = dims[axis].os = total; /* C order, in elements */
        total *= shape[axis];
    }
    fftw_complex *reference = fftw_malloc((size_t)total * sizeof(fftw_complex));
    if (reference == NULL)
        return -1;
    /* FFTW_ESTIMATE does not touch the arrays while planning. */
    fftw_plan plan = fftw_plan_guru64_dft(ndims, dims, 0, NULL, reference,
                                          reference, FFTW_FORWARD, FFTW_ESTIMATE);
    if (plan == NULL) {
        fftw_free(reference);
        return -1;
    }
    for (int64_t index = 0; index < total; ++index)
        element(precision, input, index, &reference[index][0], &reference[index][1]);
    fftw_execute(plan);
    fftw_destroy_plan(plan);

    double scale = forward_scale(norm, total);
    double largest_reference = 0.0, largest_difference = 0.0;
    for (int64_t index = 0; index < total; ++index) {
        double real = reference[index][0] * scale;
        double imaginary = reference[index][1] * scale;
        double ours_real, ours_imaginary;
        element(precision, output, index, &ours_real, &ours_imaginary);
        largest_reference = max_or_nan(largest_reference, hypot(real, imaginary));
        largest_difference = max_or_nan(
            largest_difference, hypot(ours_real - real, ours_imaginary - imaginary));
    }
    fftw_free(reference);
    *error = largest_difference / largest_reference;
    return 0;
}

double bench_tolerance(distfft_precision precision, int64_t total_elements)
{
    double epsilon = precision == DISTFFT_FLOAT ? FLT_EPSILON : DBL_EPSILON;
    double elements = total_elements < 2 ? 2.0 : (double)total_elements;
    return 8.0 * epsilon * log2(elements);
}
