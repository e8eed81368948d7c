/*
 * test_kinds.c -- every transform kind, alone and mixed per axis, with axis
 * subsets and batches, on every grid dimensionality, both precisions and
 * every normalisation.
 *
 * The reference is deliberately independent of FFTW: the gathered global
 * input is transformed by direct O(n^2) sums per axis, written from the
 * textbook definitions (the ones FFTW's manual gives for its r2r kinds and
 * scipy.fft.dct/dst use with norm=None; tests/support/direct_reference.c). The forward output must agree with
 * it within C * eps * log2 N, the round trip must return the input, and the
 * input must be untouched unless destroy_input. Bad kind combinations must
 * fail on every rank with the same code.
 *
 *   mpiexec -n 4 test_kinds [--quick]
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */

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
    const char *kinds; /* comma-separated, one per axis */
    int complex_data;  /* options.complex_data: r2r kinds on complex data */
} kind_case;

static const kind_case cases[] = {
    {3, {6, 7, 5}, "c2c,c2c,r2c", 0},
    {3, {6, 7, 5}, "dst2,c2c,r2c", 0},
    {3, {5, 8, 3}, "dst1,dst1,r2c", 0},
    {3, {6, 7, 5}, "dst2,dst2,dst2", 0},
    {3, {5, 8, 3}, "dct2,c2c,r2c", 0},
    {3, {6, 7, 5}, "dct1,dct1,dct1", 0},
    {3, {7, 4, 6}, "cheb,c2c,r2c", 0},
    {3, {5, 8, 3}, "dct3,dst4,dct4", 0},
    {3, {6, 7, 5}, "dst3,dct2,dst1", 0},
    {3, {6, 7, 5}, "none,c2c,c2c", 0},
    {3, {6, 7, 5}, "c2c,none,c2c", 0},
    {3, {5, 8, 3}, "c2c,r2c,none", 0},
    {3, {7, 4, 6}, "dct4,none,r2c", 0},
    {3, {6, 7, 5}, "none,none,dct2", 0},
    {2, {9, 10}, "dct2,dst3", 0},
    {2, {9, 10}, "c2c,r2c", 0},
    {2, {9, 10}, "r2c,none", 0},
    /* r2c before other transformed axes (transformed first all the same) */
    {3, {7, 6, 5}, "r2c,c2c,dct2", 0},
    {3, {5, 9, 4}, "dst2,r2c,c2c", 0},
    {2, {9, 10}, "r2c,c2c", 0},
    {4, {4, 3, 5, 6}, "c2c,r2c,none,cheb", 0},
    {2, {2, 13}, "cheb,dst2", 0},
    {4, {4, 3, 5, 2}, "c2c,dct2,none,r2c", 0},
    {4, {4, 3, 5, 6}, "cheb,c2c,c2c,r2c", 0},
    /* Real-to-real kinds on complex data (scipy.fft.dctn of a complex
     * array): with a c2c axis, or every axis real-to-real. */
    {3, {6, 7, 5}, "dct2,c2c,c2c", 0},
    {3, {5, 8, 3}, "c2c,dst3,cheb", 0},
    {3, {6, 7, 5}, "dct1,dst4,dct3", 1},
    {2, {9, 10}, "cheb,dst2", 1},
    /* FFTW's halfcomplex and Hartley kinds: alone, after r2c, with c2c,
     * mixed with DCTs, on complex data */
    {3, {6, 7, 5}, "r2hc,hc2r,dht", 0},
    {3, {5, 8, 3}, "dht,c2c,r2c", 0},
    {3, {4, 6, 5}, "c2c,r2hc,none", 0},
    {2, {9, 10}, "hc2r,dct2", 0},
    {3, {6, 4, 7}, "dst1,dht,r2hc", 1},
};
#define CASE_COUNT ((int)(sizeof cases / sizeof cases[0]))

static int parse_kinds(const char *text, int ndims, distfft_kind *kinds)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", text);
    char *save = NULL, *token = strtok_r(copy, ",", &save);
    for (int a = 0; a < ndims; a++, token = strtok_r(NULL, ",", &save))
        if (!token || distfft_kind_from_name(token, &kinds[a]) != DISTFFT_SUCCESS) return -1;
    return 0;
}

/* The reference, direct sums per axis: tests/support/direct_reference.c's
 * direct_forward. */

/* ---- one configuration ------------------------------------------------------ */

typedef struct {
    const kind_case *kind_case;
    int grid_ndims;
    distfft_precision precision;
    distfft_norm norm;
    int64_t batch;
    int destroy_input;
} config;

/* Gather field `field` of a batched local array as double complex on rank 0. */
static double complex *gather_field(MPI_Comm comm, distfft_type type, int ndims,
                                    const int64_t *global_shape, const int64_t *local_shape,
                                    const int64_t *start, const void *local, int64_t field,
                                    int *rc)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    size_t element = distfft_type_size(type);
    int64_t local_count = test_product(ndims, local_shape), total = test_product(ndims, global_shape);
    const char *base = local ? (const char *)local + field * local_count * element : NULL;
    void *global = rank == 0 ? malloc(total * element + 1) : NULL;
    *rc = test_gather(comm, type, ndims, global_shape, local_shape, start,
                         local_count ? base : NULL, 0, global);
    double complex *values = NULL;
    if (rank == 0) {
        values = malloc(total * sizeof *values + 1);
        for (int64_t i = 0; i < total; i++) values[i] = test_element(type, global, i);
        free(global);
    }
    return values;
}

static void run_config(test_suite *suite, const config *c)
{
    const kind_case *k = c->kind_case;
    char name[256], shape_text[64];
    test_shape_string(k->ndims, k->shape, shape_text, sizeof shape_text);
    snprintf(name, sizeof name, "%s%s %s grid_ndims=%d %s norm=%d batch=%lld destroy=%d",
             k->kinds, k->complex_data ? " complex" : "", shape_text, c->grid_ndims, c->precision == DISTFFT_FLOAT ? "float" : "double",
             (int)c->norm, (long long)c->batch, c->destroy_input);

    distfft_options options;
    distfft_options_init(&options);
    options.rigor = DISTFFT_ESTIMATE;
    options.grid_ndims = c->grid_ndims;
    options.norm = c->norm;
    options.batch = c->batch;
    options.destroy_input = c->destroy_input;
    options.complex_data = k->complex_data;
    parse_kinds(k->kinds, k->ndims, options.kinds);
    distfft_plan plan;
    int rc = distfft_plan_create(suite->comm, k->ndims, k->shape, c->precision, &options, &plan);
    if (!test_created(suite, rc, name)) return;
    distfft_type in_type, out_type;
    int64_t in_shape[DISTFFT_MAX_DIMS], in_start[DISTFFT_MAX_DIMS];
    int64_t out_shape[DISTFFT_MAX_DIMS], out_start[DISTFFT_MAX_DIMS], out_global[DISTFFT_MAX_DIMS];
    distfft_plan_types(plan, &in_type, &out_type);
    distfft_plan_input_block(plan, in_shape, in_start);
    distfft_plan_output_block(plan, out_shape, out_start);
    distfft_plan_output_shape(plan, out_global);
    size_t in_bytes = c->batch * test_product(k->ndims, in_shape) * distfft_type_size(in_type);
    size_t out_bytes = c->batch * test_product(k->ndims, out_shape) * distfft_type_size(out_type);

    void *input = distfft_malloc(in_bytes + 16), *saved = malloc(in_bytes + 16);
    void *output = distfft_malloc(out_bytes + 16), *back = distfft_malloc(in_bytes + 16);
    test_fill(in_type, k->ndims, k->shape, in_shape, in_start, c->batch, 0, input);
    memcpy(saved, input, in_bytes);

    /* Forward against the reference, per field. */
    rc = distfft_plan_execute(plan, input, output, DISTFFT_FORWARD);
    int ok = rc == DISTFFT_SUCCESS;
    if (!c->destroy_input) ok &= memcmp(saved, input, in_bytes) == 0;
    test_case(suite, ok, "forward keeps its input %s", name);
    double tolerance = test_tolerance(c->precision, test_product(k->ndims, k->shape));
    double worst = 0.0;
    for (int64_t field = 0; field < c->batch; field++) {
        int rc_in, rc_out;
        double complex *global_in = gather_field(suite->comm, in_type, k->ndims, k->shape, in_shape,
                                                 in_start, saved, field, &rc_in);
        double complex *global_out = gather_field(suite->comm, out_type, k->ndims, out_global,
                                                  out_shape, out_start, output, field, &rc_out);
        if (suite->rank == 0) {
            double complex *expected = direct_forward(k->ndims, k->shape, options.kinds, c->norm,
                                                      global_in);
            int64_t total = test_product(k->ndims, out_global);
            double error = test_max_abs_diff(total, global_out, expected) /
                           fmax(test_max_abs(total, expected), 1e-300);
            if (error > worst) worst = error;
            free(expected);
        }
        free(global_in);
        free(global_out);
    }
    MPI_Bcast(&worst, 1, MPI_DOUBLE, 0, suite->comm);
    test_case(suite, worst <= tolerance, "forward matches the reference %s", name);
    if (worst > tolerance)
        test_detail(suite, "%s: error %.3e > tolerance %.3e", name, worst, tolerance);

    /* Backward(forward(x)) = x. */
    if (c->destroy_input) memcpy(input, saved, in_bytes);
    rc = distfft_plan_execute(plan, input, output, DISTFFT_FORWARD);
    if (rc == DISTFFT_SUCCESS) rc = distfft_plan_execute(plan, output, back, DISTFFT_BACKWARD);
    double error = 0.0, largest = 0.0;
    int64_t count = c->batch * test_product(k->ndims, in_shape);
    for (int64_t i = 0; i < count; i++) {
        error = fmax(error, cabs(test_element(in_type, back, i) - test_element(in_type, saved, i)));
        largest = fmax(largest, cabs(test_element(in_type, saved, i)));
    }
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, suite->comm);
    MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_DOUBLE, MPI_MAX, suite->comm);
    test_case(suite, rc == DISTFFT_SUCCESS && error <= tolerance * largest, "round trip %s", name);
    if (error > tolerance * largest)
        test_detail(suite, "%s: round-trip error %.3e", name, error / largest);

    distfft_free(input);
    free(saved);
    distfft_free(output);
    distfft_free(back);
    distfft_plan_destroy(&plan);
}

/* ---- bad kind combinations ------------------------------------------------ */

static void expect_failure(test_suite *suite, const char *what, int ndims, const int64_t *shape,
                           const char *kinds, int64_t batch)
{
    distfft_options options;
    distfft_options_init(&options);
    options.rigor = DISTFFT_ESTIMATE;
    options.batch = batch;
    if (parse_kinds(kinds, ndims, options.kinds) != 0) options.kinds[0] = (distfft_kind)99;
    distfft_plan plan = (distfft_plan)&options; /* must become NULL */
    int rc = distfft_plan_create(suite->comm, ndims, shape, DISTFFT_DOUBLE, &options, &plan);
    int codes[2] = {rc, -rc};
    MPI_Allreduce(MPI_IN_PLACE, codes, 2, MPI_INT, MPI_MAX, suite->comm);
    int same = codes[0] == -codes[1];
    test_case(suite, rc != DISTFFT_SUCCESS && same && plan == NULL && distfft_last_error()[0],
              "rejects %s (%s)", what, kinds);
    if (rc == DISTFFT_SUCCESS) distfft_plan_destroy(&plan);
}

/* Refused with DISTFFT_ERR_UNSUPPORTED, the same on every rank: padding an
 * axis in halfcomplex or Hartley order, and long double (serial only). */
static void refused_on_every_rank(test_suite *suite)
{
    int64_t shape[3] = {6, 4, 5};
    for (int which = 0; which < 4; which++) {
        distfft_options options;
        distfft_options_init(&options);
        options.rigor = DISTFFT_ESTIMATE;
        parse_kinds(which == 3 ? "c2c,c2c,r2c" : "c2c,dct2,dct2", 3, options.kinds);
        distfft_kind padded_kind[3] = {DISTFFT_R2HC, DISTFFT_HC2R, DISTFFT_DHT};
        if (which < 3) {
            options.kinds[1] = padded_kind[which];
            options.padding[1] = 1.5;
        }
        distfft_precision precision = which == 3 ? DISTFFT_LONG_DOUBLE : DISTFFT_DOUBLE;
        distfft_plan plan = (distfft_plan)&options; /* must become NULL */
        int rc = distfft_plan_create(suite->comm, 3, shape, precision, &options, &plan);
        const char *expected_word = which == 3 ? "long-double" : which == 2 ? "Hartley" : "halfcomplex";
        int codes[2] = {rc, -rc};
        MPI_Allreduce(MPI_IN_PLACE, codes, 2, MPI_INT, MPI_MAX, suite->comm);
        test_case(suite, rc == DISTFFT_ERR_UNSUPPORTED && codes[0] == -codes[1] && plan == NULL &&
                  strstr(distfft_last_error(), expected_word), "rejects %s on every rank (%s)",
                  which == 3 ? "long double" : "padding", which == 3 ? "long-double" :
                  distfft_kind_name(options.kinds[1]));
        if (rc == DISTFFT_SUCCESS) distfft_plan_destroy(&plan);
    }
}

static void bad_inputs(test_suite *suite)
{
    int64_t shape[3] = {6, 1, 5};
    expect_failure(suite, "two r2c axes", 3, shape, "c2c,r2c,r2c", 1);
    expect_failure(suite, "DCT-I on an axis of length 1", 3, shape, "c2c,dct1,r2c", 1);
    expect_failure(suite, "Chebyshev on an axis of length 1", 3, shape, "dct2,cheb,dct2", 1);
    expect_failure(suite, "a batch of 0", 3, shape, "c2c,c2c,r2c", 0);
    expect_failure(suite, "every axis none", 3, shape, "none,none,none", 1);
    expect_failure(suite, "an unknown kind", 3, shape, "bogus,c2c,c2c", 1);
    refused_on_every_rank(suite);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
    test_suite suite;
    test_suite_init(&suite, "test_kinds", MPI_COMM_WORLD);

    static const distfft_norm norms[] = {DISTFFT_NORM_BACKWARD, DISTFFT_NORM_ORTHO, DISTFFT_NORM_FORWARD};
    int sample = 0;
    for (int i = 0; i < CASE_COUNT; i++) {
        const kind_case *k = &cases[i];
        for (int grid = 0; grid < k->ndims; grid++)
            for (int p = 0; p < 2; p++) {
                /* A rotating choice of the rest keeps the count modest while
                 * every option meets every kind somewhere. */
                config c = {.kind_case = k, .grid_ndims = grid,
                            .precision = p ? DISTFFT_FLOAT : DISTFFT_DOUBLE,
                            .norm = norms[(i + grid + p) % 3],
                            .batch = (i + grid) % 4 == 1 ? 2 : 1,
                            .destroy_input = (i + p) % 3 == 2};
                if (quick && sample++ % 8) continue;
                run_config(&suite, &c);
            }
    }
    bad_inputs(&suite);
    int status = test_suite_finish(&suite);
    MPI_Finalize();
    return status;
}
