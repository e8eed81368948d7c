/*
 * timing.h -- time forward+backward pairs the way the paper does.
 *
 * `outer` repetitions, each: MPI_Barrier, then `inner` forward+backward
 * pairs timed with MPI_Wtime, the elapsed time reduced with MPI_MAX over the
 * ranks (a parallel transform is as slow as its slowest rank). The fastest
 * repetition, divided by `inner`, is the reported time of one pair.
 */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <mpi.h>

#include "distfft.h"

/* Repetitions whose times are kept in order (pair_seconds_each). */
enum { BENCH_TIMING_KEPT = 64 };

typedef struct {
    double pair_seconds;          /* fastest repetition / inner */
    double pair_seconds_median;   /* median repetition / inner */
    double fft_seconds;           /* per pair, fastest repetition, max over ranks */
    double redistribute_seconds;  /* the same for the redistributions */
    /* each repetition / inner, max over ranks, in the order run (the first
     * BENCH_TIMING_KEPT): same-round ratios of single repetitions */
    double pair_seconds_each[BENCH_TIMING_KEPT];
    int kept;
} bench_timing;

/* Run and time the pairs: forward(input -> output), backward(output ->
 * roundtrip). input is not modified. With `device` (a device plan on
 * device arrays) each repetition waits for the device before its clock
 * stops. Returns DISTFFT_SUCCESS, the library's error code (every rank
 * fails together; distfft_last_error() says why), or DISTFFT_ERR_MEMORY
 * (also where the device could not be waited for on some rank).
 * Collective on comm, which must span the plan's ranks. */
int bench_time_pairs(MPI_Comm comm, distfft_plan plan, void *input,
                     void *output, void *roundtrip, int inner, int outer,
                     int device, bench_timing *timing);

#endif /* BENCH_TIMING_H */
