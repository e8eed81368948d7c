/*
 * steps.h -- where the time and the bytes of one forward+backward pair go:
 * each step of the plan (serial FFTs, exchanges) with its time, the bytes
 * its exchange sends, and the communication volume against the theory
 * (paper 001, Fig. 6: an exchange on groups of M ranks sends a fraction
 * 1 - 1/M of the whole array), and each exchange's time against a memcpy
 * of the local block (the copy floor).
 */
#ifndef BENCH_STEPS_H
#define BENCH_STEPS_H

#include <mpi.h>

#include "distfft.h"

#define BENCH_MAX_STEPS 160

typedef struct {
    int forward;                /* 1 forward, 0 backward */
    char description[96];
    int is_redistribution;
    double seconds;             /* per execution, slowest rank */
    /* The same on the fastest rank. A rank's time in an exchange includes
     * waiting for the last rank to arrive from the step before, so the
     * slowest rank's overstates what the exchange itself costs; the
     * fastest rank's (the last to arrive) is that cost. */
    double seconds_fastest_rank;
    long long bytes_sent_max;   /* per execution, largest over ranks */
    long long bytes_total;      /* per execution, all ranks */
    long long bytes_theory;     /* global_bytes * (1 - 1/M) */
    /* An exchange's copy floor: one memcpy of a rank's share of the array
     * (global_bytes / ranks), every rank copying at once, slowest rank,
     * fastest of 5; 0 for transforms. The exchange cannot beat it by much. */
    double copy_seconds;
    double predicted_seconds;   /* the cost model's, slowest rank (--model) */
} bench_step;

typedef struct {
    int count;
    bench_step steps[BENCH_MAX_STEPS];
    long long volume_bytes;        /* one pair, all ranks */
    long long volume_theory_bytes; /* the same, in theory */
    long long copy_bytes;          /* the last copy floor measured, and its bytes */
    double copy_floor;
    int predicted;                 /* --model: predicted_seconds are set */
    double predicted_pair_seconds; /* their sum over one pair, and the sweeps' */
    double predicted_sweep_seconds; /* the final normalising sweeps (distfft_plan_predict_pair) */
} bench_steps;

/* Run `inner` more pairs with fresh step timers and collect the plan's
 * steps, reduced over comm. Returns DISTFFT_SUCCESS or the library's error
 * (on every rank). Collective. */
int bench_steps_collect(MPI_Comm comm, distfft_plan plan, void *input,
                        void *output, void *roundtrip, int inner,
                        bench_steps *steps);

/* The plan's steps and bytes without running them (times 0):
 * --predict-only. Collective. */
void bench_steps_describe(MPI_Comm comm, distfft_plan plan, bench_steps *steps);

/* --model: the model's prediction of every collected step (the process's
 * model, distfft_model_import_file) and their sum. Returns
 * DISTFFT_SUCCESS or the library's error (on every rank). Collective. */
int bench_steps_predict(distfft_plan plan, bench_steps *steps);

#endif /* BENCH_STEPS_H */
