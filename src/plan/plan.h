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
#include "../redist/reshape.h"
#include "../redist/redist.h"
#include "algebra.h"

/* What one plan creation derives from the caller's communicator once and
 * shares with every candidate plan tuning builds (each new communicator
 * costs an agreement on a context id, and SimGrid's SMPI charges
 * MPI_Comm_dup about P^2):
 *   comm  the creation's private duplicate of the caller's communicator
 *         (errors returned). Candidates borrow it one after the other --
 *         each is built, timed and freed before the next, so no message of
 *         one can meet another's -- and the plan that is kept adopts it
 *         (owns_comm), so every plan still talks on its own duplicate.
 *   node  this rank's shared-memory node: the lowest rank of comm on it,
 *         plus one; 0 until plan_comms_node finds it, the first time a
 *         candidate needs it (node placement, node-aware methods, the
 *         cost model's topology).
 *   rank, size  this rank's in comm and comm's, asked once, before the
 *         creation's first agreement: an MPI_Comm_rank or _size failing on
 *         one rank only is agreed there, not met later by a rank alone. */
typedef struct {
    MPI_Comm comm;
    int node;
    int rank, size;
} plan_comms;

/* comms->node, found (one MPI_Comm_split_type on comms->comm, agreed) the
 * first time. Collective on comms->comm: every rank asks at the same
 * point, as what asks (placement, methods, options) is agreed. */
int plan_comms_node(plan_comms *comms, int *node);

/* How the plan gets the redistribution of each exchange (tune/ decides:
 * a fixed method, a measured one, or wisdom's). `exchange` counts the
 * exchanges of the plan, forward then backward. Collective on comms->comm
 * (which contains subcomm); the result is agreed over it. */
typedef struct {
    int (*make)(void *context, int exchange, MPI_Comm subcomm, plan_comms *comms,
                const redist_geometry *geometry, distfft_redist *redist);
    void *context;
} exchange_maker;

/* How tuning chose a plan (tune/ returns it; the plan keeps it as one
 * value, for describe). Tuning tries its strategies in this order and
 * reports the first that applies. */
typedef enum {
    TUNING_NONE = 0,      /* nothing measured: method and grid as asked, or rigor estimate */
    TUNING_WISDOM,        /* wisdom's choice, nothing measured */
    TUNING_MODEL,         /* the cost model's ranking; its `timed` best candidates measured
                           * (0: its first choice, untimed) */
    TUNING_MEASURED,      /* every candidate measured (`timed` grids; 0: one grid, its methods) */
} tuning_strategy;

typedef struct {
    tuning_strategy strategy;
    int timed;            /* candidates whose pair was timed */
    double seconds;       /* spent choosing, wall time */
} tuning_report;

/* The agreed arguments of distfft_plan_create. */
typedef struct {
    int ndims;
    int64_t shape[DISTFFT_MAX_DIMS];
    distfft_precision precision;
    distfft_options options;          /* grid_ndims > 0 and grid_dims complete */
} plan_request;

enum { PLAN_FORWARD = 0, PLAN_BACKWARD = 1 };

/* progress_thread.c: overlap PROGRESS's helper thread. */
typedef struct plan_progress plan_progress;

/* A batched plan run field by field (overlap ON, FIELDS, PROGRESS; run.c):
 * the steps are one field's, run `fields` times; field k of a slot's array
 * starts k strides in. Otherwise fields = 1, mode OFF, and the steps move
 * the whole batch. */
typedef struct {
    int64_t fields;
    distfft_overlap mode;             /* ON: pipelined; FIELDS: each field through every
                                       * step in turn, one field's work buffers;
                                       * PROGRESS: pipelined with a helper thread */
    plan_progress *progress;          /* that helper, testing the exchanges in flight
                                       * (NULL without exchanges: one rank) */
    size_t field_stride[2][SLOT_COUNT]; /* [list][slot] bytes */
} plan_pipeline;

/* The most steps a list holds: the algebra's, and a reshape at each end. */
#define PLAN_MAX_STEPS (ALGEBRA_MAX_STEPS + 2)

struct distfft_plan_s {
    MPI_Comm comm;                    /* its creation's duplicate of the caller's (plan_comms) */
    bool owns_comm;                   /* comm is this plan's to free: the plan kept, not a
                                       * candidate that borrows its creation's */
    int node;                         /* plan_comms.node as its creation left it (0: not found) */
    distfft_grid grid;
    plan_request request;
    algebra_steps algebra;            /* what the plan's own steps do, as data */
    /* The two lists [PLAN_FORWARD / PLAN_BACKWARD]: the algebra's steps,
     * and the reshapes at the ends in the caller's layouts (ends.c). */
    int count[2];
    step *steps[2][PLAN_MAX_STEPS];
    /* [list][step] an exchange's output in shared memory (its method's,
     * redist_shared_output), which stands in for the buffer of its dst
     * slot from that step on in a run; NULL: the slot's own. */
    void *exchange_output[2][PLAN_MAX_STEPS];
    double step_seconds[2][PLAN_MAX_STEPS];
    /* [list][step] a device plan's marks around the step on its stream
     * (its backend's marks, made at the step's first run; NULL: the clock
     * times it), and whether the last run's marks are still to be added
     * to step_seconds (plan_step_seconds reads them meanwhile). */
    void *step_marks[2][PLAN_MAX_STEPS];
    bool step_marked[2][PLAN_MAX_STEPS];
    /* The buffers of the slots the plan owns [slot - SLOT_WORK0]: the two
     * work buffers, and the plan's own blocks at reshaped ends. */
    void *work[SLOT_COUNT - SLOT_WORK0];
    size_t work_size[SLOT_COUNT - SLOT_WORK0];
    size_t shared_bytes;              /* of the exchanges' shared outputs together */
    /* The largest work need of its local steps beside its buffers (the
     * backend's step_work_bytes: cuFFT's work area, shared per process),
     * and what its steps hold of their own, together. */
    size_t step_work_bytes;
    size_t step_held_bytes;
    void *scratch;                    /* padded transforms' (algebra.scratch_bytes) */
    double sweep_scale[2];            /* normalisation left to a final sweep (1: none) */
    int comm_size;
    plan_pipeline pipeline;           /* a batch run field by field (run.c) */
    distfft_timings timings;
    int64_t executions[2];
    tuning_report tuning;             /* how its choices were made (tune/'s report) */
    struct plan_ends *ends;           /* the caller's layouts at the ends (ends.c), or NULL */
    lifetime_tag lifetime;            /* its number on the caller's communicator (lifetime.h) */
};

/* Build a plan for the request (its grid given) on comms->comm, borrowed
 * (the plan does not free it unless its creator sets owns_comm); the grid
 * is built on it without a duplicate; the exchanges' redistributions come
 * from `maker`. Collective on comms->comm. */
int plan_build(plan_comms *comms, const plan_request *request, const exchange_maker *maker,
               struct distfft_plan_s **plan);

/* The algebra's input for a request on a grid (dims and this rank's
 * coords, DISTFFT_MAX_DIMS entries each) -- what plan_build uses; also
 * for predicting a candidate without building it (tune/). Local. */
algebra_input plan_algebra_input(const plan_request *request, int grid_ndims, const int *grid_dims,
                                 const int *grid_coords);


/* Whether a step of `spec`, its exchange run by `method`, takes a plan's
 * normalisation `factor` into a pass it makes anyway (else the plan
 * scales in a sweep of its own). The one rule: plan creation folds by it,
 * the model's ranking of candidates prices the sweep by it. Pure. */
bool plan_step_folds(const step_spec *spec, distfft_method method, double factor);

/* The steps of a direction (PLAN_FORWARD or PLAN_BACKWARD): how many,
 * and the spec of one. */
static inline int plan_list_length(const struct distfft_plan_s *plan, int list)
{
    return plan->count[list];
}

static inline const step_spec *plan_list_spec(const struct distfft_plan_s *plan, int list, int index)
{
    return &plan->steps[list][index]->spec;
}

/* How many times a step runs in one execution of its list: once per field
 * in a plan run field by field, except a reshape at an end, which moves
 * the whole batch at once. */
static inline int64_t plan_step_runs(const struct distfft_plan_s *plan, const step_spec *spec)
{
    return spec->kind == STEP_RESHAPE ? 1 : plan->pipeline.fields;
}

/* ---- run.c: running a plan ---- */

/* Run one direction on arrays the caller has checked. Collective. */
int plan_run(struct distfft_plan_s *plan, int list, void *in, void *out);

/* Seconds of step s of a list since the last reset: the clock's around
 * each run, or a device plan's marks on its stream (the last run's read
 * here, waiting for it to finish). Local. */
double plan_step_seconds(const struct distfft_plan_s *plan, int list, int s);

/* Local block sizes in bytes of the caller's input and output of a
 * direction (in its layout, where the caller chose one). */
size_t plan_in_bytes(const struct distfft_plan_s *plan, int list);
size_t plan_out_bytes(const struct distfft_plan_s *plan, int list);

/* Can a plan of these one-field steps be pipelined (every field of the
 * caller's arrays aligned)? Set the strides. */
bool pipeline_possible(const algebra_steps *algebra);
void pipeline_strides(struct distfft_plan_s *plan);

/* progress_thread.c (see there). *available: overlap PROGRESS can run in
 * this process (MPI_THREAD_MULTIPLE, not an SMPI build). Local. */
int plan_progress_available(bool *available);
/* May this process run `threads` threads and the helper on cores of
 * their own, `node_ranks` processes on its node? False where the node's
 * online cores are fewer than node_ranks x (threads + 1), or this
 * process's CPU affinity holds fewer than threads + 1 (an MPI that binds
 * each rank to one core: the helper would take the FFTs' core); true
 * where neither can be read. Local. */
bool plan_progress_spare_core(int threads, int node_ranks);
/* Start the helper (idle until begun); *progress NULL on failure. Local. */
int plan_progress_create(plan_progress **progress);
/* Hand `count` requests in flight to the helper, which tests them until
 * they complete or plan_progress_end; the caller leaves them alone in
 * between. */
void plan_progress_begin(plan_progress *progress, MPI_Request *requests, int count);
/* Take the requests back (completed ones are MPI_REQUEST_NULL); an MPI
 * error of the helper's tests is returned (and recorded) here. */
int plan_progress_end(plan_progress *progress);
/* Stop and join the helper, free its state (NULL: no-op). Local. */
void plan_progress_free(plan_progress *progress);

/* Free everything, even when an MPI free fails (NULL: no-op). Returns
 * the first failure (a message is recorded only then). */
int plan_free(struct distfft_plan_s *plan);

/* distfft_plan_release of a non-NULL handle pointer, parking *companion
 * (a language binding's communicator beside the plan; may be NULL) with
 * the plan's own (lifetime_release_with). */
int plan_release(distfft_plan *plan, MPI_Comm *companion);

/* ---- ends.c: the caller's layouts at the two ends of a plan ---- */

enum { PLAN_END_INPUT = 0, PLAN_END_OUTPUT = 1 };

/* Keep the caller's layouts (owned from now on; either NULL) and the
 * reshapes between them and the plan's own blocks (owned; NULL where the
 * layouts are equal), and put each reshape into both lists as a step:
 * forward, the input's first (caller's layout to the plan's) and the
 * output's last (the plan's to the caller's); backward the reverse. The
 * plan's own steps then read and write the buffers of the plan's blocks
 * at those ends, allocated here. Local; may fail on some ranks only (the
 * caller agrees; the plan then owns what it was given). */
int plan_attach_ends(struct distfft_plan_s *plan, struct distfft_layout_s *layouts[2],
                     struct distfft_reshape_s *reshapes[2]);

/* The caller's layout of an end, or NULL (the plan's own blocks). */
const struct distfft_layout_s *plan_end_layout(const struct distfft_plan_s *plan, int end);

/* This rank's box of the caller's layout at an end (into local_shape and
 * global_start, either may be NULL): false when the end has none. */
bool plan_end_box(const struct distfft_plan_s *plan, int end, int64_t *local_shape, int64_t *global_start);

/* Free the ends (NULL plan->ends: no-op) after the steps that borrow
 * their reshapes, all of them even when a free fails; returns the first
 * failure. */
int plan_ends_free(struct distfft_plan_s *plan);

/* Threads of this process inside plan creation or destruction (FFTW's
 * planner, wisdom: one thread at a time). plan_planner_enter returns how
 * many were inside before this one; each enter is matched by a leave. */
int plan_planner_enter(void);
void plan_planner_leave(void);

#endif
