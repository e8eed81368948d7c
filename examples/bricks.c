/*
 * bricks.c -- a brick-decomposed 3-D field through a parallel FFT, the way
 * particle-mesh codes hold theirs (docs/guide/layout-values.md): each rank
 * owns one brick of a 3-D grid of ranks (2x2x2 on 8 ranks), the plan takes
 * the bricks in and gives the spectrum back in the same bricks; the plan
 * reshapes at both ends (its own slabs or pencils in between).
 *
 * The field is one Fourier mode, exp(2 pi i (k . x) / N), so the forward
 * transform must be N^3 at wavenumber k and zero elsewhere; the program
 * checks that on every rank and says so.
 *   mpiexec -n 8 --oversubscribe build/bin/bricks
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "distfft.h"

#define CHECK(call)                                                                    \
    do {                                                                               \
        int rc_ = (call);                                                              \
        if (rc_ != DISTFFT_SUCCESS) {                                                  \
            fprintf(stderr, "%s failed: %s\n", #call, distfft_last_error());          \
            MPI_Abort(MPI_COMM_WORLD, 1);                                              \
        }                                                                              \
    } while (0)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int64_t n[3] = {32, 24, 16}, k[3] = {3, 5, 2};

    /* This rank's brick: a 3-D grid of ranks, balanced blocks on each axis. */
    int dims[3] = {0, 0, 0};
    MPI_Dims_create(size, 3, dims);
    int coords[3] = {rank / (dims[1] * dims[2]), rank / dims[2] % dims[1], rank % dims[2]};
    int64_t start[3], shape[3];
    for (int a = 0; a < 3; a++) distfft_decompose(n[a], dims[a], coords[a], &shape[a], &start[a]);
    distfft_layout bricks;
    CHECK(distfft_layout_from_box(MPI_COMM_WORLD, 3, n, start, shape, &bricks));

    /* A c2c plan whose input and output are the bricks. */
    distfft_options options;
    distfft_options_init(&options);
    options.rigor = DISTFFT_ESTIMATE;
    distfft_plan plan;
    CHECK(distfft_plan_create_layouts(MPI_COMM_WORLD, 3, n, DISTFFT_DOUBLE, &options, bricks, bricks, &plan));
    char text[1024];
    distfft_plan_describe(plan, text, sizeof text);
    if (rank == 0) printf("%s\n", text);

    int64_t count = distfft_layout_count(bricks, rank);
    double complex *u = distfft_malloc((size_t)(count ? count : 1) * sizeof *u);
    double complex *u_hat = distfft_malloc((size_t)(count ? count : 1) * sizeof *u_hat);
    for (int64_t i = 0; i < count; i++) {
        int64_t x[3] = {i / (shape[1] * shape[2]) + start[0], i / shape[2] % shape[1] + start[1],
                        i % shape[2] + start[2]};
        double phase = 0;
        for (int a = 0; a < 3; a++) phase += 2 * 3.14159265358979323846 * (double)(k[a] * x[a]) / (double)n[a];
        u[i] = cexp(I * phase);
    }
    CHECK(distfft_plan_execute(plan, u, u_hat, DISTFFT_FORWARD));

    /* N^3 at k (in whichever brick holds it), zero elsewhere. */
    double error = 0, total = (double)(n[0] * n[1] * n[2]);
    for (int64_t i = 0; i < count; i++) {
        int64_t x[3] = {i / (shape[1] * shape[2]) + start[0], i / shape[2] % shape[1] + start[1],
                        i % shape[2] + start[2]};
        double complex expected = x[0] == k[0] && x[1] == k[1] && x[2] == k[2] ? total : 0;
        error = fmax(error, cabs(u_hat[i] - expected) / total);
    }
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("bricks %dx%dx%d on %d ranks: max error of the spectrum %.2e %s\n", dims[0], dims[1], dims[2],
               size, error, error < 1e-12 ? "(ok)" : "(FAILED)");
    distfft_free(u);
    distfft_free(u_hat);
    distfft_plan_destroy(&plan);
    distfft_layout_destroy(&bricks);
    MPI_Finalize();
    return error < 1e-12 ? 0 : 1;
}
