/*
 * npy.h -- write arrays in NumPy's .npy format (version 1.0).
 *
 * Just enough of the format for distfft-bench --save: one C-ordered array of
 * a distfft element type, readable by numpy.load(). Local (no MPI).
 */
#ifndef BENCH_NPY_H
#define BENCH_NPY_H

#include <stdint.h>

#include "distfft.h"

/* Write the C-ordered array `data` of element type `type` and shape
 * shape[0..ndims-1] (ndims 0..DISTFFT_MAX_DIMS) to the file `path`,
 * replacing it. Complex types are stored as 'c16' / 'c8', real ones as
 * 'f8' / 'f4', in the host's byte order (declared in the header, so '<' on
 * x86-64). Returns 0, or -1 with errno set (EINVAL for a bad argument). */
int npy_write(const char *path, distfft_type type, int ndims,
              const int64_t *shape, const void *data);

#endif /* BENCH_NPY_H */
