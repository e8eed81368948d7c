/*
 * plan_tuning.c -- choosing a plan (paper 001's plan-time tuning, FFTW's
 * MEASURE): wisdom's choice when every rank holds the same one; otherwise,
 * when the method is "auto" and the rigor measures, every candidate grid
 * (grids.c) is built -- each exchange's method measured (exchange.c) --
 * and its forward+backward pair timed; the fastest plan is kept and its
 * choices stored as wisdom. Times are the slowest rank's (timer.h), so
 * every rank keeps the same plan.
 */
#include <math.h>
#include <string.h>

#include "../error.h"
#include "timer.h"
#include "tune.h"

/* ---- timing a candidate plan -------------------------------------------- */

typedef struct {
    struct distfft_plan_s *plan;
    void *in, *out;
} pair_run;

static int run_pair(void *context)
{
    pair_run *run = context;
    int rc = plan_run(run->plan, PLAN_FORWARD, run->in, run->out);
    return rc == DISTFFT_SUCCESS ? plan_run(run->plan, PLAN_BACKWARD, run->out, run->in) : rc;
}

/* Seconds of a forward+backward pair on scratch arrays. Collective. */
static int time_pair(struct distfft_plan_s *plan, double *seconds)
{
    int in_place = plan->request.options.in_place; /* one buffer holding both blocks */
    size_t in_bytes = (in_place ? plan->algebra.local_bytes : plan_in_bytes(plan, PLAN_FORWARD)) + 64;
    size_t out_bytes = in_place ? 0 : plan_out_bytes(plan, PLAN_FORWARD) + 64;
    void *in = distfft_malloc(in_bytes), *out = in_place ? in : distfft_malloc(out_bytes);
    int rc = error_agree(plan->comm, in && out ? DISTFFT_SUCCESS
                                               : error_fail(DISTFFT_ERR_MEMORY, "timing arrays"));
    if (rc == DISTFFT_SUCCESS) {
        memset(in, 0, in_bytes);
        if (!in_place) memset(out, 0, out_bytes);
        pair_run run = {plan, in, out};
        rc = tuning_time(plan->comm, run_pair, &run, seconds);
    }
    distfft_free(in);
    if (!in_place) distfft_free(out);
    distfft_plan_reset_timings(plan);
    return rc;
}

/* ---- wisdom ------------------------------------------------------------------- */

/* The choices a plan made: its grid and the method of every exchange, read
 * from its steps. */
static void plan_choice(const struct distfft_plan_s *plan, wisdom_choice *choice)
{
    memset(choice, 0, sizeof *choice);
    choice->grid_ndims = plan->grid->ndims;
    memcpy(choice->grid_dims, plan->grid->dims, sizeof choice->grid_dims);
    for (int direction = DISTFFT_FORWARD; direction <= DISTFFT_BACKWARD; direction += 2)
        for (int s = 0; s < distfft_plan_step_count(plan, direction); s++) {
            distfft_step info;
            distfft_plan_step(plan, direction, s, &info);
            if (info.is_redistribution) choice->methods[choice->exchanges++] = info.method;
        }
    choice->overlap = plan->fields == 1 ? DISTFFT_OVERLAP_OFF
                      : plan->one_by_one ? DISTFFT_OVERLAP_FIELDS : DISTFFT_OVERLAP_ON;
}

/* The number of exchanges (both directions) a plan on a grid makes. */
static int exchange_count(const plan_request *request, int grid_ndims, const int *grid_dims)
{
    int order[DISTFFT_MAX_DIMS], count = 0;
    int untransformed = algebra_working_order(request->ndims, request->options.kinds, order);
    for (int i = untransformed; i < grid_ndims; i++) count += grid_dims[i] > 1;
    return 2 * count;
}

/* Wisdom for key that every rank holds, identical and usable (a grid of
 * the right size and exchange count), or 0. Collective on comm. */
static int agreed_wisdom(MPI_Comm comm, int size, const plan_request *request, const char *key,
                         wisdom_choice *choice)
{
    int found = wisdom_lookup(key, choice);
    int64_t product = 1;
    for (int i = 0; found && i < choice->grid_ndims; i++) product *= choice->grid_dims[i];
    found = found && choice->grid_ndims >= 1 && choice->grid_ndims < request->ndims && product == size &&
            choice->exchanges == exchange_count(request, choice->grid_ndims, choice->grid_dims);
    uint64_t hash = 14695981039346656037ull; /* FNV-1a of the choice's bytes */
    for (size_t b = 0; found && b < sizeof *choice; b++)
        hash = (hash ^ ((const unsigned char *)choice)[b]) * 1099511628211ull;
    uint64_t mine[2] = {found ? hash : 0, found ? ~hash : UINT64_MAX}, all[2];
    MPI_Allreduce(mine, all, 2, MPI_UINT64_T, MPI_MAX, comm);
    return found && all[0] == hash && all[1] == ~hash;
}

/* ---- the choice ---------------------------------------------------------------- */

/* Build a plan on `grid` with the exchanges' methods from `policy`. */
static int build_on(MPI_Comm comm, const plan_request *request, const grid_candidate *grid,
                    const exchange_policy *policy, struct distfft_plan_s **plan)
{
    plan_request on_grid = *request;
    on_grid.options.grid_ndims = grid->ndims;
    memcpy(on_grid.options.grid_dims, grid->dims, sizeof on_grid.options.grid_dims);
    exchange_maker maker = tune_exchange_maker(policy);
    return plan_build(comm, &on_grid, &maker, plan);
}

/* Build every candidate (timing them when there are several), keep the
 * fastest. */
static int fastest_plan(MPI_Comm comm, const plan_request *request, const grid_candidate *grids,
                        int count, const exchange_policy *policy, struct distfft_plan_s **best_out)
{
    int rc = DISTFFT_SUCCESS;
    struct distfft_plan_s *best = NULL, *candidate = NULL;
    double best_seconds = INFINITY;
    for (int g = 0; g < count; g++) {
        if (policy->progress)
            progress_grid(policy->progress, g, count, grids[g].ndims, grids[g].dims,
                          exchange_count(request, grids[g].ndims, grids[g].dims));
        TRY(build_on(comm, request, &grids[g], policy, &candidate));
        double seconds = 0.0;
        if (count > 1) {
            TRY(time_pair(candidate, &seconds));
            progress_say(policy->progress, "forward+backward %.3g ms", seconds * 1e3);
        }
        if (!best || seconds < best_seconds) { /* equal on every rank: reduced times */
            plan_free(best);
            best = candidate;
            best_seconds = seconds;
        } else {
            plan_free(candidate);
        }
        candidate = NULL;
    }
    *best_out = best;
    return DISTFFT_SUCCESS;
fail:
    plan_free(candidate);
    plan_free(best);
    return rc;
}

/* overlap AUTO on a measuring batched plan: the same grid run field by
 * field, pipelined (ON) and one by one (FIELDS), each exchange's method
 * measured for one field; the pairs of the three timed, the fastest kept.
 * A candidate that cannot be built field by field (on any rank: agreed)
 * leaves the plan as it is. Collective. */
static int choose_overlap(MPI_Comm comm, const plan_request *request, const exchange_policy *policy,
                          struct distfft_plan_s **plan)
{
    static const distfft_overlap modes[] = {DISTFFT_OVERLAP_ON, DISTFFT_OVERLAP_FIELDS};
    grid_candidate grid = {.ndims = (*plan)->grid->ndims};
    memcpy(grid.dims, (*plan)->grid->dims, sizeof grid.dims);
    double best_seconds;
    int rc = time_pair(*plan, &best_seconds);
    for (size_t i = 0; rc == DISTFFT_SUCCESS && i < sizeof modes / sizeof modes[0]; i++) {
        plan_request by_field = *request;
        by_field.options.overlap = modes[i];
        struct distfft_plan_s *candidate = NULL;
        double seconds;
        if (build_on(comm, &by_field, &grid, policy, &candidate) != DISTFFT_SUCCESS ||
            candidate->fields == 1) { /* not run field by field: keep what we have */
            plan_free(candidate);
            error_clear();
            return DISTFFT_SUCCESS;
        }
        rc = time_pair(candidate, &seconds);
        if (rc == DISTFFT_SUCCESS && seconds < best_seconds) { /* reduced times: alike everywhere */
            best_seconds = seconds;
            candidate->tuning_seconds = (*plan)->tuning_seconds;
            candidate->grids_measured = (*plan)->grids_measured;
            plan_free(*plan);
            *plan = candidate;
        } else {
            plan_free(candidate);
        }
    }
    return rc;
}

int tune_plan(MPI_Comm comm, const plan_request *request_in, struct distfft_plan_s **plan_out)
{
    /* overlap AUTO is measured at the end (choose_overlap) or means OFF. */
    plan_request resolved = *request_in;
    const plan_request *request = &resolved;
    if (resolved.options.overlap == DISTFFT_OVERLAP_AUTO) resolved.options.overlap = DISTFFT_OVERLAP_OFF;
    int rc = DISTFFT_SUCCESS, size;
    struct distfft_plan_s *plan = NULL;
    MPI_Comm_size(comm, &size);
    double start = MPI_Wtime();
    const distfft_options *options = &request->options;
    tune_progress progress;
    progress_init(&progress, comm, options->verbose);
    exchange_policy policy = {.method = options->method, .rigor = options->rigor, .forced = NULL,
                              .progress = &progress};
    bool measuring = options->method == DISTFFT_METHOD_AUTO && options->rigor != DISTFFT_ESTIMATE;
    char key[WISDOM_KEY_SIZE];
    wisdom_choice choice;
    wisdom_key(size, request->ndims, request->shape, request->precision, options, key, sizeof key);

    grid_candidate grids[TUNE_MAX_GRIDS];
    int count = 0;
    if (measuring && agreed_wisdom(comm, size, request, key, &choice)) {
        grids[0] = (grid_candidate){.ndims = choice.grid_ndims};
        memcpy(grids[0].dims, choice.grid_dims, sizeof grids[0].dims);
        policy.forced = &choice;
        if (request_in->options.overlap == DISTFFT_OVERLAP_AUTO) resolved.options.overlap = choice.overlap;
        TRY(build_on(comm, request, &grids[0], &policy, &plan));
        plan->from_wisdom = true;
        progress_say(&progress, "wisdom holds this configuration: nothing measured");
        *plan_out = plan;
        return DISTFFT_SUCCESS;
    }
    if (options->grid_ndims == 0 && measuring && size > 1)
        count = grid_candidates(size, request->ndims, request->shape, options->kinds, grids);
    if (count == 0) {
        TRY(grid_default(size, request->ndims, request->shape, options, &grids[0]));
        count = 1;
    }
    TRY(fastest_plan(comm, request, grids, count, &policy, &plan));
    if (measuring && request_in->options.overlap == DISTFFT_OVERLAP_AUTO && options->batch > 1 &&
        !options->in_place) /* in-place plans are never pipelined */
        TRY(choose_overlap(comm, request, &policy, &plan));
    if (measuring) {
        plan->grids_measured = count > 1 ? count : 0;
        plan->tuning_seconds = MPI_Wtime() - start;
        plan_choice(plan, &choice);
        char grid[64];
        progress_grid_name(grid, sizeof grid, choice.grid_ndims, choice.grid_dims);
        progress.grids = 0;
        progress_say(&progress, "done in %.3g s: grid %s of %d candidate(s)", plan->tuning_seconds,
                     grid, count);
        TRY(error_agree(comm, wisdom_store(key, &choice)));
    }
    *plan_out = plan;
    return DISTFFT_SUCCESS;
fail:
    plan_free(plan);
    return rc;
}
