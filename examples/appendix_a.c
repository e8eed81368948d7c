/*
 * appendix_a.c -- the paper's Appendix A on distfft: a full 3D complex FFT
 * with a 2D pencil decomposition, forward and backward.
 *
 * The paper's listing builds the sub-communicators, the three differently
 * aligned arrays and the two exchanges by hand; a distfft plan does all of
 * that once, at create time. The paper's 42x127x256 array is scaled down
 * along the last axis (pass three extents to change it):
 *
 *   mpiexec -n 4 ./appendix_a            # 42x127x64 on a 2x2 grid
 *   mpiexec -n 4 ./appendix_a 42 127 256
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "distfft.h"

int main(int argc, char *argv[])
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    // Global 3D array sizes
    int64_t N[3] = {42, 127, 64};
    if (argc == 4)
        for (int i = 0; i < 3; i++)
            N[i] = atoll(argv[i + 1]);

    // Plan on a 2D process grid (pencils); MPI_Dims_create picks its shape
    distfft_options options;
    distfft_options_init(&options);
    options.grid_ndims = 2;
    distfft_plan plan;
    if (distfft_plan_create(MPI_COMM_WORLD, 3, N, DISTFFT_DOUBLE, &options,
                            &plan) != DISTFFT_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "appendix_a: %s\n", distfft_last_error());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    // Local blocks: input aligned in axis 2 (the paper's sizesA), output
    // aligned in axis 0 (sizesC)
    int64_t sizesA[3], startA[3], sizesC[3];
    distfft_plan_input_block(plan, sizesA, startA);
    distfft_plan_output_block(plan, sizesC, NULL);
    int64_t nA = sizesA[0] * sizesA[1] * sizesA[2];
    int64_t nC = sizesC[0] * sizesC[1] * sizesC[2];
    double complex *arrayA = distfft_malloc((size_t)nA * sizeof *arrayA);
    double complex *arrayC = distfft_malloc((size_t)nC * sizeof *arrayC);
    double complex *result = distfft_malloc((size_t)nA * sizeof *result);

    // Fill with a function of the global index (j0, j1, j2)
    for (int64_t i0 = 0, j = 0; i0 < sizesA[0]; i0++)
        for (int64_t i1 = 0; i1 < sizesA[1]; i1++)
            for (int64_t i2 = 0; i2 < sizesA[2]; i2++, j++) {
                double j0 = (double)(startA[0] + i0);
                double j1 = (double)(startA[1] + i1);
                double j2 = (double)(startA[2] + i2);
                arrayA[j] = sin(j0 + 2 * j1) + cos(j2) * I;
            }

    // Forward FFT: [fft axis 2, exchange 2->1 on P1, fft axis 1,
    //               exchange 1->0 on P0, fft axis 0]; backward reverses it
    int rc = distfft_plan_execute(plan, arrayA, arrayC, DISTFFT_FORWARD);
    if (rc == DISTFFT_SUCCESS) // backward is scaled by 1/N: the inverse
        rc = distfft_plan_execute(plan, arrayC, result, DISTFFT_BACKWARD);

    // Check the round trip on every rank, then agree on the verdict
    double error = 0.0;
    for (int64_t j = 0; j < nA; j++)
        error = fmax(error, cabs(result[j] - arrayA[j]));
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    int ok = rc == DISTFFT_SUCCESS && error < 1e-12;

    if (rank == 0) {
        int grid_ndims, dims[DISTFFT_MAX_DIMS];
        distfft_plan_grid(plan, &grid_ndims, dims);
        printf("appendix_a: %lldx%lldx%lld on a %dx%d grid, "
               "max |backward(forward(u)) - u| = %.2e: %s\n",
               (long long)N[0], (long long)N[1], (long long)N[2], dims[0],
               dims[1], error, ok ? "OK" : "FAILED");
    }

    distfft_free(arrayA);
    distfft_free(arrayC);
    distfft_free(result);
    distfft_plan_destroy(&plan);
    MPI_Finalize();
    return ok ? 0 : 1;
}
