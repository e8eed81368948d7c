/*
 * tune.h -- the one room that owns measured choices (paper 001's run-time
 * tuning): the method of each exchange ("auto"), the process grid, and
 * wisdom, which remembers both. Everything here sits above the plan, the
 * redistribution objects and the cost model (model/), and builds or asks
 * them; nothing below calls up.
 *
 *   exchange.c      the method of one exchange: fixed, wisdom's, or timed;
 *                   the method of one reshape between layouts
 *   grids.c         which process grids a plan may use (pure arithmetic)
 *   plan_tuning.c   a plan: wisdom, else every candidate grid built and
 *                   its forward+backward pair timed; the fastest kept
 *   timer.c         how one candidate is timed (timer.h)
 *   progress.c      what is being measured, on stderr when verbose (progress.h)
 *   wisdom.c        the table of choices, as text and files (wisdom.h)
 *
 * With options.tune_budget, plan_tuning.c times only the candidates the
 * cost model (model/predict.h) ranks best.
 */
#ifndef DISTFFT_TUNE_H
#define DISTFFT_TUNE_H

#include <mpi.h>

#include "../redist/reshape.h"
#include "../plan/plan.h"
#include "../redist/redist.h"
#include "progress.h"
#include "wisdom.h"

/* ---- exchange.c ---- */

/* "auto" for one exchange: plan every method of the table on comm, time
 * each (timer.h; times reduced over tuning_comm, which contains comm, so
 * every rank of it picks alike), keep the fastest. A method that cannot be
 * planned somewhere is skipped everywhere. Each time is reported to
 * `progress` (may be NULL). Collective on tuning_comm. */
int tune_exchange(MPI_Comm comm, MPI_Comm tuning_comm, const redist_geometry *geometry,
                  const tune_progress *progress, distfft_redist *redist);

/* How a plan's exchanges get their methods: `forced` (wisdom's choice,
 * or NULL), else `method` -- where AUTO is measured, or the paper's
 * alltoallw when rigor is DISTFFT_ESTIMATE. Measurements are reported to
 * `progress` (NULL: silent). */
typedef struct {
    distfft_method method;
    distfft_rigor rigor;
    const wisdom_choice *forced;
    tune_progress *progress;
} exchange_policy;

/* The exchange_maker that applies `policy` (which must outlive it). */
exchange_maker tune_exchange_maker(const exchange_policy *policy);

/* Where a reshape's arrays live: a memory kind whose backend is loaded
 * (backend_load), and the stream its work is ordered on. */
typedef struct {
    distfft_memory kind;
    void *stream;
} tune_memory;

/* The reshape of two checked, agreed layouts in `memory` with `method`
 * (AUTO: the methods that apply to boxes in that memory timed, unless
 * rigor is DISTFFT_ESTIMATE, then the first that applies: alltoallw in
 * host memory). Collective on the layouts' communicator; agreed. */
int tune_reshape(const struct distfft_layout_s *in, const struct distfft_layout_s *out, distfft_type type,
                 int64_t batch, const tune_memory *memory, distfft_method method, distfft_rigor rigor,
                 struct distfft_reshape_s **reshape);

/* ---- grids.c ---- */

#define TUNE_MAX_GRIDS 8

typedef struct {
    int ndims;
    int dims[DISTFFT_MAX_DIMS];
} grid_candidate;

/* The grids a measuring plan tries: every factorisation of size into
 * 1..ndims-1 extents >= 2 (both orientations) that leaves no rank without
 * data, slabs first, at most TUNE_MAX_GRIDS. Returns the count. */
int grid_candidates(int size, int ndims, const int64_t *shape, const distfft_kind *kinds,
                    grid_candidate *list);

/* The grid of a plan that does not measure grids: the requested one
 * (grid_ndims > 0, zero extents completed), or the lowest dimensionality
 * whose MPI_Dims_create grid leaves no rank without data. Local. */
int grid_default(int size, int ndims, const int64_t *shape, const distfft_options *options,
                 grid_candidate *grid);

/* ---- plan_tuning.c ---- */

/* The plan of an agreed request (options.grid_ndims 0 or a grid), by the
 * first strategy that applies: wisdom's choice when every rank holds it;
 * when method is AUTO and rigor measures, the cost model's ranking
 * (options.tune_budget, with a model) or else every candidate grid
 * measured; otherwise built as asked. *report says which and how long it
 * took (the plan's creator keeps it in the plan). Every candidate borrows
 * comms->comm and shares comms->node; the plan returned borrows it too
 * (its creator hands it over: owns_comm). Collective on comms->comm. */
int tune_plan(plan_comms *comms, const plan_request *request, struct distfft_plan_s **plan,
              tuning_report *report);

#endif
