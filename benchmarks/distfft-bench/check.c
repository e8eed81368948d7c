/*
 * check.c -- deterministic test input and the error measures of --check.
 *
 * Input values come from a 64-bit mixing function (splitmix64's finaliser)
 * of the linear global index: cheap, decomposition-independent, and without
 * the structure (symmetries, zeros) of analytic test functions that could
 * hide a misplaced block. A real input is the real part of the complex one,
 * and a batch continues the index from one field to the next, so a saved
 * batch is one C-ordered array of shape (batch, ...) filled the same way.
 */
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

int bench_type_is_complex(distfft_type type)
{
    return type == DISTFFT_COMPLEX_DOUBLE || type == DISTFFT_COMPLEX_FLOAT;
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

void bench_fill_input(distfft_type type, int ndims, const int64_t *global_shape,
                      const int64_t *local_shape, const int64_t *global_start,
                      int64_t field, void *local)
{
    int64_t count = 1, field_elements = 1;
    int64_t global_stride[DISTFFT_MAX_DIMS];
    int64_t counter[DISTFFT_MAX_DIMS];
    for (int axis = ndims - 1; axis >= 0; --axis) {
        global_stride[axis] = field_elements;
        field_elements *= global_shape[axis];
        counter[axis] = 0;
        count *= local_shape[axis];
    }
    int width = bench_type_is_complex(type) ? 2 : 1;
    double *double_values = local;
    float *float_values = local;
    for (int64_t position = 0; position < count; ++position) {
        int64_t global_index = field * field_elements;
        for (int axis = 0; axis < ndims; ++axis)
            global_index += (global_start[axis] + counter[axis]) * global_stride[axis];
        for (int part = 0; part < width; ++part) {
            double value = to_signed_unit(mix64(2 * (uint64_t)global_index + part));
            if (type == DISTFFT_COMPLEX_FLOAT || type == DISTFFT_REAL_FLOAT)
                float_values[width * position + part] = (float)value;
            else
                double_values[width * position + part] = value;
        }
        /* Next multi-index in C order. */
        for (int axis = ndims - 1; axis >= 0; --axis) {
            if (++counter[axis] < local_shape[axis])
                break;
            counter[axis] = 0;
        }
    }
}

void bench_element(distfft_type type, const void *values, int64_t index,
                   double *real, double *imaginary)
{
    int width = bench_type_is_complex(type) ? 2 : 1;
    if (type == DISTFFT_COMPLEX_FLOAT || type == DISTFFT_REAL_FLOAT) {
        const float *float_values = (const float *)values + width * index;
        *real = float_values[0];
        *imaginary = width == 2 ? float_values[1] : 0.0;
    } else {
        const double *double_values = (const double *)values + width * index;
        *real = double_values[0];
        *imaginary = width == 2 ? double_values[1] : 0.0;
    }
}

double bench_max_or_nan(double current, double candidate)
{
    return (candidate > current || isnan(candidate)) && !isnan(current)
               ? candidate : current;
}

double bench_max_modulus(distfft_type type, const void *values, int64_t count)
{
    double largest = 0.0;
    for (int64_t index = 0; index < count; ++index) {
        double real, imaginary;
        bench_element(type, values, index, &real, &imaginary);
        largest = bench_max_or_nan(largest, hypot(real, imaginary));
    }
    return largest;
}

double bench_max_difference(distfft_type type, const void *first,
                            const void *second, int64_t count)
{
    double largest = 0.0;
    for (int64_t index = 0; index < count; ++index) {
        double first_real, first_imaginary, second_real, second_imaginary;
        bench_element(type, first, index, &first_real, &first_imaginary);
        bench_element(type, second, index, &second_real, &second_imaginary);
        largest = bench_max_or_nan(largest, hypot(first_real - second_real,
                                            first_imaginary - second_imaginary));
    }
    return largest;
}

double bench_tolerance(distfft_precision precision, int64_t total_elements)
{
    double epsilon = precision == DISTFFT_FLOAT ? FLT_EPSILON : DBL_EPSILON;
    double elements = total_elements < 2 ? 2.0 : (double)total_elements;
    return 8.0 * epsilon * log2(elements);
}
