/*
 * timer.h -- how plan-time measurement times one candidate (a method on
 * one exchange, or a whole plan's forward+backward pair).
 */
#ifndef DISTFFT_TUNE_TIMER_H
#define DISTFFT_TUNE_TIMER_H

#include <mpi.h>

/* One execution of the candidate; returns DISTFFT_SUCCESS or an error
 * code that every rank of the timing communicator returns alike. */
typedef int (*tuning_run)(void *context);

/* After one untimed warm-up, time executions separated by barriers, each
 * the slowest rank's time (MPI_MAX over comm), at least TUNING_MIN_RUNS of
 * them and more while they add up to less than TUNING_MIN_SECONDS (so a
 * fast candidate is not judged on 3 noisy samples), at most
 * TUNING_MAX_RUNS. *seconds is the fastest. Every rank sees the same
 * reduced times, so every rank runs the same number of times. Collective
 * on comm. */
#define TUNING_MIN_RUNS 3
#define TUNING_MAX_RUNS 20
#define TUNING_MIN_SECONDS 0.01
int tuning_time(MPI_Comm comm, tuning_run run, void *context, double *seconds);

#endif
