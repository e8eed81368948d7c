/*
 * progress.h -- saying what plan-time tuning measures, as it goes.
 *
 * Tuning a large plan takes seconds to minutes (every method on every
 * exchange of every candidate grid). With options.verbose, or the
 * environment variable DISTFFT_VERBOSE set to a nonzero number, rank 0 of
 * the plan's communicator writes one line to stderr per measurement, e.g.
 *
 *   distfft: tuning grid 2/5 (2x2): exchange 1/4: isend-waitall 0.84 ms (method 3/7)
 *
 * Printing only: no rank waits for it, and no choice depends on it.
 */
#ifndef DISTFFT_TUNE_PROGRESS_H
#define DISTFFT_TUNE_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include <mpi.h>

typedef struct {
    bool enabled;     /* verbose, and rank 0 of the tuning communicator */
    int grid, grids;  /* the candidate grid being built, 1-based, of grids (0: none) */
    char grid_name[64];
    int exchange, exchanges; /* the exchange being tuned, 0-based, of exchanges */
} tune_progress;

/* Enabled when `verbose` is nonzero or DISTFFT_VERBOSE is a nonzero number,
 * on rank 0 of the tuning communicator only (`rank`: this rank's). Local. */
void progress_init(tune_progress *progress, int rank, int verbose);

/* Candidate `index` (0-based) of `count`, of extents dims[ndims], whose plan
 * makes `exchanges` exchanges (forward and backward). */
void progress_grid(tune_progress *progress, int index, int count, int ndims, const int *dims,
                   int exchanges);

/* "AxBxC" of grid extents dims[ndims], into buffer (truncated to size). */
void progress_grid_name(char *buffer, size_t size, int ndims, const int *dims);

/* One line "distfft: tuning[ grid i/n (AxB)]: <text>" on stderr when
 * enabled. progress may be NULL (then nothing). */
void progress_say(const tune_progress *progress, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* The line of one timed method of the current exchange. */
void progress_method(const tune_progress *progress, const char *method, int index, int count,
                     double seconds);

#endif
