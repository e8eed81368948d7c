/*
 * plan_create.c -- the public entry to parallel transforms: the options'
 * defaults, the argument checks (the rules that make a set of kinds one
 * well-defined transform), their agreement on every rank before anything
 * else collective, and then the plan tune/ chooses.
 */
#include <string.h>

#include "../backend.h"
#include "../error.h"
#include "../lifetime.h"
#include "../kinds.h"
#include "../layouts/layout_value.h"
#include "../plan/algebra.h"
#include "../platform.h"
#include "../redist/redist.h"
#include "../tune/tune.h"
#include "../types.h"
#include "layout_grid.h"

void distfft_options_init(distfft_options *options)
{
    if (!options) return;
    memset(options, 0, sizeof *options);
    options->grid_ndims = 0;
    options->method = DISTFFT_METHOD_AUTO;
    options->norm = DISTFFT_NORM_BACKWARD;
    options->rigor = DISTFFT_MEASURE;
    options->destroy_input = 0;
    for (int i = 0; i < DISTFFT_MAX_DIMS; i++) options->kinds[i] = DISTFFT_C2C;
    options->batch = 1;
    options->placement = DISTFFT_PLACEMENT_ROW;
    options->node_size = 0;
    options->verbose = 0;
    options->threads = 1;
    options->overlap = DISTFFT_OVERLAP_AUTO;
    for (int i = 0; i < DISTFFT_MAX_DIMS; i++) options->padding[i] = 1.0;
    options->complex_data = 0;
    options->in_place = 0;
    options->memory = DISTFFT_MEMORY_HOST;
    options->stream = NULL;
}

/* ---- argument checks ------------------------------------------------------ */

/* The rules that make a set of kinds one well-defined transform. */
static int check_kinds(int ndims, const int64_t *shape, const distfft_kind *kinds,
                       bool complex_data, const char *where)
{
    int transformed = 0, r2c_axis = -1;
    for (int i = 0; i < ndims; i++) {
        distfft_kind kind = kinds[i];
        const kind_row *row = kind_row_of(kind);
        if (!row)
            return error_fail(DISTFFT_ERR_ARGUMENT, "%s: kinds[%d] = %d is not a transform kind", where, i, (int)kind);
        if (row->role == KIND_UNTRANSFORMED) continue;
        transformed++;
        if (row->role == KIND_REAL_TO_COMPLEX) {
            if (r2c_axis >= 0)
                return error_fail(DISTFFT_ERR_ARGUMENT, "%s: r2c on axes %d and %d; at most one axis can be r2c",
                                  where, r2c_axis, i);
            r2c_axis = i;
        }
        if (shape[i] < row->min_length)
            return error_fail(DISTFFT_ERR_SHAPE, "%s: %s on axis %d needs at least %lld points, the axis has %lld",
                              where, row->name, i, (long long)row->min_length, (long long)shape[i]);
    }
    if (!transformed)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: every axis has kind none; nothing to transform", where);
    if (r2c_axis >= 0 && complex_data)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: complex_data is set, but axis %d is r2c (real input)",
                          where, r2c_axis);
    return DISTFFT_SUCCESS;
}

/* Padding: a factor >= 1 per axis, none on untransformed axes, and a
 * padded array that still fits the size limit. */
static int check_padding(int ndims, const int64_t *shape, const distfft_options *options,
                         const char *where)
{
    int64_t total = options->batch;
    for (int i = 0; i < ndims; i++) {
        double factor = options->padding[i];
        if (!(factor >= 1.0) || factor > 1e6)
            return error_fail(DISTFFT_ERR_ARGUMENT, "%s: padding[%d] = %g must be a number >= 1 (1: none; "
                              "initialise options with distfft_options_init)", where, i, factor);
        int64_t padded = algebra_padded_length(shape[i], factor);
        if (padded != shape[i] && options->kinds[i] == DISTFFT_NONE)
            return error_fail(DISTFFT_ERR_ARGUMENT, "%s: padding[%d] = %g on axis %d, whose kind is none "
                              "(only transformed axes can be padded)", where, i, factor, i);
        const kind_row *row = kind_row_of(options->kinds[i]);
        if (padded != shape[i] && !row->pads)
            return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: padding[%d] = %g on axis %d, whose kind is %s: its "
                              "spectrum is in FFTW's %s order, where padding's low modes are not a prefix "
                              "(pad only c2c, r2c, dct, dst and cheb axes)", where, i, factor, i, row->name,
                              options->kinds[i] == DISTFFT_DHT ? "Hartley" : "halfcomplex");
        if (padded > INT64_MAX / 16 / total)
            return error_fail(DISTFFT_ERR_SHAPE, "%s: the padded array has more than 2^59 elements", where);
        total *= padded;
    }
    return DISTFFT_SUCCESS;
}

/* Threads per rank: 1..DISTFFT_MAX_THREADS, and more than one only where
 * MPI may be called from a program whose other threads exist (FUNNELED:
 * only the thread that called distfft_plan_create calls MPI, which is what
 * distfft does; its OpenMP and FFTW threads never call MPI). The thread
 * level is this process's own: the agreement that follows brings a refusal
 * on any rank to every rank. */
static int check_threads(int threads, const char *where)
{
    if (threads < 1 || threads > DISTFFT_MAX_THREADS)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: threads = %d must be in 1..%d (initialise options "
                          "with distfft_options_init)", where, threads, DISTFFT_MAX_THREADS);
    if (threads == 1) return DISTFFT_SUCCESS;
    if (!platform_runs_threads())
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: threads = %d: this platform (%s) runs one thread per "
                          "rank; use threads = 1", where, threads, platform_name());
    int provided = MPI_THREAD_SINGLE;
    int rc = CHECK_MPI(MPI_Query_thread(&provided));
    if (rc != DISTFFT_SUCCESS) return rc;
    if (provided < MPI_THREAD_FUNNELED)
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: threads = %d needs MPI initialised with at least "
                          "MPI_THREAD_FUNNELED (MPI_Init_thread), but this process has %s", where, threads,
                          provided == MPI_THREAD_SINGLE ? "MPI_THREAD_SINGLE" : "a lower level");
    return DISTFFT_SUCCESS;
}

/* overlap PROGRESS: a helper thread calls MPI_Test while the caller's
 * thread runs FFTs, which MPI allows only at MPI_THREAD_MULTIPLE. The
 * level is this process's own; the agreement that follows brings a
 * refusal on any rank to every rank (overlap is replicated, so every rank
 * asked). */
static int check_progress(distfft_overlap overlap, const char *where)
{
    if (overlap != DISTFFT_OVERLAP_PROGRESS) return DISTFFT_SUCCESS;
    bool available = false;
    int rc = plan_progress_available(&available);
    if (rc != DISTFFT_SUCCESS) return rc;
    if (!available && !platform_runs_threads())
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: overlap progress runs a helper thread beside the "
                          "caller's, and this platform (%s) runs one thread per rank; use overlap on, fields "
                          "or auto", where, platform_name());
    if (!available)
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: overlap progress runs a helper thread that calls "
                          "MPI_Test beside the caller's, which needs MPI initialised with "
                          "MPI_THREAD_MULTIPLE (MPI_Init_thread), but this process has a lower level; use "
                          "overlap on, fields or auto", where);
    return DISTFFT_SUCCESS;
}

/* What every rank must have passed alike (agreed before any collective). */
static void replicate_request(int ndims, const int64_t *shape, distfft_precision precision,
                              const distfft_options *options, replicated_args *args)
{
    replicated_add(args, ndims, "ndims");
    for (int i = 0; i < ndims; i++) replicated_add(args, shape[i], "shape[%d]", i);
    for (int i = 0; i < ndims; i++) replicated_add(args, options->kinds[i], "kinds[%d]", i);
    replicated_add(args, precision, "precision");
    replicated_add(args, options->batch, "batch");
    replicated_add(args, options->grid_ndims, "grid_ndims");
    for (int i = 0; i < options->grid_ndims; i++)
        replicated_add(args, options->grid_dims[i], "grid_dims[%d]", i);
    replicated_add(args, options->method, "method");
    replicated_add(args, options->norm, "norm");
    replicated_add(args, options->rigor, "rigor");
    replicated_add(args, options->destroy_input != 0, "destroy_input");
    replicated_add(args, options->placement, "placement");
    replicated_add(args, options->node_size, "node_size");
    replicated_add(args, options->verbose != 0, "verbose");
    replicated_add(args, options->threads, "threads");
    replicated_add(args, options->overlap, "overlap");
    for (int i = 0; i < ndims; i++)
        replicated_add(args, algebra_padded_length(shape[i], options->padding[i]), "padded length of axis %d", i);
    replicated_add(args, options->complex_data != 0, "complex_data");
    replicated_add(args, options->in_place != 0, "in_place");
    replicated_add(args, options->tune_budget, "tune_budget");
    replicated_add(args, options->memory, "memory");
}

static int check_create(int ndims, const int64_t *shape,
                        distfft_precision precision,
                        const distfft_options *options, const distfft_plan *plan,
                        replicated_args *args)
{
    const char *where = "distfft_plan_create";
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: plan (out-handle) is NULL", where);
    if (ndims < 2 || ndims > DISTFFT_MAX_DIMS)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: ndims = %d must be in 2..%d", where, ndims, DISTFFT_MAX_DIMS);
    if (!shape) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: shape is NULL", where);
    if (options->batch < 1)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: batch = %lld must be >= 1 (initialise options with "
                          "distfft_options_init)", where, (long long)options->batch);
    int64_t total = options->batch;
    for (int i = 0; i < ndims; i++) {
        if (shape[i] < 1)
            return error_fail(DISTFFT_ERR_SHAPE, "%s: shape[%d] = %lld must be >= 1", where, i, (long long)shape[i]);
        if (shape[i] > INT64_MAX / 16 / total)
            return error_fail(DISTFFT_ERR_SHAPE, "%s: the global array has more than 2^59 elements", where);
        total *= shape[i];
    }
    if (!precision_is_valid(precision))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown precision %d", where, (int)precision);
    if (precision == DISTFFT_LONG_DOUBLE)
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: precision long-double is for serial transforms "
                          "(distfft_serial_*) only; a distributed plan computes and exchanges double or "
                          "float (distfft has no long-double element type or MPI exchange)", where);
    if (options->grid_ndims < 0 || options->grid_ndims >= ndims)
        return error_fail(DISTFFT_ERR_GRID, "%s: grid_ndims = %d must be in 1..%d (0: automatic) for a %d-dimensional array",
                          where, options->grid_ndims, ndims - 1, ndims);
    if (!distfft_method_name(options->method))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown method %d", where, (int)options->method);
    if (options->norm < DISTFFT_NORM_BACKWARD || options->norm > DISTFFT_NORM_NONE)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown norm %d", where, (int)options->norm);
    if (options->rigor < DISTFFT_ESTIMATE || options->rigor > DISTFFT_EXHAUSTIVE)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown rigor %d", where, (int)options->rigor);
    if (!distfft_placement_name(options->placement))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown placement %d", where, (int)options->placement);
    if (options->node_size < 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: node_size = %d must be >= 0 (0: find the nodes)",
                          where, options->node_size);
    for (int i = 0; i < options->grid_ndims; i++)
        if (options->grid_dims[i] < 0)
            return error_fail(DISTFFT_ERR_GRID, "%s: grid_dims[%d] = %d must be >= 0 (0: choose)",
                              where, i, options->grid_dims[i]);
    int rc = check_kinds(ndims, shape, options->kinds, options->complex_data != 0, where);
    if (rc) return rc;
    rc = check_padding(ndims, shape, options, where);
    if (rc) return rc;
    rc = check_threads(options->threads, where);
    if (rc) return rc;
    if (options->tune_budget < 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: tune_budget = %d must be >= 0 (candidates timed; 0: "
                          "every candidate)", where, options->tune_budget);
    if (!distfft_overlap_name(options->overlap))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown overlap %d", where, (int)options->overlap);
    rc = check_progress(options->overlap, where);
    if (rc) return rc;
    if (options->memory == DISTFFT_MEMORY_HOST && options->stream)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: stream is set, but memory is host; a stream orders a "
                          "CUDA plan's work (memory cuda)", where);

    replicate_request(ndims, shape, precision, options, args);
    return DISTFFT_SUCCESS;
}

/* The end of a plan's creation: free the work communicator unless the
 * plan adopted it (a plan is handed out only with it); after a failure
 * (that free's included) no plan is handed out. */
static int finish_create(int rc, MPI_Comm *work_comm, distfft_plan *plan_out)
{
    if (*work_comm != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(work_comm));
    if (rc != DISTFFT_SUCCESS && plan_out && *plan_out) {
        KEEP(plan_free(*plan_out)); /* rc is set: its error stays */
        *plan_out = NULL;
    }
    return rc;
}

/* The request as every rank passed it, checked and agreed; then tune/,
 * every candidate on *work_comm -- the creation's one duplicate of the
 * caller's communicator, errors returned -- which the plan kept adopts
 * (*work_comm becomes MPI_COMM_NULL). On failure *work_comm is the
 * caller's to free. Collective on *work_comm. */
static int create_on(MPI_Comm *work_comm, int ndims, const int64_t *shape, distfft_precision precision,
                     const distfft_options *options, int concurrent, int pending, distfft_plan *plan_out)
{
    plan_request request = {.ndims = ndims, .precision = precision, .options = *options};
    int rc = DISTFFT_SUCCESS;
    replicated_args args;
    replicated_init(&args);
    plan_comms comms = {.comm = *work_comm, .node = 0, .rank = 0, .size = 1};
    int local = concurrent
        ? error_fail(DISTFFT_ERR_UNSUPPORTED, "distfft_plan_create: another thread of this "
                     "process is creating or destroying a plan; plans are created and destroyed "
                     "by one thread at a time (FFTW's planner is not thread-safe)")
        : pending;
    if (local == DISTFFT_SUCCESS) local = mpi_rank_size(*work_comm, &comms.rank, &comms.size);
    if (local == DISTFFT_SUCCESS) local = check_create(ndims, shape, precision, &request.options, plan_out, &args);
    TRY(error_agree_replicated(*work_comm, local, &args));

    /* From here on the arguments are valid and identical on every rank. */
    memcpy(request.shape, shape, ndims * sizeof *shape);
    tuning_report tuning;
    TRY(tune_plan(&comms, &request, plan_out, &tuning));
    (*plan_out)->tuning = tuning;
    (*plan_out)->owns_comm = true; /* nothing fails after this */
    (*plan_out)->node = comms.node;
    *work_comm = MPI_COMM_NULL;
fail:
    return rc;
}

/* The tag of the creation's MPI_Comm_create_group (start_create). */
enum { PLAN_COMM_TAG = 27182 };

/* The start of a creation. FFTW's planner and the wisdom serve one thread
 * at a time: the creation enters the planner before its first collective
 * (so a thread waiting in the communicator's duplication already holds
 * it), and *concurrent says another thread was inside -- refused in
 * create_on, agreed so every rank of comm returns it, rather than racing.
 * Then the creation's one duplicate of comm, errors returned: a new
 * communicator of comm's group in comm's order, made by
 * MPI_Comm_create_group rather than MPI_Comm_dup -- the same context-id
 * agreement in real MPIs, but no copy of the caller's attributes (their
 * copy callbacks are the caller's business, not a plan's), and in SimGrid's
 * SMPI a local call where MPI_Comm_dup is charged O(P^2) of simulated time
 * (most of a large plan's creation).
 * The local calls around it (the group, the error handler) may fail on
 * some ranks only: the group's before the collective copy is agreed at
 * once, the others go to the first agreement (*pending). `refused` is a
 * verdict reached before any message (a memory kind this process cannot
 * serve): agreed in that first agreement, so every rank returns it before
 * any other collective.
 * The caller leaves the planner (plan_planner_leave) whatever this returns. */
static int start_create(MPI_Comm comm, int refused, MPI_Comm *work_comm, int *concurrent, int *pending)
{
    int rc = DISTFFT_SUCCESS;
    *concurrent = plan_planner_enter() > 0;
    MPI_Group group = MPI_GROUP_NULL;
    TRY(error_agree(comm, refused ? refused : CHECK_MPI(MPI_Comm_group(comm, &group))));
    TRY_MPI(MPI_Comm_create_group(comm, group, PLAN_COMM_TAG, work_comm));
    *pending = CHECK_MPI(MPI_Group_free(&group));
    int handler = CHECK_MPI(MPI_Comm_set_errhandler(*work_comm, MPI_ERRORS_RETURN));
    if (*pending == DISTFFT_SUCCESS) *pending = handler;
fail:
    if (group != MPI_GROUP_NULL) KEEP_MPI(MPI_Group_free(&group));
    return rc;
}

int distfft_plan_create(MPI_Comm comm, int ndims, const int64_t *shape,
                        distfft_precision precision,
                        const distfft_options *options_in, distfft_plan *plan_out)
{
    error_clear();
    if (plan_out) *plan_out = NULL;
    if (comm == MPI_COMM_NULL)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_create: comm is MPI_COMM_NULL");
    distfft_options options;
    if (options_in) options = *options_in;
    else distfft_options_init(&options);

    int rc = DISTFFT_SUCCESS;
    int concurrent, pending;
    MPI_Comm work_comm = MPI_COMM_NULL; /* the plan's own, made once */
    TRY(start_create(comm, backend_load(options.memory, "distfft_plan_create"), &work_comm, &concurrent,
                     &pending));
    TRY(create_on(&work_comm, ndims, shape, precision, &options, concurrent, pending, plan_out));
    TRY(lifetime_register(comm, &(*plan_out)->lifetime)); /* agreed */
fail:
    rc = finish_create(rc, &work_comm, plan_out);
    plan_planner_leave();
    return rc;
}

/* ---- plans in the caller's layouts ------------------------------------------ */

/* A caller's layout at one end, against the plan: same ranks, the plan's
 * global shape of that end. Local; identical on every rank (layouts are
 * replicated), agreed by the caller. */
static int check_end_layout(const struct distfft_layout_s *given,
                            const struct distfft_layout_s *own, const char *name)
{
    const char *where = "distfft_plan_create_layouts";
    if (!given) return DISTFFT_SUCCESS;
    if (!layout_same_ranks(given, own))
        return error_fail(DISTFFT_ERR_MISMATCH, "%s: %s is on another communicator than comm (not the same "
                          "ranks in the same order)", where, name);
    char want[256], have[256];
    shape_format(own->ndims, own->global_shape, want, sizeof want);
    shape_format(given->ndims, given->global_shape, have, sizeof have);
    if (given->ndims != own->ndims ||
        memcmp(given->global_shape, own->global_shape, own->ndims * sizeof(int64_t)))
        return error_fail(DISTFFT_ERR_SHAPE, "%s: %s is of a %s array, the plan's %s is %s", where, name, have,
                          strcmp(name, "layout_in") ? "output" : "input", want);
    return DISTFFT_SUCCESS;
}

/* Add the reshapes at the ends of an agreed plan; frees it on failure. */
static int attach_layouts(struct distfft_plan_s *plan, const struct distfft_layout_s *given_in,
                          const struct distfft_layout_s *given_out)
{
    int rc = DISTFFT_SUCCESS;
    const struct distfft_layout_s *given[2] = {given_in, given_out};
    struct distfft_layout_s *own[2] = {NULL, NULL}, *kept[2] = {NULL, NULL};
    struct distfft_reshape_s *reshapes[2] = {NULL, NULL};
    /* only where a layout is given (agreed): a layout value is a communicator */
    if (given_in) TRY(distfft_plan_input_layout(plan, &own[PLAN_END_INPUT]));
    if (given_out) TRY(distfft_plan_output_layout(plan, &own[PLAN_END_OUTPUT]));
    int local = check_end_layout(given_in, own[PLAN_END_INPUT], "layout_in");
    if (local == DISTFFT_SUCCESS) local = check_end_layout(given_out, own[PLAN_END_OUTPUT], "layout_out");
    TRY(error_agree(plan->comm, local));
    distfft_type types[2] = {plan->algebra.input_type, plan->algebra.output_type};
    const distfft_options *options = &plan->request.options;
    for (int e = 0; e < 2; e++) {
        if (!given[e]) continue;
        TRY(layout_value_copy(given[e], &kept[e]));
        if (distfft_layout_equal(given[e], own[e])) continue;
        const struct distfft_layout_s *from = e == PLAN_END_INPUT ? given[e] : own[e];
        const struct distfft_layout_s *to = e == PLAN_END_INPUT ? own[e] : given[e];
        /* The plan's method where it applies to boxes in the plan's memory; else the first that
         * does (alltoallw in host memory, for the pencil-only methods). */
        redist_problem boxes = redist_box_problem(types[e], backend_of(options->memory)->memory);
        distfft_method method = options->method;
        if (method != DISTFFT_METHOD_AUTO && !redist_method_row(method)->applicable(&boxes, NULL))
            method = redist_first_applicable(&boxes);
        tune_memory memory = {options->memory, options->stream};
        TRY(tune_reshape(from, to, types[e], options->batch, &memory, method, options->rigor, &reshapes[e]));
    }
    local = plan_attach_ends(plan, kept, reshapes); /* owns them from here */
    kept[0] = kept[1] = NULL;
    reshapes[0] = reshapes[1] = NULL;
    TRY(error_agree(plan->comm, local));
fail:
    for (int e = 0; e < 2; e++) {
        KEEP(layout_value_free(own[e]));
        KEEP(layout_value_free(kept[e]));
        KEEP(reshape_free(reshapes[e]));
    }
    return rc;
}

int distfft_plan_create_layouts(MPI_Comm comm, int ndims, const int64_t *shape, distfft_precision precision,
                                const distfft_options *options, const struct distfft_layout_s *layout_in,
                                const struct distfft_layout_s *layout_out, distfft_plan *plan_out)
{
    const char *where = "distfft_plan_create_layouts";
    error_clear();
    if (plan_out) *plan_out = NULL;
    if (comm == MPI_COMM_NULL) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: comm is MPI_COMM_NULL", where);
    int rc = DISTFFT_SUCCESS;
    int in_place = options && options->in_place;
    int local = in_place && (layout_in || layout_out)
                    ? error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: an in-place plan (options.in_place) cannot take "
                                 "layouts", where)
                    : DISTFFT_SUCCESS;
    distfft_options chosen;
    if (options) chosen = *options;
    else distfft_options_init(&chosen);
    int concurrent, pending;
    MPI_Comm work_comm = MPI_COMM_NULL;
    TRY(start_create(comm, backend_load(chosen.memory, where), &work_comm, &concurrent, &pending));
    replicated_args args;
    replicated_init(&args);
    replicated_add(&args, layout_in != NULL, "layout_in given");
    replicated_add(&args, layout_out != NULL, "layout_out given");
    if (local == DISTFFT_SUCCESS) local = pending;
    if (local == DISTFFT_SUCCESS) local = check_create(ndims, shape, precision, &chosen, plan_out, &args);
    TRY(error_agree_replicated(work_comm, local, &args));
    int size = 1;
    /* failing on one rank only: agreed first thing in create_on */
    pending = CHECK_MPI(MPI_Comm_size(work_comm, &size));
    layout_grid_choose(size, ndims, shape, precision, layout_in, layout_out, &chosen); /* alike everywhere */
    TRY(create_on(&work_comm, ndims, shape, precision, &chosen, concurrent, pending, plan_out)); /* adopts work_comm */
    rc = attach_layouts(*plan_out, layout_in, layout_out);
    if (rc == DISTFFT_SUCCESS) rc = lifetime_register(comm, &(*plan_out)->lifetime); /* agreed */
fail:
    rc = finish_create(rc, &work_comm, plan_out);
    plan_planner_leave();
    return rc;
}
