/*
 * timer.h -- how plan-time measurement times one candidate (a method on
 * one exchange, or a whole plan's forward+backward pair).
 */
#ifndef DISTFFT_TUNE_TIMER_H
#define DISTFFT_TUNE_TIMER_H

#include <mpi.h>
#include <stdbool.h>

/* One execution of the candidate; returns DISTFFT_SUCCESS or an error
 * code that every rank of the timing communicator returns alike. */
typedef int (*tuning_run)(void *context);

/* After one untimed warm-up, time executions separated by barriers, each
 * the slowest rank's time (MPI_MAX over comm), until tuning_enough says
 * the runs so far judge the candidate; *seconds is the fastest. `bound`:
 * the fastest time of the candidates timed before this one (INFINITY for
 * the first), so that a clear loser is not timed on; *runs (unless NULL):
 * how many runs were timed. Every rank sees the
 * same reduced times, so every rank runs the same number of times.
 * Collective on comm. */
#define TUNING_MIN_RUNS 3
#define TUNING_MAX_RUNS 20
#define TUNING_MIN_SECONDS 0.01
#define TUNING_AGREEMENT 0.02 /* the fastest settled: not beaten by more than 2 % */
#define TUNING_LOSER 1.5      /* fastest run above 1.5 x bound: a clear loser */
int tuning_time(MPI_Comm comm, tuning_run run, void *context, double bound, double *seconds, int *runs);

/* Whether the `runs` timed runs times[runs] judge the candidate (pure
 * arithmetic, the same on every rank):
 *   - TUNING_MAX_RUNS of them; or
 *   - the fastest is above TUNING_LOSER x bound: it cannot plausibly win
 *     (noise only slows a run down), so it is not timed on; or
 *   - at least TUNING_MIN_RUNS, and either they add up to
 *     TUNING_MIN_SECONDS or the fastest has settled: the last
 *     TUNING_MIN_RUNS runs did not beat the fastest before them by more
 *     than TUNING_AGREEMENT (more runs would measure the same minimum; a
 *     series still speeding up, or a noisy one whose fastest is still
 *     falling, is timed on). Steady fast runs: TUNING_MIN_RUNS + 1.
 * Settling spares a fast candidate runs that would measure the same
 * minimum: timing every candidate until TUNING_MIN_SECONDS would run a
 * fast one up to TUNING_MAX_RUNS times, and under SMPI, where the network
 * is simulated and the FFTs are sampled, those runs would be most of a
 * tuned plan's simulation. */
bool tuning_enough(const double *times, int runs, double bound);

/* Wait for the work a run enqueued in `copies`' memory on `stream` (a
 * device's, whose steps and exchanges may return before their work is
 * done), so that a run's time is its work's, not its enqueueing's; host
 * memory (no ipc table) has nothing to wait for. The device's stream wait
 * is the one its copies lend the cuda-ipc exchange. Local. */
struct redist_copies;
int tuning_wait(const struct redist_copies *copies, void *stream);

#endif
