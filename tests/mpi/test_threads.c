/*
 * test_threads.c -- plans with options.threads = 2 (FFTW's threaded plans,
 * OpenMP in pack/unpack, scaling, weights and copies) against the same
 * plans with one thread, and the bad inputs of threads.
 *
 * FFTW's threaded plans may split the work differently from the
 * one-thread plans (a different algorithm, or the same sums in another
 * order), so the results are compared to a tolerance, C * eps * log2(N)
 * relative to the largest value, not bit for bit; the inputs of
 * transforms that preserve them must come back bit-identical. Every method
 * is run (the copying ones pack and unpack with threads, and fold the
 * normalisation in their unpack), with c2c, fused r2c, real-to-real with
 * Chebyshev weights, batches and norm none.
 *
 * With --single the program initialises MPI with MPI_Init and checks the
 * refusal of threads = 2 when MPI gives less than MPI_THREAD_FUNNELED:
 * the same error on every rank, the out-handle NULL.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

typedef struct {
    const char *name;
    int ndims;
    int64_t shape[4];
    distfft_kind kinds[4];
    int grid_ndims;
    distfft_precision precision;
    int64_t batch;
    distfft_norm norm;
} config;

static const config configs[] = {
    {"c2c 24x20x18 pencil", 3, {24, 20, 18}, {0}, 2, DISTFFT_DOUBLE, 1, DISTFFT_NORM_BACKWARD},
    {"c2c 32x32x32 slab ortho", 3, {32, 32, 32}, {0}, 1, DISTFFT_DOUBLE, 1, DISTFFT_NORM_ORTHO},
    {"r2c 30x28x26 slab (fused r2c)", 3, {30, 28, 26}, {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_R2C}, 1,
     DISTFFT_DOUBLE, 1, DISTFFT_NORM_BACKWARD},
    {"r2c 40x36 float batch 3", 2, {40, 36}, {DISTFFT_C2C, DISTFFT_R2C}, 1, DISTFFT_FLOAT, 3,
     DISTFFT_NORM_FORWARD},
    {"dct2,cheb,dst3 20x17x16", 3, {20, 17, 16}, {DISTFFT_DCT2, DISTFFT_CHEB, DISTFFT_DST3}, 1,
     DISTFFT_DOUBLE, 1, DISTFFT_NORM_BACKWARD},
    {"c2c 32x16x32 norm none", 3, {32, 16, 32}, {0}, 1, DISTFFT_DOUBLE, 1, DISTFFT_NORM_NONE},
};
enum { CONFIG_COUNT = sizeof configs / sizeof configs[0] };

static test_suite suite;

/* A plan of config c with method m and `threads`; NULL after a failure
 * (recorded as a case). */
static distfft_plan make_plan(const config *c, distfft_method m, int threads)
{
    distfft_options o;
    distfft_options_init(&o);
    o.grid_ndims = c->grid_ndims;
    o.method = m;
    o.rigor = DISTFFT_ESTIMATE;
    o.batch = c->batch;
    o.norm = c->norm;
    o.threads = threads;
    for (int a = 0; a < c->ndims; a++) o.kinds[a] = c->kinds[a];
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(MPI_COMM_WORLD, c->ndims, c->shape, c->precision, &o, &plan);
    if (rc == DISTFFT_ERR_UNSUPPORTED && m != DISTFFT_METHOD_AUTO) /* agreed: e.g. vector on */
        return NULL;                                               /* unequal blocks */
    if (!test_all(MPI_COMM_WORLD, rc == DISTFFT_SUCCESS)) {
        test_detail(&suite, "%s: %s", c->name, distfft_last_error());
        test_case(&suite, 0, "%s, %s, threads %d: plan_create", c->name, distfft_method_name(m), threads);
        distfft_plan_destroy(&plan);
        return NULL;
    }
    return plan;
}

/* max |a - b| / max |a| over every rank, for n elements of `type`. */
static double relative_difference(distfft_type type, int64_t n, const void *a, const void *b)
{
    double local[2] = {0, 0}, global[2];
    for (int64_t i = 0; i < n; i++) {
        double complex x = test_element(type, a, i), y = test_element(type, b, i);
        if (!(cabs(x - y) <= local[0])) local[0] = cabs(x - y);
        if (cabs(x) > local[1]) local[1] = cabs(x);
    }
    MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return global[1] > 0 ? global[0] / global[1] : global[0];
}

/* Forward and backward of the threaded plan against the one-thread plan. */
static void compare(const config *c, distfft_method m)
{
    distfft_plan one = make_plan(c, m, 1), two = make_plan(c, m, 2);
    if (!one || !two) {
        distfft_plan_destroy(&one);
        distfft_plan_destroy(&two);
        return;
    }
    char description[512];
    distfft_plan_describe(two, description, sizeof description);
    test_case(&suite, strstr(description, "threads=2") != NULL, "%s, %s: describe names threads=2",
              c->name, distfft_method_name(m));
    int64_t in_shape[4], in_start[4], out_shape[4], global_out[4];
    distfft_type in_type, out_type;
    distfft_plan_input_block(one, in_shape, in_start);
    distfft_plan_output_block(one, out_shape, NULL);
    distfft_plan_types(one, &in_type, &out_type);
    distfft_plan_output_shape(one, global_out);
    int64_t in_count = c->batch * test_product(c->ndims, in_shape);
    int64_t out_count = c->batch * test_product(c->ndims, out_shape);
    size_t in_bytes = (size_t)in_count * distfft_type_size(in_type);
    size_t out_bytes = (size_t)out_count * distfft_type_size(out_type);
    void *x = test_guarded_alloc(in_bytes, 0), *x_copy = test_guarded_alloc(in_bytes, 0);
    void *y1 = test_guarded_alloc(out_bytes, 0), *y2 = test_guarded_alloc(out_bytes, 0);
    void *z1 = test_guarded_alloc(in_bytes, 0), *z2 = test_guarded_alloc(in_bytes, 0);
    test_fill(in_type, c->ndims, c->shape, in_shape, in_start, c->batch, 0, x);
    memcpy(x_copy, x, in_bytes);
    int ok = distfft_plan_execute(one, x, y1, DISTFFT_FORWARD) == DISTFFT_SUCCESS &&
             distfft_plan_execute(two, x, y2, DISTFFT_FORWARD) == DISTFFT_SUCCESS;
    int64_t n = test_product(c->ndims, c->shape);
    double tolerance = test_tolerance(c->precision, n);
    double forward = relative_difference(out_type, out_count, y1, y2);
    test_case(&suite, ok && forward <= tolerance, "%s, %s: forward, threads 2 vs 1 (%.2g <= %.2g)", c->name,
              distfft_method_name(m), forward, tolerance);
    test_case(&suite, memcmp(x, x_copy, in_bytes) == 0, "%s, %s: forward input preserved", c->name,
              distfft_method_name(m));
    void *y_copy = test_guarded_alloc(out_bytes, 0);
    memcpy(y_copy, y1, out_bytes);
    ok = distfft_plan_execute(one, y1, z1, DISTFFT_BACKWARD) == DISTFFT_SUCCESS &&
         distfft_plan_execute(two, y1, z2, DISTFFT_BACKWARD) == DISTFFT_SUCCESS;
    double backward = relative_difference(in_type, in_count, z1, z2);
    test_case(&suite, ok && backward <= tolerance, "%s, %s: backward, threads 2 vs 1 (%.2g <= %.2g)", c->name,
              distfft_method_name(m), backward, tolerance);
    test_case(&suite, memcmp(y1, y_copy, out_bytes) == 0, "%s, %s: backward input preserved", c->name,
              distfft_method_name(m));
    /* The round trip: x, or N x under norm none (FFTW's convention). */
    double factor = c->norm == DISTFFT_NORM_NONE ? (double)n : 1.0;
    double local = 0, global;
    for (int64_t i = 0; i < in_count; i++) {
        double e = cabs(test_element(in_type, z2, i) - factor * test_element(in_type, x, i)) / factor;
        if (!(e <= local)) local = e;
    }
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    test_case(&suite, global <= 8 * tolerance, "%s, %s: round trip with threads 2", c->name,
              distfft_method_name(m));
    void *buffers[] = {x, x_copy, y1, y2, z1, z2, y_copy};
    for (size_t b = 0; b < sizeof buffers / sizeof buffers[0]; b++) distfft_free(buffers[b]);
    distfft_plan_destroy(&one);
    distfft_plan_destroy(&two);
}

/* A bad thread count: the same code on every rank, the out-handle NULL. */
static void refused(const char *what, int threads, int expected)
{
    int64_t shape[3] = {8, 8, 8};
    distfft_options o;
    distfft_options_init(&o);
    o.threads = threads;
    o.rigor = DISTFFT_ESTIMATE;
    distfft_plan plan = (distfft_plan)&o; /* must become NULL */
    int rc = distfft_plan_create(MPI_COMM_WORLD, 3, shape, DISTFFT_DOUBLE, &o, &plan);
    int ok = rc == expected && plan == NULL && strstr(distfft_last_error(), "threads") != NULL;
    if (!ok) test_detail(&suite, "%s: rc %d, %s", what, rc, distfft_last_error());
    test_case(&suite, ok, "%s: refused on every rank (%s)", what, distfft_error_string(expected));
}

static int single_main(void)
{
    int provided;
    MPI_Query_thread(&provided);
    if (provided >= MPI_THREAD_FUNNELED) {
        if (suite.rank == 0) printf("test_threads --single: MPI_Init gave FUNNELED or more; nothing to check\n");
        test_case(&suite, 1, "MPI_Init gives threads: no refusal to check");
    } else {
        refused("threads 2 without MPI_THREAD_FUNNELED", 2, DISTFFT_ERR_UNSUPPORTED);
        int64_t shape[2] = {4, 4};
        distfft_options o;
        distfft_options_init(&o);
        distfft_plan plan = NULL;
        int rc = distfft_plan_create(MPI_COMM_WORLD, 2, shape, DISTFFT_DOUBLE, &o, &plan);
        test_case(&suite, rc == DISTFFT_SUCCESS, "threads 1 without MPI_THREAD_FUNNELED: fine");
        distfft_plan_destroy(&plan);
    }
    return test_suite_finish(&suite);
}

int main(int argc, char **argv)
{
    int single = argc > 1 && strcmp(argv[1], "--single") == 0, provided, code;
    if (single) MPI_Init(&argc, &argv);
    else MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    test_suite_init(&suite, "test_threads", MPI_COMM_WORLD);
    if (single) {
        code = single_main();
        MPI_Finalize();
        return code;
    }
    refused("threads 0", 0, DISTFFT_ERR_ARGUMENT);
    refused("threads 4097", DISTFFT_MAX_THREADS + 1, DISTFFT_ERR_ARGUMENT);
    if (suite.size > 1) refused("threads differ between ranks", suite.rank == 0 ? 2 : 1, DISTFFT_ERR_MISMATCH);
    for (int k = 0; k < CONFIG_COUNT; k++)
        for (int m = 0; m < distfft_method_count(); m++) compare(&configs[k], (distfft_method)m);
    code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
