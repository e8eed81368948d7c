/*
 * types.h -- element types: sizes, MPI datatypes, precisions, and the small
 * shape arithmetic every module needs (products in 64 bits).
 */
#ifndef DISTFFT_TYPES_H
#define DISTFFT_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <mpi.h>

#include "distfft.h"

bool type_is_valid(distfft_type type);
MPI_Datatype type_mpi(distfft_type type);
distfft_type type_complex(distfft_precision precision);
distfft_type type_real(distfft_precision precision);
distfft_precision type_precision(distfft_type type);
bool type_is_complex(distfft_type type);
bool precision_is_valid(distfft_precision precision);

/* Product of shape[0..ndims-1]; 1 for ndims == 0. */
int64_t shape_product(int ndims, const int64_t *shape);

/* Elements in `batch` blocks of `shape` (all factors >= 0), or -1 when
 * that is more than 2^59: the bound that keeps the byte count of any element
 * type, and sums of a few, within int64_t. Never overflows. */
int64_t shape_count_bounded(int ndims, const int64_t *shape, int64_t batch);

/* "5x7x11" into text (size bytes). */
void shape_format(int ndims, const int64_t *shape, char *text, size_t size);

#endif
