/*
 * report.h -- print the results of one distfft-bench run.
 *
 * Either one JSON object on one line (--json; meant to be appended to a
 * results file and compared later, so it carries its context: shape, ranks,
 * grid, method, MPI library, plan) or readable "key: value" lines.
 * Called on one rank only.
 */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "options.h"
#include "steps.h"
#include "timing.h"

typedef struct {
    distfft_method method;        /* the method this run asked for */
    int ranks;
    int grid_ndims;
    int grid_dims[DISTFFT_MAX_DIMS];
    distfft_type input_type, output_type; /* the plan's element types */
    bench_timing timing;
    size_t work_bytes;            /* largest on any rank */
    double plan_seconds;          /* distfft_plan_create (tuning included), slowest rank */
    int checked;                  /* --check ran: the errors below are set */
    double roundtrip_error;
    int has_serial_error;         /* the serial reference was computed */
    double serial_error;
    double tolerance;
    int passed;
    const char *plan_description; /* distfft_plan_describe text */
    const char *mpi_library;      /* first line of MPI_Get_library_version */
    const bench_steps *steps;     /* per-step breakdown (NULL: none) */
} bench_results;

void bench_report_json(FILE *stream, const bench_options *options,
                       const bench_results *results);
void bench_report_text(FILE *stream, const bench_options *options,
                       const bench_results *results);

/* --methods: one row per run, the fastest pair time marked with '*'. */
void bench_report_methods(FILE *stream, const bench_options *options,
                          const bench_results *results, int count);

#endif /* BENCH_REPORT_H */
