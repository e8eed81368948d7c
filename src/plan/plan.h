/*
 * plan.h -- the plan object: a composition of steps (step.h) on a process
 * grid, the two work buffers they share, and what the plan reports about
 * itself. The plan does not choose anything: the grid and the method of
 * each exchange come from above (tune/), through plan_build's arguments.
 */
#ifndef DISTFFT_PLAN_PLAN_H
#define DISTFFT_PLAN_PLAN_H

#include <stdbool.h>
#include <mpi.h>

#include "../grid.h"
#include "../redist/redist.h"
#include "algebra.h"

/* How the plan gets the redistribution of each exchange (tune/ decides:
 * a fixed method, a measured one, or wisdom's). `exchange` counts the
 * exchanges of the plan, forward then backward. Collective on plan_comm
 * (which contains subcomm); the result is agreed over plan_comm. */
typedef struct {
    int (*make)(void *context, int exchange, MPI_Comm subcomm, MPI_Comm plan_comm,
                const redist_geometry *geometry, distfft_redist *redist);
    void *context;
} exchange_maker;

/* The agreed arguments of distfft_plan_create. */
typedef struct {
    int ndims;
    int64_t shape[DISTFFT_MAX_DIMS];
    distfft_precision precision;
    distfft_options options;          /* grid_ndims > 0 and grid_dims complete */
} plan_request;

enum { PLAN_FORWARD = 0, PLAN_BACKWARD = 1 };

struct distfft_plan_s {
    MPI_Comm comm;                    /* our duplicate of the caller's */
    distfft_grid grid;
    plan_request request;
    algebra_steps algebra;            /* what every step does, as data */
    step *steps[2][ALGEBRA_MAX_STEPS];/* [PLAN_FORWARD / PLAN_BACKWARD][step] */
    void *work[2];
    double sweep_scale[2];            /* normalisation left to a final sweep (1: none) */
    int folded_step[2];               /* the step the normalisation went into, if any */
    int comm_size;
    /* Pipelined (overlap ON, pipeline.c): the steps are one field's, run
     * `fields` times; field k of a slot's array starts k strides in.
     * Otherwise fields = 1 and the steps move the whole batch. */
    int64_t fields;
    bool one_by_one;                  /* overlap FIELDS: each field through every
                                       * step in turn, one field's work buffers */
    size_t field_stride[2][4];        /* [list][slot] bytes */
    size_t work_size[2];              /* bytes allocated per work buffer */
    void *scratch;                    /* padded transforms' (algebra.scratch_bytes) */
    distfft_timings timings;
    double step_seconds[2][ALGEBRA_MAX_STEPS];
    int64_t executions[2];
    double tuning_seconds;            /* set by tune/: grids and methods measured */
    int grids_measured;               /* candidates timed (0: none) */
    bool from_wisdom;                 /* choices taken from wisdom */
};

/* Build a plan for the request (its grid given) on a duplicate of comm;
 * the exchanges' redistributions come from `maker`. Collective on comm. */
int plan_build(MPI_Comm comm, const plan_request *request, const exchange_maker *maker,
               struct distfft_plan_s **plan);

/* Run one direction on arrays the caller has checked. Collective. */
int plan_run(struct distfft_plan_s *plan, int list, void *in, void *out);

/* Local block sizes in bytes of the input and output of a direction. */
size_t plan_in_bytes(const struct distfft_plan_s *plan, int list);
size_t plan_out_bytes(const struct distfft_plan_s *plan, int list);

/* pipeline.c: can a plan of these one-field steps be pipelined (every
 * field of the caller's arrays aligned)? Set the strides; run one
 * direction field by field. */
bool pipeline_possible(const algebra_steps *algebra);
void pipeline_strides(struct distfft_plan_s *plan);
int pipeline_run(struct distfft_plan_s *plan, int list, void *const *slots);

/* Free without touching the error message (cleanup paths). NULL: no-op. */
void plan_free(struct distfft_plan_s *plan);

/* Threads of this process inside plan creation or destruction (FFTW's
 * planner, wisdom: one thread at a time). plan_planner_enter returns how
 * many were inside before this one; each enter is matched by a leave. */
int plan_planner_enter(void);
void plan_planner_leave(void);

#endif
