/*
 * test_tuning_timer.c -- when plan-time tuning has timed a candidate enough
 * (tuning_enough, src/tune/timer.h): steady runs stop one run after
 * TUNING_MIN_RUNS however fast they are (before, a 0.4 ms pair ran 20
 * times, and under SMPI those runs were most of a tuned plan's simulation:
 * docs/guide/scale.md), noisy ones once their fastest has settled, runs
 * still speeding up go on to TUNING_MAX_RUNS, and a clear loser stops
 * after one run. Pure arithmetic, no MPI at run time. And a timed run in
 * device memory waits for the device's stream before the clock stops
 * (tuning_wait: a stand-in wait here), in host memory for nothing.
 */
#include <math.h>
#include <stdio.h>

#include "redist/copies.h"
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

/* A device's stream wait, standing in: counts its calls and their stream. */
static int waits;
static void *waited_for;

static int count_wait(void *stream)
{
    waits++;
    waited_for = stream;
    return DISTFFT_SUCCESS;
}

static void test_wait(void)
{
    static const redist_ipc device_ipc = {.wait = count_wait};
    redist_copies device = redist_host_copies;
    device.ipc = &device_ipc;
    int stream;
    expect(tuning_wait(&redist_host_copies, &stream) == DISTFFT_SUCCESS && waits == 0,
           "host memory: nothing to wait for");
    expect(tuning_wait(NULL, &stream) == DISTFFT_SUCCESS && waits == 0, "no copies (host): nothing to wait for");
    expect(tuning_wait(&device, &stream) == DISTFFT_SUCCESS && waits == 1 && waited_for == &stream,
           "device memory: the run's stream waited for");
}

int main(void)
{
    test_wait();
    double steady[TUNING_MAX_RUNS], noisy[TUNING_MAX_RUNS], slow[TUNING_MAX_RUNS], warming[TUNING_MAX_RUNS];
    for (int r = 0; r < TUNING_MAX_RUNS; r++) {
        steady[r] = 0.4e-3;                         /* a fast pair, simulated: identical runs */
        noisy[r] = r % 2 ? 0.4e-3 : 0.6e-3;         /* a fast pair on a busy machine */
        slow[r] = 0.02;                             /* a slow pair: 3 runs exceed 10 ms */
        warming[r] = 0.4e-3 * (1.0 - 0.03 * r);     /* each run 3 % faster than the one before */
    }
    expect(runs_taken(steady, INFINITY) == TUNING_MIN_RUNS + 1, "steady fast runs stop at TUNING_MIN_RUNS + 1");
    expect(runs_taken(slow, INFINITY) == TUNING_MIN_RUNS, "slow runs stop at TUNING_MIN_RUNS");
    /* the fastest (run 1) is beaten by no later run: settled once TUNING_MIN_RUNS runs follow it */
    expect(runs_taken(noisy, INFINITY) == TUNING_MIN_RUNS + 2, "noisy fast runs: until the fastest settles");
    expect(runs_taken(warming, INFINITY) == TUNING_MAX_RUNS, "runs still speeding up: timed to TUNING_MAX_RUNS");
    steady[2] = steady[0] * (1 - TUNING_AGREEMENT / 2);
    expect(runs_taken(steady, INFINITY) == TUNING_MIN_RUNS + 1, "a later run within TUNING_AGREEMENT: settled");
    steady[2] = steady[0] * (1 - 2 * TUNING_AGREEMENT);
    expect(runs_taken(steady, INFINITY) == TUNING_MIN_RUNS + 3, "a later run faster beyond TUNING_AGREEMENT: "
                                                                 "timed on until it has settled");
    for (int r = 0; r < TUNING_MAX_RUNS; r++) steady[r] = 0.4e-3;
    /* the candidate to beat took 0.25 ms: 0.4 ms is a clear loser after one run */
    expect(runs_taken(steady, 0.25e-3) == 1, "a clear loser stops after one run");
    expect(runs_taken(steady, 0.3e-3) == TUNING_MIN_RUNS + 1, "a close candidate is timed in full");
    /* a first run slowed by noise, below TUNING_LOSER x the bound, does not condemn a candidate */
    noisy[0] = 0.44e-3;
    noisy[1] = noisy[2] = noisy[3] = 0.29e-3;
    expect(runs_taken(noisy, 0.3e-3) >= TUNING_MIN_RUNS, "a noisy first run of a winner is timed on");
    if (failures == 0) printf("test_tuning_timer: all passed\n");
    return failures ? 1 : 0;
}
