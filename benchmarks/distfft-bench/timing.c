/*
 * timing.c -- the paper's timing methodology for distfft-bench.
 *
 * Why the fastest repetition and not the mean: on a shared machine the
 * noise is one-sided (other work only ever slows a run down), so the minimum
 * is the best estimate of what the code itself costs; the median is reported
 * beside it to show how noisy the machine was. The FFT/redistribution split
 * comes from the library's own timers (distfft_plan_timings), reset before
 * every repetition and taken from the fastest one, each part max over ranks.
 */
#include "timing.h"

#include "device.h"

#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *first, const void *second)
{
    double left = *(const double *)first, right = *(const double *)second;
    return (left > right) - (left < right);
}

static double median(double *values, int count)
{
    qsort(values, (size_t)count, sizeof *values, compare_doubles);
    return count % 2 ? values[count / 2]
                     : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}

int bench_time_pairs(MPI_Comm comm, distfft_plan plan, void *input,
                     void *output, void *roundtrip, int inner, int outer,
                     int device, bench_timing *timing)
{
    memset(timing, 0, sizeof *timing);
    double *repetition_seconds = malloc((size_t)outer * sizeof(double));
    int local_failed = repetition_seconds == NULL, any_failed;
    MPI_Allreduce(&local_failed, &any_failed, 1, MPI_INT, MPI_LOR, comm);
    if (any_failed) {
        free(repetition_seconds);
        return DISTFFT_ERR_MEMORY;
    }

    double fastest = -1.0;
    for (int repetition = 0; repetition < outer; ++repetition) {
        int status = distfft_plan_reset_timings(plan);
        if (status != DISTFFT_SUCCESS) { /* only for a NULL plan: on all ranks */
            free(repetition_seconds);
            return status;
        }
        MPI_Barrier(comm);
        double start = MPI_Wtime();
        for (int pair = 0; pair < inner && status == DISTFFT_SUCCESS; ++pair) {
            status = distfft_plan_execute(plan, input, output, DISTFFT_FORWARD);
            if (status == DISTFFT_SUCCESS)
                status = distfft_plan_execute(plan, output, roundtrip, DISTFFT_BACKWARD);
        }
        /* a device plan's work may still be queued: wait before the clock
         * stops (a failure is this rank's: agreed with the times below) */
        int unsynchronized = device && status == DISTFFT_SUCCESS && bench_device_synchronize() != 0;
        double elapsed = MPI_Wtime() - start;
        if (status != DISTFFT_SUCCESS) {
            free(repetition_seconds);
            return status;
        }

        distfft_timings split;
        status = distfft_plan_timings(plan, &split);
        if (status != DISTFFT_SUCCESS) {
            free(repetition_seconds);
            return status;
        }
        double local[4] = {elapsed, split.fft_seconds, split.redistribute_seconds, unsynchronized};
        double slowest[4];
        MPI_Allreduce(local, slowest, 4, MPI_DOUBLE, MPI_MAX, comm);
        if (slowest[3] > 0.0) {
            free(repetition_seconds);
            return DISTFFT_ERR_MEMORY;
        }
        repetition_seconds[repetition] = slowest[0] / inner;
        if (timing->kept < BENCH_TIMING_KEPT)
            timing->pair_seconds_each[timing->kept++] = slowest[0] / inner;
        /* Every rank holds the same reduced numbers, so all pick the same. */
        if (fastest < 0.0 || slowest[0] < fastest) {
            fastest = slowest[0];
            timing->pair_seconds = slowest[0] / inner;
            timing->fft_seconds = slowest[1] / inner;
            timing->redistribute_seconds = slowest[2] / inner;
        }
    }
    timing->pair_seconds_median = median(repetition_seconds, outer);
    free(repetition_seconds);
    return DISTFFT_SUCCESS;
}
