/*
 * plan.c -- parallel multidimensional transforms (paper Sec. 3.3-3.6, Eqs.
 * 12-14 and 21-32): a list of steps [transform, redistribute, transform,
 * ...]; backward is the same list reversed, each step inverted. The plan
 * composes steps; it implements none (serial/ transforms, redist/ moves).
 *
 * Alignments. The axes are put in a working order: the untransformed axes
 * first (they are distributed and never move), then the transformed ones in
 * increasing order (so R2C, on the last transformed axis, comes first). In
 * that order, with an r-dimensional grid, the data starts with position i
 * distributed over grid direction i (i < r) and positions r..d-1 complete:
 *   stage 0:  transform the complete transformed positions;
 *   stage k:  for direction i = r-1, r-2, ... while position i is
 *             transformed: redistribute on P_i from alignment i+1 to i
 *             (position i+1 becomes distributed over direction i, position
 *             i complete), then transform position i.
 * With every axis transformed this is exactly the paper's pipeline, and the
 * output is in natural axis order. A grid direction of extent 1 moves no
 * data: its exchange is left out and its transform joins the previous
 * stage (on one rank the whole transform is local).
 *
 * Within a stage: R2C first (real data in, complex out), then the C2C axes
 * in one FFTW plan, then the real-to-real axes in one FFTW plan (on complex
 * data: its real and imaginary parts), then the Chebyshev weights.
 *
 * Memory (the paper's remark after Eq. 32): steps that cannot work in place
 * (exchanges, R2C/C2R, and the first step when the input must be kept)
 * write alternately into two work buffers, the last of them into the
 * caller's output; every other step works in place. All buffers, FFTW plans
 * and datatypes are made here, once; executing allocates nothing.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "grid.h"
#include "layout.h"
#include "redist/redist.h"
#include "serial/serial_fft.h"
#include "tuning.h"
#include "types.h"
#include "wisdom.h"

#define MAX_STEPS (4 * DISTFFT_MAX_DIMS + 4)

/* Where a step reads or writes. */
typedef enum { SLOT_INPUT, SLOT_OUTPUT, SLOT_WORK0, SLOT_WORK1 } slot;

typedef enum { STEP_FFT, STEP_REDIST, STEP_WEIGHTS } step_kind;

typedef struct {
    step_kind kind;
    serial_fft *fft;              /* STEP_FFT */
    serial_spec spec;             /* STEP_FFT: what it does (also for describe) */
    distfft_redist redist;        /* STEP_REDIST */
    int direction;                /* STEP_REDIST: grid direction; axes: */
    int axis_in, axis_out;
    const double *weights;        /* STEP_WEIGHTS: along `axis` */
    int axis;
    int64_t in_shape[DISTFFT_MAX_DIMS], out_shape[DISTFFT_MAX_DIMS]; /* local */
    distfft_type in_type, out_type;
    int64_t in_count, out_count;  /* elements, batch included */
    bool out_of_place;
    slot src, dst;
    int group_size;               /* STEP_REDIST: ranks in the group */
    int64_t global_bytes;         /* the whole distributed array, all ranks */
    int64_t bytes_sent;           /* STEP_REDIST: by this rank, per execution */
} plan_step;

struct distfft_plan_s {
    MPI_Comm comm;                      /* our duplicate of the caller's */
    distfft_grid grid;
    int ndims;
    int64_t shape[DISTFFT_MAX_DIMS];     /* real-space global shape */
    int64_t out_shape[DISTFFT_MAX_DIMS]; /* spectral global shape */
    distfft_precision precision;
    distfft_options options;
    distfft_type input_type, output_type;
    int64_t input_local[DISTFFT_MAX_DIMS], input_start[DISTFFT_MAX_DIMS];
    int64_t output_local[DISTFFT_MAX_DIMS], output_start[DISTFFT_MAX_DIMS];
    plan_step forward[MAX_STEPS], backward[MAX_STEPS];
    int forward_count, backward_count;
    double *weights[DISTFFT_MAX_DIMS][2]; /* CHEB: [axis][forward, backward] */
    size_t work_size[2];
    void *work[2];
    double forward_scale, backward_scale;
    distfft_timings timings;
    double step_seconds[2][MAX_STEPS];  /* [forward, backward][step] */
    int64_t executions[2];
    double tuning_seconds;              /* grids and methods measured */
    int grids_measured;                 /* candidates timed (0: none) */
    bool from_wisdom;                   /* choices taken from wisdom */
};

/* ---- kinds ------------------------------------------------------------------ */

static bool is_real_to_real(distfft_kind kind)
{
    return kind >= DISTFFT_DCT1 && kind <= DISTFFT_CHEB;
}

/* The length N of an axis counts for normalisation (see distfft_norm). */
static double logical_length(distfft_kind kind, int64_t n)
{
    switch (kind) {
    case DISTFFT_C2C: case DISTFFT_R2C: return (double)n;
    case DISTFFT_DCT1: return 2.0 * (double)(n - 1);
    case DISTFFT_DST1: return 2.0 * (double)(n + 1);
    case DISTFFT_CHEB: case DISTFFT_NONE: return 1.0;
    default: return 2.0 * (double)n;
    }
}

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
}

/* ---- argument checks ------------------------------------------------------ */

/* The rules that make a set of kinds one well-defined transform. */
static int check_kinds(int ndims, const int64_t *shape, const distfft_kind *kinds,
                       const char *where)
{
    int last_transformed = -1, r2c_axis = -1, c2c_axis = -1, r2r_axis = -1;
    for (int i = 0; i < ndims; i++) {
        distfft_kind kind = kinds[i];
        if (!distfft_kind_name(kind))
            return error_fail(DISTFFT_ERR_ARGUMENT, "%s: kinds[%d] = %d is not a transform kind", where, i, (int)kind);
        if (kind == DISTFFT_NONE) continue;
        last_transformed = i;
        if (kind == DISTFFT_R2C) {
            if (r2c_axis >= 0)
                return error_fail(DISTFFT_ERR_ARGUMENT, "%s: r2c on axes %d and %d; at most one axis can be r2c",
                                  where, r2c_axis, i);
            r2c_axis = i;
        }
        if (kind == DISTFFT_C2C) c2c_axis = i;
        if (is_real_to_real(kind)) r2r_axis = i;
        if ((kind == DISTFFT_DCT1 || kind == DISTFFT_CHEB) && shape[i] < 2)
            return error_fail(DISTFFT_ERR_SHAPE, "%s: %s on axis %d needs at least 2 points, the axis has %lld",
                              where, distfft_kind_name(kind), i, (long long)shape[i]);
    }
    if (last_transformed < 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: every axis has kind none; nothing to transform", where);
    if (r2c_axis >= 0 && r2c_axis != last_transformed)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: r2c is on axis %d, but it must be on the last transformed "
                          "axis (%d), the one transformed first", where, r2c_axis, last_transformed);
    if (r2c_axis < 0 && c2c_axis >= 0 && r2r_axis >= 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: the real-to-real kind %s on axis %d needs real data, but the "
                          "array is complex (axis %d is c2c and no axis is r2c)", where,
                          distfft_kind_name(kinds[r2r_axis]), r2r_axis, c2c_axis);
    return DISTFFT_SUCCESS;
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
    if (options->grid_ndims < 0 || options->grid_ndims >= ndims)
        return error_fail(DISTFFT_ERR_GRID, "%s: grid_ndims = %d must be in 1..%d (0: automatic) for a %d-dimensional array",
                          where, options->grid_ndims, ndims - 1, ndims);
    if (!distfft_method_name(options->method))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown method %d", where, (int)options->method);
    if (options->norm < DISTFFT_NORM_BACKWARD || options->norm > DISTFFT_NORM_FORWARD)
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
    int rc = check_kinds(ndims, shape, options->kinds, where);
    if (rc) return rc;

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
    return DISTFFT_SUCCESS;
}

/* The working order of the axes: untransformed first, then transformed. */
static int working_order(int ndims, const distfft_kind *kinds, int *order)
{
    int count = 0, untransformed = 0;
    for (int i = 0; i < ndims; i++)
        if (kinds[i] == DISTFFT_NONE) order[count++] = i;
    untransformed = count;
    for (int i = 0; i < ndims; i++)
        if (kinds[i] != DISTFFT_NONE) order[count++] = i;
    return untransformed;
}

/* The lowest grid dimensionality whose MPI_Dims_create grid gives every
 * rank data in every layout (direction i splits positions i and i+1), or
 * the highest possible one if none does. Identical on every rank. */
static int choose_grid_ndims(int size, int ndims, const int64_t *shape,
                             const int *order)
{
    for (int r = 1; r < ndims; r++) {
        int dims[DISTFFT_MAX_DIMS] = {0};
        MPI_Dims_create(size, r, dims);
        int fits = 1;
        for (int i = 0; i < r; i++)
            fits &= dims[i] <= shape[order[i]] && dims[i] <= shape[order[i + 1]];
        if (fits) return r;
    }
    return ndims - 1;
}

/* ---- building the steps -------------------------------------------------- */

/* What the builder tracks while it walks the stages. */
typedef struct {
    struct distfft_plan_s *plan;
    layout current;                 /* global shape now, and who distributes what */
    int64_t local[DISTFFT_MAX_DIMS];
    distfft_type type;              /* element type now */
} builder;

static void builder_block(builder *b)
{
    layout_block(&b->current, b->plan->grid->dims, b->plan->grid->coords, b->local, NULL);
}

static int64_t builder_count(const builder *b)
{
    return b->plan->options.batch * shape_product(b->plan->ndims, b->local);
}

static plan_step *add_step(struct distfft_plan_s *plan, step_kind kind)
{
    plan_step *step = &plan->forward[plan->forward_count++];
    memset(step, 0, sizeof *step);
    step->kind = kind;
    return step;
}

static void add_fft(builder *b, serial_family family, int naxes, const int *axes,
                    const distfft_kind *kinds)
{
    struct distfft_plan_s *plan = b->plan;
    plan_step *step = add_step(plan, STEP_FFT);
    serial_spec *spec = &step->spec;
    spec->precision = plan->precision;
    spec->family = family;
    spec->ndims = plan->ndims;
    memcpy(spec->shape, b->local, sizeof spec->shape);
    spec->batch = plan->options.batch;
    spec->naxes = naxes;
    memcpy(spec->axes, axes, naxes * sizeof *axes);
    spec->sign = DISTFFT_FORWARD;
    for (int j = 0; j < naxes && kinds; j++) spec->r2r_kinds[j] = kinds[j];
    spec->complex_data = b->type == type_complex(plan->precision);
    spec->rigor = plan->options.rigor;
    step->in_type = b->type;
    step->in_count = builder_count(b);
    if (family == SERIAL_R2C) {
        int axis = axes[0];
        b->current.global_shape[axis] = b->current.global_shape[axis] / 2 + 1;
        builder_block(b);
        b->type = type_complex(plan->precision);
    }
    step->out_type = b->type;
    step->out_count = builder_count(b);
}

static void add_weights(builder *b, int axis)
{
    plan_step *step = add_step(b->plan, STEP_WEIGHTS);
    step->axis = axis;
    step->weights = b->plan->weights[axis][0];
    memcpy(step->in_shape, b->local, sizeof step->in_shape);
    memcpy(step->out_shape, b->local, sizeof step->out_shape);
    step->in_type = step->out_type = b->type;
    step->in_count = step->out_count = builder_count(b);
}

/* Transform the axes of one stage: R2C, then C2C, then real-to-real. */
static void add_stage_transforms(builder *b, int naxes, const int *stage_axes)
{
    const distfft_kind *kinds = b->plan->options.kinds;
    int c2c[DISTFFT_MAX_DIMS], r2r[DISTFFT_MAX_DIMS], c2c_count = 0, r2r_count = 0;
    distfft_kind r2r_kinds[DISTFFT_MAX_DIMS];
    for (int j = 0; j < naxes; j++) {
        int a = stage_axes[j];
        if (kinds[a] == DISTFFT_R2C) add_fft(b, SERIAL_R2C, 1, &a, NULL);
        else if (kinds[a] == DISTFFT_C2C) c2c[c2c_count++] = a;
        else if (is_real_to_real(kinds[a])) {
            r2r_kinds[r2r_count] = kinds[a];
            r2r[r2r_count++] = a;
        }
    }
    if (c2c_count) add_fft(b, SERIAL_C2C, c2c_count, c2c, NULL);
    if (r2r_count) add_fft(b, SERIAL_R2R, r2r_count, r2r, r2r_kinds);
    for (int j = 0; j < r2r_count; j++)
        if (kinds[r2r[j]] == DISTFFT_CHEB) add_weights(b, r2r[j]);
}

static void add_redist(builder *b, int direction, int axis_in, int axis_out)
{
    plan_step *step = add_step(b->plan, STEP_REDIST);
    step->direction = direction;
    step->axis_in = axis_in;
    step->axis_out = axis_out;
    step->in_type = step->out_type = b->type;
    memcpy(step->in_shape, b->local, sizeof step->in_shape);
    step->in_count = builder_count(b);
    step->group_size = b->plan->grid->dims[direction];
    step->global_bytes = b->plan->options.batch * shape_product(b->plan->ndims, b->current.global_shape) *
                         (int64_t)distfft_type_size(b->type);
    b->current.distributed_by[axis_in] = direction;
    b->current.distributed_by[axis_out] = NOT_DISTRIBUTED;
    builder_block(b);
    memcpy(step->out_shape, b->local, sizeof step->out_shape);
    step->out_count = builder_count(b);
}

/* The forward steps, stage by stage (see the top of this file). */
static void build_forward(struct distfft_plan_s *plan)
{
    int d = plan->ndims, r = plan->grid->ndims, order[DISTFFT_MAX_DIMS];
    int untransformed = working_order(d, plan->options.kinds, order);
    builder b = {.plan = plan};
    b.current.ndims = d;
    memcpy(b.current.global_shape, plan->shape, sizeof plan->shape);
    for (int p = 0; p < d; p++)
        b.current.distributed_by[order[p]] = p < r ? p : NOT_DISTRIBUTED;
    builder_block(&b);
    memcpy(plan->input_local, b.local, sizeof b.local);
    layout_block(&b.current, plan->grid->dims, plan->grid->coords, NULL, plan->input_start);
    b.type = plan->input_type;

    /* Stage 0, then one stage per exchange; an extent-1 direction merges
     * its position into the current stage. */
    int stage_axes[DISTFFT_MAX_DIMS], naxes = 0;
    for (int p = d - 1; p >= r && p >= untransformed; p--) stage_axes[naxes++] = order[p];
    for (int i = r - 1; i >= untransformed; i--) {
        if (plan->grid->dims[i] > 1) {
            add_stage_transforms(&b, naxes, stage_axes);
            naxes = 0;
            add_redist(&b, i, order[i + 1], order[i]);
        } else {
            b.current.distributed_by[order[i + 1]] = i;
            b.current.distributed_by[order[i]] = NOT_DISTRIBUTED;
        }
        stage_axes[naxes++] = order[i];
    }
    add_stage_transforms(&b, naxes, stage_axes);

    memcpy(plan->out_shape, b.current.global_shape, sizeof plan->out_shape);
    layout_block(&b.current, plan->grid->dims, plan->grid->coords, plan->output_local,
                 plan->output_start);
}

/* Backward: the forward steps in reverse order, each inverted. */
static void build_backward(struct distfft_plan_s *plan)
{
    plan->backward_count = plan->forward_count;
    for (int s = 0; s < plan->forward_count; s++) {
        const plan_step *forward = &plan->forward[plan->forward_count - 1 - s];
        plan_step *step = &plan->backward[s];
        *step = *forward;
        step->fft = NULL;
        step->redist = NULL;
        step->in_type = forward->out_type;
        step->out_type = forward->in_type;
        step->in_count = forward->out_count;
        step->out_count = forward->in_count;
        memcpy(step->in_shape, forward->out_shape, sizeof step->in_shape);
        memcpy(step->out_shape, forward->in_shape, sizeof step->out_shape);
        if (step->kind == STEP_FFT) {
            serial_spec *spec = &step->spec;
            if (spec->family == SERIAL_R2C) spec->family = SERIAL_C2R;
            spec->sign = DISTFFT_BACKWARD;
            for (int j = 0; j < spec->naxes; j++) spec->r2r_kinds[j] = serial_inverse_kind(spec->r2r_kinds[j]);
        } else if (step->kind == STEP_REDIST) {
            step->axis_in = forward->axis_out;
            step->axis_out = forward->axis_in;
        } else {
            step->weights = plan->weights[step->axis][1];
        }
    }
}

/* Which steps work out of place, and the slots they read and write: the
 * out-of-place steps write alternately into the two work buffers, counting
 * back from the last one, which writes the caller's output. */
static void assign_slots(plan_step *steps, int count, bool destroy_input)
{
    int out_of_place = 0;
    for (int s = 0; s < count; s++) {
        plan_step *step = &steps[s];
        step->out_of_place = step->kind == STEP_REDIST ||
                             (step->kind == STEP_FFT && (step->spec.family == SERIAL_R2C ||
                                                         step->spec.family == SERIAL_C2R));
        out_of_place += step->out_of_place;
    }
    if (!steps[0].out_of_place && (!destroy_input || out_of_place == 0)) {
        steps[0].out_of_place = true; /* keep the input, or reach the output */
        out_of_place++;
    }
    slot current = SLOT_INPUT;
    int remaining = out_of_place;
    for (int s = 0; s < count; s++) {
        plan_step *step = &steps[s];
        step->src = current;
        if (step->out_of_place) {
            remaining--;
            step->dst = remaining == 0 ? SLOT_OUTPUT : (remaining % 2 ? SLOT_WORK0 : SLOT_WORK1);
            current = step->dst;
        } else {
            step->dst = current;
        }
        if (step->kind == STEP_FFT)
            step->spec.preserve_input = step->src == SLOT_INPUT && step->out_of_place && !destroy_input;
    }
}

static void size_work(struct distfft_plan_s *plan, const plan_step *steps, int count)
{
    for (int s = 0; s < count; s++) {
        const plan_step *step = &steps[s];
        size_t bytes = (size_t)step->out_count * distfft_type_size(step->out_type);
        if (step->dst == SLOT_WORK0 && bytes > plan->work_size[0]) plan->work_size[0] = bytes;
        if (step->dst == SLOT_WORK1 && bytes > plan->work_size[1]) plan->work_size[1] = bytes;
    }
}

static int make_weights(struct distfft_plan_s *plan)
{
    for (int a = 0; a < plan->ndims; a++) {
        if (plan->options.kinds[a] != DISTFFT_CHEB) continue;
        int64_t n = plan->shape[a];
        double *forward = malloc(n * sizeof *forward), *backward = malloc(n * sizeof *backward);
        plan->weights[a][0] = forward;
        plan->weights[a][1] = backward;
        if (!forward || !backward) return error_fail(DISTFFT_ERR_MEMORY, "Chebyshev weights");
        /* a_k = DCT-I(f)_k / (c_k (n-1)), c_0 = c_{n-1} = 2, else 1; the
         * backward pre-weights c_k / 2 make DCT-I give the samples back. */
        for (int64_t k = 0; k < n; k++) {
            double c = (k == 0 || k == n - 1) ? 2.0 : 1.0;
            forward[k] = 1.0 / (c * (double)(n - 1));
            backward[k] = c / 2.0;
        }
    }
    return DISTFFT_SUCCESS;
}

static int allocate_work(struct distfft_plan_s *plan)
{
    for (int b = 0; b < 2; b++) {
        if (!plan->work_size[b]) continue;
        plan->work[b] = distfft_malloc(plan->work_size[b]);
        if (!plan->work[b])
            return error_fail(DISTFFT_ERR_MEMORY, "work buffer of %zu bytes", plan->work_size[b]);
    }
    return DISTFFT_SUCCESS;
}

/* Plan the serial transforms of both directions on two planning buffers
 * (the work buffers where they are large enough, temporaries otherwise). */
static int plan_ffts(struct distfft_plan_s *plan)
{
    int rc = DISTFFT_SUCCESS;
    size_t largest = 1;
    plan_step *lists[2] = {plan->forward, plan->backward};
    int counts[2] = {plan->forward_count, plan->backward_count};
    for (int l = 0; l < 2; l++)
        for (int s = 0; s < counts[l]; s++) {
            size_t in = (size_t)lists[l][s].in_count * distfft_type_size(lists[l][s].in_type);
            size_t out = (size_t)lists[l][s].out_count * distfft_type_size(lists[l][s].out_type);
            if (in > largest) largest = in;
            if (out > largest) largest = out;
        }
    void *buffers[2], *temporary[2] = {NULL, NULL};
    for (int b = 0; b < 2; b++) {
        buffers[b] = plan->work_size[b] >= largest ? plan->work[b] : NULL;
        if (!buffers[b]) {
            temporary[b] = buffers[b] = distfft_malloc(largest);
            if (!buffers[b]) {
                rc = error_fail(DISTFFT_ERR_MEMORY, "planning buffer of %zu bytes", largest);
                goto fail;
            }
        }
    }
    for (int l = 0; l < 2; l++)
        for (int s = 0; s < counts[l]; s++) {
            plan_step *step = &lists[l][s];
            if (step->kind != STEP_FFT) continue;
            TRY(serial_fft_create(&step->spec, buffers[0],
                                  step->out_of_place ? buffers[1] : buffers[0], &step->fft));
        }
fail:
    for (int b = 0; b < 2; b++) distfft_free(temporary[b]);
    return rc;
}

/* The number of exchanges of both directions. */
static int count_exchanges(const struct distfft_plan_s *plan)
{
    int count = 0;
    for (int s = 0; s < plan->forward_count; s++) count += plan->forward[s].kind == STEP_REDIST;
    return 2 * count;
}

/* Plan every exchange, forward then backward: with the method of `forced`
 * (wisdom) when given, else with options.method. */
static int plan_redistributions(struct distfft_plan_s *plan, const wisdom_choice *forced)
{
    int rc = DISTFFT_SUCCESS, exchange = 0;
    plan_step *lists[2] = {plan->forward, plan->backward};
    int counts[2] = {plan->forward_count, plan->backward_count};
    for (int l = 0; l < 2; l++)
        for (int s = 0; s < counts[l]; s++) {
            plan_step *step = &lists[l][s];
            if (step->kind != STEP_REDIST) continue;
            redist_geometry geometry = {.type = step->in_type, .ndims = plan->ndims,
                                        .axis_in = step->axis_in, .axis_out = step->axis_out,
                                        .batch = plan->options.batch,
                                        .parts = plan->grid->dims[step->direction],
                                        .part = plan->grid->coords[step->direction]};
            memcpy(geometry.in_shape, step->in_shape, sizeof geometry.in_shape);
            memcpy(geometry.out_shape, step->out_shape, sizeof geometry.out_shape);
            /* Estimate mode never measures: "auto" then means the paper's. */
            distfft_method method = forced ? forced->methods[exchange] : plan->options.method;
            if (method == DISTFFT_METHOD_AUTO && plan->options.rigor == DISTFFT_ESTIMATE)
                method = DISTFFT_METHOD_ALLTOALLW;
            exchange++;
            /* A failure inside one sub-group must reach every rank. */
            int created = redist_create_on(plan->grid->subcomms[step->direction], plan->comm,
                                           &geometry, method, &step->redist);
            TRY(error_agree(plan->comm, created));
            step->bytes_sent = redist_bytes_sent(step->redist);
        }
fail:
    return rc;
}

static void set_scales(struct distfft_plan_s *plan)
{
    double n = 1.0;
    for (int a = 0; a < plan->ndims; a++) n *= logical_length(plan->options.kinds[a], plan->shape[a]);
    plan->forward_scale = plan->backward_scale = 1.0;
    switch (plan->options.norm) {
    case DISTFFT_NORM_BACKWARD: plan->backward_scale = 1.0 / n; break;
    case DISTFFT_NORM_FORWARD: plan->forward_scale = 1.0 / n; break;
    case DISTFFT_NORM_ORTHO: plan->forward_scale = plan->backward_scale = 1.0 / sqrt(n); break;
    }
}

static void set_types(struct distfft_plan_s *plan)
{
    bool r2c = false, c2c = false;
    for (int a = 0; a < plan->ndims; a++) {
        r2c |= plan->options.kinds[a] == DISTFFT_R2C;
        c2c |= plan->options.kinds[a] == DISTFFT_C2C;
    }
    distfft_type real = plan->precision == DISTFFT_FLOAT ? DISTFFT_REAL_FLOAT : DISTFFT_REAL_DOUBLE;
    distfft_type complex = type_complex(plan->precision);
    plan->input_type = r2c || !c2c ? real : complex;
    plan->output_type = r2c || c2c ? complex : real;
}

static void plan_free(struct distfft_plan_s *plan)
{
    if (!plan) return;
    plan_step *lists[2] = {plan->forward, plan->backward};
    for (int l = 0; l < 2; l++)
        for (int s = 0; s < MAX_STEPS; s++) {
            serial_fft_destroy(lists[l][s].fft);
            redist_free(lists[l][s].redist);
        }
    for (int a = 0; a < DISTFFT_MAX_DIMS; a++) {
        free(plan->weights[a][0]);
        free(plan->weights[a][1]);
    }
    for (int b = 0; b < 2; b++) distfft_free(plan->work[b]);
    grid_free(plan->grid);
    if (plan->comm != MPI_COMM_NULL) MPI_Comm_free(&plan->comm);
    free(plan);
}

/* The grid direction whose exchanges send the most bytes off-rank, for
 * node-aware placement. Every exchange moves the whole array (R2C, the only
 * step that changes its size, comes before all of them), a fraction
 * 1 - 1/M_i of it off-rank, and each direction is exchanged at most once
 * per transform: so the exchanged direction of largest extent, the last
 * one on ties (row-major's choice). */
static int busy_direction(int r, const int *dims, int untransformed)
{
    int busy = r - 1, largest = 1;
    for (int i = untransformed; i < r; i++)
        if (dims[i] > 1 && dims[i] >= largest) {
            largest = dims[i];
            busy = i;
        }
    return busy;
}

/* A plan on the agreed arguments, with options->grid_ndims > 0 and its dims
 * complete; `forced` (or NULL) gives the methods of the exchanges.
 * Collective on comm, which the plan duplicates. */
static int plan_build(MPI_Comm comm, int ndims, const int64_t *shape,
                      distfft_precision precision, const distfft_options *options,
                      const wisdom_choice *forced, struct distfft_plan_s **plan_out)
{
    int rc = DISTFFT_SUCCESS;
    struct distfft_plan_s *plan = calloc(1, sizeof *plan);
    TRY(error_agree(comm, plan ? DISTFFT_SUCCESS
                               : error_fail(DISTFFT_ERR_MEMORY, "plan object")));
    plan->comm = MPI_COMM_NULL;
    TRY_MPI(MPI_Comm_dup(comm, &plan->comm));
    TRY_MPI(MPI_Comm_set_errhandler(plan->comm, MPI_ERRORS_RETURN));
    plan->ndims = ndims;
    memcpy(plan->shape, shape, ndims * sizeof *shape);
    plan->precision = precision;
    plan->options = *options;
    set_types(plan);
    set_scales(plan);

    int order[DISTFFT_MAX_DIMS];
    int untransformed = working_order(ndims, options->kinds, order);
    TRY(distfft_grid_create_placed(plan->comm, options->grid_ndims, options->grid_dims,
                                   options->placement, options->node_size,
                                   busy_direction(options->grid_ndims, options->grid_dims, untransformed),
                                   &plan->grid));
    int local = make_weights(plan);
    if (local == DISTFFT_SUCCESS) {
        build_forward(plan);
        build_backward(plan);
        assign_slots(plan->forward, plan->forward_count, options->destroy_input);
        assign_slots(plan->backward, plan->backward_count, options->destroy_input);
        size_work(plan, plan->forward, plan->forward_count);
        size_work(plan, plan->backward, plan->backward_count);
        local = allocate_work(plan);
    }
    if (local == DISTFFT_SUCCESS) local = plan_ffts(plan);
    TRY(error_agree(plan->comm, local));
    if (forced && forced->exchanges != count_exchanges(plan)) forced = NULL;
    TRY(plan_redistributions(plan, forced));
    *plan_out = plan;
    return DISTFFT_SUCCESS;
fail:
    plan_free(plan);
    return rc;
}

/* ---- choosing the grid ------------------------------------------------------ */

#define MAX_GRID_CANDIDATES 8

typedef struct {
    int ndims;
    int dims[DISTFFT_MAX_DIMS];
} grid_candidate;

/* Does every rank hold data in every layout? (Direction i splits working
 * positions i and i+1 in turn.) */
static bool grid_fits(const grid_candidate *grid, const int64_t *shape, const int *order)
{
    for (int i = 0; i < grid->ndims; i++)
        if (grid->dims[i] > shape[order[i]] || grid->dims[i] > shape[order[i + 1]]) return false;
    return true;
}

/* Append the ordered factorisations of `rest` into the remaining extents
 * (each >= 2) of a grid of `grid->ndims` directions, from direction i. */
static void add_factorisations(grid_candidate *grid, int i, int rest, const int64_t *shape,
                               const int *order, grid_candidate *list, int *count)
{
    if (*count == MAX_GRID_CANDIDATES) return;
    if (i == grid->ndims - 1) {
        grid->dims[i] = rest;
        if (rest >= 2 && grid_fits(grid, shape, order)) list[(*count)++] = *grid;
        return;
    }
    for (int f = 2; f <= rest / 2; f++)
        if (rest % f == 0) {
            grid->dims[i] = f;
            add_factorisations(grid, i + 1, rest / f, shape, order, list, count);
        }
}

/* The grids a measuring plan tries: slabs first, then pencils, ... */
static int grid_candidates(int size, int ndims, const int64_t *shape, const int *order,
                           grid_candidate *list)
{
    int count = 0;
    for (int r = 1; r < ndims && count < MAX_GRID_CANDIDATES; r++) {
        grid_candidate grid = {.ndims = r};
        add_factorisations(&grid, 0, size, shape, order, list, &count);
    }
    return count;
}

/* One forward+backward pair of a candidate plan on scratch arrays. */
typedef struct {
    struct distfft_plan_s *plan;
    void *in, *out;
} pair_run;

static int run_pair(void *context)
{
    pair_run *run = context;
    int rc = distfft_plan_forward(run->plan, run->in, run->out);
    return rc == DISTFFT_SUCCESS ? distfft_plan_backward(run->plan, run->out, run->in) : rc;
}

/* Seconds of a forward+backward pair (tuning_time: the slowest rank's,
 * the fastest of several runs). Collective. */
static int time_pair(struct distfft_plan_s *plan, double *seconds)
{
    const plan_step *first = &plan->forward[0], *last = &plan->forward[plan->forward_count - 1];
    size_t in_bytes = (size_t)first->in_count * distfft_type_size(first->in_type) + 64;
    size_t out_bytes = (size_t)last->out_count * distfft_type_size(last->out_type) + 64;
    void *in = distfft_malloc(in_bytes), *out = distfft_malloc(out_bytes);
    int rc = error_agree(plan->comm, in && out ? DISTFFT_SUCCESS
                                               : error_fail(DISTFFT_ERR_MEMORY, "timing arrays"));
    if (rc == DISTFFT_SUCCESS) {
        memset(in, 0, in_bytes);
        memset(out, 0, out_bytes);
        pair_run run = {plan, in, out};
        rc = tuning_time(plan->comm, run_pair, &run, seconds);
    }
    distfft_free(in);
    distfft_free(out);
    distfft_plan_reset_timings(plan);
    return rc;
}

/* ---- wisdom ------------------------------------------------------------------- */

/* The choices a tuned plan made. */
static void plan_choice(const struct distfft_plan_s *plan, wisdom_choice *choice)
{
    memset(choice, 0, sizeof *choice);
    choice->grid_ndims = plan->grid->ndims;
    memcpy(choice->grid_dims, plan->grid->dims, sizeof choice->grid_dims);
    const plan_step *lists[2] = {plan->forward, plan->backward};
    int counts[2] = {plan->forward_count, plan->backward_count};
    for (int l = 0; l < 2; l++)
        for (int s = 0; s < counts[l]; s++)
            if (lists[l][s].kind == STEP_REDIST)
                choice->methods[choice->exchanges++] = lists[l][s].redist->method_id;
}

/* Wisdom for key that every rank holds, identical and usable (a grid of
 * the right size), or 0. Collective on comm. */
static int agreed_wisdom(MPI_Comm comm, int size, int ndims, const char *key, wisdom_choice *choice)
{
    int found = wisdom_lookup(key, choice);
    int64_t product = 1;
    for (int i = 0; found && i < choice->grid_ndims; i++) product *= choice->grid_dims[i];
    found = found && choice->grid_ndims >= 1 && choice->grid_ndims < ndims && product == size;
    uint64_t hash = 14695981039346656037ull; /* FNV-1a of the choice's bytes */
    for (size_t b = 0; found && b < sizeof *choice; b++)
        hash = (hash ^ ((const unsigned char *)choice)[b]) * 1099511628211ull;
    uint64_t mine[2] = {found ? hash : 0, found ? ~hash : UINT64_MAX}, all[2];
    MPI_Allreduce(mine, all, 2, MPI_UINT64_T, MPI_MAX, comm);
    return found && all[0] == hash && all[1] == ~hash;
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

    int rc = DISTFFT_SUCCESS, size;
    MPI_Comm work_comm = MPI_COMM_NULL;
    struct distfft_plan_s *plan = NULL, *candidate = NULL;
    TRY_MPI(MPI_Comm_dup(comm, &work_comm));
    TRY_MPI(MPI_Comm_set_errhandler(work_comm, MPI_ERRORS_RETURN));
    TRY_MPI(MPI_Comm_size(work_comm, &size));

    replicated_args args;
    replicated_init(&args);
    int local = check_create(ndims, shape, precision, &options, plan_out, &args);
    TRY(error_agree_replicated(work_comm, local, &args));

    /* From here on the arguments are valid and identical on every rank. */
    double start = MPI_Wtime();
    bool measuring = options.method == DISTFFT_METHOD_AUTO && options.rigor != DISTFFT_ESTIMATE;
    char key[WISDOM_KEY_SIZE];
    wisdom_choice choice;
    wisdom_key(size, ndims, shape, precision, &options, key, sizeof key);
    if (measuring && agreed_wisdom(work_comm, size, ndims, key, &choice)) {
        options.grid_ndims = choice.grid_ndims;
        memcpy(options.grid_dims, choice.grid_dims, sizeof options.grid_dims);
        TRY(plan_build(work_comm, ndims, shape, precision, &options, &choice, &plan));
        plan->from_wisdom = true;
        goto done;
    }

    grid_candidate grids[MAX_GRID_CANDIDATES];
    int order[DISTFFT_MAX_DIMS], count = 0;
    working_order(ndims, options.kinds, order);
    if (options.grid_ndims == 0 && measuring && size > 1)
        count = grid_candidates(size, ndims, shape, order, grids);
    if (count == 0) { /* the requested grid, or the lowest-degree one */
        grids[0].ndims = options.grid_ndims ? options.grid_ndims
                                            : choose_grid_ndims(size, ndims, shape, order);
        TRY(grid_choose_dims(size, grids[0].ndims, options.grid_ndims ? options.grid_dims : NULL,
                             grids[0].dims));
        count = 1;
    }
    double best = INFINITY;
    for (int g = 0; g < count; g++) {
        options.grid_ndims = grids[g].ndims;
        memcpy(options.grid_dims, grids[g].dims, sizeof options.grid_dims);
        TRY(plan_build(work_comm, ndims, shape, precision, &options, NULL, &candidate));
        double seconds = 0.0;
        if (count > 1) TRY(time_pair(candidate, &seconds));
        if (!plan || seconds < best) { /* equal on every rank: reduced times */
            plan_free(plan);
            plan = candidate;
            best = seconds;
        } else {
            plan_free(candidate);
        }
        candidate = NULL;
    }
    if (measuring) {
        plan->grids_measured = count > 1 ? count : 0;
        plan->tuning_seconds = MPI_Wtime() - start;
        plan_choice(plan, &choice);
        TRY(error_agree(work_comm, wisdom_store(key, &choice)));
    }
done:
    MPI_Comm_free(&work_comm);
    *plan_out = plan;
    return DISTFFT_SUCCESS;

fail:
    plan_free(candidate);
    plan_free(plan);
    if (work_comm != MPI_COMM_NULL) MPI_Comm_free(&work_comm);
    return rc;
}

int distfft_plan_destroy(distfft_plan *plan)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_destroy: NULL");
    plan_free(*plan);
    *plan = NULL;
    return DISTFFT_SUCCESS;
}

/* ---- execution -------------------------------------------------------------- */

static int check_execute(const struct distfft_plan_s *plan, const char *where,
                         const void *in, int64_t in_bytes, const void *out,
                         int64_t out_bytes)
{
    const char *pin = in, *pout = out;
    if (!in && in_bytes > 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: in is NULL but this rank's block has %lld bytes",
                          where, (long long)in_bytes);
    if (!out && out_bytes > 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: out is NULL but this rank's block has %lld bytes",
                          where, (long long)out_bytes);
    if (in && out && in_bytes > 0 && out_bytes > 0 && pin < pout + out_bytes && pout < pin + in_bytes)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: in and out overlap (transforms are out-of-place)", where);
    if (!serial_fft_aligned(plan->precision, in) || !serial_fft_aligned(plan->precision, out))
        return error_fail(DISTFFT_ERR_ALIGNMENT, "%s: in (%p) or out (%p) is not aligned as "
                          "distfft_malloc aligns", where, in, out);
    return DISTFFT_SUCCESS;
}

/* Run the steps of one direction (`list` 0 forward, 1 backward), timing
 * each: the exchanges count as redistribution, the rest (with the final
 * scaling) as FFT time. */
static int run_steps(struct distfft_plan_s *plan, int list, void *in, void *out, double factor)
{
    const plan_step *steps = list == 0 ? plan->forward : plan->backward;
    int count = list == 0 ? plan->forward_count : plan->backward_count;
    void *slots[4] = {[SLOT_INPUT] = in, [SLOT_OUTPUT] = out,
                      [SLOT_WORK0] = plan->work[0], [SLOT_WORK1] = plan->work[1]};
    int components = distfft_type_size(steps[count - 1].out_type) ==
                     distfft_type_size(type_complex(plan->precision)) ? 2 : 1;
    plan->executions[list]++;
    for (int s = 0; s < count; s++) {
        const plan_step *step = &steps[s];
        void *src = slots[step->src], *dst = slots[step->dst];
        double start = MPI_Wtime();
        int rc = DISTFFT_SUCCESS;
        if (step->kind == STEP_REDIST) {
            rc = redist_run(step->redist, src, dst);
        } else if (step->kind == STEP_FFT) {
            serial_fft_execute(step->fft, src, dst);
        } else {
            int parts = step->in_type == type_complex(plan->precision) ? 2 : 1;
            serial_scale_axis(plan->precision, parts, plan->ndims, step->in_shape,
                              plan->options.batch, step->axis, step->weights, src, dst);
        }
        double elapsed = MPI_Wtime() - start;
        plan->step_seconds[list][s] += elapsed;
        if (step->kind == STEP_REDIST) plan->timings.redistribute_seconds += elapsed;
        else plan->timings.fft_seconds += elapsed;
        if (rc != DISTFFT_SUCCESS) return rc;
    }
    if (factor != 1.0) {
        double start = MPI_Wtime();
        serial_scale(plan->precision, out, components * steps[count - 1].out_count, factor);
        plan->timings.fft_seconds += MPI_Wtime() - start;
    }
    return DISTFFT_SUCCESS;
}

static int execute(distfft_plan plan, int direction, void *in, void *out)
{
    error_clear();
    bool forward = direction == DISTFFT_FORWARD;
    const char *where = forward ? "distfft_plan_forward" : "distfft_plan_backward";
    if (!plan)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: plan is NULL (destroyed or never created)", where);
    const plan_step *steps = forward ? plan->forward : plan->backward;
    int count = forward ? plan->forward_count : plan->backward_count;
    int64_t in_bytes = steps[0].in_count * (int64_t)distfft_type_size(steps[0].in_type);
    int64_t out_bytes = steps[count - 1].out_count * (int64_t)distfft_type_size(steps[count - 1].out_type);
    int rc = error_agree(plan->comm, check_execute(plan, where, in, in_bytes, out, out_bytes));
    if (rc != DISTFFT_SUCCESS) return rc;
    plan->timings.executions++;
    return run_steps(plan, forward ? 0 : 1, in, out,
                     forward ? plan->forward_scale : plan->backward_scale);
}

int distfft_plan_forward(distfft_plan plan, void *in, void *out)
{
    return execute(plan, DISTFFT_FORWARD, in, out);
}

int distfft_plan_backward(distfft_plan plan, void *in, void *out)
{
    return execute(plan, DISTFFT_BACKWARD, in, out);
}

/* ---- queries -------------------------------------------------------------- */

static int copy_block(const struct distfft_plan_s *plan, bool input,
                      int64_t *local_shape, int64_t *global_start)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "plan is NULL");
    size_t bytes = plan->ndims * sizeof(int64_t);
    if (local_shape) memcpy(local_shape, input ? plan->input_local : plan->output_local, bytes);
    if (global_start) memcpy(global_start, input ? plan->input_start : plan->output_start, bytes);
    return DISTFFT_SUCCESS;
}

int distfft_plan_input_block(const struct distfft_plan_s *plan,
                             int64_t *local_shape, int64_t *global_start)
{
    return copy_block(plan, true, local_shape, global_start);
}

int distfft_plan_output_block(const struct distfft_plan_s *plan,
                              int64_t *local_shape, int64_t *global_start)
{
    return copy_block(plan, false, local_shape, global_start);
}

int distfft_plan_types(const struct distfft_plan_s *plan,
                       distfft_type *input_type, distfft_type *output_type)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "plan is NULL");
    if (input_type) *input_type = plan->input_type;
    if (output_type) *output_type = plan->output_type;
    return DISTFFT_SUCCESS;
}

int distfft_plan_output_shape(const struct distfft_plan_s *plan, int64_t *global_shape)
{
    error_clear();
    if (!plan || !global_shape) return error_fail(DISTFFT_ERR_ARGUMENT, "plan or global_shape is NULL");
    memcpy(global_shape, plan->out_shape, plan->ndims * sizeof(int64_t));
    return DISTFFT_SUCCESS;
}

int distfft_plan_ndims(const struct distfft_plan_s *plan)
{
    return plan ? plan->ndims : 0;
}

int distfft_plan_grid(const struct distfft_plan_s *plan, int *grid_ndims,
                      int *grid_dims)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "plan is NULL");
    if (grid_ndims) *grid_ndims = plan->grid->ndims;
    if (grid_dims) distfft_grid_dims(plan->grid, grid_dims);
    return DISTFFT_SUCCESS;
}

size_t distfft_plan_work_bytes(const struct distfft_plan_s *plan)
{
    return plan ? plan->work_size[0] + plan->work_size[1] : 0;
}

int distfft_plan_timings(const struct distfft_plan_s *plan,
                         distfft_timings *timings)
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
    memset(plan->executions, 0, sizeof plan->executions);
    return DISTFFT_SUCCESS;
}

/* Append printf-style text at *used, counting what would not fit. */
static void append(char *buf, size_t size, size_t *used, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *used, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int n = vsnprintf(*used < size ? buf + *used : NULL,
                      *used < size ? size - *used : 0, format, args);
    va_end(args);
    if (n > 0) *used += (size_t)n;
}

/* One step, as " (fft c2c axes=1,2)" or " (redist alltoallw 2->1 on P1)". */
static void append_step(char *buf, size_t size, size_t *used, const plan_step *step)
{
    static const char *const families[] = {[SERIAL_C2C] = "c2c", [SERIAL_R2C] = "r2c",
                                           [SERIAL_C2R] = "c2r", [SERIAL_R2R] = "r2r"};
    if (step->kind == STEP_REDIST) {
        append(buf, size, used, " (redist %s %d->%d on P%d)",
               distfft_method_name(step->redist ? step->redist->method_id : 0),
               step->axis_in, step->axis_out, step->direction);
        return;
    }
    if (step->kind == STEP_WEIGHTS) {
        append(buf, size, used, " (cheb-weights axis=%d)", step->axis);
        return;
    }
    const serial_spec *spec = &step->spec;
    append(buf, size, used, " (fft %s axes=", families[spec->family]);
    for (int j = 0; j < spec->naxes; j++) {
        append(buf, size, used, j ? ",%d" : "%d", spec->axes[j]);
        if (spec->family == SERIAL_R2R) append(buf, size, used, ":%s", distfft_kind_name(spec->r2r_kinds[j]));
    }
    append(buf, size, used, ")");
}

int distfft_plan_describe(const struct distfft_plan_s *plan, char *buf, size_t size)
{
    if (!plan) return -1;
    if (buf && size) buf[0] = '\0';
    if (!buf) size = 0;
    size_t used = 0;
    char shape[256];
    shape_format(plan->ndims, plan->shape, shape, sizeof shape);
    append(buf, size, &used, "(distfft kinds=");
    for (int a = 0; a < plan->ndims; a++)
        append(buf, size, &used, a ? ",%s" : "%s", distfft_kind_name(plan->options.kinds[a]));
    append(buf, size, &used, " %s %s", shape, distfft_precision_name(plan->precision));
    if (plan->options.batch > 1) append(buf, size, &used, " batch=%lld", (long long)plan->options.batch);
    append(buf, size, &used, " grid=");
    for (int i = 0; i < plan->grid->ndims; i++)
        append(buf, size, &used, i ? "x%d" : "%d", plan->grid->dims[i]);
    if (plan->grid->placement != DISTFFT_PLACEMENT_ROW)
        append(buf, size, &used, " placement=%s", distfft_placement_name(plan->grid->placement));
    for (int s = 0; s < plan->forward_count; s++) append_step(buf, size, &used, &plan->forward[s]);
    if (plan->options.method == DISTFFT_METHOD_AUTO) { /* backward may choose otherwise */
        const char *separator = " (backward";
        for (int s = 0; s < plan->backward_count; s++)
            if (plan->backward[s].kind == STEP_REDIST) {
                append(buf, size, &used, "%s %s", separator,
                       distfft_method_name(plan->backward[s].redist->method_id));
                separator = ",";
            }
        if (separator[0] == ',') append(buf, size, &used, ")");
    }
    if (plan->from_wisdom)
        append(buf, size, &used, " (wisdom)");
    else if (plan->options.method == DISTFFT_METHOD_AUTO && plan->options.rigor != DISTFFT_ESTIMATE) {
        append(buf, size, &used, " (tuning %.3g s", plan->tuning_seconds);
        if (plan->grids_measured) append(buf, size, &used, ", %d grids", plan->grids_measured);
        append(buf, size, &used, ")");
    }
    append(buf, size, &used, ")");
    return (int)used;
}

int distfft_plan_step_count(const struct distfft_plan_s *plan, int direction)
{
    if (!plan || (direction != DISTFFT_FORWARD && direction != DISTFFT_BACKWARD)) return -1;
    return direction == DISTFFT_FORWARD ? plan->forward_count : plan->backward_count;
}

int distfft_plan_step(const struct distfft_plan_s *plan, int direction, int index,
                      distfft_step *info)
{
    error_clear();
    int count = distfft_plan_step_count(plan, direction);
    if (count < 0 || !info)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_step: NULL plan or info, or direction "
                          "%d is neither DISTFFT_FORWARD nor DISTFFT_BACKWARD", direction);
    if (index < 0 || index >= count)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_step: index %d is not in 0..%d",
                          index, count - 1);
    int list = direction == DISTFFT_FORWARD ? 0 : 1;
    const plan_step *step = list == 0 ? &plan->forward[index] : &plan->backward[index];
    memset(info, 0, sizeof *info);
    size_t used = 0;
    append_step(info->description, sizeof info->description, &used, step);
    /* Without the " (" and ")" around it. */
    size_t length = strlen(info->description);
    if (length >= 3) {
        memmove(info->description, info->description + 2, length - 2);
        info->description[length - 3] = '\0';
    }
    info->is_redistribution = step->kind == STEP_REDIST;
    info->grid_direction = info->is_redistribution ? step->direction : -1;
    info->axis_in = info->is_redistribution ? step->axis_in : -1;
    info->axis_out = info->is_redistribution ? step->axis_out : -1;
    info->group_size = info->is_redistribution ? step->group_size : 1;
    info->method = info->is_redistribution ? step->redist->method_id : DISTFFT_METHOD_AUTO;
    info->bytes_sent = step->bytes_sent;
    info->global_bytes = step->global_bytes;
    info->seconds = plan->step_seconds[list][index];
    info->executions = plan->executions[list];
    return DISTFFT_SUCCESS;
}
