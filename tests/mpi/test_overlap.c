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
 *
 * Overlap PROGRESS (ON with a helper thread testing the exchanges in
 * flight) is compared the same way where MPI_Init_thread gives
 * MPI_THREAD_MULTIPLE, and its helper is counted in /proc/self/task: one
 * more thread while the plan lives, none after destroy (joined). With
 * --funneled the program initialises MPI with MPI_THREAD_FUNNELED and
 * checks that asking for PROGRESS is refused on every rank, the options
 * untouched, and that AUTO then never picks it.
 */
#define _DEFAULT_SOURCE /* opendir, readdir */

#include <dirent.h>
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
        /* The helper thread owns no buffer: ON's work bytes. */
        if (overlap == DISTFFT_OVERLAP_PROGRESS) {
            distfft_plan on = make_plan(c, m, DISTFFT_OVERLAP_ON);
            size_t on_bytes = on ? distfft_plan_work_bytes(on) : 0;
            test_case(&suite, on && distfft_plan_work_bytes(two) == on_bytes,
                      "%s: work bytes %zu are overlap on's (%zu)", what, distfft_plan_work_bytes(two), on_bytes);
            distfft_plan_destroy(&on);
        }
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
    int ok = distfft_plan_execute(one, x, y1, DISTFFT_FORWARD) == DISTFFT_SUCCESS &&
             distfft_plan_execute(two, x, y2, DISTFFT_FORWARD) == DISTFFT_SUCCESS;
    int64_t n = test_product(c->ndims, c->shape);
    double tolerance = test_tolerance(c->precision, n);
    double forward = relative_difference(out_type, out_count, y1, y2);
    test_case(&suite, ok && forward <= tolerance, "%s: forward against off (%.2g <= %.2g)", what, forward,
              tolerance);
    test_case(&suite, memcmp(x, x_copy, in_bytes) == 0, "%s: forward input preserved", what);
    void *y_copy = test_guarded_alloc(out_bytes, 0);
    memcpy(y_copy, y1, out_bytes);
    ok = distfft_plan_execute(one, y1, z1, DISTFFT_BACKWARD) == DISTFFT_SUCCESS &&
         distfft_plan_execute(two, y1, z2, DISTFFT_BACKWARD) == DISTFFT_SUCCESS;
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

/* Threads of this process (entries of /proc/self/task); -1 where there
 * is no /proc. */
static int thread_count(void)
{
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) count += entry->d_name[0] != '.';
    closedir(tasks);
    return count;
}

/* Forward then backward on zeroed arrays of the plan's sizes. */
static int run_pair(distfft_plan plan, int64_t batch, int ndims)
{
    int64_t in_shape[4], out_shape[4];
    distfft_type in_type, out_type;
    distfft_plan_input_block(plan, in_shape, NULL);
    distfft_plan_output_block(plan, out_shape, NULL);
    distfft_plan_types(plan, &in_type, &out_type);
    size_t in_bytes = (size_t)(batch * test_product(ndims, in_shape)) * distfft_type_size(in_type);
    size_t out_bytes = (size_t)(batch * test_product(ndims, out_shape)) * distfft_type_size(out_type);
    void *x = test_guarded_alloc(in_bytes, 0), *y = test_guarded_alloc(out_bytes, 0);
    memset(x, 0, in_bytes);
    int ok = distfft_plan_execute(plan, x, y, DISTFFT_FORWARD) == DISTFFT_SUCCESS &&
             distfft_plan_execute(plan, y, x, DISTFFT_BACKWARD) == DISTFFT_SUCCESS;
    distfft_free(x);
    distfft_free(y);
    return ok;
}

/* The helper thread of a pipelined PROGRESS plan: made with the plan (one
 * more thread; none on one rank, which exchanges nothing), none for a
 * plan that is not pipelined (batch 1), and joined by destroy (as many
 * threads as before). An ON plan is made and
 * run first, so threads MPI or OpenMP start lazily are there before the
 * counting. */
static void helper_lifetime(void)
{
    const config *c = &configs[0];
    distfft_plan warm = make_plan(c, DISTFFT_METHOD_ALLTOALLW, DISTFFT_OVERLAP_ON);
    if (warm) run_pair(warm, c->batch, c->ndims);
    distfft_plan_destroy(&warm);
    int before = thread_count();
    if (before < 0) {
        test_case(&suite, 1, "progress helper: no /proc/self/task, threads not counted");
        return;
    }
    distfft_plan plan = make_plan(c, DISTFFT_METHOD_ALLTOALLW, DISTFFT_OVERLAP_PROGRESS);
    int during = thread_count();
    char description[512] = "";
    if (plan) distfft_plan_describe(plan, description, sizeof description);
    int pipelined = strstr(description, "overlap=progress") != NULL;
    int ran = plan && run_pair(plan, c->batch, c->ndims);
    int after_run = thread_count();
    distfft_plan_destroy(&plan);
    int after = thread_count();
    test_case(&suite, test_all(MPI_COMM_WORLD, ran), "progress helper: a plan runs");
    int helper = pipelined && suite.size > 1;
    test_case(&suite, during == before + helper && after_run == during,
              "progress helper: %d more thread(s) while the plan lives (%d, then %d, %d)", helper, before,
              during, after_run);
    test_case(&suite, after == before, "progress helper: joined by destroy (%d threads, %d before)", after,
              before);

    config single = *c; /* batch 1: nothing pipelined, no helper */
    single.batch = 1;
    before = thread_count();
    plan = make_plan(&single, DISTFFT_METHOD_ALLTOALLW, DISTFFT_OVERLAP_PROGRESS);
    during = thread_count();
    description[0] = '\0';
    if (plan) distfft_plan_describe(plan, description, sizeof description);
    distfft_plan_destroy(&plan);
    test_case(&suite, during == before && !strstr(description, "overlap="),
              "progress helper: none for batch 1 (%d threads, %d before)", during, before);
}

/* --funneled: MPI_THREAD_FUNNELED, below what PROGRESS needs. */
static void refused_without_multiple(void)
{
    int provided;
    MPI_Query_thread(&provided);
    if (provided >= MPI_THREAD_MULTIPLE) {
        test_case(&suite, 1, "MPI_Init_thread(FUNNELED) gave MULTIPLE: no refusal to check");
        return;
    }
    const config *c = &configs[0];
    distfft_options o, copy;
    distfft_options_init(&o);
    o.grid_ndims = c->grid_ndims;
    o.method = DISTFFT_METHOD_ALLTOALLW;
    o.rigor = DISTFFT_ESTIMATE;
    o.batch = c->batch;
    o.overlap = DISTFFT_OVERLAP_PROGRESS;
    copy = o;
    distfft_plan plan = (distfft_plan)&o; /* must become NULL */
    int rc = distfft_plan_create(MPI_COMM_WORLD, c->ndims, c->shape, c->precision, &o, &plan);
    int ok = rc == DISTFFT_ERR_UNSUPPORTED && plan == NULL &&
             strstr(distfft_last_error(), "MPI_THREAD_MULTIPLE") != NULL;
    if (!ok) test_detail(&suite, "progress without MULTIPLE: rc %d, %s", rc, distfft_last_error());
    test_case(&suite, ok, "overlap progress without MPI_THREAD_MULTIPLE: refused on every rank");
    test_case(&suite, memcmp(&o, &copy, sizeof o) == 0, "overlap progress refused: options untouched");
    if (plan != (distfft_plan)&o) distfft_plan_destroy(&plan);
    /* AUTO measures the others only: it runs, and is not progress. */
    distfft_plan automatic = make_plan(c, DISTFFT_METHOD_AUTO, DISTFFT_OVERLAP_AUTO);
    char description[512] = "";
    if (automatic) distfft_plan_describe(automatic, description, sizeof description);
    test_case(&suite, automatic && !strstr(description, "overlap=progress"),
              "overlap auto without MPI_THREAD_MULTIPLE never chooses progress (%s)", description);
    distfft_plan_destroy(&automatic);
}

int main(int argc, char **argv)
{
    int funneled = argc > 1 && strcmp(argv[1], "--funneled") == 0, provided;
    MPI_Init_thread(&argc, &argv, funneled ? MPI_THREAD_FUNNELED : MPI_THREAD_MULTIPLE, &provided);
    test_suite_init(&suite, "test_overlap", MPI_COMM_WORLD);
    if (funneled) {
        refused_without_multiple();
        int code = test_suite_finish(&suite);
        MPI_Finalize();
        return code;
    }
    for (int k = 0; k < CONFIG_COUNT; k++)
        for (int m = 0; m < distfft_method_count(); m++)
            compare(&configs[k], (distfft_method)m, DISTFFT_OVERLAP_ON);
    for (int k = 0; k < CONFIG_COUNT; k++) {
        compare(&configs[k], DISTFFT_METHOD_ALLTOALLW, DISTFFT_OVERLAP_FIELDS);
        compare(&configs[k], DISTFFT_METHOD_ALLTOALLV, DISTFFT_OVERLAP_FIELDS);
    }
    if (provided >= MPI_THREAD_MULTIPLE) {
        for (int k = 0; k < CONFIG_COUNT; k++)
            for (int m = 0; m < distfft_method_count(); m++)
                compare(&configs[k], (distfft_method)m, DISTFFT_OVERLAP_PROGRESS);
        helper_lifetime();
    } else {
        if (suite.rank == 0) printf("test_overlap: no MPI_THREAD_MULTIPLE here; overlap progress not run\n");
        test_case(&suite, 1, "overlap progress: MPI_THREAD_MULTIPLE unavailable, not run");
    }
    for (int k = 0; k < CONFIG_COUNT; k++) compare(&configs[k], DISTFFT_METHOD_AUTO, DISTFFT_OVERLAP_AUTO);
    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
