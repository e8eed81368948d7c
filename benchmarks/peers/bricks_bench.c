/*
 * bricks_bench.c -- distfft-bricks-bench: a brick-in / brick-out c2c
 * transform (issue 22), the case heFFTe is used for. Each rank owns one
 * brick of a 3-D grid of ranks (MPI_Dims_create over 3 axes: 2x2x2 on 8),
 * the plan takes the bricks in and returns the spectrum in the same bricks
 * (distfft_plan_create_layouts, reshapes at both ends). heffte_bricks.cpp
 * does the same with heFFTe on the same boxes; benchmarks/bricks_vs_heffte.py
 * runs both. Prints one JSON line: the best forward+backward pair (each the
 * slowest rank's time) and the round-trip error.
 *   usage: distfft-bricks-bench NX NY NZ [REPEATS [METHOD]]
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "distfft.h"

static void require(int rc, const char *what)
{
    if (rc == DISTFFT_SUCCESS) return;
    fprintf(stderr, "distfft-bricks-bench: %s: %s\n", what, distfft_last_error());
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 4) {
        if (rank == 0) fprintf(stderr, "usage: distfft-bricks-bench NX NY NZ [REPEATS [METHOD]]\n");
        MPI_Finalize();
        return 2;
    }
    int64_t n[3] = {atoll(argv[1]), atoll(argv[2]), atoll(argv[3])};
    int repeats = argc > 4 ? atoi(argv[4]) : 10;
    distfft_options options;
    distfft_options_init(&options);
    if (argc > 5) require(distfft_method_from_name(argv[5], &options.method), "method");
    options.rigor = DISTFFT_MEASURE;

    int dims[3] = {0, 0, 0};
    MPI_Dims_create(size, 3, dims);
    int coords[3] = {rank / (dims[1] * dims[2]), rank / dims[2] % dims[1], rank % dims[2]};
    int64_t start[3], shape[3];
    for (int a = 0; a < 3; a++) distfft_decompose(n[a], dims[a], coords[a], &shape[a], &start[a]);
    distfft_layout bricks;
    require(distfft_layout_from_box(MPI_COMM_WORLD, 3, n, start, shape, &bricks), "bricks");
    double begin = MPI_Wtime();
    distfft_plan plan;
    require(distfft_plan_create_layouts(MPI_COMM_WORLD, 3, n, DISTFFT_DOUBLE, &options, bricks, bricks, &plan),
            "plan");
    double plan_seconds = MPI_Wtime() - begin;

    int64_t count = distfft_layout_count(bricks, rank);
    double complex *u = distfft_malloc((size_t)(count ? count : 1) * sizeof *u);
    double complex *u_hat = distfft_malloc((size_t)(count ? count : 1) * sizeof *u_hat);
    double complex *v = distfft_malloc((size_t)(count ? count : 1) * sizeof *v);
    for (int64_t i = 0; i < count; i++) u[i] = sin(0.37 * (double)i) + I * cos(0.11 * (double)i);
    double best = INFINITY;
    for (int r = 0; r < repeats; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        require(distfft_plan_execute(plan, u, u_hat, DISTFFT_FORWARD), "forward");
        require(distfft_plan_execute(plan, u_hat, v, DISTFFT_BACKWARD), "backward");
        t = MPI_Wtime() - t;
        MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (t < best) best = t;
    }
    double error = 0;
    for (int64_t i = 0; i < count; i++) error = fmax(error, cabs(v[i] - u[i]));
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    char text[1024];
    distfft_plan_describe(plan, text, sizeof text);
    for (char *c = text; *c; c++)
        if (*c == '"') *c = '\'';
    if (rank == 0)
        printf("{\"library\": \"distfft\", \"shape\": [%lld, %lld, %lld], \"ranks\": %d, \"bricks\": [%d, %d, %d], "
               "\"repeats\": %d, \"pair_seconds\": %.6e, \"plan_seconds\": %.3e, \"max_error\": %.3e, "
               "\"plan\": \"%s\"}\n",
               (long long)n[0], (long long)n[1], (long long)n[2], size, dims[0], dims[1], dims[2], repeats, best,
               plan_seconds, error, text);
    distfft_free(u);
    distfft_free(u_hat);
    distfft_free(v);
    distfft_plan_destroy(&plan);
    distfft_layout_destroy(&bricks);
    MPI_Finalize();
    return error < 1e-10 ? 0 : 1;
}
