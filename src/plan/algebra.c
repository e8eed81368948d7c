/*
 * algebra.c -- the steps of a parallel transform (paper 000 Sec. 3.3-3.6,
 * Eqs. 12-14 and 21-32), as plain data. See algebra.h.
 *
 * Alignments. The axes are put in a working order: the untransformed axes
 * first (they are distributed and never move), then the transformed ones in
 * increasing order, except the R2C axis (whichever it is), which goes last:
 * it meets the real input, so it is transformed first. In
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
 * Within a stage: R2C and the C2C axes in one FFTW plan (real data in,
 * complex out; or the C2C axes alone), then the real-to-real axes in one
 * FFTW plan (on complex data: its real and imaginary parts), then the
 * Chebyshev weights.
 * Backward is the forward list reversed, each step inverted.
 *
 * Memory (the paper's remark after Eq. 32): steps that cannot work in place
 * (exchanges, R2C/C2R, and the first step when the input must be kept)
 * write alternately into two work buffers, the last of them into the
 * caller's output; every other step works in place.
 *
 * Keeping the input of a fused c2r. FFTW cannot preserve the input of a
 * multi-axis c2r, and a backward that starts with one (one rank: the whole
 * transform is one stage) reads the caller's input. The step copies it
 * into the plan's scratch on the calling thread (serial/fft_step.c says
 * why not on the plan's threads), the normalisation folded into the copy
 * (plan.c, fold_scales), and runs the fused c2r there
 * destroying the copy: one FFTW plan, as FFTW's own, and the copy takes
 * the place of the scaling sweep. The alternative, the c2c axes out of
 * place into a work buffer and then a 1-D c2r (two FFTW plans, the
 * scaling sweep kept; no copy), is no faster with one or two threads and
 * slower than FFTW's own fused plan with many. destroy_input drops the
 * copy.
 */
#include <math.h>
#include <string.h>

#include "../kinds.h"
#include "../layout.h"
#include "../types.h"
#include "../serial/padding.h"
#include "algebra.h"

int64_t algebra_padded_length(int64_t n, double factor)
{
    return factor > 1.0 ? (int64_t)floor(factor * (double)n) : n;
}

int algebra_working_order(int ndims, const distfft_kind *kinds, int *order)
{
    int count = 0, r2c = -1;
    for (int i = 0; i < ndims; i++)
        if (kinds[i] == DISTFFT_NONE) order[count++] = i;
    int untransformed = count;
    for (int i = 0; i < ndims; i++) {
        if (kinds[i] == DISTFFT_NONE) continue;
        if (kinds[i] == DISTFFT_R2C) r2c = i;
        else order[count++] = i;
    }
    if (r2c >= 0) order[count++] = r2c; /* last: complete at stage 0, transformed first */
    return untransformed;
}

/* Every exchange moves the whole array (R2C comes before all of them;
 * padding shrinks later exchanges alike), a fraction 1 - 1/M_i of it off-rank, and
 * each direction is exchanged at most once per transform: so the busiest
 * is the exchanged direction of largest extent, the last one on ties
 * (row-major's choice). */
int algebra_busy_direction(int grid_ndims, const int *grid_dims, int untransformed)
{
    int busy = grid_ndims - 1, largest = 1;
    for (int i = untransformed; i < grid_ndims; i++)
        if (grid_dims[i] > 1 && grid_dims[i] >= largest) {
            largest = grid_dims[i];
            busy = i;
        }
    return busy;
}

/* ---- the forward steps ------------------------------------------------------ */

/* What the builder tracks while it walks the stages. */
typedef struct {
    const algebra_input *input;
    algebra_steps *steps;
    layout current;                 /* global shape now, and who distributes what */
    int64_t local[DISTFFT_MAX_DIMS];
    distfft_type type;              /* element type now */
} builder;

static void builder_block(builder *b)
{
    layout_block(&b->current, b->input->grid_dims, b->input->grid_coords, b->local, NULL);
}

static int64_t builder_count(const builder *b)
{
    return b->input->batch * shape_product(b->input->ndims, b->local);
}

/* A new forward step that starts from the current local block. */
static step_spec *add_step(builder *b, step_kind kind)
{
    step_spec *step = &b->steps->forward[b->steps->forward_count++];
    memset(step, 0, sizeof *step);
    step->kind = kind;
    memcpy(step->in_shape, b->local, sizeof step->in_shape);
    step->in_type = b->type;
    step->in_count = builder_count(b);
    step->ndims = b->input->ndims;
    step->batch = b->input->batch;
    step->threads = b->input->threads > 1 ? b->input->threads : 1;
    return step;
}

/* ... and ends at the current local block. */
static void end_step(builder *b, step_spec *step)
{
    memcpy(step->out_shape, b->local, sizeof step->out_shape);
    step->out_type = b->type;
    step->out_count = builder_count(b);
}

static void add_fft(builder *b, serial_family family, int naxes, const int *axes,
                    const distfft_kind *kinds)
{
    const algebra_input *input = b->input;
    step_spec *step = add_step(b, STEP_FFT);
    serial_spec *spec = &step->fft;
    spec->precision = input->precision;
    spec->family = family;
    spec->ndims = input->ndims;
    memcpy(spec->shape, b->local, sizeof spec->shape);
    spec->batch = input->batch;
    spec->naxes = naxes;
    memcpy(spec->axes, axes, naxes * sizeof *axes);
    spec->sign = DISTFFT_FORWARD;
    for (int j = 0; j < naxes && kinds; j++) spec->r2r_kinds[j] = kinds[j];
    spec->complex_data = b->type == type_complex(input->precision);
    spec->rigor = input->rigor;
    spec->threads = input->threads;
    /* The global shape changes here: a padded axis goes from M to its N
     * retained modes, R2C's halved axis (the last listed) to n/2+1 (N/2+1
     * when padded). */
    for (int j = 0; j < naxes; j++) {
        int a = axes[j];
        bool halved = family == SERIAL_R2C && j == naxes - 1;
        if (input->padded[a] != input->shape[a]) spec->retained[a] = input->shape[a];
        b->current.global_shape[a] = halved ? input->shape[a] / 2 + 1 : input->shape[a];
    }
    if (family == SERIAL_R2C) b->type = type_complex(input->precision);
    builder_block(b);
    end_step(b, step);
}

static void add_weights(builder *b, int axis)
{
    step_spec *step = add_step(b, STEP_WEIGHTS);
    step->weights_axis = axis;
    step->weights_length = b->input->padded[axis];
    end_step(b, step);
}

/* Transform the axes of one stage: R2C and the C2C axes in one FFTW
 * multi-dimensional plan (one pass over memory instead of two; the R2C
 * axis listed last, as FFTW halves its last dimension, whatever its
 * stride), then the real-to-real axes in one plan. C2C axes in increasing
 * order. */
static void add_stage_transforms(builder *b, int naxes, const int *stage_axes)
{
    const distfft_kind *kinds = b->input->kinds;
    int c2c[DISTFFT_MAX_DIMS + 1], r2r[DISTFFT_MAX_DIMS], c2c_count = 0, r2r_count = 0, r2c = -1;
    distfft_kind r2r_kinds[DISTFFT_MAX_DIMS];
    for (int j = naxes - 1; j >= 0; j--) { /* stage_axes runs back through the working order */
        int a = stage_axes[j];
        kind_role role = kind_row_of(kinds[a])->role;
        if (role == KIND_REAL_TO_COMPLEX) r2c = a;
        else if (role == KIND_COMPLEX) c2c[c2c_count++] = a;
        else if (role == KIND_REAL) {
            r2r_kinds[r2r_count] = kinds[a];
            r2r[r2r_count++] = a;
        }
    }
    bool padded = false; /* padded stages keep R2C on its own (serial/padding.c) */
    for (int j = 0; j < naxes; j++) padded |= b->input->padded[stage_axes[j]] != b->input->shape[stage_axes[j]];
    if (r2c >= 0 && padded) {
        add_fft(b, SERIAL_R2C, 1, &r2c, NULL);
        if (c2c_count) add_fft(b, SERIAL_C2C, c2c_count, c2c, NULL);
    } else if (r2c >= 0) {
        c2c[c2c_count++] = r2c;
        add_fft(b, SERIAL_R2C, c2c_count, c2c, NULL);
    } else if (c2c_count) {
        add_fft(b, SERIAL_C2C, c2c_count, c2c, NULL);
    }
    if (r2r_count) add_fft(b, SERIAL_R2R, r2r_count, r2r, r2r_kinds);
    for (int j = 0; j < r2r_count; j++)
        if (kind_row_of(kinds[r2r[j]])->weights) add_weights(b, r2r[j]);
}

static void add_exchange(builder *b, int direction, int axis_in, int axis_out)
{
    step_spec *step = add_step(b, STEP_EXCHANGE);
    step->grid_direction = direction;
    step->axis_in = axis_in;
    step->axis_out = axis_out;
    step->global_bytes = b->input->batch * shape_product(b->input->ndims, b->current.global_shape) *
                         (int64_t)distfft_type_size(b->type);
    b->current.distributed_by[axis_in] = direction;
    b->current.distributed_by[axis_out] = NOT_DISTRIBUTED;
    builder_block(b);
    end_step(b, step);
}

/* The forward steps, stage by stage (see the top of this file). */
static void build_forward(const algebra_input *input, algebra_steps *steps)
{
    int d = input->ndims, r = input->grid_ndims, order[DISTFFT_MAX_DIMS];
    int untransformed = algebra_working_order(d, input->kinds, order);
    builder b = {.input = input, .steps = steps, .type = steps->input_type};
    b.current.ndims = d;
    memcpy(b.current.global_shape, input->padded, sizeof input->padded);
    memcpy(steps->in_shape, input->padded, sizeof input->padded);
    for (int p = 0; p < d; p++)
        b.current.distributed_by[order[p]] = p < r ? p : NOT_DISTRIBUTED;
    layout_block(&b.current, input->grid_dims, input->grid_coords, steps->input_local, steps->input_start);
    builder_block(&b);

    /* Stage 0, then one stage per exchange; an extent-1 direction merges
     * its position into the current stage. */
    int stage_axes[DISTFFT_MAX_DIMS], naxes = 0;
    for (int p = d - 1; p >= r && p >= untransformed; p--) stage_axes[naxes++] = order[p];
    for (int i = r - 1; i >= untransformed; i--) {
        if (input->grid_dims[i] > 1) {
            add_stage_transforms(&b, naxes, stage_axes);
            naxes = 0;
            add_exchange(&b, i, order[i + 1], order[i]);
        } else {
            b.current.distributed_by[order[i + 1]] = i;
            b.current.distributed_by[order[i]] = NOT_DISTRIBUTED;
        }
        stage_axes[naxes++] = order[i];
    }
    add_stage_transforms(&b, naxes, stage_axes);

    memcpy(steps->out_shape, b.current.global_shape, sizeof steps->out_shape);
    layout_block(&b.current, input->grid_dims, input->grid_coords, steps->output_local, steps->output_start);
}

/* Backward: the forward steps in reverse order, each inverted. */
static void build_backward(algebra_steps *steps)
{
    steps->backward_count = steps->forward_count;
    for (int s = 0; s < steps->forward_count; s++) {
        const step_spec *forward = &steps->forward[steps->forward_count - 1 - s];
        step_spec *step = &steps->backward[s];
        *step = *forward;
        step->in_type = forward->out_type;
        step->out_type = forward->in_type;
        step->in_count = forward->out_count;
        step->out_count = forward->in_count;
        memcpy(step->in_shape, forward->out_shape, sizeof step->in_shape);
        memcpy(step->out_shape, forward->in_shape, sizeof step->out_shape);
        if (step->kind == STEP_FFT) {
            serial_spec *spec = &step->fft;
            if (spec->family == SERIAL_R2C) spec->family = SERIAL_C2R;
            spec->sign = DISTFFT_BACKWARD;
            for (int j = 0; j < spec->naxes; j++) spec->r2r_kinds[j] = kind_row_of(spec->r2r_kinds[j])->backward;
        } else if (step->kind == STEP_EXCHANGE) {
            step->axis_in = forward->axis_out;
            step->axis_out = forward->axis_in;
        } else {
            step->weights_table = 1;
        }
    }
}

/* ---- slots and work memory -------------------------------------------------- */

/* Steps that can never write where they read: exchanges, and R2C/C2R
 * unless padded (a padded transform runs through its scratch array). */
static bool needs_other_buffer(const step_spec *step)
{
    if (step->kind == STEP_EXCHANGE) return true;
    return step->kind == STEP_FFT && !serial_is_padded(&step->fft) &&
           (step->fft.family == SERIAL_R2C || step->fft.family == SERIAL_C2R);
}

/* Which steps work out of place, and the slots they read and write: the
 * out-of-place steps (and padded transforms, whose sizes change) write
 * alternately into the two work buffers, counting back from the last one,
 * which writes the caller's output. */
static void assign_slots(step_spec *steps, int count, bool destroy_input, bool into_work)
{
    int out_of_place = 0;
    for (int s = 0; s < count; s++) {
        step_spec *step = &steps[s];
        step->out_of_place = needs_other_buffer(step) ||
                             (step->kind == STEP_FFT && serial_is_padded(&step->fft)) ||
                             (into_work && s > 0 && steps[s - 1].kind == STEP_EXCHANGE);
        out_of_place += step->out_of_place;
    }
    if (!steps[0].out_of_place && (!destroy_input || out_of_place == 0)) {
        steps[0].out_of_place = true; /* keep the input, or reach the output */
        out_of_place++;
    }
    step_slot current = SLOT_INPUT;
    int remaining = out_of_place;
    for (int s = 0; s < count; s++) {
        step_spec *step = &steps[s];
        step->src = current;
        if (step->out_of_place) {
            remaining--;
            step->dst = remaining == 0 ? SLOT_OUTPUT : (remaining % 2 ? SLOT_WORK0 : SLOT_WORK1);
            current = step->dst;
        } else {
            step->dst = current;
        }
        if (step->kind == STEP_FFT)
            step->fft.preserve_input = step->src == SLOT_INPUT && step->out_of_place && !destroy_input;
    }
}

/* In place (in == out, one caller buffer B): B is the input and the
 * output, and in between it holds intermediates where that saves a work
 * buffer. Counting back from the last out-of-place step (which writes B),
 * they write W0, B, W0, B, ...; padded transforms and FFTs work where
 * their data is. The first out-of-place step reads B, so if it would write
 * B (an odd count) it writes W1 instead; with a single one the chain ends
 * in W1 and the plan copies the result into B. */
static void assign_slots_in_place(step_spec *steps, int count, bool into_work)
{
    int out_of_place = 0, seen = 0;
    for (int s = 0; s < count; s++) {
        steps[s].out_of_place = needs_other_buffer(&steps[s]) ||
                                (into_work && s > 0 && steps[s - 1].kind == STEP_EXCHANGE);
        out_of_place += steps[s].out_of_place;
    }
    step_slot current = SLOT_INPUT;
    for (int s = 0; s < count; s++) {
        step_spec *step = &steps[s];
        step->src = current;
        if (step->out_of_place) {
            int remaining = out_of_place - 1 - seen;
            step->dst = remaining % 2 ? SLOT_WORK0 : SLOT_OUTPUT;
            if (seen++ == 0 && step->dst == SLOT_OUTPUT) step->dst = SLOT_WORK1;
            current = step->dst;
        } else {
            step->dst = current;
        }
        if (step->kind == STEP_FFT) step->fft.preserve_input = false;
    }
}

static bool in_caller_buffer(step_slot slot)
{
    return slot == SLOT_INPUT || slot == SLOT_OUTPUT;
}

/* The scratch of a step: a padded transform's big spectral array, or the
 * copy of the caller's input a fused c2r that must keep it runs on. */
static size_t step_scratch_bytes(const step_spec *step)
{
    if (step->kind != STEP_FFT) return 0;
    if (serial_is_padded(&step->fft)) return (size_t)serial_padded_scratch_bytes(&step->fft);
    if (serial_needs_copy(&step->fft)) return (size_t)step->in_count * distfft_type_size(step->in_type);
    return 0;
}

static void size_work(const step_spec *steps, int count, algebra_steps *out)
{
    for (int s = 0; s < count; s++) {
        const step_spec *step = &steps[s];
        size_t in = (size_t)step->in_count * distfft_type_size(step->in_type);
        size_t bytes = (size_t)step->out_count * distfft_type_size(step->out_type);
        if (step->dst == SLOT_WORK0 && bytes > out->work_bytes[0]) out->work_bytes[0] = bytes;
        if (step->dst == SLOT_WORK1 && bytes > out->work_bytes[1]) out->work_bytes[1] = bytes;
        if (in > out->largest_bytes) out->largest_bytes = in;
        if (bytes > out->largest_bytes) out->largest_bytes = bytes;
        if (in_caller_buffer(step->src) && in > out->local_bytes) out->local_bytes = in;
        if ((in_caller_buffer(step->dst) || s == count - 1) && bytes > out->local_bytes)
            out->local_bytes = bytes;
        size_t scratch = step_scratch_bytes(step);
        if (scratch > out->scratch_bytes) out->scratch_bytes = scratch;
    }
}

/* ---- types and normalisation ------------------------------------------------ */

static void set_types(const algebra_input *input, algebra_steps *steps)
{
    bool r2c = false, c2c = input->complex_data;
    for (int a = 0; a < input->ndims; a++) {
        r2c |= kind_row_of(input->kinds[a])->role == KIND_REAL_TO_COMPLEX;
        c2c |= kind_row_of(input->kinds[a])->role == KIND_COMPLEX;
    }
    distfft_type real = type_real(input->precision), complex = type_complex(input->precision);
    steps->input_type = r2c || !c2c ? real : complex;
    steps->output_type = r2c || c2c ? complex : real;
}

static void set_scales(const algebra_input *input, algebra_steps *steps)
{
    double n = 1.0;
    for (int a = 0; a < input->ndims; a++) n *= distfft_kind_logical_length(input->kinds[a], input->padded[a]);
    steps->forward_scale = steps->backward_scale = 1.0;
    switch (input->norm) {
    case DISTFFT_NORM_BACKWARD: steps->backward_scale = 1.0 / n; break;
    case DISTFFT_NORM_FORWARD: steps->forward_scale = 1.0 / n; break;
    case DISTFFT_NORM_ORTHO: steps->forward_scale = steps->backward_scale = 1.0 / sqrt(n); break;
    case DISTFFT_NORM_NONE: break; /* FFTW's convention: the caller scales */
    }
}

void algebra_build(const algebra_input *request, algebra_steps *steps)
{
    /* Unpadded axes may leave padded[] 0. */
    algebra_input copy = *request;
    const algebra_input *input = &copy;
    for (int a = 0; a < copy.ndims; a++)
        if (copy.padded[a] < copy.shape[a]) copy.padded[a] = copy.shape[a];
    memset(steps, 0, sizeof *steps);
    set_types(input, steps);
    set_scales(input, steps);
    build_forward(input, steps);
    build_backward(steps);
    if (input->in_place) {
        assign_slots_in_place(steps->forward, steps->forward_count, input->exchanges_into_work);
        assign_slots_in_place(steps->backward, steps->backward_count, input->exchanges_into_work);
    } else {
        assign_slots(steps->forward, steps->forward_count, input->destroy_input, input->exchanges_into_work);
        assign_slots(steps->backward, steps->backward_count, input->destroy_input, input->exchanges_into_work);
    }
    size_work(steps->forward, steps->forward_count, steps);
    size_work(steps->backward, steps->backward_count, steps);
    if (steps->largest_bytes == 0) steps->largest_bytes = 1;
}
