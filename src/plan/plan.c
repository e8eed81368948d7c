/*
 * plan.c -- the plan object: it composes steps, it implements none (paper
 * 000 Sec. 3.3-3.6: [fft, exchange, fft, exchange, ...], backward the
 * reverse). plan_build asks the step algebra what to do, allocates the two
 * work buffers once, and makes each step in its layer's room (serial/ for
 * FFTs and weights, redist/ for exchanges, whose redistribution comes from
 * the exchange_maker tune/ passes in). The public transforms check their
 * arguments here, agree, and run the plan's list of steps (run.c).
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../backend.h"
#include "../error.h"
#include "../lifetime.h"
#include "../node.h"
#include "../platform.h"
#include "../types.h"
#include "plan.h"

algebra_input plan_algebra_input(const plan_request *request, int grid_ndims, const int *grid_dims,
                                 const int *grid_coords)
{
    algebra_input input = {.ndims = request->ndims, .precision = request->precision,
                           .batch = request->options.batch, .rigor = request->options.rigor,
                           .norm = request->options.norm,
                           .destroy_input = request->options.destroy_input != 0,
                           .threads = request->options.threads,
                           .grid_ndims = grid_ndims};
    memcpy(input.shape, request->shape, sizeof input.shape);
    for (int a = 0; a < request->ndims; a++)
        input.padded[a] = algebra_padded_length(request->shape[a], request->options.padding[a]);
    input.complex_data = request->options.complex_data != 0;
    input.in_place = request->options.in_place != 0;
    /* Asked for, shm's exchanges all write into their window (one copy):
     * a work buffer each. Not under auto, whose result's bits then stay
     * those of every method's (the FFTs in place); an exchange of auto's
     * that writes a work buffer anyway still gets shm's one copy. */
    input.exchanges_into_work = request->options.method == DISTFFT_METHOD_SHM;
    memcpy(input.kinds, request->options.kinds, sizeof input.kinds);
    memcpy(input.grid_dims, grid_dims, sizeof input.grid_dims);
    memcpy(input.grid_coords, grid_coords, sizeof input.grid_coords);
    return input;
}

static algebra_input algebra_input_of(const struct distfft_plan_s *plan)
{
    return plan_algebra_input(&plan->request, plan->grid->ndims, plan->grid->dims, plan->grid->coords);
}

/* The algebra's steps of a list: how many, and their specs. */
static const step_spec *algebra_list(const struct distfft_plan_s *plan, int list, int *count)
{
    *count = list == PLAN_FORWARD ? plan->algebra.forward_count : plan->algebra.backward_count;
    return list == PLAN_FORWARD ? plan->algebra.forward : plan->algebra.backward;
}

/* Where the plan's arrays live and what runs on them (backend.h): loaded
 * when the request was checked. */
static const backend *plan_backend(const struct distfft_plan_s *plan)
{
    return backend_of(plan->request.options.memory);
}

static int allocate_work(struct distfft_plan_s *plan)
{
    const backend *memory = plan_backend(plan);
    for (int b = 0; b < 2; b++) {
        size_t bytes = plan->pipeline.fields > 1 && plan->pipeline.mode != DISTFFT_OVERLAP_FIELDS
                           ? plan->pipeline.field_stride[0][SLOT_WORK0 + b] * (size_t)plan->pipeline.fields
                           : plan->algebra.work_bytes[b];
        plan->work_size[b] = bytes;
        if (!bytes) continue;
        plan->work[b] = memory->allocate(bytes);
        if (!plan->work[b]) return error_fail(DISTFFT_ERR_MEMORY, "work buffer of %zu bytes", bytes);
    }
    size_t scratch = plan->algebra.scratch_bytes;
    if (scratch && !(plan->scratch = memory->allocate(scratch)))
        return error_fail(DISTFFT_ERR_MEMORY, "scratch of %zu bytes", scratch);
    return DISTFFT_SUCCESS;
}

/* The serial steps of both directions (local), FFTs planned on two
 * planning buffers: the work buffers where they are large enough,
 * temporaries otherwise. */
static int make_local_steps(struct distfft_plan_s *plan)
{
    const backend *local = plan_backend(plan);
    int rc = DISTFFT_SUCCESS;
    size_t largest = plan->algebra.largest_bytes;
    void *buffers[2], *temporary[2] = {NULL, NULL};
    for (int b = 0; b < 2; b++) {
        buffers[b] = plan->algebra.work_bytes[b] >= largest ? plan->work[b] : NULL;
        if (!buffers[b]) {
            temporary[b] = buffers[b] = local->allocate(largest);
            if (!buffers[b]) {
                rc = error_fail(DISTFFT_ERR_MEMORY, "planning buffer of %zu bytes", largest);
                goto fail;
            }
        }
    }
    for (int l = 0; l < 2; l++) {
        int count;
        const step_spec *specs = algebra_list(plan, l, &count);
        for (int s = 0; s < count; s++)
            if (specs[s].kind != STEP_EXCHANGE) {
                TRY(local->local_step(&specs[s], buffers[0], buffers[1], plan->scratch,
                                      plan->request.options.stream, &plan->steps[l][s]));
                size_t held = 0;
                size_t need = local->step_work_bytes ? local->step_work_bytes(plan->steps[l][s], &held) : 0;
                if (need > plan->step_work_bytes) plan->step_work_bytes = need;
                plan->step_held_bytes += held;
            }
    }
fail:
    for (int b = 0; b < 2; b++) local->release(temporary[b]);
    return rc;
}

/* The exchange steps of both directions, forward then backward, each
 * redistribution made by `maker` and agreed over the plan's communicator
 * (a failure inside one sub-group must reach every rank). Pretended nodes
 * (options.node_size) are runs of consecutive ranks of the plan's
 * communicator, as placement.c lays them; the node-aware methods get each
 * rank's node as a label. */
static int make_exchange_steps(struct distfft_plan_s *plan, plan_comms *comms, const exchange_maker *maker)
{
    int rc = DISTFFT_SUCCESS, exchange = 0, plan_rank = comms->rank;
    for (int l = 0; l < 2; l++) {
        int count;
        const step_spec *specs = algebra_list(plan, l, &count);
        for (int s = 0; s < count; s++) {
            const step_spec *spec = &specs[s];
            if (spec->kind != STEP_EXCHANGE) continue;
            redist_geometry geometry = {.type = spec->in_type, .ndims = spec->ndims,
                                        .axis_in = spec->axis_in, .axis_out = spec->axis_out,
                                        .batch = spec->batch,
                                        .parts = plan->grid->dims[spec->grid_direction],
                                        .part = plan->grid->coords[spec->grid_direction],
                                        .threads = spec->threads, .memory = plan_backend(plan)->memory,
                                        .copies = plan_backend(plan)->copies,
                                        .stream = plan->request.options.stream};
            int node_size = plan->request.options.node_size;
            if (node_size > 0) geometry.node = plan_rank / node_size + 1;
            /* A method that can (shm) makes the work buffer this exchange
             * writes in shared memory, and the peers write straight into
             * it (plan_run hands it over in the slot's place). Not
             * pipelined: there each field's exchange has its own place in
             * the slot. Alike on every rank: the slots, the fields. */
            bool work_target = spec->dst == SLOT_WORK0 || spec->dst == SLOT_WORK1;
            geometry.shared_output = work_target && spec->src != spec->dst && plan->pipeline.fields == 1;
            if (geometry.shared_output) geometry.shared_output_bytes = (int64_t)plan->work_size[spec->dst - SLOT_WORK0];
            memcpy(geometry.in_shape, spec->in_shape, sizeof geometry.in_shape);
            memcpy(geometry.out_shape, spec->out_shape, sizeof geometry.out_shape);
            distfft_redist redist = NULL;
            TRY(maker->make(maker->context, exchange++, plan->grid->subcomms[spec->grid_direction],
                            comms, &geometry, &redist));
            /* After the agreement every rank frees this exchange first (in
             * its step, or alone), then plan_free the others in the same
             * order everywhere: a shm window's free is collective. */
            rc = error_agree(plan->comm, exchange_step_create(spec, redist, &plan->steps[l][s]));
            if (rc != DISTFFT_SUCCESS) {
                if (plan->steps[l][s]) KEEP(step_destroy(plan->steps[l][s]));
                else KEEP(redist_free(redist));
                plan->steps[l][s] = NULL;
                goto fail;
            }
            plan->exchange_output[l][s] = redist_shared_output(redist);
            if (plan->exchange_output[l][s]) plan->shared_bytes += (size_t)geometry.shared_output_bytes;
        }
    }
fail:
    return rc;
}

/* A work buffer that only exchanges with a shared output write (every
 * other step on its slot works in place, after one of them) is never
 * touched in a run: plan_run hands over their outputs first. Free it. */
static void drop_unused_work(struct distfft_plan_s *plan)
{
    for (int b = 0; b < 2; b++) {
        bool used = false;
        for (int l = 0; l < 2; l++)
            for (int s = 0; s < plan_list_length(plan, l); s++) {
                const step_spec *spec = plan_list_spec(plan, l, s);
                used = used || ((int)spec->dst == SLOT_WORK0 + b && spec->src != spec->dst &&
                                !plan->exchange_output[l][s]);
            }
        if (used) continue;
        plan_backend(plan)->release(plan->work[b]);
        plan->work[b] = NULL;
        plan->work_size[b] = 0;
    }
}

/* The normalisation of each direction goes into the last step that makes
 * a pass over the data anyway, saving the sweep: scaling is linear, so any
 * step will do. Chebyshev weights and the input copy of a fused c2r that
 * must keep its input take any factor (every method folds it alike); the
 * unpack of a copying exchange (alltoallv, isend-*, sendrecv)
 * only a power of two, which scales exactly, so the result's bits do not
 * depend on the method tuning chose (tests/mpi/test_determinism.c) -- 1/N
 * for N a power of two, the common case. The rule is plan_step_folds: the
 * model's ranking of candidates asks it too, before any step is built. */
bool plan_step_folds(const step_spec *spec, distfft_method method, double factor)
{
    int exponent;
    switch (spec->kind) {
    case STEP_WEIGHTS: return true;
    case STEP_RESHAPE: return false;
    case STEP_FFT: return serial_needs_copy(&spec->fft);
    case STEP_EXCHANGE:
        return frexp(factor, &exponent) == 0.5 && method >= 0 && method < redist_method_count() &&
               redist_method_row(method)->scale != NULL;
    }
    return false;
}

/* Every rank folds alike: the steps and their methods are agreed. A step
 * the rule admits may still decline (an exchange with no state, a copy of
 * an empty block): the next one back is asked. */
static void fold_scales(struct distfft_plan_s *plan)
{
    for (int l = 0; l < 2; l++) {
        double factor = l == PLAN_FORWARD ? plan->algebra.forward_scale : plan->algebra.backward_scale;
        plan->sweep_scale[l] = factor;
        for (int s = plan_list_length(plan, l) - 1; s >= 0 && factor != 1.0; s--) {
            step *current = plan->steps[l][s];
            distfft_step info = {.method = DISTFFT_METHOD_AUTO};
            if (current->ops->report) current->ops->report(current, &info);
            if (!plan_step_folds(&current->spec, info.method, factor)) continue;
            if (current->ops->fold_scale && current->ops->fold_scale(current, factor)) {
                plan->sweep_scale[l] = 1.0;
                break;
            }
        }
    }
}

int plan_comms_node(plan_comms *comms, int *node)
{
    int label = 0;
    if (comms->node > 0) {
        *node = comms->node;
        return DISTFFT_SUCCESS;
    }
    /* agreed, and kept only then: every rank asks again, or none does */
    int rc = error_agree(comms->comm, node_label_find(comms->comm, comms->rank, 0, 0, &label));
    if (rc == DISTFFT_SUCCESS) *node = comms->node = label + 1;
    return rc;
}

int plan_build(plan_comms *comms, const plan_request *request, const exchange_maker *maker,
               struct distfft_plan_s **plan_out)
{
    int rc = DISTFFT_SUCCESS;
    struct distfft_plan_s *plan = calloc(1, sizeof *plan);
    if (plan) plan->comm = MPI_COMM_NULL; /* ready for plan_free */
    TRY(error_agree(comms->comm, plan ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "plan object")));
    plan->request = *request;
    plan->comm = comms->comm; /* borrowed: no duplicate per candidate */
    plan->comm_size = comms->size;

    const distfft_options *options = &request->options;
    int order[DISTFFT_MAX_DIMS], node = 0;
    int untransformed = algebra_working_order(request->ndims, options->kinds, order);
    if (options->placement == DISTFFT_PLACEMENT_NODE && options->node_size == 0)
        TRY(plan_comms_node(comms, &node));
    TRY(grid_create_on(plan->comm, options->grid_ndims, options->grid_dims, options->placement,
                       options->node_size, node,
                       algebra_busy_direction(options->grid_ndims, options->grid_dims, untransformed),
                       &plan->grid));
    algebra_input input = algebra_input_of(plan);
    plan->pipeline.fields = 1;
    bool by_field = options->overlap == DISTFFT_OVERLAP_ON || options->overlap == DISTFFT_OVERLAP_FIELDS ||
                    options->overlap == DISTFFT_OVERLAP_PROGRESS;
    if (by_field && options->batch > 1 && !options->in_place) {
        input.batch = 1; /* pipelined or one by one: the steps of one field (run.c) */
        algebra_build(&input, &plan->algebra);
        int possible = pipeline_possible(&plan->algebra), everywhere = 0; /* every rank alike */
        TRY_MPI(MPI_Allreduce(&possible, &everywhere, 1, MPI_INT, MPI_MIN, plan->comm));
        if (everywhere) {
            plan->pipeline.fields = options->batch;
            plan->pipeline.mode = options->overlap;
            pipeline_strides(plan);
        }
        input.batch = options->batch;
    }
    if (plan->pipeline.fields == 1) algebra_build(&input, &plan->algebra);
    int local = allocate_work(plan);
    if (local == DISTFFT_SUCCESS) local = make_local_steps(plan);
    /* The helper only where something can be in flight to test: a
     * pipelined plan with exchanges (the request was checked against the
     * thread level before). */
    bool exchanges = false;
    for (int s = 0; s < plan->algebra.forward_count; s++)
        exchanges = exchanges || plan->algebra.forward[s].kind == STEP_EXCHANGE;
    if (local == DISTFFT_SUCCESS && plan->pipeline.mode == DISTFFT_OVERLAP_PROGRESS && exchanges)
        local = plan_progress_create(&plan->pipeline.progress);
    TRY(error_agree(plan->comm, local));
    TRY(make_exchange_steps(plan, comms, maker));
    plan->count[PLAN_FORWARD] = plan->algebra.forward_count;
    plan->count[PLAN_BACKWARD] = plan->algebra.backward_count;
    drop_unused_work(plan);
    fold_scales(plan);
    plan->node = comms->node;
    *plan_out = plan;
    return DISTFFT_SUCCESS;
fail:
    KEEP(plan_free(plan));
    return rc;
}

int plan_free(struct distfft_plan_s *plan)
{
    int rc = DISTFFT_SUCCESS;
    if (!plan) return rc;
    plan_progress_free(plan->pipeline.progress); /* joined before the requests' exchanges go */
    for (int l = 0; l < 2; l++)
        for (int s = 0; s < PLAN_MAX_STEPS; s++) KEEP(step_destroy(plan->steps[l][s]));
    KEEP(plan_ends_free(plan)); /* after the steps that borrow its reshapes */
    const backend *memory = plan_backend(plan);
    for (int l = 0; l < 2 && memory->marks; l++)
        for (int s = 0; s < PLAN_MAX_STEPS; s++) memory->marks->destroy(plan->step_marks[l][s]);
    for (int b = 0; b < SLOT_COUNT - SLOT_WORK0; b++) memory->release(plan->work[b]);
    memory->release(plan->scratch);
    KEEP(grid_free(plan->grid));
    if (plan->owns_comm && plan->comm != MPI_COMM_NULL) KEEP_MPI(lifetime_comm_free(&plan->comm));
    free(plan);
    return rc;
}

static int check_execute(const struct distfft_plan_s *plan, const char *where, const void *in,
                         int64_t in_bytes, const void *out, int64_t out_bytes)
{
    const char *pin = in, *pout = out;
    if (!in && in_bytes > 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: in is NULL but this rank's block has %lld bytes",
                          where, (long long)in_bytes);
    if (!out && out_bytes > 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: out is NULL but this rank's block has %lld bytes",
                          where, (long long)out_bytes);
    if (plan->request.options.in_place) {
        if (!in && !out && plan->algebra.local_bytes > 0)
            return error_fail(DISTFFT_ERR_ARGUMENT, "%s: in-place buffer is NULL, but this rank needs "
                              "%lld elements (distfft_plan_local_size)", where,
                              (long long)distfft_plan_local_size(plan));
        if (in != out && !(in_bytes == 0 && !in) && !(out_bytes == 0 && !out))
            return error_fail(DISTFFT_ERR_ARGUMENT, "%s: the plan is in place (options.in_place), so in "
                              "and out must be the same buffer of distfft_plan_local_size() elements",
                              where);
    } else if (in && out && in_bytes > 0 && out_bytes > 0 && pin < pout + out_bytes &&
               pout < pin + in_bytes) {
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: in and out overlap (the plan is out of place; "
                          "make it with options.in_place to pass one buffer)", where);
    }
    int memory = backend_check_pointer(plan->request.options.memory, in, where, "in");
    if (memory == DISTFFT_SUCCESS) memory = backend_check_pointer(plan->request.options.memory, out, where, "out");
    if (memory != DISTFFT_SUCCESS) return memory;
    if (!serial_fft_aligned(plan->request.precision, in) || !serial_fft_aligned(plan->request.precision, out))
        return error_fail(DISTFFT_ERR_ALIGNMENT, "%s: in (%p) or out (%p) is not aligned as "
                          "distfft_malloc aligns", where, in, out);
    return DISTFFT_SUCCESS;
}

/* The public transforms: local checks, one agreement, then the steps.
 *
 * The agreement (one MPI_Allreduce of one integer) is what makes a bad
 * pointer on one rank an error on every rank instead of a hang: the
 * checks are local (each rank's own pointers), so no rank can know that
 * the others passed, and it stays on every call -- skipping it when the
 * pointers repeat would be a local decision, and one rank skipping while
 * another reduces deadlocks. On a communicator of one rank the local
 * verdict is the collective one, and the reduction is skipped. Measured
 * (docs/guide/node.md, "Fixed costs"): a few microseconds, against
 * milliseconds for the smallest benchmarked transform. */
int distfft_plan_execute(distfft_plan plan, void *in, void *out, int direction)
{
    error_clear();
    const char *where = "distfft_plan_execute";
    if (!plan)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: plan is NULL (destroyed or never created)", where);
    int list = direction == DISTFFT_BACKWARD ? PLAN_BACKWARD : PLAN_FORWARD;
    int local = direction == DISTFFT_FORWARD || direction == DISTFFT_BACKWARD
                    ? check_execute(plan, where, in, (int64_t)plan_in_bytes(plan, list), out,
                                    (int64_t)plan_out_bytes(plan, list))
                    : error_fail(DISTFFT_ERR_ARGUMENT, "%s: direction %d is neither DISTFFT_FORWARD (%d) nor "
                                 "DISTFFT_BACKWARD (%d)", where, direction, DISTFFT_FORWARD, DISTFFT_BACKWARD);
    int rc = plan->comm_size == 1 ? local : error_agree(plan->comm, local);
    if (rc != DISTFFT_SUCCESS) return rc;
    plan->timings.executions++;
    if (plan->request.options.in_place && (!in || !out)) in = out = in ? in : out; /* one buffer */
    return plan_run(plan, list, in, out);
}

static atomic_int planner_users;

/* Where ranks share this process they run one at a time, switching only
 * inside MPI calls (platform.h): a rank creating a plan while another
 * rank's creation waits in a collective is not a second thread in FFTW's
 * planner, and must not be refused. */
int plan_planner_enter(void) { return platform_ranks_share_process() ? 0 : atomic_fetch_add(&planner_users, 1); }

void plan_planner_leave(void)
{
    if (!platform_ranks_share_process()) atomic_fetch_sub(&planner_users, 1);
}

int distfft_plan_destroy(distfft_plan *plan)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_destroy: NULL");
    plan_planner_enter(); /* a creation starting meanwhile is refused */
    int rc = DISTFFT_SUCCESS;
    if (*plan) KEEP(lifetime_forget(&(*plan)->lifetime));
    KEEP(plan_free(*plan));
    plan_planner_leave();
    *plan = NULL;
    return rc;
}

static int plan_free_opaque(void *plan)
{
    return plan_free(plan);
}

int distfft_plan_release(distfft_plan *plan)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_release: NULL");
    return plan_release(plan, NULL);
}

int plan_release(distfft_plan *plan, MPI_Comm *companion)
{
    if (!*plan) return DISTFFT_SUCCESS;
    plan_planner_enter(); /* FFTW's plans are destroyed now */
    lifetime_tag tag = (*plan)->lifetime;
    int rc = lifetime_release_with(&tag, plan_free_opaque, *plan, companion);
    plan_planner_leave();
    if (rc == DISTFFT_ERR_MEMORY && tag.queue) return rc; /* no record: nothing freed, the plan is intact */
    *plan = NULL;
    return rc;
}
