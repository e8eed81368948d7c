/*
 * plan_tuning.c -- choosing a plan (paper 001's plan-time tuning, FFTW's
 * MEASURE): wisdom's choice when every rank holds the same one; otherwise,
 * when the method is "auto" and the rigor measures, every candidate grid
 * (grids.c) is built -- each exchange's method measured (exchange.c) --
 * and its forward+backward pair timed (a grid whose exchanges got
 * different methods also with each of them on every exchange:
 * check_mixed); the fastest plan is kept and its
 * choices stored as wisdom. Times are the slowest rank's (timer.h), so
 * every rank keeps the same plan.
 *
 * With a cost model and options.tune_budget = B > 0, the candidates are the
 * grids times the concrete methods (one method for every exchange of the
 * plan); the model predicts each from the step algebra alone -- nothing is
 * built -- and only the B predicted fastest are built and timed.
 * Predictions are reduced with MAX, so every rank ranks alike.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../backend.h"
#include "../error.h"
#include "../model/predict.h"
#include "timer.h"
#include "tune.h"

/* ---- timing a candidate plan -------------------------------------------- */

typedef struct {
    struct distfft_plan_s *plan;
    void *in, *out;
} pair_run;

/* In device memory, until the device is done (a plan's work may still be
 * enqueued when it returns). */
static int run_pair(void *context)
{
    pair_run *run = context;
    const distfft_options *options = &run->plan->request.options;
    int rc = plan_run(run->plan, PLAN_FORWARD, run->in, run->out);
    if (rc == DISTFFT_SUCCESS) rc = plan_run(run->plan, PLAN_BACKWARD, run->out, run->in);
    return rc == DISTFFT_SUCCESS ? tuning_wait(backend_of(options->memory)->copies, options->stream) : rc;
}

/* Seconds of a forward+backward pair on scratch arrays; `bound`: the
 * fastest candidate's so far (INFINITY: none); *runs: how many were timed
 * (tuning_time). Collective. */
static int time_pair(struct distfft_plan_s *plan, double bound, double *seconds, int *runs)
{
    int in_place = plan->request.options.in_place; /* one buffer holding both blocks */
    size_t in_bytes = (in_place ? plan->algebra.local_bytes : plan_in_bytes(plan, PLAN_FORWARD)) + 64;
    size_t out_bytes = in_place ? 0 : plan_out_bytes(plan, PLAN_FORWARD) + 64;
    const backend *memory = backend_of(plan->request.options.memory);
    bool host = memory->memory == REDIST_MEMORY_HOST; /* a device's arrays are timed as they come */
    void *in = memory->allocate(in_bytes), *out = in_place ? in : memory->allocate(out_bytes);
    int rc = error_agree(plan->comm, in && out ? DISTFFT_SUCCESS
                                               : error_fail(DISTFFT_ERR_MEMORY, "timing arrays"));
    if (rc == DISTFFT_SUCCESS) {
        if (host) memset(in, 0, in_bytes);
        if (host && !in_place) memset(out, 0, out_bytes);
        pair_run run = {plan, in, out};
        rc = tuning_time(plan->comm, run_pair, &run, bound, seconds, runs);
    }
    memory->release(in);
    if (!in_place) memory->release(out);
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
    choice->overlap = plan->pipeline.mode;
}

/* The number of exchanges (both directions) a plan on a grid makes. */
static int exchange_count(const plan_request *request, int grid_ndims, const int *grid_dims)
{
    int order[DISTFFT_MAX_DIMS], count = 0;
    int untransformed = algebra_working_order(request->ndims, request->options.kinds, order);
    for (int i = untransformed; i < grid_ndims; i++) count += grid_dims[i] > 1;
    return 2 * count;
}

/* Can overlap PROGRESS run in this process (MPI_THREAD_MULTIPLE)? A
 * level MPI cannot tell counts as no. Local. */
static bool progress_here(void)
{
    bool available = false;
    if (plan_progress_available(&available) != DISTFFT_SUCCESS) error_clear();
    return available;
}

/* *candidate: is PROGRESS worth timing, on every rank alike: available
 * (MPI_THREAD_MULTIPLE), and a core for each helper -- in each rank's CPU
 * affinity beside its `threads` (Open MPI binds each of 2 ranks to one
 * core), and on each node, whose ranks x (threads + 1) must not exceed
 * its online cores. Otherwise the helper's tests take the FFTs' core:
 * timing it would spend tuning on a loser that noise could still pick.
 * Collective on comm. */
static int progress_candidate(MPI_Comm comm, int threads, int *candidate)
{
    int rc = DISTFFT_SUCCESS, mine = progress_here();
    MPI_Comm node = MPI_COMM_NULL;
    *candidate = 0;
    TRY_MPI(MPI_Allreduce(&mine, candidate, 1, MPI_INT, MPI_MIN, comm));
    if (!*candidate) return DISTFFT_SUCCESS;
    int node_ranks = 0;
    TRY_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    int local = CHECK_MPI(MPI_Comm_size(node, &node_ranks));
    if (local == DISTFFT_SUCCESS) local = CHECK_MPI(MPI_Comm_free(&node));
    mine = local == DISTFFT_SUCCESS && plan_progress_spare_core(threads, node_ranks);
    if (local != DISTFFT_SUCCESS) error_clear();
    TRY_MPI(MPI_Allreduce(&mine, candidate, 1, MPI_INT, MPI_MIN, comm));
fail:
    if (node != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(&node));
    return rc;
}

/* *agreed: whether every rank holds wisdom for key, identical and usable
 * (a grid of the right size and exchange count; overlap progress only
 * where this process's thread level allows its helper thread). Collective
 * on comm. */
static int agreed_wisdom(MPI_Comm comm, int size, const plan_request *request, const char *key,
                         wisdom_choice *choice, int *agreed)
{
    int found = wisdom_lookup(key, choice);
    if (found && choice->overlap == DISTFFT_OVERLAP_PROGRESS) found = progress_here();
    int64_t product = 1;
    for (int i = 0; found && i < choice->grid_ndims; i++) product *= choice->grid_dims[i];
    found = found && choice->grid_ndims >= 1 && choice->grid_ndims < request->ndims && product == size &&
            choice->exchanges == exchange_count(request, choice->grid_ndims, choice->grid_dims);
    uint64_t hash = 14695981039346656037ull; /* FNV-1a of the choice's bytes */
    for (size_t b = 0; found && b < sizeof *choice; b++)
        hash = (hash ^ ((const unsigned char *)choice)[b]) * 1099511628211ull;
    uint64_t mine[2] = {found ? hash : 0, found ? ~hash : UINT64_MAX}, all[2];
    *agreed = 0;
    int rc = CHECK_MPI(MPI_Allreduce(mine, all, 2, MPI_UINT64_T, MPI_MAX, comm));
    *agreed = rc == DISTFFT_SUCCESS && found && all[0] == hash && all[1] == ~hash;
    return rc;
}

/* ---- the choice ---------------------------------------------------------------- */

/* Build a plan on `grid` with the exchanges' methods from `policy`. */
static int build_on(plan_comms *comms, const plan_request *request, const grid_candidate *grid,
                    const exchange_policy *policy, struct distfft_plan_s **plan)
{
    plan_request on_grid = *request;
    on_grid.options.grid_ndims = grid->ndims;
    memcpy(on_grid.options.grid_dims, grid->dims, sizeof on_grid.options.grid_dims);
    exchange_maker maker = tune_exchange_maker(policy);
    return plan_build(comms, &on_grid, &maker, plan);
}

/* Build `grid` with `method` on every exchange into *plan; where that
 * method cannot serve every exchange (agreed on every rank) *plan is NULL
 * and the call succeeds. */
static int build_uniform(plan_comms *comms, const plan_request *request, const grid_candidate *grid,
                         const exchange_policy *policy, distfft_method method, struct distfft_plan_s **plan)
{
    exchange_policy uniform = *policy;
    uniform.method = method;
    uniform.forced = NULL;
    int rc = build_on(comms, request, grid, &uniform, plan);
    if (rc != DISTFFT_ERR_UNSUPPORTED) return rc;
    error_clear();
    *plan = NULL;
    return DISTFFT_SUCCESS;
}

/* Keep *candidate if it is the first or faster than *best (times are
 * reduced: alike on every rank), free the other; *candidate becomes NULL.
 * The free's outcome, agreed. Collective on comm. */
static int keep_faster(MPI_Comm comm, struct distfft_plan_s **best, double *best_seconds,
                       struct distfft_plan_s **candidate, double seconds)
{
    struct distfft_plan_s *slower = *candidate;
    if (!*best || seconds < *best_seconds) {
        slower = *best;
        *best = *candidate;
        *best_seconds = seconds;
    }
    *candidate = NULL;
    return error_agree(comm, plan_free(slower));
}

/* The distinct methods of a plan's exchanges, into methods[]; their count
 * (0 without exchanges). */
static int plan_methods(const struct distfft_plan_s *plan, distfft_method *methods)
{
    wisdom_choice choice;
    plan_choice(plan, &choice);
    int count = 0;
    for (int e = 0; e < choice.exchanges; e++) {
        int seen = 0;
        for (int i = 0; i < count; i++) seen |= methods[i] == choice.methods[e];
        if (!seen) methods[count++] = choice.methods[e];
    }
    return count;
}

/* A plan whose exchanges got different methods (each the fastest of its
 * own isolated timing) is checked by its pair against the same grid with
 * one of those methods on every exchange: exchanges timed alone start
 * together, in a pair each starts as the step before it leaves the ranks,
 * and a mix can lose there to one method throughout. *best holds the
 * mixed plan, timed
 * (*best_seconds); the fastest is left there, the others freed (on
 * failure too). Collective. */
static int check_mixed(plan_comms *comms, const plan_request *request, const grid_candidate *grid,
                       const exchange_policy *policy, struct distfft_plan_s **best, double *best_seconds)
{
    distfft_method methods[WISDOM_MAX_EXCHANGES];
    int count = plan_methods(*best, methods), rc = DISTFFT_SUCCESS;
    struct distfft_plan_s *candidate = NULL;
    for (int i = 0; count > 1 && i < count; i++) {
        TRY(build_uniform(comms, request, grid, policy, methods[i], &candidate));
        if (!candidate) continue; /* not on every exchange of this grid */
        double seconds;
        int runs = 0;
        TRY(time_pair(candidate, *best_seconds, &seconds, &runs));
        progress_say(policy->progress, "%s on every exchange: forward+backward %.3g ms (%d runs)",
                     distfft_method_name(methods[i]), seconds * 1e3, runs);
        TRY(keep_faster(comms->comm, best, best_seconds, &candidate, seconds));
    }
fail:
    KEEP(plan_free(candidate));
    return rc;
}

/* Build every candidate (timing them when there are several, or when the
 * one mixes methods: check_mixed), keep the fastest. */
static int fastest_plan(plan_comms *comms, const plan_request *request, const grid_candidate *grids,
                        int count, const exchange_policy *policy, struct distfft_plan_s **best_out)
{
    int rc = DISTFFT_SUCCESS;
    MPI_Comm comm = comms->comm;
    struct distfft_plan_s *best = NULL, *candidate = NULL;
    double best_seconds = INFINITY;
    distfft_method methods[WISDOM_MAX_EXCHANGES];
    for (int g = 0; g < count; g++) {
        if (policy->progress)
            progress_grid(policy->progress, g, count, grids[g].ndims, grids[g].dims,
                          exchange_count(request, grids[g].ndims, grids[g].dims));
        TRY(build_on(comms, request, &grids[g], policy, &candidate));
        bool mixed = policy->method == DISTFFT_METHOD_AUTO && !policy->forced && plan_methods(candidate, methods) > 1;
        double seconds = 0.0;
        if (count > 1 || mixed) {
            int runs = 0;
            TRY(time_pair(candidate, best_seconds, &seconds, &runs));
            progress_say(policy->progress, "forward+backward %.3g ms (%d runs)", seconds * 1e3, runs);
        }
        if (mixed) /* the mix against each of its methods alone, on this grid */
            TRY(check_mixed(comms, request, &grids[g], policy, &candidate, &seconds));
        TRY(keep_faster(comm, &best, &best_seconds, &candidate, seconds));
    }
    *best_out = best;
    return DISTFFT_SUCCESS;
fail:
    KEEP(plan_free(candidate));
    KEEP(plan_free(best));
    return rc;
}

/* ---- model-ranked candidates (tune_budget) ------------------------------------ */

typedef struct {
    int grid, method;
    double predicted;
} ranked_candidate;

static int by_prediction(const void *a, const void *b)
{
    const ranked_candidate *x = a, *y = b;
    if (x->predicted != y->predicted) return x->predicted < y->predicted ? -1 : 1;
    return x->grid != y->grid ? x->grid - y->grid : x->method - y->method; /* alike everywhere */
}

/* Predicted pair seconds of every method on `grid`, this rank's, into
 * predicted[methods]: its steps, and the final sweeps where no step takes
 * the normalisation (as distfft_plan_predict_pair prices a built plan).
 * Collective on comm (the placement, the topology). */
static int predict_grid(plan_comms *comms, const plan_request *request, const cost_model *model,
                        const grid_candidate *grid, algebra_steps *algebra, double *predicted)
{
    int order[DISTFFT_MAX_DIMS], index, rc = DISTFFT_SUCCESS, node = 0;
    MPI_Comm comm = comms->comm;
    int untransformed = algebra_working_order(request->ndims, request->options.kinds, order);
    if (request->options.node_size == 0) TRY(plan_comms_node(comms, &node)); /* once for every grid */
    TRY(model_grid_index(comm, comms->rank, comms->size, grid->ndims, grid->dims, &request->options, node, untransformed, &index));
    model_topology topology;
    TRY(model_topology_create(comm, model, request->options.node_size, node, grid->ndims, grid->dims, index,
                              &topology));
    int coords[DISTFFT_MAX_DIMS] = {0};
    for (int d = grid->ndims - 1, rest = index; d >= 0; d--) {
        coords[d] = rest % grid->dims[d];
        rest /= grid->dims[d];
    }
    algebra_input input = plan_algebra_input(request, grid->ndims, grid->dims, coords);
    algebra_build(&input, algebra);
    for (int m = 0; m < redist_method_count(); m++) {
        predicted[m] = 0.0;
        for (int s = 0; s < algebra->forward_count; s++)
            predicted[m] += model_step_seconds(model, &topology, &algebra->forward[s], (distfft_method)m);
        for (int s = 0; s < algebra->backward_count; s++)
            predicted[m] += model_step_seconds(model, &topology, &algebra->backward[s], (distfft_method)m);
        predicted[m] += model_sweep_seconds(model, algebra->forward, algebra->forward_count, (distfft_method)m,
                                            algebra->forward_scale) +
                        model_sweep_seconds(model, algebra->backward, algebra->backward_count, (distfft_method)m,
                                            algebra->backward_scale);
    }
fail:
    return rc;
}

/* Rank every grid x method by the model, build and time the `budget`
 * best that can be built, keep the fastest measured; with budget 1 the
 * best that can be built is kept untimed (*timed_out 0: one candidate has
 * nothing to be compared with, so its pairs would only cost). *plan_out
 * stays NULL (on every rank) when none could be built. Collective. */
static int ranked_plan(plan_comms *comms, const plan_request *request, const cost_model *model,
                       const grid_candidate *grids, int count, const exchange_policy *policy_in,
                       struct distfft_plan_s **plan_out, int *timed_out)
{
    MPI_Comm comm = comms->comm;
    int methods = redist_method_count(), total = count * methods, rc = DISTFFT_SUCCESS, timed = 0;
    struct distfft_plan_s *best = NULL, *candidate = NULL;
    double *predicted = malloc((size_t)total * sizeof *predicted);
    ranked_candidate *list = malloc((size_t)total * sizeof *list);
    algebra_steps *algebra = malloc(sizeof *algebra);
    TRY(error_agree(comm, predicted && list && algebra ? DISTFFT_SUCCESS
                                                       : error_fail(DISTFFT_ERR_MEMORY, "ranking candidates")));
    for (int g = 0; g < count; g++)
        TRY(predict_grid(comms, request, model, &grids[g], algebra, predicted + g * methods));
    TRY_MPI(MPI_Allreduce(MPI_IN_PLACE, predicted, total, MPI_DOUBLE, MPI_MAX, comm));
    for (int i = 0; i < total; i++) list[i] = (ranked_candidate){i / methods, i % methods, predicted[i]};
    qsort(list, (size_t)total, sizeof *list, by_prediction);
    int budget = request->options.tune_budget;
    progress_say(policy_in->progress, "the model ranks %d candidates (%d grid(s) x %d methods); timing the "
                 "best %d", total, count, methods, budget < total ? budget : total);
    for (int i = 0; i < total && i < budget + 4; i++) { /* the head of the ranking, to judge it by */
        char name[64];
        progress_grid_name(name, sizeof name, grids[list[i].grid].ndims, grids[list[i].grid].dims);
        progress_say(policy_in->progress, "ranked %d: grid %s %s, predicted %.3g ms", i + 1, name,
                     distfft_method_name((distfft_method)list[i].method), list[i].predicted * 1e3);
    }
    double best_seconds = INFINITY;
    for (int i = 0; i < total && timed < budget; i++) {
        distfft_method method = (distfft_method)list[i].method;
        const grid_candidate *grid = &grids[list[i].grid];
        char name[64];
        progress_grid_name(name, sizeof name, grid->ndims, grid->dims);
        TRY(build_uniform(comms, request, grid, policy_in, method, &candidate));
        if (!candidate) { /* this method cannot serve this grid */
            progress_say(policy_in->progress, "grid %s %s: not applicable", name, distfft_method_name(method));
            continue;
        }
        if (budget == 1) { /* nothing to compare it with: the model's choice, untimed */
            progress_say(policy_in->progress, "grid %s %s: predicted %.3g ms, kept untimed (budget 1)", name,
                         distfft_method_name(method), list[i].predicted * 1e3);
            best = candidate;
            candidate = NULL;
            break;
        }
        double seconds;
        int runs = 0;
        TRY(time_pair(candidate, best_seconds, &seconds, &runs));
        timed++;
        progress_say(policy_in->progress, "grid %s %s: predicted %.3g ms, measured %.3g ms (%d runs)", name,
                     distfft_method_name(method), list[i].predicted * 1e3, seconds * 1e3, runs);
        TRY(keep_faster(comm, &best, &best_seconds, &candidate, seconds));
    }
    *plan_out = best;
    *timed_out = timed;
    best = NULL;
fail:
    KEEP(plan_free(candidate));
    KEEP(plan_free(best));
    free(predicted);
    free(list);
    free(algebra);
    return rc;
}

/* overlap AUTO on a measuring batched plan: the same grid run field by
 * field, pipelined (ON), one by one (FIELDS) and pipelined with the
 * progress thread (PROGRESS, where every rank has MPI_THREAD_MULTIPLE and
 * a core for the helper: agreed, as these are each rank's own), each
 * exchange's method measured
 * for one field; the pairs timed, the fastest kept. A candidate that
 * cannot be built field by field (on any rank: agreed) leaves the plan as
 * it is. Collective. */
static int choose_overlap(plan_comms *comms, const plan_request *request, const exchange_policy *policy,
                          struct distfft_plan_s **plan)
{
    MPI_Comm comm = comms->comm;
    static const distfft_overlap modes[] = {DISTFFT_OVERLAP_ON, DISTFFT_OVERLAP_FIELDS,
                                            DISTFFT_OVERLAP_PROGRESS};
    int rc, everywhere = 0;
    TRY(progress_candidate(comm, request->options.threads, &everywhere));
    size_t count = sizeof modes / sizeof modes[0] - (everywhere ? 0 : 1);
    grid_candidate grid = {.ndims = (*plan)->grid->ndims};
    memcpy(grid.dims, (*plan)->grid->dims, sizeof grid.dims);
    double best_seconds;
    rc = time_pair(*plan, INFINITY, &best_seconds, NULL);
    for (size_t i = 0; rc == DISTFFT_SUCCESS && i < count; i++) {
        plan_request by_field = *request;
        by_field.options.overlap = modes[i];
        struct distfft_plan_s *candidate = NULL;
        double seconds;
        if (build_on(comms, &by_field, &grid, policy, &candidate) != DISTFFT_SUCCESS ||
            candidate->pipeline.fields == 1) { /* not run field by field: keep what we have */
            error_clear();
            return error_agree(comm, plan_free(candidate));
        }
        rc = time_pair(candidate, best_seconds, &seconds, NULL);
        if (rc == DISTFFT_SUCCESS && seconds < best_seconds) { /* reduced times: alike everywhere */
            best_seconds = seconds;
            struct distfft_plan_s *slower = *plan;
            *plan = candidate;
            candidate = slower;
        }
        int freed = plan_free(candidate);
        if (rc == DISTFFT_SUCCESS) rc = error_agree(comm, freed);
    }
fail:
    return rc;
}

/* Say what tuning chose and keep it in wisdom -- unless nothing was
 * measured (the model's choice alone, tune_budget 1): wisdom holds
 * measured choices only, so a later plan that measures is not skipped.
 * Collective on comm. */
static int remember(MPI_Comm comm, const struct distfft_plan_s *plan, const tuning_report *report,
                    const char *key, int count, tune_progress *progress)
{
    wisdom_choice choice;
    plan_choice(plan, &choice);
    char grid[64];
    progress_grid_name(grid, sizeof grid, choice.grid_ndims, choice.grid_dims);
    progress->grids = 0;
    bool untimed = report->strategy == TUNING_MODEL && report->timed == 0;
    progress_say(progress, "done in %.3g s: grid %s of %d candidate(s)%s", report->seconds, grid, count,
                 untimed ? ", the model's choice (not stored as wisdom)" : "");
    return untimed ? DISTFFT_SUCCESS : error_agree(comm, wisdom_store(key, &choice));
}

/* With a cost model, the plan of the best of the model's ranking (only
 * tune_budget candidates timed); without one, or for a device plan (the
 * model's numbers are the host's: it is not calibrated for device steps
 * and methods), *plan stays NULL (every candidate is then measured).
 * Collective on comm. */
static int model_ranked_plan(plan_comms *comms, const plan_request *request, grid_candidate *grids, int count,
                             exchange_policy *policy, struct distfft_plan_s **plan, int *timed)
{
    if (request->options.memory != DISTFFT_MEMORY_HOST) {
        progress_say(policy->progress, "the cost model does not rank device plans: every candidate is measured");
        return DISTFFT_SUCCESS;
    }
    int rc;
    const cost_model *model = model_for_tuning(comms->comm, comms->rank, &rc);
    if (rc != DISTFFT_SUCCESS) return rc;
    if (model) return ranked_plan(comms, request, model, grids, count, policy, plan, timed);
    progress_say(policy->progress, "tune_budget %d without a cost model: every candidate is measured",
                 request->options.tune_budget);
    return DISTFFT_SUCCESS;
}

int tune_plan(plan_comms *comms, const plan_request *request_in, struct distfft_plan_s **plan_out,
              tuning_report *report)
{
    MPI_Comm comm = comms->comm;
    /* overlap AUTO is measured at the end (choose_overlap) or means OFF. */
    plan_request resolved = *request_in;
    const plan_request *request = &resolved;
    if (resolved.options.overlap == DISTFFT_OVERLAP_AUTO) resolved.options.overlap = DISTFFT_OVERLAP_OFF;
    int rc = DISTFFT_SUCCESS, size, wise = 0;
    struct distfft_plan_s *plan = NULL;
    size = comms->size;
    *report = (tuning_report){.strategy = TUNING_NONE};
    double start = MPI_Wtime();
    const distfft_options *options = &request->options;
    tune_progress progress;
    progress_init(&progress, comms->rank, options->verbose);
    exchange_policy policy = {.method = options->method, .rigor = options->rigor, .forced = NULL,
                              .progress = &progress};
    bool measuring = options->method == DISTFFT_METHOD_AUTO && options->rigor != DISTFFT_ESTIMATE;
    char key[WISDOM_KEY_SIZE];
    wisdom_choice choice;
    wisdom_key(size, request->ndims, request->shape, request->precision, options, key, sizeof key);

    grid_candidate grids[TUNE_MAX_GRIDS];
    int count = 0;
    if (measuring) TRY(agreed_wisdom(comm, size, request, key, &choice, &wise));
    if (wise) {
        grids[0] = (grid_candidate){.ndims = choice.grid_ndims};
        memcpy(grids[0].dims, choice.grid_dims, sizeof grids[0].dims);
        policy.forced = &choice;
        if (request_in->options.overlap == DISTFFT_OVERLAP_AUTO) resolved.options.overlap = choice.overlap;
        TRY(build_on(comms, request, &grids[0], &policy, &plan));
        *report = (tuning_report){.strategy = TUNING_WISDOM};
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
    int timed = count > 1 ? count : 0;
    bool ranked = false;
    if (measuring && options->tune_budget > 0 && size > 1) { /* the model ranks, a few are timed */
        TRY(model_ranked_plan(comms, request, grids, count, &policy, &plan, &timed));
        ranked = plan != NULL;
        if (ranked) { /* overlap AUTO below keeps the ranked methods */
            plan_choice(plan, &choice);
            policy.forced = &choice;
        }
    }
    if (!plan) {
        TRY(fastest_plan(comms, request, grids, count, &policy, &plan));
        timed = count > 1 ? count : 0;
    }
    if (measuring && request_in->options.overlap == DISTFFT_OVERLAP_AUTO && options->batch > 1 &&
        !options->in_place) /* in-place plans are never pipelined */
        TRY(choose_overlap(comms, request, &policy, &plan));
    if (measuring) {
        *report = (tuning_report){.strategy = ranked ? TUNING_MODEL : TUNING_MEASURED, .timed = timed,
                                  .seconds = MPI_Wtime() - start};
        TRY(remember(comm, plan, report, key, count, &progress));
    }
    *plan_out = plan;
    return DISTFFT_SUCCESS;
fail:
    KEEP(plan_free(plan));
    return rc;
}
