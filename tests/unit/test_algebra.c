/*
 * test_algebra.c -- the step algebra of plans (src/plan/algebra.c) on its
 * own, without MPI: which steps a transform makes, the alignments its
 * exchanges move between, the slot chain and work memory, blocks that tile
 * the global arrays, types and normalisation.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan/algebra.h"

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("test_algebra: FAIL %s\n", what);
        failures++;
    }
}

static algebra_input input_of(int ndims, const int64_t *shape, const distfft_kind *kinds, int grid_ndims,
                              const int *grid_dims)
{
    algebra_input input = {.ndims = ndims, .precision = DISTFFT_DOUBLE, .batch = 1,
                           .rigor = DISTFFT_ESTIMATE, .norm = DISTFFT_NORM_BACKWARD,
                           .grid_ndims = grid_ndims};
    memcpy(input.shape, shape, ndims * sizeof *shape);
    memcpy(input.kinds, kinds, ndims * sizeof *kinds);
    memcpy(input.grid_dims, grid_dims, grid_ndims * sizeof *grid_dims);
    return input;
}

/* Every list reads the caller's input first and writes its output last,
 * each step reading where the one before wrote; out-of-place steps never
 * write where they read; in-place ones keep their slot. */
static void check_chain(const step_spec *steps, int count, const char *what)
{
    char message[160];
    snprintf(message, sizeof message, "%s: slot chain", what);
    int ok = count > 0 && steps[0].src == SLOT_INPUT && steps[count - 1].dst == SLOT_OUTPUT;
    for (int s = 0; s < count; s++) {
        if (s > 0) ok &= steps[s].src == steps[s - 1].dst;
        ok &= steps[s].out_of_place ? steps[s].src != steps[s].dst : steps[s].src == steps[s].dst;
        if (s > 0) ok &= steps[s].in_count == steps[s - 1].out_count;
    }
    check(ok, message);
}

static void test_pencil_c2c(void)
{
    int64_t shape[3] = {8, 6, 10};
    distfft_kind kinds[3] = {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_C2C};
    int grid[2] = {2, 2};
    algebra_input input = input_of(3, shape, kinds, 2, grid);
    algebra_steps steps;
    algebra_build(&input, &steps);
    /* The paper's pencil pipeline: fft 2 | 2->1 on P1 | fft 1 | 1->0 on P0 | fft 0. */
    check(steps.forward_count == 5, "pencil: five forward steps");
    step_kind expected[5] = {STEP_FFT, STEP_EXCHANGE, STEP_FFT, STEP_EXCHANGE, STEP_FFT};
    int ok = 1;
    for (int s = 0; s < 5; s++) ok &= steps.forward[s].kind == expected[s];
    check(ok, "pencil: fft, exchange, fft, exchange, fft");
    check(steps.forward[0].fft.naxes == 1 && steps.forward[0].fft.axes[0] == 2, "pencil: axis 2 first");
    check(steps.forward[1].axis_in == 2 && steps.forward[1].axis_out == 1 &&
              steps.forward[1].grid_direction == 1, "pencil: exchange 2->1 on P1");
    check(steps.forward[3].axis_in == 1 && steps.forward[3].axis_out == 0 &&
              steps.forward[3].grid_direction == 0, "pencil: exchange 1->0 on P0");
    check(steps.forward[1].global_bytes == 8 * 6 * 10 * 16, "pencil: an exchange moves the whole array");
    check_chain(steps.forward, steps.forward_count, "pencil forward");
    check_chain(steps.backward, steps.backward_count, "pencil backward");
    /* Backward is the reverse, each step inverted. */
    ok = steps.backward_count == 5;
    for (int s = 0; s < 5 && ok; s++) {
        const step_spec *b = &steps.backward[s], *f = &steps.forward[4 - s];
        ok &= b->kind == f->kind && b->in_count == f->out_count && b->out_count == f->in_count;
        if (b->kind == STEP_EXCHANGE) ok &= b->axis_in == f->axis_out && b->axis_out == f->axis_in;
        if (b->kind == STEP_FFT) ok &= b->fft.sign == DISTFFT_BACKWARD;
    }
    check(ok, "pencil: backward is forward reversed and inverted");
    /* Input complete along axis 2, output complete along axis 0 (natural order). */
    check(steps.input_local[0] == 4 && steps.input_local[1] == 3 && steps.input_local[2] == 10,
          "pencil: input block 4x3x10 on rank (0,0)");
    check(steps.output_local[0] == 8 && steps.output_local[1] == 3 && steps.output_local[2] == 5,
          "pencil: output block 8x3x5 on rank (0,0)");
    check(fabs(steps.backward_scale - 1.0 / 480.0) < 1e-15 && steps.forward_scale == 1.0,
          "pencil: backward norm scales by 1/N");
    check(steps.work_bytes[0] > 0 && steps.work_bytes[1] > 0, "pencil: two work buffers");
}

/* Blocks of every rank tile the global input and output arrays. */
static void test_blocks_tile(void)
{
    int64_t shape[3] = {7, 5, 3};
    distfft_kind kinds[3] = {DISTFFT_C2C, DISTFFT_DCT2, DISTFFT_R2C};
    int grid[2] = {3, 4};
    algebra_input input = input_of(3, shape, kinds, 2, grid);
    int64_t in_total = 0, out_total = 0;
    for (int p0 = 0; p0 < 3; p0++)
        for (int p1 = 0; p1 < 4; p1++) {
            input.grid_coords[0] = p0;
            input.grid_coords[1] = p1;
            algebra_steps steps;
            algebra_build(&input, &steps);
            in_total += steps.input_local[0] * steps.input_local[1] * steps.input_local[2];
            out_total += steps.output_local[0] * steps.output_local[1] * steps.output_local[2];
            check_chain(steps.forward, steps.forward_count, "uneven r2c forward");
            check_chain(steps.backward, steps.backward_count, "uneven r2c backward");
        }
    check(in_total == 7 * 5 * 3, "uneven: input blocks tile 7x5x3 (more ranks than points too)");
    check(out_total == 7 * 5 * 2, "uneven: output blocks tile 7x5x2 (r2c halves axis 2)");
    algebra_steps steps;
    algebra_build(&input, &steps);
    check(steps.input_type == DISTFFT_REAL_DOUBLE && steps.output_type == DISTFFT_COMPLEX_DOUBLE,
          "r2c: real in, complex out");
    check(steps.out_shape[2] == 2, "r2c: n/2+1 points");
    check(steps.forward[0].kind == STEP_FFT && steps.forward[0].fft.family == SERIAL_R2C,
          "r2c: the real-to-complex step first");
    check(steps.backward[steps.backward_count - 1].fft.family == SERIAL_C2R, "r2c: c2r last backward");
}

/* Memory: a slab c2c plan that may destroy its input and a plan on one
 * rank need no work buffer (include/distfft.h, distfft_plan_work_bytes). */
static void test_work_memory(void)
{
    int64_t shape[3] = {8, 8, 8};
    distfft_kind kinds[3] = {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_C2C};
    int slab[1] = {4}, one[1] = {1};
    algebra_input input = input_of(3, shape, kinds, 1, slab);
    input.destroy_input = true;
    algebra_steps steps;
    algebra_build(&input, &steps);
    check(steps.forward_count == 3 && steps.work_bytes[0] + steps.work_bytes[1] == 0,
          "slab c2c destroying its input: no work memory");
    input.destroy_input = false;
    algebra_build(&input, &steps);
    check(steps.work_bytes[0] + steps.work_bytes[1] > 0, "slab c2c keeping its input: work memory");
    input = input_of(3, shape, kinds, 1, one);
    algebra_build(&input, &steps);
    check(steps.forward_count == 1 && steps.forward[0].fft.naxes == 3 &&
              steps.work_bytes[0] + steps.work_bytes[1] == 0,
          "one rank: one FFT of all axes, no work memory");
}

/* Untransformed axes are distributed first and never move; Chebyshev
 * axes get their weights step. */
static void test_none_and_cheb(void)
{
    int64_t shape[3] = {6, 9, 5};
    distfft_kind kinds[3] = {DISTFFT_NONE, DISTFFT_CHEB, DISTFFT_C2C};
    int grid[2] = {2, 3};
    algebra_input input = input_of(3, shape, kinds, 2, grid);
    algebra_steps steps;
    algebra_build(&input, &steps);
    int order[3];
    check(algebra_working_order(3, kinds, order) == 1 && order[0] == 0, "none: the untransformed axis first");
    int exchanges = 0, weights = 0, ok = 1;
    for (int s = 0; s < steps.forward_count; s++) {
        exchanges += steps.forward[s].kind == STEP_EXCHANGE;
        weights += steps.forward[s].kind == STEP_WEIGHTS;
        if (steps.forward[s].kind == STEP_EXCHANGE) ok &= steps.forward[s].axis_in != 0 && steps.forward[s].axis_out != 0;
    }
    check(exchanges == 1 && ok, "none: one exchange, never of axis 0");
    check(weights == 1, "cheb: one weights step");
    check(steps.input_type == DISTFFT_COMPLEX_DOUBLE, "c2c with cheb: complex data");
    check(fabs(steps.backward_scale - 1.0 / 5.0) < 1e-15, "norm counts 1 for none and cheb axes");
    check(algebra_busy_direction(2, grid, 1) == 1, "busy: the exchanged direction of largest extent");
}

/* r2c on axis 0 of a pencil plan (issue 23): the working order puts it
 * last, so it is complete in the input and transformed first; the output
 * has n/2+1 points there, in natural axis order. */
static void test_r2c_first_axis(void)
{
    int64_t shape[3] = {9, 6, 10};
    distfft_kind kinds[3] = {DISTFFT_R2C, DISTFFT_C2C, DISTFFT_C2C};
    int grid[2] = {2, 2}, order[3];
    check(algebra_working_order(3, kinds, order) == 0 && order[0] == 1 && order[1] == 2 && order[2] == 0,
          "r2c on axis 0: working order 1, 2, 0");
    algebra_input input = input_of(3, shape, kinds, 2, grid);
    algebra_steps steps;
    algebra_build(&input, &steps);
    const step_spec *f = steps.forward;
    check(steps.forward_count == 5 && f[0].kind == STEP_FFT && f[0].fft.family == SERIAL_R2C &&
              f[0].fft.naxes == 1 && f[0].fft.axes[0] == 0,
          "r2c on axis 0: the first step is the r2c of axis 0");
    check(f[1].kind == STEP_EXCHANGE && f[1].grid_direction == 1 && f[1].axis_in == 0 && f[1].axis_out == 2 &&
              f[3].kind == STEP_EXCHANGE && f[3].grid_direction == 0 && f[3].axis_in == 2 && f[3].axis_out == 1,
          "r2c on axis 0: exchanges 0->2 on P1, then 2->1 on P0");
    check(steps.input_local[0] == 9 && steps.out_shape[0] == 5 && steps.out_shape[1] == 6 &&
              steps.out_shape[2] == 10 && steps.input_type == DISTFFT_REAL_DOUBLE,
          "r2c on axis 0: complete real input along axis 0, output 5x6x10");
    const step_spec *b = &steps.backward[steps.backward_count - 1];
    check(b->kind == STEP_FFT && b->fft.family == SERIAL_C2R && b->fft.axes[b->fft.naxes - 1] == 0,
          "r2c on axis 0: the backward ends with its c2r");
    check_chain(steps.forward, steps.forward_count, "r2c on axis 0");
    /* one rank: one fused FFTW plan, the r2c axis listed last (halved) */
    int one[2] = {1, 1};
    input = input_of(3, shape, kinds, 2, one);
    algebra_build(&input, &steps);
    check(steps.forward_count == 1 && steps.forward[0].fft.naxes == 3 && steps.forward[0].fft.axes[2] == 0,
          "r2c on axis 0, one rank: fused, axis 0 listed last");
}

/* One rank, r2c (odd shape): forward and backward are each ONE fused FFTW
 * plan, as FFTW's own. Keeping the backward's input, the c2r copies it
 * into the scratch (FFTW cannot preserve the input of a multi-axis c2r):
 * exactly the complex block's bytes, and no work buffer; destroy_input
 * drops the copy. */
static void test_one_rank_r2c(void)
{
    int64_t shape[3] = {7, 5, 9};
    distfft_kind kinds[3] = {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_R2C};
    int one[1] = {1};
    size_t complex_bytes = 7 * 5 * (9 / 2 + 1) * 16;
    for (int destroy = 0; destroy < 2; destroy++) {
        algebra_input input = input_of(3, shape, kinds, 1, one);
        input.destroy_input = destroy;
        algebra_steps steps;
        algebra_build(&input, &steps);
        const step_spec *f = steps.forward, *b = steps.backward;
        check(steps.forward_count == 1 && f->fft.family == SERIAL_R2C && f->fft.naxes == 3 &&
                  f->src == SLOT_INPUT && f->dst == SLOT_OUTPUT,
              destroy ? "one rank r2c, destroy: one forward r2c plan" : "one rank r2c: one forward r2c plan");
        check(steps.backward_count == 1 && b->fft.family == SERIAL_C2R && b->fft.naxes == 3 &&
                  b->src == SLOT_INPUT && b->dst == SLOT_OUTPUT,
              destroy ? "one rank r2c, destroy: one backward c2r plan" : "one rank r2c: one backward c2r plan");
        check(serial_needs_copy(&b->fft) == !destroy && b->fft.preserve_input == !destroy,
              destroy ? "one rank r2c, destroy: no copy" : "one rank r2c: the c2r copies its input");
        check(steps.work_bytes[0] + steps.work_bytes[1] == 0 &&
                  steps.scratch_bytes == (destroy ? 0 : complex_bytes),
              destroy ? "one rank r2c, destroy: no work memory"
                      : "one rank r2c: scratch is the complex block, no work buffer");
    }
}

/* Padding 3/2 on every axis of a pencil plan: the global shape of an axis
 * changes from M to N at the step that transforms it, so the exchanges
 * carry M*M*N and M*N*N elements instead of M^3 each: 10/18 of the volume. */
static void test_padding(void)
{
    int64_t shape[3] = {16, 16, 16};
    distfft_kind kinds[3] = {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_C2C};
    int grid[2] = {2, 2};
    algebra_input input = input_of(3, shape, kinds, 2, grid);
    for (int a = 0; a < 3; a++) input.padded[a] = algebra_padded_length(16, 1.5);
    check(input.padded[0] == 24, "padding: floor(1.5 * 16) = 24");
    algebra_steps steps;
    algebra_build(&input, &steps);
    check(steps.in_shape[0] == 24 && steps.out_shape[0] == 16, "padding: physical 24, spectral 16");
    check(steps.forward[1].global_bytes == 24 * 24 * 16 * 16 &&
              steps.forward[3].global_bytes == 24 * 16 * 16 * 16, "padding: exchanges carry N, not M");
    check(steps.forward[0].fft.retained[2] == 16 && steps.forward[0].out_of_place,
          "padding: the padded transform is out of place and retains 16");
    check(steps.scratch_bytes == (size_t)(12 * 12 * 24 * 16), "padding: scratch of the M-length block");
    check(fabs(steps.backward_scale - 1.0 / (24.0 * 24.0 * 24.0)) < 1e-18,
          "padding: normalisation counts the padded lengths");
    check_chain(steps.forward, steps.forward_count, "padded forward");
    check_chain(steps.backward, steps.backward_count, "padded backward");
}

/* In place: the caller's buffer is the input and the output; no
 * out-of-place step reads and writes it; the buffer holds every array
 * placed in it; with a single out-of-place step the chain ends in W1. */
static void check_in_place(const algebra_steps *steps, const step_spec *list, int count,
                           const char *what)
{
    char message[160];
    int ok = list[0].src == SLOT_INPUT;
    for (int s = 0; s < count; s++) {
        int reads = list[s].src == SLOT_INPUT || list[s].src == SLOT_OUTPUT;
        int writes = list[s].dst == SLOT_INPUT || list[s].dst == SLOT_OUTPUT;
        if (list[s].out_of_place) ok &= !(reads && writes);
        if (s > 0) ok &= list[s].src == list[s - 1].dst;
        if (reads) ok &= (size_t)list[s].in_count * distfft_type_size(list[s].in_type) <= steps->local_bytes;
        if (writes) ok &= (size_t)list[s].out_count * distfft_type_size(list[s].out_type) <= steps->local_bytes;
    }
    snprintf(message, sizeof message, "%s: in-place chain", what);
    check(ok, message);
}

static void test_in_place(void)
{
    int64_t shape[3] = {8, 6, 10};
    distfft_kind c2c[3] = {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_C2C};
    distfft_kind r2c[3] = {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_R2C};
    int pencil[2] = {2, 2}, slab[1] = {2};
    const distfft_kind *kind_sets[2] = {c2c, r2c};
    for (int k = 0; k < 2; k++)
        for (int g = 1; g <= 2; g++) {
            algebra_input input = input_of(3, shape, kind_sets[k], g, g == 1 ? slab : pencil);
            input.in_place = true;
            if (k == 1 && g == 2) for (int a = 0; a < 3; a++) input.padded[a] = 3 * shape[a] / 2;
            algebra_steps steps;
            algebra_build(&input, &steps);
            check_in_place(&steps, steps.forward, steps.forward_count, "forward");
            check_in_place(&steps, steps.backward, steps.backward_count, "backward");
        }
    /* The pencil c2c plan (two exchanges): one work buffer. */
    algebra_input input = input_of(3, shape, c2c, 2, pencil);
    input.in_place = true;
    algebra_steps steps;
    algebra_build(&input, &steps);
    check(steps.work_bytes[1] == 0 && steps.work_bytes[0] > 0, "in place pencil c2c: one work buffer");
    check(steps.forward[steps.forward_count - 1].dst == SLOT_OUTPUT, "in place: ends in the buffer");
}

int main(void)
{
    test_padding();
    test_in_place();
    test_pencil_c2c();
    test_blocks_tile();
    test_work_memory();
    test_none_and_cheb();
    test_r2c_first_axis();
    test_one_rank_r2c();
    printf("test_algebra: %s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
