/*
 * appendix_b.c -- the paper's Appendix B on distfft: a full 4D complex FFT
 * of a 16x17x18x19 array with a 3D process grid, forward and backward.
 *
 * The paper preallocates four differently shaped arrays and calls three
 * exchanges by hand; the plan keeps the intermediate arrays in two work
 * buffers and runs the seven steps of Eqs. (26-32) in one call:
 *
 *   [fft axis 3, exchange 3->2 on P2, fft axis 2, exchange 2->1 on P1,
 *    fft axis 1, exchange 1->0 on P0, fft axis 0]
 *
 *   mpiexec -n 8 ./appendix_b            # on a 2x2x2 grid
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>

#include "distfft.h"

int main(int argc, char *argv[])
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    // Global 4D array sizes, planned on a 3D process grid
    const int64_t N[4] = {16, 17, 18, 19};
    distfft_options options;
    distfft_options_init(&options);
    options.grid_ndims = 3;
    distfft_plan plan;
    if (distfft_plan_create(MPI_COMM_WORLD, 4, N, DISTFFT_DOUBLE, &options,
                            &plan) != DISTFFT_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "appendix_b: %s\n", distfft_last_error());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    // Local blocks: input aligned in axis 3 (the paper's sizesA), output
    // aligned in axis 0 (sizesD)
    int64_t sizesA[4], startA[4], sizesD[4];
    distfft_plan_input_block(plan, sizesA, startA);
    distfft_plan_output_block(plan, sizesD, NULL);
    int64_t nA = sizesA[0] * sizesA[1] * sizesA[2] * sizesA[3];
    int64_t nD = sizesD[0] * sizesD[1] * sizesD[2] * sizesD[3];
    double complex *arrayA = distfft_malloc((size_t)nA * sizeof *arrayA);
    double complex *arrayD = distfft_malloc((size_t)nD * sizeof *arrayD);
    double complex *result = distfft_malloc((size_t)nA * sizeof *result);

    // Fill with the global linear index j, as the paper fills j + j*i
    int64_t j = 0;
    for (int64_t i0 = 0; i0 < sizesA[0]; i0++)
        for (int64_t i1 = 0; i1 < sizesA[1]; i1++)
            for (int64_t i2 = 0; i2 < sizesA[2]; i2++)
                for (int64_t i3 = 0; i3 < sizesA[3]; i3++, j++) {
                    int64_t g = (((startA[0] + i0) * N[1] + startA[1] + i1) *
                                     N[2] + startA[2] + i2) * N[3] +
                                startA[3] + i3;
                    arrayA[j] = (double)g + (double)g * I;
                }

    // Forward and backward FFT (backward is scaled by 1/N: the inverse)
    int rc = distfft_plan_execute(plan, arrayA, arrayD, DISTFFT_FORWARD);
    if (rc == DISTFFT_SUCCESS)
        rc = distfft_plan_execute(plan, arrayD, result, DISTFFT_BACKWARD);

    // Check the round trip relative to the largest value, on every rank
    double error = 0.0, largest = 1.0;
    for (int64_t k = 0; k < nA; k++) {
        error = fmax(error, cabs(result[k] - arrayA[k]));
        largest = fmax(largest, cabs(arrayA[k]));
    }
    double local[2] = {error, largest}, global[2];
    MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double relative = global[0] / global[1];
    int ok = rc == DISTFFT_SUCCESS && relative < 1e-12;

    if (rank == 0) {
        int grid_ndims, dims[DISTFFT_MAX_DIMS];
        distfft_plan_grid(plan, &grid_ndims, dims);
        printf("appendix_b: 16x17x18x19 on a %dx%dx%d grid, relative "
               "max |backward(forward(u)) - u| = %.2e: %s\n",
               dims[0], dims[1], dims[2], relative, ok ? "OK" : "FAILED");
    }

    distfft_free(arrayA);
    distfft_free(arrayD);
    distfft_free(result);
    distfft_plan_destroy(&plan);
    MPI_Finalize();
    return ok ? 0 : 1;
}
