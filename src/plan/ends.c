/*
 * ends.c -- a plan whose input and output are in the caller's layouts
 * (distfft_plan_create_layouts): where a caller's layout differs from the
 * plan's own blocks, a reshape (redist/reshape.h) at that end moves the
 * data between the caller's boxes and a buffer of the plan's own block,
 * and the plan's steps run on that buffer. Forward: reshape in, steps,
 * reshape out; backward the reverse. The reshapes are steps of the plan
 * like the others: described, counted, timed, and their buffers are work
 * memory allocated here, at plan time.
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
    void *buffer[2];                       /* the plan's own block at a reshaped end */
    size_t buffer_bytes[2];
    double seconds[2][2];                  /* [list][end] */
};

int plan_ends_free(struct distfft_plan_s *plan)
{
    int rc = DISTFFT_SUCCESS;
    struct plan_ends *ends = plan->ends;
    if (!ends) return rc;
    for (int e = 0; e < 2; e++) {
        KEEP(reshape_free(ends->reshape[e]));
        KEEP(layout_value_free(ends->layout[e]));
        backend_of(plan->request.options.memory)->release(ends->buffer[e]);
    }
    free(ends);
    plan->ends = NULL;
    return rc;
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
    for (int e = 0; e < 2; e++) {
        if (!ends->reshape[e]) continue;
        size_t bytes = e == PLAN_END_INPUT ? plan_in_bytes(plan, PLAN_FORWARD) : plan_out_bytes(plan, PLAN_FORWARD);
        ends->buffer_bytes[e] = bytes;
        if (bytes && !(ends->buffer[e] = backend_of(plan->request.options.memory)->allocate(bytes)))
            return error_fail(DISTFFT_ERR_MEMORY, "reshape buffer of %zu bytes", bytes);
    }
    return DISTFFT_SUCCESS;
}

const struct distfft_layout_s *plan_end_layout(const struct distfft_plan_s *plan, int end)
{
    return plan->ends ? plan->ends->layout[end] : NULL;
}

/* The end a direction reads (`output` false) or writes. */
static int end_of(int list, bool output)
{
    return (list == PLAN_FORWARD) != output ? PLAN_END_INPUT : PLAN_END_OUTPUT;
}

size_t plan_caller_bytes(const struct distfft_plan_s *plan, int list, bool output)
{
    int end = end_of(list, output);
    const struct distfft_layout_s *layout = plan_end_layout(plan, end);
    if (!layout) return output ? plan_out_bytes(plan, list) : plan_in_bytes(plan, list);
    distfft_type type = end == PLAN_END_INPUT ? plan->algebra.input_type : plan->algebra.output_type;
    return (size_t)plan->request.options.batch * (size_t)layout_box_count(layout, layout->rank) *
           distfft_type_size(type);
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

/* Reshape end `end` in a direction, timed as an exchange. */
static int run_end(struct distfft_plan_s *plan, int list, int end, const void *from, void *to)
{
    struct plan_ends *ends = plan->ends;
    double start = MPI_Wtime();
    /* input end: forward is caller -> own; output end: forward is own -> caller */
    int rc = reshape_run(ends->reshape[end], list == PLAN_FORWARD, from, to);
    double elapsed = MPI_Wtime() - start;
    ends->seconds[list][end] += elapsed;
    plan->timings.redistribute_seconds += elapsed;
    return rc;
}

int plan_ends_run(struct distfft_plan_s *plan, int list, void *in, void *out)
{
    struct plan_ends *ends = plan->ends;
    int first = end_of(list, false), last = end_of(list, true);
    void *inner_in = in, *inner_out = out;
    int rc = DISTFFT_SUCCESS;
    if (ends->reshape[first]) {
        TRY(run_end(plan, list, first, in, ends->buffer[first]));
        inner_in = ends->buffer[first];
    }
    if (ends->reshape[last]) inner_out = ends->buffer[last];
    TRY(plan_run(plan, list, inner_in, inner_out));
    if (ends->reshape[last]) TRY(run_end(plan, list, last, ends->buffer[last], out));
fail:
    return rc;
}

int plan_ends_before(const struct distfft_plan_s *plan, int list)
{
    return plan->ends && plan->ends->reshape[end_of(list, false)] ? 1 : 0;
}

int plan_ends_after(const struct distfft_plan_s *plan, int list)
{
    return plan->ends && plan->ends->reshape[end_of(list, true)] ? 1 : 0;
}

void plan_ends_step(const struct distfft_plan_s *plan, int list, bool after, distfft_step *info)
{
    int end = end_of(list, after);
    const struct distfft_reshape_s *reshape = plan->ends->reshape[end];
    memset(info, 0, sizeof *info);
    text description = text_on(info->description, sizeof info->description);
    text_append(&description, "reshape %s %s", end == PLAN_END_INPUT ? "in" : "out", reshape_method_name(reshape));
    info->is_redistribution = 1;
    info->grid_direction = info->axis_in = info->axis_out = -1;
    info->group_size = reshape->size;
    info->method = reshape->method;
    /* forward: the input end sends the caller's boxes, the output end the plan's; backward the reverse */
    bool sends_forward = list == PLAN_FORWARD;
    info->bytes_sent = sends_forward ? reshape->bytes_sent : reshape->bytes_received;
    info->global_bytes = (int64_t)shape_product(reshape->ndims, reshape->global_shape) * reshape->batch *
                         (int64_t)distfft_type_size(reshape->type);
    info->seconds = plan->ends->seconds[list][end];
    info->executions = plan->executions[list];
}

void plan_ends_describe(const struct distfft_plan_s *plan, int end, int depth, text *out)
{
    if (!plan->ends || !plan->ends->reshape[end]) return;
    text_node(out, depth, "reshape %s %s", end == PLAN_END_INPUT ? "in" : "out",
              reshape_method_name(plan->ends->reshape[end]));
}

size_t plan_ends_work_bytes(const struct distfft_plan_s *plan)
{
    return plan->ends ? plan->ends->buffer_bytes[0] + plan->ends->buffer_bytes[1] : 0;
}

void plan_ends_reset(struct distfft_plan_s *plan)
{
    if (plan->ends) memset(plan->ends->seconds, 0, sizeof plan->ends->seconds);
}
