/*
 * blocks.h -- the layout calls on blocks given as (local_shape,
 * global_start) of a global array, for tests that hold blocks that way.
 */
#ifndef DISTFFT_TEST_BLOCKS_H
#define DISTFFT_TEST_BLOCKS_H

#include <stdint.h>

#include <mpi.h>

#include "distfft.h"

/* The layout calls on the layout whose boxes are every rank's block
 * (local_shape at global_start of global_shape): made, used, destroyed.
 * Return the first error (the layout's, if the blocks do not tile the
 * array). Collective on comm. */
int test_gather(MPI_Comm comm, distfft_type type, int ndims, const int64_t *global_shape,
                const int64_t *local_shape, const int64_t *global_start, const void *local,
                int root, void *global);
int test_scatter(MPI_Comm comm, distfft_type type, int ndims, const int64_t *global_shape,
                 const int64_t *local_shape, const int64_t *global_start, const void *global,
                 int root, void *local);
int test_array_write(MPI_Comm comm, const char *path, distfft_type type, int ndims,
                     const int64_t *global_shape, const int64_t *local_shape,
                     const int64_t *global_start, int64_t batch, const void *local);
int test_array_read(MPI_Comm comm, const char *path, distfft_type type, int ndims,
                    const int64_t *global_shape, const int64_t *local_shape,
                    const int64_t *global_start, int64_t batch, void *local);
/* *halo is NULL on failure. */
int test_halo_create(MPI_Comm comm, distfft_type type, int ndims, const int64_t *global_shape,
                     const int64_t *local_shape, const int64_t *global_start,
                     const int64_t *widths_low, const int64_t *widths_high, const int *periodic,
                     int64_t batch, distfft_halo_variant variant, distfft_halo *halo);

#endif
