/*
 * test_methods.c -- every redistribution method against alltoallw, the
 * paper's method (test_redist checks alltoallw itself).
 *
 * For each shape, on grids of every dimensionality, every grid direction
 * and every ordered pair of axes (v, w): the array is exchanged v -> w with
 * alltoallw (whose result must be the exact function of the global index
 * that the input was filled with), then with every other method, whose
 * result must be BIT-IDENTICAL to alltoallw's; the input must come back
 * unchanged, nothing may be written past the buffers, a second execution
 * must give the same result, and the reverse exchange w -> v with the same
 * method must restore the input bit for bit. All four element types and
 * batch 1 and 3 for every exchange of the 2D to 4D shapes (5D: one type and
 * batch per exchange, rotating); shapes with primes, sizes not divisible by
 * the number of ranks and axes shorter than it (empty blocks, NULL buffers).
 * The vector method (paper 004) needs equal blocks: where the group size
 * divides both exchanged axes (the divisible shapes below) it must be
 * bit-identical like the others; elsewhere its create must fail with
 * DISTFFT_ERR_UNSUPPORTED on every rank, naming the shape, writing nothing.
 *
 * Then FFT plans: a c2c plan per method (grids of 1, 2 and 3 dimensions,
 * both precisions, batched fields; r2c and in place too) must give forward
 * and backward outputs bit-identical to the alltoallw plan's (FFTW_ESTIMATE,
 * so both plans pick the same serial algorithms) -- shm's within rounding
 * only: its plans run the FFT after each exchange out of place, reading
 * the exchange's output in its window (one copy), and FFTW may plan that
 * differently. Method names round-trip through
 * distfft_method_name / distfft_method_from_name. Chunks beyond an MPI
 * count take derived datatypes (src/message.h); CTest also runs this
 * program with DISTFFT_MAX_MESSAGE=7, which sends every chunk of more than
 * 7 elements that way, and tests/large moves real ones. --methods
 * shm,hierarchical compares only those (CTest runs them on nodes of 1, 2
 * and 3 ranks, pretended with DISTFFT_NODE_SIZE).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

enum { IN_SENTINEL = 0xA5, OUT_SENTINEL = 0x5A };

/* --quick: one method, element type and batch per exchange (rotating, so
 * that every method meets every type and batch), no alltoallw reference
 * (the exact expected values instead), in 4D only neighbouring axes on 1D
 * and 3D grids, no 5D, and fewer plans. For oversubscribed runs of MPIs that busy-poll, where each
 * collective costs milliseconds. */
static int quick;
static int rotation;

/* --methods NAME,NAME,...: compare only these with alltoallw (the
 * node-aware methods on pretended nodes, DISTFFT_NODE_SIZE, need no
 * other). All by default. */
static unsigned char selected[DISTFFT_MAX_METHODS];
static int selected_list[DISTFFT_MAX_METHODS], selected_count;

static const distfft_type types[] = {DISTFFT_COMPLEX_DOUBLE,
                                     DISTFFT_COMPLEX_FLOAT,
                                     DISTFFT_REAL_DOUBLE, DISTFFT_REAL_FLOAT};
static const char *const type_names[] = {"complex-double", "complex-float",
                                         "real-double", "real-float"};

/* The concrete methods, as the library lists them (auto chooses among
 * them, and has test_auto of its own). */
static int method_count(void)
{
    return distfft_method_count();
}

/* Parse --methods (0 on an unknown name); none given selects all but
 * alltoallw, the reference, and staged and nccl, which serve device memory only. */
static int select_methods(const char *list)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", list ? list : "");
    for (char *name = strtok(copy, ","); name; name = strtok(NULL, ",")) {
        distfft_method m;
        if (distfft_method_from_name(name, &m) != DISTFFT_SUCCESS ||
            (int)m < 0 || (int)m >= DISTFFT_MAX_METHODS)
            return 0;
        selected[m] = 1;
    }
    for (int m = 1; m < method_count() && m < DISTFFT_MAX_METHODS; m++) {
        if (!list) selected[m] = test_method_serves_host((distfft_method)m);
        if (selected[m]) selected_list[selected_count++] = m;
    }
    return selected_count > 0;
}

typedef struct {
    int ndims;
    int64_t shape[5];
    int every_combination; /* all types x batches per exchange (else rotate) */
} shape_case;

static const shape_case shapes[] = {
    {3, {5, 7, 11}, 1},   /* primes */
    {3, {2, 13, 3}, 1},   /* length-2 axis: empty blocks at 3+ ranks */
    {2, {17, 3}, 1},
    {4, {3, 4, 1, 6}, 1}, /* a length-1 axis: empty blocks everywhere */
    {5, {2, 3, 2, 1, 3}, 0},
    {3, {12, 8, 6}, 1},   /* divisible by most group sizes: vector applies */
    {2, {24, 48}, 1},     /* divisible by every group size of 1..8 ranks */
};

/* Does the vector method apply (equal blocks on both exchanged axes)? */
static int vector_applies(int64_t n_in, int64_t n_out, int group)
{
    return n_in % group == 0 && n_out % group == 0;
}

/* Where vector does not apply: create must fail with the documented code
 * on every rank of the group, leave the handle NULL and name the method. */
static int vector_refused(test_suite *suite, MPI_Comm comm, int rc,
                          const void *handle, const char *label)
{
    int ok = rc == DISTFFT_ERR_UNSUPPORTED && handle == NULL &&
             strstr(distfft_last_error(), "vector") != NULL;
    if (!ok)
        test_detail(suite, "vector %s: expected DISTFFT_ERR_UNSUPPORTED, got "
                    "%s (%s)", label, distfft_error_string(rc),
                    distfft_last_error());
    return test_all(comm, ok);
}

/* One exchange: local blocks of the input (aligned in v) and the output
 * (aligned in w) on the sub-communicator of one grid direction. */
typedef struct {
    int ndims, v, w;
    const int64_t *shape;
    int64_t in_shape[DISTFFT_MAX_DIMS], in_start[DISTFFT_MAX_DIMS];
    int64_t out_shape[DISTFFT_MAX_DIMS], out_start[DISTFFT_MAX_DIMS];
    MPI_Comm subcomm;
    char label[256];
} exchange;

/* Grid direction `direction` exchanges v -> w; the other directions
 * distribute the remaining axes, lowest first. */
static void exchange_layout(const shape_case *sc, distfft_grid grid,
                            int direction, int v, int w, exchange *x)
{
    int r = distfft_grid_ndims(grid);
    int dims[DISTFFT_MAX_DIMS], coords[DISTFFT_MAX_DIMS];
    distfft_grid_dims(grid, dims);
    distfft_grid_coords(grid, coords);
    x->ndims = sc->ndims;
    x->shape = sc->shape;
    x->v = v;
    x->w = w;
    x->subcomm = distfft_grid_subcomm(grid, direction);
    int axis_of[DISTFFT_MAX_DIMS]; /* the axis each direction distributes */
    for (int j = 0, axis = 0; j < r; j++) {
        if (j == direction) {
            axis_of[j] = -1;
            continue;
        }
        while (axis == v || axis == w)
            axis++;
        axis_of[j] = axis++;
    }
    for (int a = 0; a < sc->ndims; a++) {
        x->in_shape[a] = x->out_shape[a] = sc->shape[a];
        x->in_start[a] = x->out_start[a] = 0;
    }
    for (int j = 0; j < r; j++) {
        int a = axis_of[j];
        if (a < 0)
            continue;
        distfft_decompose(sc->shape[a], dims[j], coords[j], &x->in_shape[a],
                          &x->in_start[a]);
        x->out_shape[a] = x->in_shape[a];
        x->out_start[a] = x->in_start[a];
    }
    distfft_decompose(sc->shape[w], dims[direction], coords[direction],
                      &x->in_shape[w], &x->in_start[w]);
    distfft_decompose(sc->shape[v], dims[direction], coords[direction],
                      &x->out_shape[v], &x->out_start[v]);
    char shape_text[96], dims_text[96];
    int64_t dims64[DISTFFT_MAX_DIMS];
    for (int j = 0; j < r; j++)
        dims64[j] = dims[j];
    test_shape_string(sc->ndims, sc->shape, shape_text, sizeof shape_text);
    test_shape_string(r, dims64, dims_text, sizeof dims_text);
    snprintf(x->label, sizeof x->label, "%s grid=%s P%d %d->%d", shape_text,
             dims_text, direction, v, w);
}

static void report(test_suite *suite, int rc, const char *what,
                   const char *method)
{
    test_detail(suite, "%s (%s): %s (%s)", what, method,
                distfft_error_string(rc), distfft_last_error());
}

/* Create `method` from `from` (aligned in axis_from) to `to` and execute it
 * `times` times, `target` reset to the sentinel before each. Returns this
 * rank's success; failures are described; -1 (on every rank) when vector
 * was refused as it must be. Collective on the subcomm. */
static int redistribute(test_suite *suite, const exchange *x,
                        distfft_type type, int64_t batch,
                        distfft_method method, int reverse,
                        const void *source, void *target,
                        size_t target_bytes, int times)
{
    const int64_t *from = reverse ? x->out_shape : x->in_shape;
    const int64_t *to = reverse ? x->in_shape : x->out_shape;
    int axis_from = reverse ? x->w : x->v, axis_to = reverse ? x->v : x->w;
    const char *name = distfft_method_name(method);
    distfft_redist redist = NULL;
    int rc = distfft_redist_create(x->subcomm, type, x->ndims, from,
                                   axis_from, to, axis_to, batch, method,
                                   &redist);
    int group;
    MPI_Comm_size(x->subcomm, &group);
    if (method == DISTFFT_METHOD_VECTOR &&
        !vector_applies(x->shape[x->v], x->shape[x->w], group))
        return vector_refused(suite, x->subcomm, rc, redist, x->label) ? -1 : 0;
    if (rc != DISTFFT_SUCCESS) {
        report(suite, rc, "redist_create", name);
        return 0;
    }
    int ok = 1;
    for (int k = 0; k < times && ok; k++) {
        if (target)
            memset(target, OUT_SENTINEL, target_bytes);
        rc = distfft_redist_execute(redist, source, target);
        if (rc != DISTFFT_SUCCESS) {
            report(suite, rc, "redist_execute", name);
            ok = 0;
        }
    }
    if (target && !test_guard_intact(target, target_bytes, OUT_SENTINEL)) {
        test_detail(suite, "%s wrote past its output", name);
        ok = 0;
    }
    distfft_redist_destroy(&redist);
    return ok;
}

static int same_bytes(const void *a, const void *b, size_t bytes)
{
    return bytes == 0 || memcmp(a, b, bytes) == 0;
}

/* One exchange with one element type and batch, methods first..last. */
static void run_exchange(test_suite *suite, const exchange *x, int type_index,
                         int64_t batch, int first, int last)
{
    distfft_type type = types[type_index];
    size_t element = distfft_type_size(type);
    size_t in_bytes =
        (size_t)(batch * test_product(x->ndims, x->in_shape)) * element;
    size_t out_bytes =
        (size_t)(batch * test_product(x->ndims, x->out_shape)) * element;
    void *in = in_bytes ? test_guarded_alloc(in_bytes, IN_SENTINEL) : NULL;
    void *pristine = in_bytes ? malloc(in_bytes) : NULL;
    void *expected =
        out_bytes ? test_guarded_alloc(out_bytes, OUT_SENTINEL) : NULL;
    void *out = out_bytes ? test_guarded_alloc(out_bytes, OUT_SENTINEL) : NULL;
    void *back = in_bytes ? test_guarded_alloc(in_bytes, OUT_SENTINEL) : NULL;
    if (in) {
        test_fill(type, x->ndims, x->shape, x->in_shape, x->in_start, batch,
                  1, in);
        memcpy(pristine, in, in_bytes);
    }
    char label[320], detail[256];
    snprintf(label, sizeof label, "%s %s batch=%lld", x->label,
             type_names[type_index], (long long)batch);

    /* The reference: alltoallw, checked against the global index. (--quick
     * skips it: test_redist shows alltoallw's result is exactly these
     * values, so each method is compared with them instead.) */
    int ok = 1;
    if (!quick) {
        ok = redistribute(suite, x, type, batch, DISTFFT_METHOD_ALLTOALLW, 0,
                          in, expected, out_bytes, 1);
        if (ok && test_check_exact(type, x->ndims, x->shape, x->out_shape,
                                   x->out_start, batch, expected, detail,
                                   sizeof detail)) {
            test_detail(suite, "alltoallw %s: %s", label, detail);
            ok = 0;
        }
        test_case(suite, ok, "alltoallw reference %s", label);
    }

    for (int m = first; m <= last; m++) {
        if (!selected[m])
            continue;
        const char *name = distfft_method_name((distfft_method)m);
        /* executed twice (once with --quick): the second must not differ */
        if (out) memset(out, OUT_SENTINEL, out_bytes);
        ok = redistribute(suite, x, type, batch, (distfft_method)m, 0, in,
                          out, out_bytes, quick ? 1 : 2);
        if (ok < 0) { /* refused, as documented: nothing may be written */
            ok = !out || (test_all_bytes(out, out_bytes, OUT_SENTINEL) &&
                          test_guard_intact(out, out_bytes, OUT_SENTINEL));
            test_case(suite, ok, "%s %s refused (unequal blocks)", name, label);
            continue;
        }
        if (ok && (quick ? test_check_exact(type, x->ndims, x->shape,
                                            x->out_shape, x->out_start, batch,
                                            out, NULL, 0) != 0
                         : !same_bytes(out, expected, out_bytes))) {
            test_check_exact(type, x->ndims, x->shape, x->out_shape,
                             x->out_start, batch, out, detail, sizeof detail);
            test_detail(suite, "%s %s differs from alltoallw: %s", name,
                        label, detail);
            ok = 0;
        }
        if (in && (!same_bytes(in, pristine, in_bytes) ||
                   !test_guard_intact(in, in_bytes, IN_SENTINEL))) {
            test_detail(suite, "%s %s modified its input", name, label);
            ok = 0;
        }
        /* Back again with the same method; collective, so go on together. */
        if (test_all(x->subcomm, ok)) {
            ok = redistribute(suite, x, type, batch, (distfft_method)m, 1,
                              out, back, in_bytes, 1);
            if (ok && !same_bytes(back, pristine, in_bytes)) {
                test_detail(suite, "%s %s: the reverse exchange did not "
                            "restore the input", name, label);
                ok = 0;
            }
        }
        test_case(suite, ok, "%s %s", name, label);
    }
    distfft_free(in);
    free(pristine);
    distfft_free(expected);
    distfft_free(out);
    distfft_free(back);
}

static void run_grid(test_suite *suite, const shape_case *sc, int grid_ndims)
{
    distfft_grid grid = NULL;
    int rc = distfft_grid_create(MPI_COMM_WORLD, grid_ndims, NULL, &grid);
    test_case(suite, rc == DISTFFT_SUCCESS, "grid_create r=%d", grid_ndims);
    if (rc != DISTFFT_SUCCESS)
        return;
    for (int direction = 0; direction < grid_ndims; direction++)
        for (int v = 0; v < sc->ndims; v++)
            for (int w = 0; w < sc->ndims; w++) {
                if (v == w)
                    continue;
                int d = sc->ndims, distance = abs(v - w);
                if (quick && d > 3 && distance != 1 && distance != d - 1)
                    continue;
                exchange x;
                exchange_layout(sc, grid, direction, v, w, &x);
                int methods = method_count() - 1; /* after alltoallw */
                if (quick) {
                    /* one method per exchange; over 8 x methods exchanges
                     * every method meets every type and batch */
                    int k = rotation++;
                    int m = selected_list[k % selected_count];
                    int combination = (k / selected_count) % 8;
                    run_exchange(suite, &x, combination % 4,
                                 combination / 4 ? 3 : 1, m, m);
                } else if (sc->every_combination) {
                    for (int t = 0; t < 4; t++)
                        for (int64_t batch = 1; batch <= 3; batch += 2)
                            run_exchange(suite, &x, t, batch, 1, methods);
                } else {
                    int k = rotation++;
                    run_exchange(suite, &x, k % 4, (k / 4) % 2 ? 3 : 1, 1,
                                 methods);
                }
            }
    distfft_grid_destroy(&grid);
}

/* ------------------------------------------------------------------------ */
/* FFT plans                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct {
    int ndims;
    int64_t shape[4];
    int grid_ndims;
    distfft_precision precision;
    int64_t batch;
    int r2c;       /* r2c on the last axis (numpy's rfftn), else c2c */
    int in_place;  /* options.in_place: one buffer */
} plan_case;

/* r2c and in place too: shm's plans write each exchange's output into a
 * work buffer in its window (one copy), the FFT after it out of place. */
static const plan_case plan_cases[] = {
    {3, {6, 5, 7}, 1, DISTFFT_DOUBLE, 1, 0, 0},
    {3, {6, 5, 7}, 2, DISTFFT_FLOAT, 1, 0, 0},
    {4, {4, 3, 5, 2}, 3, DISTFFT_DOUBLE, 2, 0, 0},
    {3, {24, 24, 6}, 1, DISTFFT_DOUBLE, 2, 0, 0}, /* divisible: vector applies */
    {3, {24, 24, 6}, 2, DISTFFT_FLOAT, 1, 0, 0},
    {3, {6, 5, 7}, 1, DISTFFT_DOUBLE, 1, 1, 0},
    {3, {6, 5, 7}, 2, DISTFFT_FLOAT, 2, 1, 0},
    {3, {6, 5, 7}, 2, DISTFFT_DOUBLE, 1, 0, 1},
    {3, {24, 24, 6}, 1, DISTFFT_FLOAT, 1, 1, 1},
};

/* Does the vector method apply to every exchange of a plan on this grid?
 * Direction i exchanges axes i and i+1 (the paper's Eqs. 21-32); r2c
 * halves the last axis first. */
static int vector_applies_to_plan(const plan_case *pc, int grid_ndims,
                                  const int *grid_dims)
{
    int64_t shape[4];
    for (int a = 0; a < pc->ndims; a++) shape[a] = pc->shape[a];
    if (pc->r2c) shape[pc->ndims - 1] = shape[pc->ndims - 1] / 2 + 1;
    for (int i = 0; i < grid_ndims; i++)
        if (!vector_applies(shape[i], shape[i + 1], grid_dims[i]))
            return 0;
    return 1;
}

static void plan_options(const plan_case *pc, distfft_options *options)
{
    distfft_options_init(options);
    options->grid_ndims = pc->grid_ndims;
    options->rigor = DISTFFT_ESTIMATE;
    options->batch = pc->batch;
    options->in_place = pc->in_place;
    if (pc->r2c) options->kinds[pc->ndims - 1] = DISTFFT_R2C;
}

/* Forward then backward of an in-place plan through one buffer of its
 * local size: the input copied in, each result copied out. */
static int run_in_place(distfft_plan plan, const void *input, size_t in_bytes,
                        void *spectral, size_t out_bytes, void *physical)
{
    size_t bytes = (size_t)distfft_plan_local_size(plan) * 16 + 16;
    void *buffer = distfft_malloc(bytes);
    if (!buffer) return DISTFFT_ERR_MEMORY;
    if (in_bytes) memcpy(buffer, input, in_bytes);
    int rc = distfft_plan_execute(plan, buffer, buffer, DISTFFT_FORWARD);
    if (rc == DISTFFT_SUCCESS && out_bytes) memcpy(spectral, buffer, out_bytes);
    if (rc == DISTFFT_SUCCESS) rc = distfft_plan_execute(plan, buffer, buffer, DISTFFT_BACKWARD);
    if (rc == DISTFFT_SUCCESS && in_bytes) memcpy(physical, buffer, in_bytes);
    distfft_free(buffer);
    return rc;
}

/* Forward and backward with `method`; outputs into spectral / physical
 * (caller-allocated, sizes from the plan). Returns this rank's success. */
static int transform(test_suite *suite, const plan_case *pc,
                     distfft_method method, int refused, const void *input,
                     size_t in_bytes, void *spectral, size_t out_bytes,
                     void *physical)
{
    distfft_options options;
    plan_options(pc, &options);
    options.method = method;
    distfft_plan plan = NULL;
    const char *name = distfft_method_name(method);
    int rc = distfft_plan_create(MPI_COMM_WORLD, pc->ndims, pc->shape,
                                 pc->precision, &options, &plan);
    if (refused)
        return vector_refused(suite, MPI_COMM_WORLD, rc, plan, "plan") ? -1 : 0;
    if (rc != DISTFFT_SUCCESS) {
        report(suite, rc, "plan_create", name);
        return 0;
    }
    int ok = 1;
    if (pc->in_place) {
        rc = run_in_place(plan, input, in_bytes, spectral, out_bytes, physical);
        if (rc != DISTFFT_SUCCESS) {
            report(suite, rc, "plan in place", name);
            ok = 0;
        }
    } else if ((rc = distfft_plan_execute(plan, (void *)input, spectral, DISTFFT_FORWARD)) !=
        DISTFFT_SUCCESS) {
        report(suite, rc, "plan_forward", name);
        ok = 0;
    } else if ((rc = distfft_plan_execute(plan, spectral, physical, DISTFFT_BACKWARD)) !=
               DISTFFT_SUCCESS) {
        report(suite, rc, "plan_backward", name);
        ok = 0;
    }
    distfft_plan_destroy(&plan);
    return ok;
}

static void run_plan(test_suite *suite, const plan_case *pc)
{
    int64_t in_shape[DISTFFT_MAX_DIMS], in_start[DISTFFT_MAX_DIMS];
    int64_t out_shape[DISTFFT_MAX_DIMS];
    distfft_options options;
    plan_options(pc, &options);
    distfft_plan plan = NULL;
    char shape_text[96];
    test_shape_string(pc->ndims, pc->shape, shape_text, sizeof shape_text);
    int rc = distfft_plan_create(MPI_COMM_WORLD, pc->ndims, pc->shape,
                                 pc->precision, &options, &plan);
    if (rc != DISTFFT_SUCCESS) {
        /* the grid does not fit this number of ranks: nothing to compare */
        test_case(suite, rc == DISTFFT_ERR_GRID || rc == DISTFFT_ERR_SHAPE,
                  "plan %s r=%d: %s", shape_text, pc->grid_ndims,
                  distfft_error_string(rc));
        return;
    }
    distfft_plan_input_block(plan, in_shape, in_start);
    distfft_plan_output_block(plan, out_shape, NULL);
    int grid_ndims, grid_dims[DISTFFT_MAX_DIMS];
    distfft_plan_grid(plan, &grid_ndims, grid_dims);
    distfft_plan_destroy(&plan);

    distfft_type type = pc->precision == DISTFFT_FLOAT
                            ? DISTFFT_COMPLEX_FLOAT
                            : DISTFFT_COMPLEX_DOUBLE;
    distfft_type in_type = pc->r2c ? (pc->precision == DISTFFT_FLOAT ? DISTFFT_REAL_FLOAT
                                                                      : DISTFFT_REAL_DOUBLE)
                                   : type;
    size_t in_bytes = (size_t)(pc->batch * test_product(pc->ndims, in_shape)) *
                      distfft_type_size(in_type);
    size_t out_bytes = (size_t)(pc->batch * test_product(pc->ndims, out_shape)) *
                       distfft_type_size(type);
    void *input = in_bytes ? test_guarded_alloc(in_bytes, 0) : NULL;
    void *spectral[2], *physical[2];
    for (int k = 0; k < 2; k++) {
        spectral[k] = out_bytes ? test_guarded_alloc(out_bytes, 0) : NULL;
        physical[k] = in_bytes ? test_guarded_alloc(in_bytes, 0) : NULL;
    }
    if (input)
        test_fill(in_type, pc->ndims, pc->shape, in_shape, in_start, pc->batch,
                  0, input);
    int reference_ok = transform(suite, pc, DISTFFT_METHOD_ALLTOALLW, 0,
                                 input, in_bytes, spectral[0], out_bytes, physical[0]);
    test_case(suite, reference_ok, "plan alltoallw %s r=%d %s batch=%lld%s%s",
              shape_text, pc->grid_ndims,
              pc->precision == DISTFFT_FLOAT ? "float" : "double",
              (long long)pc->batch, pc->r2c ? " r2c" : "", pc->in_place ? " in place" : "");
    for (int m = 1; m < method_count(); m++) {
        if (!selected[m])
            continue;
        const char *name = distfft_method_name((distfft_method)m);
        int refused = m == DISTFFT_METHOD_VECTOR &&
                      !vector_applies_to_plan(pc, grid_ndims, grid_dims);
        int ok = reference_ok && transform(suite, pc, (distfft_method)m,
                                           refused, input, in_bytes, spectral[1],
                                           out_bytes, physical[1]);
        if (ok < 0) {
            test_case(suite, 1, "plan %s %s r=%d refused (unequal blocks)",
                      name, shape_text, pc->grid_ndims);
            continue;
        }
        /* shm runs the FFT after each exchange out of place (its output
         * is in the window): FFTW's plan for it may differ, so the same
         * transform, not the same bits */
        int64_t points = test_product(pc->ndims, pc->shape);
        int shm = m == DISTFFT_METHOD_SHM;
        if (ok && !(shm ? test_close(pc->precision, out_bytes, spectral[0], spectral[1], points)
                        : same_bytes(spectral[0], spectral[1], out_bytes))) {
            test_detail(suite, "plan %s: forward differs from alltoallw",
                        name);
            ok = 0;
        }
        if (ok && !(shm ? test_close(pc->precision, in_bytes, physical[0], physical[1], points)
                        : same_bytes(physical[0], physical[1], in_bytes))) {
            test_detail(suite, "plan %s: backward differs from alltoallw",
                        name);
            ok = 0;
        }
        test_case(suite, ok, "plan %s %s r=%d%s%s", name, shape_text,
                  pc->grid_ndims, pc->r2c ? " r2c" : "", pc->in_place ? " in place" : "");
    }
    distfft_free(input);
    for (int k = 0; k < 2; k++) {
        distfft_free(spectral[k]);
        distfft_free(physical[k]);
    }
}

/* ------------------------------------------------------------------------ */
/* Names                                                                     */
/* ------------------------------------------------------------------------ */

static void check_names(test_suite *suite)
{
    int ok = 1, count = method_count();
    if (count < DISTFFT_METHOD_VECTOR + 1) {
        test_detail(suite, "%d methods in the table, the enum names %d", count,
                    DISTFFT_METHOD_VECTOR + 1);
        ok = 0;
    }
    if (distfft_method_name((distfft_method)count) != NULL) {
        test_detail(suite, "id %d past the table has a name", count);
        ok = 0;
    }
    for (int m = 0; m < count; m++) {
        distfft_method back = (distfft_method)-1;
        const char *name = distfft_method_name((distfft_method)m);
        if (distfft_method_from_name(name, &back) != DISTFFT_SUCCESS ||
            back != (distfft_method)m) {
            test_detail(suite, "method %d \"%s\" does not round-trip", m,
                        name);
            ok = 0;
        }
    }
    distfft_method unused;
    if (distfft_method_from_name("carrier-pigeon", &unused) !=
        DISTFFT_ERR_ARGUMENT) {
        test_detail(suite, "an unknown method name was accepted");
        ok = 0;
    } else {
        char message[1024];
        snprintf(message, sizeof message, "%s", distfft_last_error());
        for (int m = 0; m < count; m++)
            if (!strstr(message, distfft_method_name((distfft_method)m))) {
                test_detail(suite, "\"%s\" is missing from: %s",
                            distfft_method_name((distfft_method)m), message);
                ok = 0;
            }
    }
    test_case(suite, ok, "method names");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite suite;
    test_suite_init(&suite, "test_methods", MPI_COMM_WORLD);
    const char *methods = NULL;
    for (int i = 1; i < argc; i++) {
        quick |= strcmp(argv[i], "--quick") == 0;
        if (strcmp(argv[i], "--methods") == 0 && i + 1 < argc)
            methods = argv[++i];
    }
    if (!select_methods(methods)) {
        fprintf(stderr, "test_methods: unknown method in --methods %s\n",
                methods);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    check_names(&suite);
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        const shape_case *sc = &shapes[k];
        for (int r = 1; r < sc->ndims; r++)
            if (!quick || sc->ndims <= 3 ||
                (sc->ndims == 4 && (r == 1 || r == 3)))
                run_grid(&suite, sc, r);
    }
    for (size_t k = 0; k < sizeof plan_cases / sizeof plan_cases[0]; k++)
        if (!quick || (k != 1 && k != 4))
            run_plan(&suite, &plan_cases[k]);

    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
