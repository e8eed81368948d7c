/*
 * step.h -- one step of a parallel transform, and the one interface every
 * kind of step implements (as FFTW's plans do: apply, print, destroy).
 *
 * A plan is a list of steps [fft, exchange, fft, exchange, ...] (paper 000
 * Sec. 3.3-3.6; backward is the list reversed, each step inverted). What a
 * step does is plain data, a step_spec, decided by the step algebra
 * (plan/algebra.c) without MPI or FFTW. Each layer then makes the objects
 * of its own steps from their specs:
 *   serial/fft_step.c       serial FFTs along axes of the local block
 *   serial/weights_step.c   per-axis weights (the Chebyshev scaling)
 *   redist/exchange_step.c  a global redistribution on one sub-communicator,
 *                           and a reshape at an end in a caller's layout
 * and the plan only runs them in order, reading from and writing to the
 * slots the algebra assigned.
 */
#ifndef DISTFFT_STEP_H
#define DISTFFT_STEP_H

#include <stdbool.h>
#include <stdint.h>

#include "distfft.h"
#include "serial/serial_fft.h"
#include "text.h"

/* Where a step reads or writes: the caller's arrays, a work buffer, or
 * the plan's own block at an end whose layout the caller chose (the
 * buffer a reshape at that end fills or empties). */
typedef enum { SLOT_INPUT, SLOT_OUTPUT, SLOT_WORK0, SLOT_WORK1, SLOT_END_INPUT, SLOT_END_OUTPUT,
               SLOT_COUNT } step_slot;

/* STEP_RESHAPE: the reshape between a caller's layout and the plan's own
 * blocks at one end of a plan (plan/ends.c); it moves the whole batch at
 * once, also in a plan run field by field. */
typedef enum { STEP_FFT, STEP_EXCHANGE, STEP_WEIGHTS, STEP_RESHAPE } step_kind;

typedef struct {
    step_kind kind;
    int ndims;                        /* of the array; a leading batch */
    int64_t batch;                    /* dimension of this many fields */
    serial_spec fft;                  /* STEP_FFT: the serial transform */
    int grid_direction;               /* STEP_EXCHANGE: on P_grid_direction (-1: a reshape), */
    int axis_in, axis_out;            /* from alignment axis_in to axis_out */
    int weights_axis;                 /* STEP_WEIGHTS: along this axis */
    int weights_table;                /* STEP_WEIGHTS: 0 forward, 1 backward */
    int64_t weights_length;           /* STEP_WEIGHTS: the transform's length (padded: M) */
    int64_t in_shape[DISTFFT_MAX_DIMS], out_shape[DISTFFT_MAX_DIMS]; /* local */
    distfft_type in_type, out_type;
    int64_t in_count, out_count;      /* local elements, batch included */
    bool out_of_place;
    step_slot src, dst;
    int64_t global_bytes;             /* exchanges and reshapes: the whole array, all ranks */
    int threads;                      /* per rank (options.threads) */
} step_spec;

typedef struct step step;

typedef struct {
    /* Run the step (in and out are the arrays of its src and dst slots).
     * Collective for exchanges; returns DISTFFT_SUCCESS or an error code. */
    int (*execute)(const step *self, const void *in, void *out);
    /* Append the step as one node of a plan's tree, without parentheses:
     * "fft c2c axes=1,2", "redist alltoallw 2->1 on P1". */
    void (*describe)(const step *self, text *out);
    /* Fill the step-specific fields of the public record (the exchange's
     * method and bytes); the plan fills the rest. May be NULL. */
    void (*report)(const step *self, distfft_step *info);
    /* Free the step and whatever it holds, all of it even when an MPI free
     * fails; returns the first failure. */
    int (*destroy)(step *self);
    /* Multiply every output of the step by `factor` from now on, inside
     * the pass it makes anyway (the plan's normalisation, folded into a
     * step that already touches the data); false when the step cannot
     * (then the plan scales in a sweep of its own). May be NULL (cannot).
     * Local; called at plan time only. */
    bool (*fold_scale)(step *self, double factor);
    /* Exchanges: start non-blocking (complete with MPI_Wait(request); a
     * method that cannot sets MPI_REQUEST_NULL after running blocking).
     * NULL for local steps. Collective. */
    int (*start)(const step *self, const void *in, void *out, MPI_Request *request);
    /* The step's own children in a plan's nested print, each a node at
     * `depth` (text_node): an exchange's inner phases (verbosity >= 1), a
     * transform's FFTW plan (verbosity >= 2). As this rank sees them; may
     * be NULL (no children). Local. */
    void (*children)(const step *self, int verbosity, int depth, text *out);
} step_ops;

/* Every step object starts with this; its own fields follow. */
struct step {
    const step_ops *ops;
    step_spec spec;
};

/* Whether a step moves data between ranks (its time is redistribution). */
static inline bool step_communicates(const step_spec *spec)
{
    return spec->kind == STEP_EXCHANGE || spec->kind == STEP_RESHAPE;
}

/* Free any step (NULL is a no-op); the first failure. */
static inline int step_destroy(step *s)
{
    return s ? s->ops->destroy(s) : DISTFFT_SUCCESS;
}

/* The constructors, each in its layer's room. All local; they may fail on
 * some ranks only (the plan agrees on the outcome). */

/* serial/fft_step.c: plan the FFTW transform on the planning arrays
 * (plan_in, and plan_out when the step is out of place). A padded
 * transform (spec->fft.retained) runs through `scratch`, a buffer of the
 * plan's (algebra's scratch_bytes) kept by the step; so does the copy of
 * the input a multi-axis c2r that must keep it makes (serial_needs_copy). */
int fft_step_create(const step_spec *spec, void *plan_in, void *plan_out, void *scratch, step **out);

/* serial/weights_step.c: a Chebyshev weights step (spec->weights_table). */
int weights_step_create(const step_spec *spec, step **out);

/* redist/exchange_step.c: an exchange step running `redist`, which the
 * step then owns; on failure redist stays the caller's (its free may be
 * collective: free it after agreeing on the failure). */
int exchange_step_create(const step_spec *spec, distfft_redist redist, step **out);

/* redist/exchange_step.c: a reshape step at one end of a plan, running
 * `reshape` forward (its input layout to its output layout) or backward;
 * `end` names it ("in" or "out"). The step borrows the reshape (the
 * plan's ends own it: one reshape serves both directions). */
struct distfft_reshape_s;
int reshape_step_create(const step_spec *spec, const struct distfft_reshape_s *reshape, bool forward,
                        const char *end, step **out);

#endif
