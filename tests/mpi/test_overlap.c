/*
 * test_overlap.c -- pipelined batched plans (options.overlap ON: the
 * fields one by one, each exchange of field k in flight while the FFTs of
 * field k-1 run) and FIELDS (each field through the whole transform in
 * turn, one field's work buffers) against the same plans with overlap OFF
 * (all fields in one exchange per step), for every method; and overlap
 * AUTO, measured.
 *
 * FFTW plans one field instead of the batch, so results are compared to a
 * tolerance, C * eps * log2(N) relative to the largest value; inputs that
 * must be preserved come back bit-identical. A batch whose fields are not
 * all 64-byte multiples cannot be run field by field: such plans run OFF
 * (their description has no "overlap=").
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
    {"c2c 16x12x8 pencil batch 3", 3, {16, 12, 8}, {0}, 2, DISTFFT_DOUBLE, 3, DISTFFT_NORM_BACKWARD},
    {"r2c 16x16x14 slab batch 2 ortho", 3, {16, 16, 14}, {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_R2C}, 1,
     DISTFFT_DOUBLE, 2, DISTFFT_NORM_ORTHO},
    {"c2c 32x16 float batch 4 none", 2, {32, 16}, {0}, 1, DISTFFT_FLOAT, 4, DISTFFT_NORM_NONE},
    {"dct2,cheb 16x9 batch 2 (uneven)", 2, {16, 9}, {DISTFFT_DCT2, DISTFFT_CHEB}, 1, DISTFFT_DOUBLE, 2,
     DISTFFT_NORM_BACKWARD},
};
enum { CONFIG_COUNT = sizeof configs / sizeof configs[0] };

static test_suite suite;

/* A plan of config c with method m and `threads`; NULL after a failure
 * (recorded as a case). */
static distfft_plan make_plan(const config *c, distfft_method m, distfft_overlap overlap)
{
    distfft_options o;
    distfft_options_init(&o);
    o.grid_ndims = c->grid_ndims;
    o.method = m;
    o.rigor = DISTFFT_ESTIMATE;
    o.batch = c->batch;
    o.norm = c->norm;
    o.overlap = overlap;
    if (overlap == DISTFFT_OVERLAP_AUTO) o.rigor = DISTFFT_MEASURE;
    for (int a = 0; a < c->ndims; a++) o.kinds[a] = c->kinds[a];
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(MPI_COMM_WORLD, c->ndims, c->shape, c->precision, &o, &plan);
    if (rc == DISTFFT_ERR_UNSUPPORTED && m != DISTFFT_METHOD_AUTO) /* agreed: e.g. vector on */
        return NULL;                                               /* unequal blocks */
    if (!test_all(MPI_COMM_WORLD, rc == DISTFFT_SUCCESS)) {
        test_detail(&suite, "%s: %s", c->name, distfft_last_error());
        test_case(&suite, 0, "%s, %s, overlap %s: plan_create", c->name, distfft_method_name(m),
                  distfft_overlap_name(overlap));
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

/* Forward and backward of the pipelined plan against the plain one. */
static void compare(const config *c, distfft_method m, distfft_overlap overlap)
{
    distfft_plan one = make_plan(c, m, DISTFFT_OVERLAP_OFF), two = make_plan(c, m, overlap);
    if (!one || !two) {
        distfft_plan_destroy(&one);
        distfft_plan_destroy(&two);
        return;
    }
    char description[512], what[128];
    distfft_plan_describe(two, description, sizeof description);
    snprintf(what, sizeof what, "%s, %s, overlap %s", c->name, distfft_method_name(m),
             distfft_overlap_name(overlap));
    /* Field by field exactly when every rank's fields are 64-byte
     * multiples (agreed): the first config on 1, 2 and 4 ranks is. */
    if (overlap != DISTFFT_OVERLAP_AUTO && c == &configs[0] &&
        (suite.size == 1 || suite.size == 2 || suite.size == 4)) {
        char named[32];
        snprintf(named, sizeof named, "overlap=%s", distfft_overlap_name(overlap));
        test_case(&suite, strstr(description, named) != NULL, "%s: describe names %s", what, named);
        /* One by one reuses one field's work buffers: less than OFF's. */
        if (overlap == DISTFFT_OVERLAP_FIELDS)
            test_case(&suite, distfft_plan_work_bytes(two) * (size_t)c->batch <= distfft_plan_work_bytes(one),
                      "%s: work bytes %zu are one field's (off: %zu for %d)", what,
                      distfft_plan_work_bytes(two), distfft_plan_work_bytes(one), (int)c->batch);
    }
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
    /* local_size covers every field's block, pipelined or not (a pipelined
     * plan once reported one field's: the sweep's seed 11, index 362). */
    size_t local_bytes = (size_t)distfft_plan_local_size(two) * distfft_type_size(out_type);
    test_case(&suite, test_all(MPI_COMM_WORLD, local_bytes >= in_bytes && local_bytes >= out_bytes),
              "%s: local_size (%zu bytes) holds both blocks (%zu, %zu bytes)", what, local_bytes, in_bytes,
              out_bytes);
    void *x = test_guarded_alloc(in_bytes, 0), *x_copy = test_guarded_alloc(in_bytes, 0);
    void *y1 = test_guarded_alloc(out_bytes, 0), *y2 = test_guarded_alloc(out_bytes, 0);
    void *z1 = test_guarded_alloc(in_bytes, 0), *z2 = test_guarded_alloc(in_bytes, 0);
    test_fill(in_type, c->ndims, c->shape, in_shape, in_start, c->batch, 0, x);
    memcpy(x_copy, x, in_bytes);
    int ok = distfft_plan_forward(one, x, y1) == DISTFFT_SUCCESS &&
             distfft_plan_forward(two, x, y2) == DISTFFT_SUCCESS;
    int64_t n = test_product(c->ndims, c->shape);
    double tolerance = test_tolerance(c->precision, n);
    double forward = relative_difference(out_type, out_count, y1, y2);
    test_case(&suite, ok && forward <= tolerance, "%s: forward against off (%.2g <= %.2g)", what, forward,
              tolerance);
    test_case(&suite, memcmp(x, x_copy, in_bytes) == 0, "%s: forward input preserved", what);
    void *y_copy = test_guarded_alloc(out_bytes, 0);
    memcpy(y_copy, y1, out_bytes);
    ok = distfft_plan_backward(one, y1, z1) == DISTFFT_SUCCESS &&
         distfft_plan_backward(two, y1, z2) == DISTFFT_SUCCESS;
    double backward = relative_difference(in_type, in_count, z1, z2);
    test_case(&suite, ok && backward <= tolerance, "%s: backward against off (%.2g <= %.2g)", what, backward,
              tolerance);
    test_case(&suite, memcmp(y1, y_copy, out_bytes) == 0, "%s: backward input preserved", what);
    /* The round trip: x, or N x under norm none (FFTW's convention). */
    double factor = c->norm == DISTFFT_NORM_NONE ? (double)n : 1.0;
    double local = 0, global;
    for (int64_t i = 0; i < in_count; i++) {
        double e = cabs(test_element(in_type, z2, i) - factor * test_element(in_type, x, i)) / factor;
        if (!(e <= local)) local = e;
    }
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    test_case(&suite, global <= 8 * tolerance, "%s: round trip", what);
    void *buffers[] = {x, x_copy, y1, y2, z1, z2, y_copy};
    for (size_t b = 0; b < sizeof buffers / sizeof buffers[0]; b++) distfft_free(buffers[b]);
    distfft_plan_destroy(&one);
    distfft_plan_destroy(&two);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite_init(&suite, "test_overlap", MPI_COMM_WORLD);
    for (int k = 0; k < CONFIG_COUNT; k++)
        for (int m = 0; m < distfft_method_count(); m++)
            compare(&configs[k], (distfft_method)m, DISTFFT_OVERLAP_ON);
    for (int k = 0; k < CONFIG_COUNT; k++) {
        compare(&configs[k], DISTFFT_METHOD_ALLTOALLW, DISTFFT_OVERLAP_FIELDS);
        compare(&configs[k], DISTFFT_METHOD_ALLTOALLV, DISTFFT_OVERLAP_FIELDS);
    }
    for (int k = 0; k < CONFIG_COUNT; k++) compare(&configs[k], DISTFFT_METHOD_AUTO, DISTFFT_OVERLAP_AUTO);
    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
