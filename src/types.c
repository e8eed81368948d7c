/*
 * types.c -- element types, aligned memory, shape arithmetic (see types.h).
 */
#include <stdio.h>
#include <fftw3.h>

#include "types.h"

#include "platform.h"

bool type_is_valid(distfft_type type)
{
    return type == DISTFFT_COMPLEX_DOUBLE || type == DISTFFT_COMPLEX_FLOAT ||
           type == DISTFFT_REAL_DOUBLE || type == DISTFFT_REAL_FLOAT;
}

size_t distfft_type_size(distfft_type type)
{
    switch (type) {
    case DISTFFT_COMPLEX_DOUBLE: return 2 * sizeof(double);
    case DISTFFT_COMPLEX_FLOAT: return 2 * sizeof(float);
    case DISTFFT_REAL_DOUBLE: return sizeof(double);
    case DISTFFT_REAL_FLOAT: return sizeof(float);
    }
    return 0;
}

MPI_Datatype type_mpi(distfft_type type)
{
    switch (type) {
    case DISTFFT_COMPLEX_DOUBLE: return MPI_C_DOUBLE_COMPLEX;
    case DISTFFT_COMPLEX_FLOAT: return MPI_C_FLOAT_COMPLEX;
    case DISTFFT_REAL_DOUBLE: return MPI_DOUBLE;
    case DISTFFT_REAL_FLOAT: return MPI_FLOAT;
    }
    return MPI_DATATYPE_NULL;
}

distfft_type type_complex(distfft_precision precision)
{
    return precision == DISTFFT_FLOAT ? DISTFFT_COMPLEX_FLOAT
                                      : DISTFFT_COMPLEX_DOUBLE;
}

distfft_type type_real(distfft_precision precision)
{
    return precision == DISTFFT_FLOAT ? DISTFFT_REAL_FLOAT : DISTFFT_REAL_DOUBLE;
}

distfft_precision type_precision(distfft_type type)
{
    return type == DISTFFT_COMPLEX_FLOAT || type == DISTFFT_REAL_FLOAT ? DISTFFT_FLOAT : DISTFFT_DOUBLE;
}

bool type_is_complex(distfft_type type)
{
    return type == DISTFFT_COMPLEX_DOUBLE || type == DISTFFT_COMPLEX_FLOAT;
}

bool precision_is_valid(distfft_precision precision)
{
    return precision == DISTFFT_DOUBLE || precision == DISTFFT_FLOAT || precision == DISTFFT_LONG_DOUBLE;
}

/* The platform's allocator (platform.h): FFTW's, aligned. */
void *distfft_malloc(size_t bytes) { return platform_malloc(bytes); }

void distfft_free(void *pointer) { platform_free(pointer); }

int64_t shape_product(int ndims, const int64_t *shape)
{
    int64_t product = 1;
    for (int i = 0; i < ndims; i++) product *= shape[i];
    return product;
}

int64_t shape_count_bounded(int ndims, const int64_t *shape, int64_t batch)
{
    const int64_t limit = INT64_C(1) << 59;
    int64_t count = batch;
    if (count < 0 || count > limit) return -1;
    for (int i = 0; i < ndims; i++) {
        if (shape[i] < 0) return -1;
        if (shape[i] == 0) return 0;
        if (count > limit / shape[i]) return -1;
        count *= shape[i];
    }
    return count;
}

void shape_format(int ndims, const int64_t *shape, char *text, size_t size)
{
    size_t used = 0;
    text[0] = '\0';
    for (int i = 0; i < ndims && used < size; i++) {
        int n = snprintf(text + used, size - used, i ? "x%lld" : "%lld",
                         (long long)shape[i]);
        if (n < 0) break;
        used += (size_t)n;
    }
}
