/*
 * test_tuning_timer.c -- when plan-time tuning has timed a candidate enough
 * (tuning_enough, src/tune/timer.h): steady runs stop at TUNING_MIN_RUNS
 * however fast they are (before, a 0.4 ms pair ran 20 times, and under
 * SMPI those runs were most of a tuned plan's simulation:
 * docs/guide/scale.md), noisy fast runs go on to TUNING_MIN_SECONDS or
 * TUNING_MAX_RUNS, and a clear loser stops after one run. Pure
 * arithmetic, no MPI at run time.
 */
#include <math.h>
#include <stdio.h>

#include "tune/timer.h"

static int failures;

static void expect(int condition, const char *what)
{
    if (!condition) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

/* How many runs a candidate whose r-th run takes times[r] gets. */
static int runs_taken(const double *times, double bound)
{
    int r = 0;
    while (!tuning_enough(times, r, bound)) r++;
    return r;
}

int main(void)
{
    double steady[TUNING_MAX_RUNS], noisy[TUNING_MAX_RUNS], slow[TUNING_MAX_RUNS];
    for (int r = 0; r < TUNING_MAX_RUNS; r++) {
        steady[r] = 0.4e-3;                         /* a fast pair, simulated: identical runs */
        noisy[r] = r % 2 ? 0.4e-3 : 0.6e-3;         /* a fast pair on a busy machine */
        slow[r] = 0.02;                             /* a slow pair: 3 runs exceed 10 ms */
    }
    expect(runs_taken(steady, INFINITY) == TUNING_MIN_RUNS, "steady fast runs stop at TUNING_MIN_RUNS");
    expect(runs_taken(noisy, INFINITY) == TUNING_MAX_RUNS, "noisy fast runs go on to TUNING_MAX_RUNS");
    expect(runs_taken(slow, INFINITY) == TUNING_MIN_RUNS, "slow runs stop at TUNING_MIN_RUNS");
    steady[1] = steady[0] * (1 + TUNING_AGREEMENT / 2);
    expect(runs_taken(steady, INFINITY) == TUNING_MIN_RUNS, "runs within TUNING_AGREEMENT agree");
    steady[1] = steady[0] * (1 + 2 * TUNING_AGREEMENT);
    /* a run beyond TUNING_AGREEMENT: timed on until the last TUNING_MIN_RUNS leave it out */
    expect(runs_taken(steady, INFINITY) == TUNING_MIN_RUNS + 2, "a run beyond TUNING_AGREEMENT: timed on");
    steady[1] = steady[0];
    /* the candidate to beat took 0.25 ms: 0.4 ms is a clear loser after one run */
    expect(runs_taken(steady, 0.25e-3) == 1, "a clear loser stops after one run");
    expect(runs_taken(steady, 0.3e-3) == TUNING_MIN_RUNS, "a close candidate is timed in full");
    /* a first run slowed by noise does not condemn a candidate that is not clearly slower */
    noisy[0] = 0.44e-3; /* below TUNING_LOSER x 0.3 ms */
    noisy[1] = noisy[2] = noisy[3] = 0.29e-3;
    expect(runs_taken(noisy, 0.3e-3) >= TUNING_MIN_RUNS, "a noisy first run of a winner is timed on");
    if (failures == 0) printf("test_tuning_timer: all passed\n");
    return failures ? 1 : 0;
}
