// heffte_bricks.cpp -- heffte-bricks-bench: heFFTe's brick-in / brick-out
// c2c transform on the same bricks as distfft-bricks-bench (a 3-D grid of
// ranks from MPI_Dims_create, balanced blocks as distfft_decompose: the
// first n mod M parts one point more), FFTW backend. Built by
// benchmarks/bricks_vs_heffte.py against a heFFTe source checkout; prints
// one JSON line like distfft-bricks-bench's.
//   usage: heffte-bricks-bench NX NY NZ [REPEATS]
// Array order: NX is the slowest axis (C order, as distfft); heFFTe's box
// index 0 is its fastest, so boxes are given reversed.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "heffte.h"

static void block(long long n, int parts, int part, long long &length, long long &start)
{
    long long q = n / parts, r = n % parts;
    length = q + (part < r ? 1 : 0);
    start = part * q + std::min<long long>(part, r);
}

// Plan, time, check and print; returns the round-trip error. The fft3d
// object lives in this function: its destructor frees MPI communicators,
// which must happen before MPI_Finalize.
static double measure(const long long n[3], int repeats, int rank, int size)
{
    int dims[3] = {0, 0, 0};
    MPI_Dims_create(size, 3, dims);
    int coords[3] = {rank / (dims[1] * dims[2]), rank / dims[2] % dims[1], rank % dims[2]};
    long long start[3], shape[3];
    for (int a = 0; a < 3; a++) block(n[a], dims[a], coords[a], shape[a], start[a]);
    heffte::box3d<> box({int(start[2]), int(start[1]), int(start[0])},
                        {int(start[2] + shape[2] - 1), int(start[1] + shape[1] - 1), int(start[0] + shape[0] - 1)});
    double begin = MPI_Wtime();
    heffte::fft3d<heffte::backend::fftw> fft(box, box, MPI_COMM_WORLD);
    double plan_seconds = MPI_Wtime() - begin;
    std::vector<std::complex<double>> u(fft.size_inbox()), u_hat(fft.size_outbox()), v(fft.size_inbox());
    std::vector<std::complex<double>> work(fft.size_workspace());
    for (size_t i = 0; i < u.size(); i++) u[i] = {std::sin(0.37 * double(i)), std::cos(0.11 * double(i))};
    double best = std::numeric_limits<double>::infinity();
    for (int r = 0; r < repeats; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        fft.forward(u.data(), u_hat.data(), work.data());
        fft.backward(u_hat.data(), v.data(), work.data(), heffte::scale::full);
        t = MPI_Wtime() - t;
        MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        best = std::min(best, t);
    }
    double error = 0;
    for (size_t i = 0; i < u.size(); i++) error = std::max(error, std::abs(v[i] - u[i]));
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        std::printf("{\"library\": \"heffte\", \"shape\": [%lld, %lld, %lld], \"ranks\": %d, \"bricks\": [%d, %d, %d], "
                    "\"repeats\": %d, \"pair_seconds\": %.6e, \"plan_seconds\": %.3e, \"max_error\": %.3e}\n",
                    n[0], n[1], n[2], size, dims[0], dims[1], dims[2], repeats, best, plan_seconds, error);
    return error;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 4) {
        if (rank == 0) std::fprintf(stderr, "usage: heffte-bricks-bench NX NY NZ [REPEATS]\n");
        MPI_Finalize();
        return 2;
    }
    long long n[3] = {std::atoll(argv[1]), std::atoll(argv[2]), std::atoll(argv[3])};
    double error = measure(n, argc > 4 ? std::atoi(argv[4]) : 10, rank, size);
    MPI_Finalize();
    return error < 1e-10 ? 0 : 1;
}
