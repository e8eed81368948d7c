/*
 * test_r2c_axis.c -- r2c on whichever transformed axis: the first, a
 * middle one or the last (issue 23). The r2c axis is transformed first
 * whatever its place, and the output stays in natural axis order with
 * n/2+1 points on that axis.
 *
 * Each case runs in both precisions under four option sets (plain; a batch
 * of 2 pipelined; in place; padded by 3/2 with destroy_input), on slab,
 * pencil and 3-D grids, with shapes that are prime, odd, or shorter than
 * the ranks along some axis (ranks with empty blocks). Checked: the global
 * and local shapes (the blocks tile the output exactly once), the forward
 * output against the direct sums of tests/support/direct_reference.c
 * (independent of FFTW; gathered on rank 0), the round trip, and the step
 * list (the first forward step is the r2c along that axis, listed last).
 *
 *   mpiexec -n 1..4 test_r2c_axis [--quick]
 *
 * --quick (busy-polling MPIs, oversubscribed): every case once, the
 * precision and option set rotating, so each still meets every case and
 * option set somewhere.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "direct_reference.h"
#include "test_support.h"

typedef struct {
    int ndims;
    int64_t shape[DISTFFT_MAX_DIMS];
    distfft_kind kinds[DISTFFT_MAX_DIMS];
    int grid_ndims; /* 1 slab, 2 pencil, 3 a 3-D grid (extents from MPI) */
} r2c_case;

#define C2C DISTFFT_C2C
#define R2C DISTFFT_R2C
#define NONE DISTFFT_NONE

static const r2c_case cases[] = {
    {3, {7, 6, 5}, {R2C, C2C, C2C}, 1},             /* axis 0 */
    {3, {7, 6, 5}, {R2C, C2C, C2C}, 2},
    {3, {5, 9, 4}, {C2C, R2C, C2C}, 1},             /* a middle axis */
    {3, {5, 9, 4}, {C2C, R2C, DISTFFT_DCT2}, 2},
    {3, {6, 7, 5}, {C2C, C2C, R2C}, 2},             /* the last, as always */
    {3, {2, 11, 3}, {R2C, DISTFFT_DST2, C2C}, 2},   /* 2 points on the r2c axis */
    {3, {13, 3, 1}, {C2C, R2C, C2C}, 1},            /* fewer points than ranks */
    {2, {13, 2}, {R2C, C2C}, 1},
    {2, {17, 3}, {R2C, NONE}, 1},                   /* only the r2c axis; 4 ranks: one empty */
    {4, {3, 5, 4, 3}, {C2C, R2C, C2C, C2C}, 3},     /* 3-D grids */
    {4, {5, 3, 2, 4}, {R2C, NONE, C2C, DISTFFT_CHEB}, 3},
    {4, {4, 3, 5, 2}, {NONE, C2C, R2C, C2C}, 2},
};
#define CASE_COUNT ((int)(sizeof cases / sizeof cases[0]))

enum { PLAIN, BATCH, IN_PLACE, PADDED, VARIANTS };
static const char *const variant_names[] = {"plain", "batch 2 overlap", "in place", "padded 3/2"};

static int r2c_axis_of(const r2c_case *k)
{
    for (int a = 0; a < k->ndims; a++)
        if (k->kinds[a] == R2C) return a;
    return -1;
}

/* The local output blocks tile the global output: their element counts sum
 * to the global count, and no rank's block leaves the global array. */
static int blocks_tile(MPI_Comm comm, int ndims, const int64_t *global, const int64_t *local,
                       const int64_t *start)
{
    int inside = 1;
    for (int a = 0; a < ndims; a++)
        inside &= start[a] >= 0 && local[a] >= 0 && start[a] + local[a] <= global[a];
    int64_t count = test_product(ndims, local), total = 0;
    MPI_Allreduce(&count, &total, 1, MPI_INT64_T, MPI_SUM, comm);
    return test_all(comm, inside) && total == test_product(ndims, global);
}

/* Field `field` of a batched local block, gathered as double complex on
 * rank 0 (NULL elsewhere). */
static double complex *gather(MPI_Comm comm, distfft_type type, int ndims, const int64_t *global,
                              const int64_t *local, const int64_t *start, const void *data,
                              int64_t field, int *rc)
{
    int64_t count = test_product(ndims, local);
    const char *base = count ? (const char *)data + field * count * (int64_t)distfft_type_size(type) : NULL;
    return test_gather_double(comm, type, ndims, global, local, start, base, rc);
}

static void run(test_suite *suite, const r2c_case *k, distfft_precision precision, int variant)
{
    int ndims = k->ndims, r2c = r2c_axis_of(k);
    char name[256], shape_text[64];
    test_shape_string(ndims, k->shape, shape_text, sizeof shape_text);
    snprintf(name, sizeof name, "r2c on axis %d of %s grid_ndims=%d %s %s", r2c, shape_text,
             k->grid_ndims, precision == DISTFFT_FLOAT ? "float" : "double", variant_names[variant]);

    distfft_options o;
    distfft_options_init(&o);
    o.rigor = DISTFFT_ESTIMATE;
    o.grid_ndims = k->grid_ndims;
    memcpy(o.kinds, k->kinds, sizeof k->kinds);
    int64_t batch = variant == BATCH ? 2 : 1;
    o.batch = batch;
    o.overlap = variant == BATCH ? DISTFFT_OVERLAP_ON : DISTFFT_OVERLAP_AUTO;
    o.in_place = variant == IN_PLACE;
    o.destroy_input = variant == PADDED;
    o.norm = (distfft_norm)(variant % 3); /* backward, ortho, forward */
    int64_t padded[DISTFFT_MAX_DIMS];
    for (int a = 0; a < ndims; a++) {
        if (variant == PADDED && k->kinds[a] != NONE) o.padding[a] = 1.5;
        padded[a] = o.padding[a] > 1.0 ? (int64_t)floor(1.5 * (double)k->shape[a]) : k->shape[a];
    }
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(suite->comm, ndims, k->shape, precision, &o, &plan);
    if (!test_created(suite, rc, name)) return;

    /* Shapes: real input of the physical shape, complex output with n/2+1
     * on the r2c axis, in natural axis order. */
    distfft_type in_type, out_type;
    int64_t in_global[DISTFFT_MAX_DIMS], out_global[DISTFFT_MAX_DIMS];
    int64_t in_local[DISTFFT_MAX_DIMS], in_start[DISTFFT_MAX_DIMS];
    int64_t out_local[DISTFFT_MAX_DIMS], out_start[DISTFFT_MAX_DIMS];
    distfft_plan_types(plan, &in_type, &out_type);
    distfft_plan_input_shape(plan, in_global);
    distfft_plan_output_shape(plan, out_global);
    distfft_plan_input_block(plan, in_local, in_start);
    distfft_plan_output_block(plan, out_local, out_start);
    int ok = in_type == (precision == DISTFFT_FLOAT ? DISTFFT_REAL_FLOAT : DISTFFT_REAL_DOUBLE) &&
             out_type == (precision == DISTFFT_FLOAT ? DISTFFT_COMPLEX_FLOAT : DISTFFT_COMPLEX_DOUBLE);
    for (int a = 0; a < ndims; a++)
        ok &= in_global[a] == padded[a] && out_global[a] == (a == r2c ? k->shape[a] / 2 + 1 : k->shape[a]);
    test_case(suite, ok, "types and global shapes %s", name);
    test_case(suite, blocks_tile(suite->comm, ndims, in_global, in_local, in_start) &&
                         blocks_tile(suite->comm, ndims, out_global, out_local, out_start),
              "blocks tile the arrays %s", name);

    /* The first forward step is the r2c, with its axis listed last; the
     * last backward step the c2r of that axis. */
    distfft_step first, last;
    distfft_plan_step(plan, DISTFFT_FORWARD, 0, &first);
    distfft_plan_step(plan, DISTFFT_BACKWARD, distfft_plan_step_count(plan, DISTFFT_BACKWARD) - 1, &last);
    char suffix[16];
    snprintf(suffix, sizeof suffix, "%d", r2c);
    const char *axes = strstr(first.description, "axes=");
    const char *tail = axes ? first.description + strlen(first.description) - strlen(suffix) : NULL;
    int described = strncmp(first.description, "fft r2c axes=", 13) == 0 && strncmp(last.description, "fft c2r", 7) == 0;
    if (variant != PADDED) /* padded steps end in "(M>N)" */
        described &= tail && tail >= axes + 5 && strcmp(tail, suffix) == 0 && (tail == axes + 5 || tail[-1] == ',');
    test_case(suite, described, "r2c transformed first %s", name);
    if (!described)
        test_detail(suite, "%s: forward starts with '%s', backward ends with '%s'", name, first.description,
                    last.description);

    size_t in_bytes = (size_t)(batch * test_product(ndims, in_local)) * distfft_type_size(in_type);
    size_t out_bytes = (size_t)(batch * test_product(ndims, out_local)) * distfft_type_size(out_type);
    size_t local_bytes = (size_t)distfft_plan_local_size(plan) * distfft_type_size(out_type);
    test_case(suite, local_bytes >= in_bytes && local_bytes >= out_bytes, "local_size covers both blocks %s",
              name); /* batch 2 pipelined: it once counted one field */
    void *input, *output, *back, *saved = malloc(in_bytes + 1);
    if (o.in_place) {
        input = output = back = test_guarded_alloc(local_bytes, 0x5A);
    } else {
        input = test_guarded_alloc(in_bytes, 0xA5);
        output = test_guarded_alloc(out_bytes, 0x5A);
        back = test_guarded_alloc(in_bytes, 0xC3);
    }
    test_fill(in_type, ndims, in_global, in_local, in_start, batch, 0, input);
    memcpy(saved, input, in_bytes);
    rc = distfft_plan_execute(plan, input, output, DISTFFT_FORWARD);
    test_case(suite, rc == DISTFFT_SUCCESS &&
                         test_guard_intact(output, o.in_place ? local_bytes : out_bytes, 0x5A),
              "forward %s", name);

    /* Against the direct sums, field by field. */
    double tolerance = test_tolerance(precision, test_product(ndims, padded)), worst = 0.0;
    for (int64_t field = 0; field < batch; field++) {
        int rc_in, rc_out;
        double complex *x = gather(suite->comm, in_type, ndims, in_global, in_local, in_start, saved, field, &rc_in);
        double complex *y = gather(suite->comm, out_type, ndims, out_global, out_local, out_start, output, field,
                                   &rc_out);
        if (suite->rank == 0) {
            double complex *expected = direct_forward(ndims, padded, k->kinds, o.norm, x);
            if (variant == PADDED) {
                double complex *full = expected;
                expected = direct_truncate(ndims, k->shape, padded, k->kinds, full);
                free(full);
            }
            int64_t total = test_product(ndims, out_global);
            double error = test_max_abs_diff(total, y, expected) / fmax(test_max_abs(total, expected), 1e-300);
            if (!(error <= worst)) worst = error;
            free(expected);
        }
        if (rc_in != DISTFFT_SUCCESS || rc_out != DISTFFT_SUCCESS) worst = INFINITY;
        free(x);
        free(y);
    }
    MPI_Bcast(&worst, 1, MPI_DOUBLE, 0, suite->comm);
    test_case(suite, worst <= tolerance, "forward matches the direct sums %s", name);
    if (!(worst <= tolerance)) test_detail(suite, "%s: error %.3e > %.3e", name, worst, tolerance);

    /* Round trip: backward(forward(x)) = x; padded plans drop modes, so
     * there forward(backward(y)) = y. */
    int64_t count = batch * test_product(ndims, variant == PADDED ? out_local : in_local);
    distfft_type type = variant == PADDED ? out_type : in_type;
    void *reference = saved;
    if (variant == PADDED) {
        reference = malloc(out_bytes + 1);
        memcpy(reference, output, out_bytes);
        rc = distfft_plan_execute(plan, output, back, DISTFFT_BACKWARD);
        if (rc == DISTFFT_SUCCESS) rc = distfft_plan_execute(plan, back, output, DISTFFT_FORWARD);
    } else {
        rc = distfft_plan_execute(plan, output, back, DISTFFT_BACKWARD);
    }
    const void *result = variant == PADDED ? output : back;
    double error = 0.0, largest = 0.0;
    for (int64_t i = 0; i < count; i++) {
        error = fmax(error, cabs(test_element(type, result, i) - test_element(type, reference, i)));
        largest = fmax(largest, cabs(test_element(type, reference, i)));
    }
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, suite->comm);
    MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_DOUBLE, MPI_MAX, suite->comm);
    test_case(suite, test_all(suite->comm, rc == DISTFFT_SUCCESS) && error <= tolerance * largest,
              "round trip %s", name);
    if (error > tolerance * largest) test_detail(suite, "%s: round-trip error %.3e", name, error / largest);

    if (reference != saved) free(reference);
    free(saved);
    distfft_free(input);
    if (!o.in_place) {
        distfft_free(output);
        distfft_free(back);
    }
    distfft_plan_destroy(&plan);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    test_suite suite;
    test_suite_init(&suite, "test_r2c_axis", MPI_COMM_WORLD);
    for (int i = 0; i < CASE_COUNT; i++)
        for (int p = 0; p < 2; p++)
            for (int variant = 0; variant < VARIANTS; variant++)
                if (!quick || ((i + variant) % VARIANTS == 0 && p == i % 2))
                    run(&suite, &cases[i], p ? DISTFFT_FLOAT : DISTFFT_DOUBLE, variant);
    int status = test_suite_finish(&suite);
    MPI_Finalize();
    return status;
}
