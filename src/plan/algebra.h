/*
 * algebra.h -- the step algebra of a parallel transform: which axes each
 * step transforms, which alignments each exchange moves between, which
 * slots (caller's arrays, work buffers) each step reads and writes, and how
 * large the work buffers are. Pure arithmetic: no MPI, no FFTW, no memory
 * but the caller's; unit-tested in tests/unit/test_algebra.c.
 */
#ifndef DISTFFT_PLAN_ALGEBRA_H
#define DISTFFT_PLAN_ALGEBRA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../step.h"

#define ALGEBRA_MAX_STEPS (4 * DISTFFT_MAX_DIMS + 4)

/* What the steps depend on: the agreed request and this rank's place on
 * the grid. */
typedef struct {
    int ndims;
    int64_t shape[DISTFFT_MAX_DIMS];       /* spectral (retained) lengths, as requested */
    int64_t padded[DISTFFT_MAX_DIMS];      /* physical lengths M (= shape where not padded) */
    bool complex_data;                     /* real-to-real kinds on complex data */
    bool in_place;                         /* in == out: one caller buffer */
    distfft_kind kinds[DISTFFT_MAX_DIMS];
    distfft_precision precision;
    int64_t batch;
    distfft_rigor rigor;
    distfft_norm norm;
    bool destroy_input;
    int threads;                           /* per rank, for every step */
    /* The step after each exchange works out of place, so the exchange
     * writes a work buffer -- which a method with a shared output (shm)
     * makes in its window, for one copy -- and that step moves the data
     * on as it transforms it. */
    bool exchanges_into_work;
    int grid_ndims;
    int grid_dims[DISTFFT_MAX_DIMS];
    int grid_coords[DISTFFT_MAX_DIMS];
} algebra_input;

typedef struct {
    step_spec forward[ALGEBRA_MAX_STEPS], backward[ALGEBRA_MAX_STEPS];
    int forward_count, backward_count;
    distfft_type input_type, output_type;
    int64_t in_shape[DISTFFT_MAX_DIMS];    /* physical global shape (padded) */
    int64_t out_shape[DISTFFT_MAX_DIMS];   /* spectral global shape */
    int64_t input_local[DISTFFT_MAX_DIMS], input_start[DISTFFT_MAX_DIMS];
    int64_t output_local[DISTFFT_MAX_DIMS], output_start[DISTFFT_MAX_DIMS];
    size_t work_bytes[2];                  /* the two work buffers */
    size_t largest_bytes;                  /* largest array any step touches */
    size_t scratch_bytes;                  /* padded transforms' scratch, or a fused c2r's
                                              copy of the input it keeps (0: none) */
    size_t local_bytes;                    /* the caller's buffer (in-place: in == out) */
    double forward_scale, backward_scale;  /* normalisation (see distfft_norm) */
} algebra_steps;

/* The forward and backward steps of the transform, with their slots and
 * the work sizes. The input must be valid (distfft_plan_create checks). */
void algebra_build(const algebra_input *input, algebra_steps *steps);

/* The working order of the axes (the top of algebra.c): the untransformed
 * axes first, then the transformed ones. Returns how many are
 * untransformed. */
int algebra_working_order(int ndims, const distfft_kind *kinds, int *order);

/* The grid direction whose exchanges send the most bytes off-rank, which
 * node-aware placement keeps inside nodes. */
int algebra_busy_direction(int grid_ndims, const int *grid_dims, int untransformed);

/* The padded (physical) length of an axis of spectral length n:
 * floor(factor * n), mpi4py-fft's rule. */
int64_t algebra_padded_length(int64_t n, double factor);

#endif
