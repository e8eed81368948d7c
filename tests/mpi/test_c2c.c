/*
 * test_c2c.c -- full parallel complex-to-complex FFTs against serial FFTW.
 *
 * For each configuration (shape, grid dimensionality or explicit grid,
 * precision, normalisation, destroy_input, rigor) a plan is created on
 * MPI_COMM_WORLD and checked four ways:
 *  - its blocks: the input blocks of all ranks tile the global array exactly
 *    and are complete along axes r..d-1; the output blocks tile it and are
 *    complete along axis 0; distributed extents are distfft_decompose blocks;
 *  - forward: gathered output against a double-precision serial FFTW DFT of
 *    the global input, scaled as the normalisation says (the input is a
 *    function of the global index, so rank 0 builds it whole; it is also
 *    gathered back and must match it exactly);
 *  - backward on its own (an independent spectral input), the same way;
 *  - the round trip backward(forward(x)) = x.
 * Errors are relative max-norms, tolerance C * eps(precision) * log2(N).
 * Without destroy_input the inputs of forward and backward must come back
 * bit-identical. Every rank's inputs are functions of the global index, so
 * nothing depends on the decomposition. Sentinel bytes catch stray writes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

enum { IN_SENTINEL = 0xA5, OUT_SENTINEL = 0x5A };

/* --quick: one plan per shape and grid dimensionality, with precision,
 * normalisation and destroy_input rotating, and inputs not gathered back.
 * For oversubscribed runs of MPIs that busy-poll, where each collective
 * costs milliseconds. */
static int quick;
static int rotation;

/* Largest error / tolerance seen (rank 0), to show the margin in the log. */
static double worst_ratio;
static char worst_label[300];

static void note_ratio(double relative, double tolerance, const char *label,
                       const char *what)
{
    double ratio = relative / tolerance;
    if (ratio > worst_ratio) {
        worst_ratio = ratio;
        snprintf(worst_label, sizeof worst_label, "%s, %s", label, what);
    }
}

static const char *norm_name(distfft_norm norm)
{
    switch (norm) {
    case DISTFFT_NORM_BACKWARD: return "backward";
    case DISTFFT_NORM_ORTHO: return "ortho";
    case DISTFFT_NORM_FORWARD: return "forward";
    case DISTFFT_NORM_NONE: return "none";
    }
    return "?";
}

/* Scale of the forward (sign -1) or backward (sign +1) transform. */
static double norm_scale(distfft_norm norm, int sign, int64_t n)
{
    if (norm == DISTFFT_NORM_ORTHO)
        return 1.0 / sqrt((double)n);
    if (norm == DISTFFT_NORM_BACKWARD)
        return sign == DISTFFT_BACKWARD ? 1.0 / (double)n : 1.0;
    return sign == DISTFFT_FORWARD ? 1.0 / (double)n : 1.0;
}

typedef struct {
    test_suite *suite;
    int ndims;
    const int64_t *shape;
    distfft_precision precision;
    const distfft_options *options; /* NULL: library defaults */
    char label[256];
} config;

/* ------------------------------------------------------------------------ */
/* Blocks                                                                    */
/* ------------------------------------------------------------------------ */

/* Is (n, start) part of distfft_decompose(global, parts)? */
static int is_decompose_block(int64_t global, int parts, int64_t n,
                              int64_t start)
{
    if (n == 0)
        return start >= 0 && start <= global;
    for (int p = 0; p < parts; p++) {
        int64_t pn, ps;
        distfft_decompose(global, parts, p, &pn, &ps);
        if (pn == n && ps == start)
            return 1;
    }
    return 0;
}

/* The blocks of all ranks tile the global array exactly: checked on rank 0
 * by counting how often each element is covered. Collective. */
static int blocks_tile(const config *c, const int64_t *local_shape,
                       const int64_t *global_start, const char *which)
{
    test_suite *suite = c->suite;
    int d = c->ndims, size = suite->size, ok = 1;
    int64_t mine[2 * DISTFFT_MAX_DIMS];
    for (int i = 0; i < d; i++) {
        mine[i] = local_shape[i];
        mine[d + i] = global_start[i];
    }
    int64_t *all = malloc((size_t)(2 * d * size) * sizeof *all);
    MPI_Gather(mine, 2 * d, MPI_INT64_T, all, 2 * d, MPI_INT64_T, 0,
               MPI_COMM_WORLD);
    if (suite->rank == 0) {
        int64_t n = test_product(d, c->shape), covered = 0;
        unsigned char *count = calloc((size_t)n, 1);
        for (int r = 0; r < size && ok; r++) {
            const int64_t *ls = all + 2 * d * r, *gs = ls + d;
            for (int i = 0; i < d; i++)
                if (ls[i] < 0 || gs[i] < 0 ||
                    (ls[i] > 0 && gs[i] + ls[i] > c->shape[i])) {
                    test_detail(suite, "%s block of rank %d axis %d: %lld at "
                                "%lld outside the array", which, r, i,
                                (long long)ls[i], (long long)gs[i]);
                    ok = 0;
                }
            if (!ok)
                break;
            int64_t m = test_product(d, ls), index[DISTFFT_MAX_DIMS] = {0};
            for (int64_t e = 0; e < m; e++) {
                int64_t g = 0;
                for (int i = 0; i < d; i++)
                    g = g * c->shape[i] + gs[i] + index[i];
                if (count[g]++) {
                    test_detail(suite, "%s blocks overlap at global element "
                                "%lld (rank %d)", which, (long long)g, r);
                    ok = 0;
                    break;
                }
                covered++;
                for (int i = d - 1; i >= 0; i--) {
                    if (++index[i] < ls[i])
                        break;
                    index[i] = 0;
                }
            }
        }
        if (ok && covered != n) {
            test_detail(suite, "%s blocks cover %lld of %lld elements", which,
                        (long long)covered, (long long)n);
            ok = 0;
        }
        free(count);
    }
    free(all);
    return ok;
}

/* Plan queries: grid, blocks. Fills the blocks. Returns this rank's
 * verdict (tiling verdict on rank 0). */
static int check_plan_queries(const config *c, distfft_plan plan,
                              int64_t *in_shape, int64_t *in_start,
                              int64_t *out_shape, int64_t *out_start)
{
    test_suite *suite = c->suite;
    int d = c->ndims, P = suite->size, ok = 1;
    const distfft_options *o = c->options;

    if (distfft_plan_ndims(plan) != d) {
        test_detail(suite, "plan_ndims %d", distfft_plan_ndims(plan));
        ok = 0;
    }
    int r = -1, dims[DISTFFT_MAX_DIMS] = {0};
    if (distfft_plan_grid(plan, &r, dims) != DISTFFT_SUCCESS || r < 1 ||
        r > d - 1) {
        test_detail(suite, "plan_grid: r = %d", r);
        return 0;
    }
    int product = 1;
    for (int i = 0; i < r; i++)
        product *= dims[i];
    if (product != P) {
        test_detail(suite, "grid extents multiply to %d, not %d", product, P);
        ok = 0;
    }
    if (o && o->grid_ndims > 0) {
        int want[DISTFFT_MAX_DIMS] = {0};
        for (int i = 0; i < o->grid_ndims; i++)
            want[i] = o->grid_dims[i];
        MPI_Dims_create(P, o->grid_ndims, want);
        if (r != o->grid_ndims) {
            test_detail(suite, "grid has %d dims, asked for %d", r,
                        o->grid_ndims);
            ok = 0;
        }
        for (int i = 0; i < r && i < o->grid_ndims; i++)
            if (dims[i] != want[i]) {
                test_detail(suite, "grid dims[%d] = %d, expected %d", i,
                            dims[i], want[i]);
                ok = 0;
            }
    } else if (!o || (o->method == DISTFFT_METHOD_AUTO && o->rigor != DISTFFT_ESTIMATE)) {
        /* measured (the defaults): a grid that leaves no rank without
         * data, whenever one exists; a slab fits in these cases */
        for (int i = 0; c->shape[0] >= P && c->shape[1] >= P && i < r; i++)
            if (dims[i] > c->shape[i] || dims[i] > c->shape[i + 1] || (r > 1 && dims[i] < 2)) {
                test_detail(suite, "measured grid leaves ranks without data: dims[%d] = %d", i, dims[i]);
                ok = 0;
            }
    } else if (c->shape[0] >= P && c->shape[1] >= P && r != 1) {
        /* automatic: a slab whenever the ranks fit */
        test_detail(suite, "automatic grid has %d dims; a slab fits", r);
        ok = 0;
    }

    if (distfft_plan_input_block(plan, in_shape, in_start) !=
            DISTFFT_SUCCESS ||
        distfft_plan_output_block(plan, out_shape, out_start) !=
            DISTFFT_SUCCESS) {
        test_detail(suite, "plan_input_block/output_block failed");
        return 0;
    }
    for (int i = 0; i < d; i++) {
        /* input: axis i < r over direction i, the rest complete */
        int complete_in = i >= r;
        if (complete_in ? (in_shape[i] != c->shape[i] || in_start[i] != 0)
                        : !is_decompose_block(c->shape[i], dims[i],
                                              in_shape[i], in_start[i])) {
            test_detail(suite, "input block axis %d: %lld at %lld", i,
                        (long long)in_shape[i], (long long)in_start[i]);
            ok = 0;
        }
        /* output: axis 0 and axes > r complete, axis i in 1..r over
         * direction i-1 */
        int complete_out = i == 0 || i > r;
        if (complete_out
                ? (out_shape[i] != c->shape[i] || out_start[i] != 0)
                : !is_decompose_block(c->shape[i], dims[i - 1], out_shape[i],
                                      out_start[i])) {
            test_detail(suite, "output block axis %d: %lld at %lld", i,
                        (long long)out_shape[i], (long long)out_start[i]);
            ok = 0;
        }
    }
    ok &= blocks_tile(c, in_shape, in_start, "input");
    ok &= blocks_tile(c, out_shape, out_start, "output");
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Transforms                                                                */
/* ------------------------------------------------------------------------ */

/* Rank 0: the whole global input of field `field`, as every rank filled
 * its block of it (test_fill_field), in double precision. */
static double complex *global_input(const config *c, distfft_type type,
                                    int64_t field)
{
    int64_t n = test_product(c->ndims, c->shape);
    int64_t zero[DISTFFT_MAX_DIMS] = {0};
    void *raw = malloc((size_t)n * distfft_type_size(type));
    double complex *global = malloc((size_t)n * sizeof *global);
    test_fill_field(type, c->ndims, c->shape, c->shape, zero, field, raw);
    test_to_double(type, n, raw, global);
    free(raw);
    return global;
}

/* Full mode: gather the input blocks and check, on rank 0, that they are
 * exactly the global input (distfft_gather and the block queries agree).
 * Collective. */
static int gathered_input_exact(const config *c, distfft_type type,
                                const int64_t *local_shape,
                                const int64_t *global_start,
                                const void *local,
                                const double complex *expected_global)
{
    int rc;
    double complex *global =
        test_gather_double(MPI_COMM_WORLD, type, c->ndims, c->shape,
                           local_shape, global_start, local, &rc);
    int ok = rc == DISTFFT_SUCCESS;
    if (c->suite->rank == 0 && ok) {
        int64_t n = test_product(c->ndims, c->shape);
        for (int64_t j = 0; j < n && ok; j++)
            ok = creal(global[j]) == creal(expected_global[j]) &&
                 cimag(global[j]) == cimag(expected_global[j]);
    }
    if (!ok)
        test_detail(c->suite, "%s: gathered input differs from what was "
                    "filled", c->label);
    free(global);
    return ok;
}

/* Compare the gathered result of a transform of sign `sign` of the gathered
 * input on rank 0; returns the verdict (1 on other ranks). */
static int compare_with_reference(const config *c, distfft_norm norm,
                                  int sign, const double complex *input,
                                  const double complex *result,
                                  const char *what)
{
    if (c->suite->rank != 0)
        return 1;
    int64_t n = test_product(c->ndims, c->shape);
    double complex *reference = malloc((size_t)n * sizeof *reference);
    test_reference_dft(c->ndims, c->shape, sign, input, reference);
    double scale = norm_scale(norm, sign, n);
    for (int64_t j = 0; j < n; j++)
        reference[j] *= scale;
    double error = test_max_abs_diff(n, result, reference);
    double size = test_max_abs(n, reference);
    double relative = size > 0 ? error / size : error;
    double tolerance = test_tolerance(c->precision, n);
    free(reference);
    note_ratio(relative, tolerance, c->label, what);
    if (relative <= tolerance)
        return 1;
    test_detail(c->suite, "%s: %s relative error %.3g > tolerance %.3g",
                c->label, what, relative, tolerance);
    return 0;
}

static void run_config(const config *c)
{
    test_suite *suite = c->suite;
    int d = c->ndims;
    distfft_type type = c->precision == DISTFFT_FLOAT ? DISTFFT_COMPLEX_FLOAT
                                                      : DISTFFT_COMPLEX_DOUBLE;
    size_t element = distfft_type_size(type);
    distfft_norm norm = c->options ? c->options->norm : DISTFFT_NORM_BACKWARD;
    int destroy = c->options ? c->options->destroy_input : 0;
    int64_t n = test_product(d, c->shape);

    distfft_plan plan = NULL;
    int rc = distfft_plan_create(MPI_COMM_WORLD, d, c->shape, c->precision,
                                 c->options, &plan);
    int created = rc == DISTFFT_SUCCESS && plan != NULL;
    if (!created)
        test_detail(suite, "%s: plan_create: %s (%s)", c->label,
                    distfft_error_string(rc), distfft_last_error());
    test_case(suite, created, "%s: plan_create", c->label);
    if (!test_all(MPI_COMM_WORLD, created)) {
        distfft_plan_destroy(&plan);
        return;
    }

    /* Queries */
    int64_t in_shape[DISTFFT_MAX_DIMS], in_start[DISTFFT_MAX_DIMS];
    int64_t out_shape[DISTFFT_MAX_DIMS], out_start[DISTFFT_MAX_DIMS];
    int ok = check_plan_queries(c, plan, in_shape, in_start, out_shape,
                                out_start);
    test_case(suite, ok, "%s: grid and blocks", c->label);
    if (!test_all(MPI_COMM_WORLD, ok)) {
        distfft_plan_destroy(&plan);
        return;
    }
    int64_t in_count = test_product(d, in_shape);
    int64_t out_count = test_product(d, out_shape);
    size_t in_bytes = (size_t)in_count * element;
    size_t out_bytes = (size_t)out_count * element;

    char text[512];
    int length = distfft_plan_describe(plan, NULL, 0);
    int described = length > 0 && length < (int)sizeof text &&
                    distfft_plan_describe(plan, text, sizeof text) == length &&
                    (int)strlen(text) == length;
    char small[8];
    described = described &&
                distfft_plan_describe(plan, small, sizeof small) == length &&
                strlen(small) == (size_t)(length < 7 ? length : 7);
    if (!described)
        test_detail(suite, "%s: describe returned %d", c->label, length);
    test_case(suite, described, "%s: describe", c->label);

    /* Forward */
    void *x = in_bytes ? test_guarded_alloc(in_bytes, IN_SENTINEL) : NULL;
    void *y = out_bytes ? test_guarded_alloc(out_bytes, OUT_SENTINEL) : NULL;
    void *x_copy = malloc(in_bytes + 1);
    if (x) {
        test_fill_field(type, d, c->shape, in_shape, in_start, 0, x);
        memcpy(x_copy, x, in_bytes);
    }
    rc = distfft_plan_execute(plan, x, y, DISTFFT_FORWARD);
    ok = rc == DISTFFT_SUCCESS;
    if (!ok)
        test_detail(suite, "%s: forward: %s (%s)", c->label,
                    distfft_error_string(rc), distfft_last_error());
    if (y && !test_guard_intact(y, out_bytes, OUT_SENTINEL)) {
        test_detail(suite, "%s: forward wrote past its output", c->label);
        ok = 0;
    }
    if (x && !test_guard_intact(x, in_bytes, IN_SENTINEL)) {
        test_detail(suite, "%s: forward wrote past its input", c->label);
        ok = 0;
    }
    if (!destroy) {
        int preserved = !x || memcmp(x, x_copy, in_bytes) == 0;
        test_case(suite, preserved, "%s: forward preserves input", c->label);
    }
    double complex *global_x =
        suite->rank == 0 ? global_input(c, type, 0) : NULL;
    if (!quick)
        ok &= gathered_input_exact(c, type, in_shape, in_start,
                                   x ? x_copy : NULL, global_x);
    int gather_rc;
    double complex *global_y = test_gather_double(
        MPI_COMM_WORLD, type, d, c->shape, out_shape, out_start, y,
        &gather_rc);
    if (gather_rc != DISTFFT_SUCCESS) {
        test_detail(suite, "%s: gather failed", c->label);
        ok = 0;
    }
    if (suite->rank == 0 && ok)
        ok = compare_with_reference(c, norm, DISTFFT_FORWARD, global_x,
                                    global_y, "forward");
    test_case(suite, ok, "%s: forward vs FFTW", c->label);
    free(global_x);
    free(global_y);

    /* Backward on its own, from an independent spectral input */
    void *s = out_bytes ? test_guarded_alloc(out_bytes, IN_SENTINEL) : NULL;
    void *b = in_bytes ? test_guarded_alloc(in_bytes, OUT_SENTINEL) : NULL;
    void *s_copy = malloc(out_bytes + 1);
    if (s) { /* field 1: a different input than the forward one */
        test_fill_field(type, d, c->shape, out_shape, out_start, 1, s);
        memcpy(s_copy, s, out_bytes);
    }
    rc = distfft_plan_execute(plan, s, b, DISTFFT_BACKWARD);
    ok = rc == DISTFFT_SUCCESS;
    if (!ok)
        test_detail(suite, "%s: backward: %s (%s)", c->label,
                    distfft_error_string(rc), distfft_last_error());
    if ((b && !test_guard_intact(b, in_bytes, OUT_SENTINEL)) ||
        (s && !test_guard_intact(s, out_bytes, IN_SENTINEL))) {
        test_detail(suite, "%s: backward wrote past a buffer", c->label);
        ok = 0;
    }
    if (!destroy) {
        int preserved = !s || memcmp(s, s_copy, out_bytes) == 0;
        test_case(suite, preserved, "%s: backward preserves input", c->label);
    }
    double complex *global_s =
        suite->rank == 0 ? global_input(c, type, 1) : NULL;
    if (!quick)
        ok &= gathered_input_exact(c, type, out_shape, out_start,
                                   s ? s_copy : NULL, global_s);
    double complex *global_b = test_gather_double(
        MPI_COMM_WORLD, type, d, c->shape, in_shape, in_start, b,
        &gather_rc);
    if (gather_rc != DISTFFT_SUCCESS)
        ok = 0;
    if (suite->rank == 0 && ok)
        ok = compare_with_reference(c, norm, DISTFFT_BACKWARD, global_s,
                                    global_b, "backward");
    test_case(suite, ok, "%s: backward vs FFTW", c->label);
    free(global_s);
    free(global_b);

    /* Round trip: backward(forward(x)) = x */
    void *z = in_bytes ? test_guarded_alloc(in_bytes, OUT_SENTINEL) : NULL;
    rc = distfft_plan_execute(plan, y, z, DISTFFT_BACKWARD);
    ok = rc == DISTFFT_SUCCESS;
    double local[2] = {0, 0}, global[2];
    for (int64_t j = 0; j < in_count; j++) {
        double complex original = test_element(type, x_copy, j);
        double e = cabs(test_element(type, z, j) - original);
        if (!(e <= local[0]))
            local[0] = e;
        if (cabs(original) > local[1])
            local[1] = cabs(original);
    }
    MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double relative = global[1] > 0 ? global[0] / global[1] : global[0];
    double tolerance = test_tolerance(c->precision, n);
    note_ratio(relative, tolerance, c->label, "round trip");
    if (!(relative <= tolerance)) {
        if (suite->rank == 0)
            test_detail(suite, "%s: round-trip relative error %.3g > %.3g",
                        c->label, relative, tolerance);
        ok = 0;
    }
    test_case(suite, ok, "%s: round trip", c->label);

    /* Timings: three executions so far, then reset. */
    distfft_timings timings;
    memset(&timings, 0xff, sizeof timings);
    ok = distfft_plan_timings(plan, &timings) == DISTFFT_SUCCESS &&
         timings.executions == 3 && timings.fft_seconds >= 0 &&
         timings.redistribute_seconds >= 0;
    ok = ok && distfft_plan_reset_timings(plan) == DISTFFT_SUCCESS &&
         distfft_plan_timings(plan, &timings) == DISTFFT_SUCCESS &&
         timings.executions == 0 && timings.fft_seconds == 0 &&
         timings.redistribute_seconds == 0;
    test_case(suite, ok, "%s: timings", c->label);

    rc = distfft_plan_destroy(&plan);
    test_case(suite, rc == DISTFFT_SUCCESS && plan == NULL,
              "%s: plan_destroy", c->label);

    distfft_free(x);
    distfft_free(y);
    distfft_free(s);
    distfft_free(b);
    distfft_free(z);
    free(x_copy);
    free(s_copy);
}

/* ------------------------------------------------------------------------ */
/* Configurations                                                            */
/* ------------------------------------------------------------------------ */

static const char *rigor_name(distfft_rigor rigor)
{
    return rigor == DISTFFT_ESTIMATE ? "estimate"
           : rigor == DISTFFT_MEASURE ? "measure"
                                      : "patient+";
}

static void run_options(test_suite *suite, int ndims, const int64_t *shape,
                        distfft_precision precision,
                        const distfft_options *options)
{
    config c = {suite, ndims, shape, precision, options, ""};
    char shape_text[96], dims_text[96] = "auto";
    test_shape_string(ndims, shape, shape_text, sizeof shape_text);
    if (!options) {
        snprintf(c.label, sizeof c.label, "c2c %s %s defaults", shape_text,
                 precision == DISTFFT_FLOAT ? "float" : "double");
    } else {
        int any = 0;
        int64_t dims[DISTFFT_MAX_DIMS];
        for (int i = 0; i < options->grid_ndims; i++) {
            dims[i] = options->grid_dims[i];
            any |= dims[i] != 0;
        }
        if (any)
            test_shape_string(options->grid_ndims, dims, dims_text,
                              sizeof dims_text);
        snprintf(c.label, sizeof c.label,
                 "c2c %s %s r=%d dims=%s norm=%s destroy=%d %s", shape_text,
                 precision == DISTFFT_FLOAT ? "float" : "double",
                 options->grid_ndims, dims_text, norm_name(options->norm),
                 options->destroy_input, rigor_name(options->rigor));
    }
    run_config(&c);
}

/* One plan per grid dimensionality (automatic extents), precision,
 * normalisation and destroy_input. */
static void run_shape(test_suite *suite, int ndims, const int64_t *shape)
{
    for (int r = 1; r < ndims; r++)
        for (int prec = 0; prec < 2; prec++)
            for (int combo = 0; combo < 6; combo++) {
                if (quick && prec * 6 + combo != rotation % 12)
                    continue;
                distfft_options options;
                distfft_options_init(&options);
                options.grid_ndims = r;
                options.norm = (distfft_norm)(combo % 3);
                options.destroy_input = combo / 3;
                options.rigor = DISTFFT_ESTIMATE;
                run_options(suite, ndims, shape, (distfft_precision)prec,
                            &options);
                if (quick) {
                    rotation += 5; /* coprime to 12: all 12 come round */
                    prec = 2; /* next r */
                    break;
                }
            }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite suite;
    test_suite_init(&suite, "test_c2c", MPI_COMM_WORLD);
    for (int i = 1; i < argc; i++)
        quick |= strcmp(argv[i], "--quick") == 0;
    int P = suite.size;

    static const int64_t s5x7x11[] = {5, 7, 11};
    static const int64_t s13x8[] = {13, 8};
    static const int64_t s42x31x16[] = {42, 31, 16}; /* paper's 42x127x256 */
    static const int64_t s4d[] = {16, 17, 18, 19};   /* paper's Appendix B */
    static const int64_t s6d[] = {3, 4, 2, 5, 3, 2};
    static const int64_t s2x9[] = {2, 9};            /* empty blocks */
    static const int64_t s1x6x5[] = {1, 6, 5};       /* length-1 axis */
    static const int64_t s9x1x4[] = {9, 1, 4};       /* length-1 middle */

    run_shape(&suite, 3, s5x7x11);
    run_shape(&suite, 2, s13x8);
    run_shape(&suite, 3, s42x31x16);
    run_shape(&suite, 4, s4d);
    run_shape(&suite, 6, s6d);
    run_shape(&suite, 2, s2x9);
    run_shape(&suite, 3, s1x6x5);
    run_shape(&suite, 3, s9x1x4);

    /* Explicit grids: 1xP, Px1, 2x(P/2), and a 4D 1xPx1. */
    distfft_options options;
    const int explicit_2d[][2] = {{1, 0}, {0, 1}, {2, 0}};
    for (int k = 0; k < 3; k++) {
        if (explicit_2d[k][0] == 2 && P % 2 != 0)
            continue;
        distfft_options_init(&options);
        options.grid_ndims = 2;
        options.grid_dims[0] = explicit_2d[k][0];
        options.grid_dims[1] = explicit_2d[k][1];
        options.rigor = DISTFFT_ESTIMATE;
        options.norm = (distfft_norm)(k % 3);
        run_options(&suite, 3, s5x7x11, DISTFFT_DOUBLE, &options);
        if (!quick)
            run_options(&suite, 3, s42x31x16, DISTFFT_FLOAT, &options);
    }
    distfft_options_init(&options);
    options.grid_ndims = 3;
    options.grid_dims[0] = 1;
    options.grid_dims[1] = P;
    options.grid_dims[2] = 1;
    options.rigor = DISTFFT_ESTIMATE;
    run_options(&suite, 4, s4d, DISTFFT_DOUBLE, &options);

    /* DISTFFT_MAX_DIMS axes: a slab and the highest grid. */
    int64_t s16d[DISTFFT_MAX_DIMS];
    for (int i = 0; i < DISTFFT_MAX_DIMS; i++)
        s16d[i] = i % 3 == 0 ? 2 : i % 3 == 1 ? 1 : 3;
    const int high_grids[] = {1, DISTFFT_MAX_DIMS - 1};
    for (int k = 0; k < 2; k++) {
        distfft_options_init(&options);
        options.grid_ndims = high_grids[k];
        options.rigor = DISTFFT_ESTIMATE;
        options.norm = DISTFFT_NORM_ORTHO;
        run_options(&suite, DISTFFT_MAX_DIMS, s16d, DISTFFT_DOUBLE, &options);
    }

    /* Automatic grid dimensionality, and the library defaults (MEASURE). */
    distfft_options_init(&options);
    options.rigor = DISTFFT_ESTIMATE;
    run_options(&suite, 3, s42x31x16, DISTFFT_DOUBLE, &options);
    run_options(&suite, 3, s9x1x4, DISTFFT_FLOAT, &options);
    /* The defaults tune methods and grids: many collectives, which cost
     * milliseconds each where the MPI busy-polls oversubscribed (--quick),
     * so there only the 2D case (one candidate grid) runs. */
    if (!quick)
        run_options(&suite, 3, s5x7x11, DISTFFT_DOUBLE, NULL);
    run_options(&suite, 2, s13x8, DISTFFT_FLOAT, NULL);

    if (suite.rank == 0)
        printf("test_c2c: largest error is %.2f of the tolerance (%s)\n",
               worst_ratio, worst_label);
    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
