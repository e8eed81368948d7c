/*
 * options.h -- the command line of distfft-bench.
 *
 * Every rank parses the same argv with bench_options_parse(), so every rank
 * reaches the same verdict without communicating: a bad option is a
 * collective failure by construction. Parsing is pure (no MPI, no output);
 * the caller decides which rank prints the message and how to exit.
 *
 * Every option is one row of the table in options.c (name, value, parser,
 * help): the usage text, which options take a value and the dispatch all
 * come from it. Names of methods, kinds, precisions, norms, rigors and
 * placements are the library's (distfft_*_name / _from_name), never copies.
 *
 * --kind and --axes are resolved into one kind per array axis once the
 * whole line is read (the shape may come after them). Only the syntax is
 * judged here; whether a combination of kinds is a valid transform (at most
 * one r2c axis, dct1 on at least two points, batch >= 1) is the
 * library's call, so the bench reports exactly what a user of the library
 * would get.
 */
#ifndef BENCH_OPTIONS_H
#define BENCH_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "distfft.h"

/* Methods one --methods list may name: every concrete one and auto. */
#define BENCH_MAX_METHODS (DISTFFT_MAX_METHODS + 1)

typedef struct {
    int ndims;                          /* number of array axes, 2..16 */
    int64_t shape[DISTFFT_MAX_DIMS];    /* global array shape */
    int grid_ndims;                     /* 0 = auto, 1 = slab, 2 = pencil, ... */
    int grid_dims[DISTFFT_MAX_DIMS];    /* 0 entries are chosen by MPI */
    distfft_precision precision;
    const char *kind;                   /* --kind as given (default "c2c") */
    const char *axes;                   /* --axes as given; NULL: every axis */
    distfft_kind kinds[DISTFFT_MAX_DIMS]; /* per axis, from --kind and --axes */
    int64_t batch;                      /* fields transformed together */
    distfft_method method;
    /* --methods: run every one of these in turn (0: just `method`) */
    int method_count;
    distfft_method methods[BENCH_MAX_METHODS];
    distfft_placement placement;
    int node_size;                      /* 0: real nodes */
    int threads;                        /* per rank (options.threads) */
    distfft_overlap overlap;            /* batched plans: pipelined fields */
    int thread_multiple;                /* --thread-multiple: MPI_THREAD_MULTIPLE (main.c scans
                                         * argv for it, and --overlap progress, before MPI_Init) */
    const char *wisdom_in, *wisdom_out; /* NULL: none */
    const char *fftw_wisdom_in, *fftw_wisdom_out; /* FFTW's wisdom files; NULL: none */
    distfft_rigor rigor;
    distfft_norm norm;
    int inner;                          /* forward+backward pairs per timing */
    int outer;                          /* timed repetitions */
    int check;                          /* nonzero: measure the errors */
    int json;                           /* nonzero: one JSON line */
    int list_methods;                   /* nonzero: print the methods, exit */
    int print_plan;                     /* --print-plan V: rank 0's nested plan on stderr (0: none) */
    int verbose, quiet;                 /* tuning progress on / off (neither:
                                           on when rank 0's stdout is a tty) */
    const char *save_prefix;            /* NULL: do not save arrays */
    const char *calibrate;              /* --calibrate FILE: measure the cost model, exit */
    const char *model;                  /* --model FILE: predict every step */
    int model_force;                    /* accept a model from another machine kind */
    int predict_only;                   /* --predict-only: plan and predict, run nothing */
    int tune_budget;                    /* options.tune_budget */
    int destroy_input;                  /* options.destroy_input */
    distfft_memory memory;              /* options.memory: where the plan's arrays live */
} bench_options;

/* What bench_options_parse() found. */
enum {
    BENCH_OPTIONS_OK = 0, /* run the benchmark */
    BENCH_OPTIONS_HELP,   /* --help was given: print usage, exit 0 */
    BENCH_OPTIONS_BAD     /* message says what is wrong: exit 2 */
};

/* Parse argv[1..argc-1] into *options (defaults for what is not given).
 * On BENCH_OPTIONS_BAD, message (of message_size bytes) names the bad
 * option and value. Pointers in *options point into argv. */
int bench_options_parse(int argc, char **argv, bench_options *options,
                        char *message, size_t message_size);

/* --check and --save read the transforms' results, which SMPI's memory
 * folding and sampled computation make garbage (src/platform_smpi.c): with
 * either switched on they are refused. `fold` and `sample` are the values
 * of DISTFFT_SMPI_FOLD and DISTFFT_SMPI_SAMPLE (NULL: unset) in an SMPI
 * build, NULL in any other (nothing is folded or sampled there), read by
 * the library's rule (src/platform_smpi.c: a number above 0 is on).
 * BENCH_OPTIONS_OK, or BENCH_OPTIONS_BAD with the message. Pure. */
int bench_options_check_simulation(const bench_options *options, const char *fold, const char *sample,
                                   char *message, size_t message_size);

/* The usage text. */
void bench_options_print_usage(FILE *stream, const char *program);

/* --list-methods: the library's concrete methods, one name per line. */
void bench_options_print_methods(FILE *stream);

#endif /* BENCH_OPTIONS_H */
