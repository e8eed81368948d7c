/*
 * queries.c -- what a plan tells about itself: its blocks, types, grid,
 * memory, timings and steps (all local).
 */
#include <string.h>

#include "../error.h"
#include "plan.h"

static int copy_block(const struct distfft_plan_s *plan, bool input, int64_t *local_shape,
                      int64_t *global_start)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "plan is NULL");
    if (plan_end_box(plan, input ? PLAN_END_INPUT : PLAN_END_OUTPUT, local_shape, global_start))
        return DISTFFT_SUCCESS; /* the caller's layout */
    const algebra_steps *a = &plan->algebra;
    size_t bytes = plan->request.ndims * sizeof(int64_t);
    if (local_shape) memcpy(local_shape, input ? a->input_local : a->output_local, bytes);
    if (global_start) memcpy(global_start, input ? a->input_start : a->output_start, bytes);
    return DISTFFT_SUCCESS;
}

int distfft_plan_input_block(const struct distfft_plan_s *plan, int64_t *local_shape,
                             int64_t *global_start)
{
    return copy_block(plan, true, local_shape, global_start);
}

int distfft_plan_output_block(const struct distfft_plan_s *plan, int64_t *local_shape,
                              int64_t *global_start)
{
    return copy_block(plan, false, local_shape, global_start);
}

int distfft_plan_types(const struct distfft_plan_s *plan, distfft_type *input_type,
                       distfft_type *output_type)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "plan is NULL");
    if (input_type) *input_type = plan->algebra.input_type;
    if (output_type) *output_type = plan->algebra.output_type;
    return DISTFFT_SUCCESS;
}

int distfft_plan_output_shape(const struct distfft_plan_s *plan, int64_t *global_shape)
{
    error_clear();
    if (!plan || !global_shape) return error_fail(DISTFFT_ERR_ARGUMENT, "plan or global_shape is NULL");
    memcpy(global_shape, plan->algebra.out_shape, plan->request.ndims * sizeof(int64_t));
    return DISTFFT_SUCCESS;
}

int distfft_plan_ndims(const struct distfft_plan_s *plan)
{
    return plan ? plan->request.ndims : 0;
}

int distfft_plan_grid(const struct distfft_plan_s *plan, int *grid_ndims, int *grid_dims)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "plan is NULL");
    if (grid_ndims) *grid_ndims = plan->grid->ndims;
    if (grid_dims) distfft_grid_dims(plan->grid, grid_dims);
    return DISTFFT_SUCCESS;
}

size_t distfft_plan_work_bytes(const struct distfft_plan_s *plan)
{
    if (!plan) return 0;
    const algebra_steps *a = &plan->algebra;
    size_t bytes = plan->shared_bytes + a->scratch_bytes + plan->step_work_bytes + plan->step_held_bytes;
    for (int b = 0; b < SLOT_COUNT - SLOT_WORK0; b++) bytes += plan->work_size[b];
    return bytes;
}

int distfft_plan_input_shape(const struct distfft_plan_s *plan, int64_t *global_shape)
{
    error_clear();
    if (!plan || !global_shape) return error_fail(DISTFFT_ERR_ARGUMENT, "plan or global_shape is NULL");
    memcpy(global_shape, plan->algebra.in_shape, plan->request.ndims * sizeof(int64_t));
    return DISTFFT_SUCCESS;
}

int64_t distfft_plan_local_size(const struct distfft_plan_s *plan)
{
    if (!plan) return -1;
    size_t element = distfft_type_size(plan->algebra.output_type);
    size_t bytes = plan->algebra.local_bytes * (size_t)plan->pipeline.fields; /* pipelined: one field's algebra */
    if (plan->ends) { /* not in place: the larger of the caller's two blocks */
        size_t in = plan_in_bytes(plan, PLAN_FORWARD), out = plan_out_bytes(plan, PLAN_FORWARD);
        bytes = in > out ? in : out;
    }
    return (int64_t)((bytes + element - 1) / element);
}

int distfft_plan_timings(const struct distfft_plan_s *plan, distfft_timings *timings)
{
    error_clear();
    if (!plan || !timings) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_timings: NULL argument");
    *timings = plan->timings;
    return DISTFFT_SUCCESS;
}

int distfft_plan_reset_timings(distfft_plan plan)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_reset_timings: NULL plan");
    memset(&plan->timings, 0, sizeof plan->timings);
    memset(plan->step_seconds, 0, sizeof plan->step_seconds);
    memset(plan->step_marked, 0, sizeof plan->step_marked); /* a device run's marks not yet read: dropped */
    memset(plan->executions, 0, sizeof plan->executions);
    return DISTFFT_SUCCESS;
}

int distfft_plan_step_count(const struct distfft_plan_s *plan, int direction)
{
    if (!plan || (direction != DISTFFT_FORWARD && direction != DISTFFT_BACKWARD)) return -1;
    return plan_list_length(plan, direction == DISTFFT_FORWARD ? PLAN_FORWARD : PLAN_BACKWARD);
}

/* The record of a step, read from the step object. */
int distfft_plan_step(const struct distfft_plan_s *plan, int direction, int index, distfft_step *info)
{
    error_clear();
    int count = distfft_plan_step_count(plan, direction);
    if (count < 0 || !info)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_step: NULL plan or info, or direction "
                          "%d is neither DISTFFT_FORWARD nor DISTFFT_BACKWARD", direction);
    if (index < 0 || index >= count)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_step: index %d is not in 0..%d",
                          index, count - 1);
    int list = direction == DISTFFT_FORWARD ? PLAN_FORWARD : PLAN_BACKWARD;
    const step *current = plan->steps[list][index];
    memset(info, 0, sizeof *info);
    text description = text_on(info->description, sizeof info->description);
    current->ops->describe(current, &description);
    info->grid_direction = info->axis_in = info->axis_out = -1;
    info->group_size = 1;
    info->method = DISTFFT_METHOD_AUTO;
    if (current->ops->report) current->ops->report(current, info);
    int64_t runs = plan_step_runs(plan, &current->spec); /* field by field: a field's each */
    info->global_bytes = current->spec.global_bytes * runs;
    info->bytes_sent *= runs;
    info->seconds = plan_step_seconds(plan, list, index);
    info->executions = plan->executions[list];
    return DISTFFT_SUCCESS;
}
