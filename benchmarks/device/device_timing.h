/*
 * device_timing.h -- how the device benchmarks (cuda_bench.c,
 * exchange_bench.c) time one variant: the fastest of `inner` runs after
 * one untimed, each started after a barrier and ended by the device (the
 * run waits for it), the slowest rank's time.
 */
#ifndef DISTFFT_DEVICE_TIMING_H
#define DISTFFT_DEVICE_TIMING_H

#include <mpi.h>

/* run(context): 0 when it ran and the device finished it. Returns the
 * time, or < 0 when a run failed on some rank. Collective on
 * MPI_COMM_WORLD. */
static inline double device_time_fastest(int (*run)(void *), void *context, int inner)
{
    int failed = run(context) != 0;
    double fastest = 1e300, slowest = 0.0;
    for (int i = 0; i < inner && !failed; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        failed |= run(context) != 0;
        double seconds = MPI_Wtime() - start;
        if (seconds < fastest) fastest = seconds;
    }
    int any_failed = 0;
    MPI_Allreduce(&fastest, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return any_failed ? -1.0 : slowest;
}

#endif
