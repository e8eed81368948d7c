/*
 * test_one_rank.c -- a plan on one rank is one FFTW plan (issue 25): r2c
 * and c2c on odd, prime and even shapes of 2 to 4 axes, float and double,
 * 1 and 2 threads, keeping the input or destroying it.
 *
 * On one rank the whole transform is one stage: the forward is ONE fused
 * FFTW plan, and so is the backward, also when it must keep its input --
 * FFTW cannot preserve the input of a multi-axis c2r, so the step copies
 * the input into the plan's scratch first (src/plan/algebra.c). Checked:
 * the plan's steps (one forward FFT, one backward FFT, the copy named in
 * the nested print at verbosity 1 only when the input is kept, verbosity
 * 0 the same either way), the work memory (the complex block's bytes when
 * kept, none otherwise), the forward against a direct FFTW reference in
 * double, the backward's round trip, and the inputs: bit-identical after
 * both directions unless destroy_input. The backward that keeps its input
 * against the one that destroys it, on the same spectrum, under every
 * normalisation (the copy scales, or copies plainly under norm none):
 * equal to a tolerance (the 1/N goes before the c2r or after it), the
 * input untouched, and a second call bit-identical to the first (the
 * copy is the call's own, nothing is left from the last one).
 *
 * Each rank plans on MPI_COMM_SELF, so the program runs on any number of
 * ranks; CTest runs it on 1 and 2.
 *
 *   mpiexec -n 1 test_one_rank
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
} config;

static const config configs[] = {
    {"r2c 17x13x11 (primes)", 3, {17, 13, 11}, {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_R2C}},
    {"r2c 30x28x26", 3, {30, 28, 26}, {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_R2C}},
    {"r2c 9x7x5 on axis 0", 3, {9, 7, 5}, {DISTFFT_R2C, DISTFFT_C2C, DISTFFT_C2C}},
    {"r2c 31x20", 2, {31, 20}, {DISTFFT_C2C, DISTFFT_R2C}},
    {"r2c 6x5x4x7", 4, {6, 5, 4, 7}, {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_C2C, DISTFFT_R2C}},
    {"c2c 15x14x13", 3, {15, 14, 13}, {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_C2C}},
};
enum { CONFIG_COUNT = sizeof configs / sizeof configs[0] };

static test_suite suite;

static char *print_plan(distfft_plan plan, int verbosity)
{
    int length = distfft_plan_describe_verbose(plan, verbosity, NULL, 0);
    char *text = length < 0 ? NULL : malloc((size_t)length + 1);
    if (text) distfft_plan_describe_verbose(plan, verbosity, text, (size_t)length + 1);
    return text;
}

static int occurrences(const char *text, const char *word)
{
    int count = 0;
    for (const char *at = text; at && (at = strstr(at, word)); at += strlen(word)) count++;
    return count;
}

/* The r2c axis of a config, or -1. */
static int r2c_axis(const config *c)
{
    for (int a = 0; a < c->ndims; a++)
        if (c->kinds[a] == DISTFFT_R2C) return a;
    return -1;
}

/* The forward's expected output: the full DFT (double) of the input, kept
 * where the r2c axis is below n/2+1; natural axis order. */
static double complex *reference(const config *c, distfft_type in_type, const void *x, int64_t out_count)
{
    int64_t n = test_product(c->ndims, c->shape);
    double complex *full = malloc((size_t)n * sizeof *full), *out = malloc((size_t)out_count * sizeof *out);
    for (int64_t i = 0; i < n; i++) full[i] = test_element(in_type, x, i);
    test_reference_dft(c->ndims, c->shape, -1, full, full);
    int halved = r2c_axis(c);
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t rest = i, index = 0;
        for (int a = c->ndims - 1; a >= 0; a--) {
            if (a == halved) index = rest % c->shape[a];
            rest /= c->shape[a];
        }
        if (halved < 0 || index < c->shape[halved] / 2 + 1) out[kept++] = full[i];
    }
    free(full);
    return out;
}

/* max |a_i - b_i| / max |b_i| for `count` elements of `type` against b. */
static double error_against(distfft_type type, int64_t count, const void *a, const double complex *b)
{
    double worst = 0, largest = 0;
    for (int64_t i = 0; i < count; i++) {
        double e = cabs(test_element(type, a, i) - b[i]);
        if (!(e <= worst)) worst = e;
        if (cabs(b[i]) > largest) largest = cabs(b[i]);
    }
    return largest > 0 ? worst / largest : worst;
}

/* The plan's structure: one FFT each way, the copy only where kept. */
static void check_structure(const config *c, const char *what, distfft_plan keep, distfft_plan destroy,
                            size_t in_bytes_backward)
{
    char *line_keep = print_plan(keep, 0), *line_destroy = print_plan(destroy, 0);
    char *tree_keep = print_plan(keep, 1), *tree_destroy = print_plan(destroy, 1);
    int ok = line_keep && line_destroy && tree_keep && tree_destroy;
    test_case(&suite, ok && occurrences(line_keep, "(fft ") == 1,
              "%s: the forward is one FFTW plan: %s", what, line_keep ? line_keep : "?");
    test_case(&suite, ok && strcmp(line_keep, line_destroy) == 0,
              "%s: verbosity 0 the same keeping or destroying the input", what);
    test_case(&suite, ok && occurrences(tree_keep, "(fft ") == 2 && occurrences(tree_destroy, "(fft ") == 2,
              "%s: verbosity 1: one forward and one backward FFT", what);
    int copies = r2c_axis(c) >= 0;
    test_case(&suite, ok && occurrences(tree_keep, "(copy input") == copies &&
                          occurrences(tree_destroy, "(copy input") == 0,
              "%s: verbosity 1 names the copy that keeps the c2r's input%s, not with destroy_input", what,
              copies ? "" : " (c2c: none)");
    if (!ok || occurrences(tree_keep, "(fft ") != 2) test_detail(&suite, "%s\n%s", tree_keep, tree_destroy);
    size_t expected = copies ? in_bytes_backward : 0;
    test_case(&suite, distfft_plan_work_bytes(keep) == expected && distfft_plan_work_bytes(destroy) == 0,
              "%s: work bytes %zu keeping the input (expected %zu), %zu destroying it", what,
              distfft_plan_work_bytes(keep), expected, distfft_plan_work_bytes(destroy));
    free(line_keep);
    free(line_destroy);
    free(tree_keep);
    free(tree_destroy);
}

static distfft_plan make_plan(const config *c, distfft_precision precision, int threads, int destroy,
                              distfft_norm norm)
{
    distfft_options o;
    distfft_options_init(&o);
    o.rigor = DISTFFT_ESTIMATE;
    o.norm = norm;
    o.threads = threads;
    o.destroy_input = destroy;
    for (int a = 0; a < c->ndims; a++) o.kinds[a] = c->kinds[a];
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(MPI_COMM_SELF, c->ndims, c->shape, precision, &o, &plan);
    if (rc != DISTFFT_SUCCESS) {
        test_detail(&suite, "%s: %s", c->name, distfft_last_error());
        distfft_plan_destroy(&plan);
    }
    return plan;
}

/* The backward keeping its input against the one destroying it, on the
 * spectrum `spectrum` (out_bytes): the same values to a tolerance, the
 * input untouched, the second keeping call the first's bits. */
static void compare_backwards(const char *what, distfft_plan keep, distfft_plan destroy, const void *spectrum,
                              size_t out_bytes, double tolerance)
{
    int64_t in_shape[DISTFFT_MAX_DIMS];
    distfft_type in_type, out_type;
    distfft_plan_input_block(keep, in_shape, NULL);
    distfft_plan_types(keep, &in_type, &out_type);
    int64_t in_count = test_product(distfft_plan_ndims(keep), in_shape);
    size_t in_bytes = (size_t)in_count * distfft_type_size(in_type);
    void *y = test_guarded_alloc(out_bytes, 0), *kept = test_guarded_alloc(in_bytes, 0);
    void *again = test_guarded_alloc(in_bytes, 0), *destroyed = test_guarded_alloc(in_bytes, 0);
    memcpy(y, spectrum, out_bytes);
    int ok = distfft_plan_execute(keep, y, kept, DISTFFT_BACKWARD) == DISTFFT_SUCCESS &&
             distfft_plan_execute(keep, y, again, DISTFFT_BACKWARD) == DISTFFT_SUCCESS;
    test_case(&suite, ok && memcmp(y, spectrum, out_bytes) == 0, "%s: two backwards keep their input", what);
    test_case(&suite, ok && memcmp(kept, again, in_bytes) == 0,
              "%s: the second backward's bits are the first's", what);
    ok = ok && distfft_plan_execute(destroy, y, destroyed, DISTFFT_BACKWARD) == DISTFFT_SUCCESS;
    double worst = 0, largest = 0;
    for (int64_t i = 0; i < in_count; i++) {
        double complex value = test_element(in_type, destroyed, i);
        double e = cabs(test_element(in_type, kept, i) - value);
        if (!(e <= worst)) worst = e;
        if (cabs(value) > largest) largest = cabs(value);
    }
    double difference = largest > 0 ? worst / largest : worst;
    test_case(&suite, ok && difference <= tolerance,
              "%s: the backward keeping its input gives the destroying one's values (%.2g <= %.2g)", what,
              difference, tolerance);
    test_case(&suite, test_guard_intact(kept, in_bytes, 0) && test_guard_intact(again, in_bytes, 0) &&
                          test_guard_intact(destroyed, in_bytes, 0),
              "%s: nothing written past the backwards' outputs", what);
    void *buffers[] = {y, kept, again, destroyed};
    for (size_t b = 0; b < sizeof buffers / sizeof buffers[0]; b++) distfft_free(buffers[b]);
}

/* compare_backwards under norm none (the plain copy) and ortho, on the
 * forward of the keeping plan. */
static void run_norms(const config *c, distfft_precision precision, int threads, void *x)
{
    static const distfft_norm norms[] = {DISTFFT_NORM_NONE, DISTFFT_NORM_ORTHO};
    for (size_t k = 0; k < sizeof norms / sizeof norms[0]; k++) {
        char what[200];
        snprintf(what, sizeof what, "%s %s threads %d norm %s", c->name, distfft_precision_name(precision),
                 threads, distfft_norm_name(norms[k]));
        distfft_plan keep = make_plan(c, precision, threads, 0, norms[k]);
        distfft_plan destroy = make_plan(c, precision, threads, 1, norms[k]);
        test_case(&suite, keep && destroy, "%s: plans created", what);
        if (keep && destroy) {
            int64_t out_shape[DISTFFT_MAX_DIMS];
            distfft_type in_type, out_type;
            distfft_plan_output_block(keep, out_shape, NULL);
            distfft_plan_types(keep, &in_type, &out_type);
            size_t out_bytes = (size_t)test_product(c->ndims, out_shape) * distfft_type_size(out_type);
            void *y = test_guarded_alloc(out_bytes, 0);
            int ok = distfft_plan_execute(keep, x, y, DISTFFT_FORWARD) == DISTFFT_SUCCESS;
            test_case(&suite, ok, "%s: forward", what);
            if (ok)
                compare_backwards(what, keep, destroy, y, out_bytes,
                                  test_tolerance(precision, test_product(c->ndims, c->shape)));
            distfft_free(y);
        }
        distfft_plan_destroy(&keep);
        distfft_plan_destroy(&destroy);
    }
}

static void run(const config *c, distfft_precision precision, int threads)
{
    char what[160];
    snprintf(what, sizeof what, "%s %s threads %d", c->name, distfft_precision_name(precision), threads);
    distfft_plan keep = make_plan(c, precision, threads, 0, DISTFFT_NORM_BACKWARD);
    distfft_plan destroy = make_plan(c, precision, threads, 1, DISTFFT_NORM_BACKWARD);
    test_case(&suite, keep && destroy, "%s: plans created", what);
    if (!keep || !destroy) {
        distfft_plan_destroy(&keep);
        distfft_plan_destroy(&destroy);
        return;
    }
    int64_t in_shape[4], out_shape[4];
    distfft_type in_type, out_type;
    distfft_plan_input_block(keep, in_shape, NULL);
    distfft_plan_output_block(keep, out_shape, NULL);
    distfft_plan_types(keep, &in_type, &out_type);
    int64_t in_count = test_product(c->ndims, in_shape), out_count = test_product(c->ndims, out_shape);
    size_t in_bytes = (size_t)in_count * distfft_type_size(in_type);
    size_t out_bytes = (size_t)out_count * distfft_type_size(out_type);
    check_structure(c, what, keep, destroy, out_bytes);

    int64_t zero[4] = {0, 0, 0, 0};
    void *x = test_guarded_alloc(in_bytes, 0), *x_copy = test_guarded_alloc(in_bytes, 0);
    void *y = test_guarded_alloc(out_bytes, 0), *y_copy = test_guarded_alloc(out_bytes, 0);
    void *z = test_guarded_alloc(in_bytes, 0);
    test_fill(in_type, c->ndims, c->shape, in_shape, zero, 1, 0, x);
    memcpy(x_copy, x, in_bytes);
    int64_t n = test_product(c->ndims, c->shape);
    double tolerance = test_tolerance(precision, n);
    double complex *expected = reference(c, in_type, x, out_count);
    double complex *original = malloc((size_t)in_count * sizeof *original);
    for (int64_t i = 0; i < in_count; i++) original[i] = test_element(in_type, x, i);

    /* Keeping the input: forward, then backward; both inputs untouched. */
    int ok = distfft_plan_execute(keep, x, y, DISTFFT_FORWARD) == DISTFFT_SUCCESS;
    double forward = error_against(out_type, out_count, y, expected);
    test_case(&suite, ok && forward <= tolerance, "%s: forward against FFTW's reference (%.2g <= %.2g)", what,
              forward, tolerance);
    test_case(&suite, memcmp(x, x_copy, in_bytes) == 0, "%s: forward keeps its input", what);
    memcpy(y_copy, y, out_bytes);
    ok = distfft_plan_execute(keep, y, z, DISTFFT_BACKWARD) == DISTFFT_SUCCESS;
    double back = error_against(in_type, in_count, z, original);
    test_case(&suite, ok && back <= 4 * tolerance, "%s: backward round trip (%.2g <= %.2g)", what, back,
              4 * tolerance);
    test_case(&suite, memcmp(y, y_copy, out_bytes) == 0, "%s: backward keeps its input", what);
    test_case(&suite, test_guard_intact(z, in_bytes, 0) && test_guard_intact(y, out_bytes, 0),
              "%s: nothing written past the arrays", what);

    /* Destroying it: the same results. */
    memset(z, 0, in_bytes);
    ok = distfft_plan_execute(destroy, x, y, DISTFFT_FORWARD) == DISTFFT_SUCCESS;
    forward = error_against(out_type, out_count, y, expected);
    ok = ok && distfft_plan_execute(destroy, y, z, DISTFFT_BACKWARD) == DISTFFT_SUCCESS;
    back = error_against(in_type, in_count, z, original);
    test_case(&suite, ok && forward <= tolerance && back <= 4 * tolerance,
              "%s, destroy_input: forward (%.2g) and round trip (%.2g)", what, forward, back);
    compare_backwards(what, keep, destroy, y_copy, out_bytes, tolerance);
    run_norms(c, precision, threads, x);

    free(expected);
    free(original);
    void *buffers[] = {x, x_copy, y, y_copy, z};
    for (size_t b = 0; b < sizeof buffers / sizeof buffers[0]; b++) distfft_free(buffers[b]);
    distfft_plan_destroy(&keep);
    distfft_plan_destroy(&destroy);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    test_suite_init(&suite, "test_one_rank", MPI_COMM_WORLD);
    int max_threads = provided >= MPI_THREAD_FUNNELED ? 2 : 1;
    for (int i = 0; i < CONFIG_COUNT; i++)
        for (int p = 0; p < 2; p++)
            for (int threads = 1; threads <= max_threads; threads++)
                run(&configs[i], p ? DISTFFT_FLOAT : DISTFFT_DOUBLE, threads);
    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
