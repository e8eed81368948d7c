/*
 * ends.c -- a plan whose input and output are in the caller's layouts
 * (distfft_plan_create_layouts): where a caller's layout differs from the
 * plan's own blocks, a reshape (redist/reshape.h) at that end moves the
 * data between the caller's boxes and a buffer of the plan's own block.
 * The reshapes are steps of the lists like the others -- forward: reshape
 * in, the plan's steps, reshape out; backward the reverse -- so the one
 * runner runs, times and counts them, and describe and the step table
 * read them from the lists. What stays here is what the caller's layouts
 * answer: their boxes, for the block queries.
 */
#include <stdlib.h>
#include <string.h>

#include "../backend.h"
#include "../error.h"
#include "../types.h"
#include "plan.h"

struct plan_ends {
    struct distfft_layout_s *layout[2];    /* [PLAN_END_*]: the caller's, or NULL */
    struct distfft_reshape_s *reshape[2];  /* caller <-> plan's own blocks, or NULL */
};

int plan_ends_free(struct distfft_plan_s *plan)
{
    int rc = DISTFFT_SUCCESS;
    struct plan_ends *ends = plan->ends;
    if (!ends) return rc;
    for (int e = 0; e < 2; e++) {
        KEEP(reshape_free(ends->reshape[e]));
        KEEP(layout_value_free(ends->layout[e]));
    }
    free(ends);
    plan->ends = NULL;
    return rc;
}

/* The slot of the plan's own block at an end, and the end a list reads
 * (`output` false) or writes. */
static step_slot end_slot(int end)
{
    return end == PLAN_END_INPUT ? SLOT_END_INPUT : SLOT_END_OUTPUT;
}

static int end_of(int list, bool output)
{
    return (list == PLAN_FORWARD) != output ? PLAN_END_INPUT : PLAN_END_OUTPUT;
}

/* The spec of a reshape step of `list`, from slot src to dst. */
static step_spec reshape_spec(const struct distfft_plan_s *plan, const struct distfft_reshape_s *reshape,
                              int list, step_slot src, step_slot dst)
{
    bool forward = list == PLAN_FORWARD;
    const struct distfft_layout_s *from = &reshape->boxes[forward ? 0 : 1], *to = &reshape->boxes[forward ? 1 : 0];
    step_spec spec = {.kind = STEP_RESHAPE, .ndims = reshape->ndims, .batch = reshape->batch,
                      .grid_direction = -1, .axis_in = -1, .axis_out = -1,
                      .in_type = reshape->type, .out_type = reshape->type,
                      .in_count = forward ? reshape->in_count : reshape->out_count,
                      .out_count = forward ? reshape->out_count : reshape->in_count,
                      .out_of_place = true, .src = src, .dst = dst,
                      .threads = plan->request.options.threads};
    memcpy(spec.in_shape, layout_shape(from, reshape->rank), (size_t)reshape->ndims * sizeof *spec.in_shape);
    memcpy(spec.out_shape, layout_shape(to, reshape->rank), (size_t)reshape->ndims * sizeof *spec.out_shape);
    spec.global_bytes = (int64_t)shape_product(reshape->ndims, reshape->global_shape) * reshape->batch *
                        (int64_t)distfft_type_size(reshape->type);
    return spec;
}

/* Put `current` into a list at `index`, the later steps one further on. */
static void insert_step(struct distfft_plan_s *plan, int list, int index, step *current)
{
    for (int s = plan->count[list]; s > index; s--) {
        plan->steps[list][s] = plan->steps[list][s - 1];
        plan->exchange_output[list][s] = plan->exchange_output[list][s - 1];
        plan->step_seconds[list][s] = plan->step_seconds[list][s - 1];
        plan->step_marks[list][s] = plan->step_marks[list][s - 1];
        plan->step_marked[list][s] = plan->step_marked[list][s - 1];
    }
    plan->steps[list][index] = current;
    plan->exchange_output[list][index] = NULL;
    plan->step_seconds[list][index] = 0.0;
    plan->step_marks[list][index] = NULL;
    plan->step_marked[list][index] = false;
    plan->count[list]++;
}

/* One list's reshapes: the plan's own steps move from the caller's arrays
 * to the buffers of the reshaped ends, and the reshapes go first and last.
 * The last reshape reads where the plan's last step wrote (a work buffer
 * too: no copy into the end's buffer first). */
static int insert_reshapes(struct distfft_plan_s *plan, int list)
{
    struct plan_ends *ends = plan->ends;
    int first = end_of(list, false), last = end_of(list, true);
    const char *names[2] = {[PLAN_END_INPUT] = "in", [PLAN_END_OUTPUT] = "out"};
    bool forward = list == PLAN_FORWARD;
    for (int s = 0; s < plan->count[list]; s++) {
        step_spec *spec = &plan->steps[list][s]->spec;
        if (ends->reshape[first] && spec->src == SLOT_INPUT) spec->src = end_slot(first);
        if (ends->reshape[first] && spec->dst == SLOT_INPUT) spec->dst = end_slot(first);
        if (ends->reshape[last] && spec->src == SLOT_OUTPUT) spec->src = end_slot(last);
        if (ends->reshape[last] && spec->dst == SLOT_OUTPUT) spec->dst = end_slot(last);
    }
    step *made = NULL;
    if (ends->reshape[last]) {
        step_slot result = plan->steps[list][plan->count[list] - 1]->spec.dst;
        step_spec spec = reshape_spec(plan, ends->reshape[last], list, result, SLOT_OUTPUT);
        int rc = reshape_step_create(&spec, ends->reshape[last], forward, names[last], &made);
        if (rc != DISTFFT_SUCCESS) return rc;
        insert_step(plan, list, plan->count[list], made);
    }
    if (ends->reshape[first]) {
        step_spec spec = reshape_spec(plan, ends->reshape[first], list, SLOT_INPUT, end_slot(first));
        int rc = reshape_step_create(&spec, ends->reshape[first], forward, names[first], &made);
        if (rc != DISTFFT_SUCCESS) return rc;
        insert_step(plan, list, 0, made);
    }
    return DISTFFT_SUCCESS;
}

/* The buffer of the plan's own block at a reshaped end, where a step of
 * either list writes it (not where the last reshape reads a work buffer). */
static int allocate_end(struct distfft_plan_s *plan, int end, size_t bytes)
{
    step_slot slot = end_slot(end);
    bool written = false;
    for (int l = 0; l < 2; l++)
        for (int s = 0; s < plan->count[l]; s++)
            written = written || plan->steps[l][s]->spec.dst == slot;
    if (!written || !bytes) return DISTFFT_SUCCESS;
    plan->work_size[slot - SLOT_WORK0] = bytes;
    plan->work[slot - SLOT_WORK0] = backend_of(plan->request.options.memory)->allocate(bytes);
    if (!plan->work[slot - SLOT_WORK0]) return error_fail(DISTFFT_ERR_MEMORY, "reshape buffer of %zu bytes", bytes);
    return DISTFFT_SUCCESS;
}

int plan_attach_ends(struct distfft_plan_s *plan, struct distfft_layout_s *layouts[2],
                     struct distfft_reshape_s *reshapes[2])
{
    struct plan_ends *ends = calloc(1, sizeof *ends);
    if (!ends) {
        int rc = error_fail(DISTFFT_ERR_MEMORY, "plan ends");
        for (int e = 0; e < 2; e++) {
            KEEP(reshape_free(reshapes[e]));
            KEEP(layout_value_free(layouts[e]));
        }
        return rc;
    }
    plan->ends = ends;
    for (int e = 0; e < 2; e++) {
        ends->layout[e] = layouts[e];
        ends->reshape[e] = reshapes[e];
    }
    /* the plan's own blocks, before the reshapes become the lists' ends */
    size_t own[2] = {plan_in_bytes(plan, PLAN_FORWARD), plan_out_bytes(plan, PLAN_FORWARD)};
    int rc = DISTFFT_SUCCESS;
    TRY(insert_reshapes(plan, PLAN_FORWARD));
    TRY(insert_reshapes(plan, PLAN_BACKWARD));
    for (int e = 0; e < 2; e++) TRY(allocate_end(plan, e, own[e]));
fail:
    return rc;
}

const struct distfft_layout_s *plan_end_layout(const struct distfft_plan_s *plan, int end)
{
    return plan->ends ? plan->ends->layout[end] : NULL;
}

bool plan_end_box(const struct distfft_plan_s *plan, int end, int64_t *local_shape, int64_t *global_start)
{
    const struct distfft_layout_s *layout = plan_end_layout(plan, end);
    if (!layout) return false;
    size_t bytes = layout->ndims * sizeof(int64_t);
    if (local_shape) memcpy(local_shape, layout_shape(layout, layout->rank), bytes);
    if (global_start) memcpy(global_start, layout_start(layout, layout->rank), bytes);
    return true;
}
