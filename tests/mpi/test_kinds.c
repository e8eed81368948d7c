/*
 * test_kinds.c -- every transform kind, alone and mixed per axis, with axis
 * subsets and batches, on every grid dimensionality, both precisions and
 * every normalisation.
 *
 * The reference is deliberately independent of FFTW: the gathered global
 * input is transformed by direct O(n^2) sums per axis, written from the
 * textbook definitions (the ones FFTW's manual gives for its r2r kinds and
 * scipy.fft.dct/dst use with norm=None). The forward output must agree with
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

#include "test_support.h"

#define PI 3.14159265358979323846

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

/* ---- the reference: direct sums per axis --------------------------------- */

/* Row k of the n_out x n matrix of `kind` (forward), entry j. */
static double complex matrix_entry(distfft_kind kind, int64_t n, int64_t k, int64_t j)
{
    double dk = (double)k, dj = (double)j, dn = (double)n;
    switch (kind) {
    case DISTFFT_C2C: case DISTFFT_R2C: return cexp(-2.0 * PI * I * dj * dk / dn);
    case DISTFFT_DCT1: case DISTFFT_CHEB: {
        double weight = (j == 0 || j == n - 1) ? 1.0 : 2.0;
        double value = weight * cos(PI * dj * dk / (dn - 1));
        if (kind == DISTFFT_CHEB) value /= ((k == 0 || k == n - 1) ? 2.0 : 1.0) * (dn - 1);
        return value;
    }
    case DISTFFT_DCT2: return 2.0 * cos(PI * (dj + 0.5) * dk / dn);
    case DISTFFT_DCT3: return (j == 0 ? 1.0 : 2.0) * cos(PI * dj * (dk + 0.5) / dn);
    case DISTFFT_DCT4: return 2.0 * cos(PI * (dj + 0.5) * (dk + 0.5) / dn);
    case DISTFFT_DST1: return 2.0 * sin(PI * (dj + 1) * (dk + 1) / (dn + 1));
    case DISTFFT_DST2: return 2.0 * sin(PI * (dj + 0.5) * (dk + 1) / dn);
    case DISTFFT_DST3: return (j == n - 1 ? 1.0 : 2.0) * sin(PI * (dj + 1) * (dk + 0.5) / dn);
    case DISTFFT_DST4: return 2.0 * sin(PI * (dj + 0.5) * (dk + 0.5) / dn);
    default: return j == k ? 1.0 : 0.0;
    }
}

/* out = M_kind applied along `axis` of in (shape `shape`); out has n_out
 * points along that axis. */
static void apply_axis(int ndims, const int64_t *shape, int axis, distfft_kind kind,
                       int64_t n_out, const double complex *in, double complex *out)
{
    int64_t outer = 1, inner = 1, n = shape[axis];
    for (int a = 0; a < axis; a++) outer *= shape[a];
    for (int a = axis + 1; a < ndims; a++) inner *= shape[a];
    for (int64_t o = 0; o < outer; o++)
        for (int64_t k = 0; k < n_out; k++)
            for (int64_t i = 0; i < inner; i++) {
                double complex sum = 0;
                for (int64_t j = 0; j < n; j++)
                    sum += matrix_entry(kind, n, k, j) * in[(o * n + j) * inner + i];
                out[(o * n_out + k) * inner + i] = sum;
            }
}

static double logical_length(distfft_kind kind, int64_t n)
{
    switch (kind) {
    case DISTFFT_C2C: case DISTFFT_R2C: return (double)n;
    case DISTFFT_DCT1: return 2.0 * (double)(n - 1);
    case DISTFFT_DST1: return 2.0 * (double)(n + 1);
    case DISTFFT_CHEB: case DISTFFT_NONE: return 1.0;
    default: return 2.0 * (double)n;
    }
}

/* The forward transform of a whole array (allocated result, out_shape). */
static double complex *reference_forward(int ndims, const int64_t *shape,
                                         const distfft_kind *kinds, distfft_norm norm,
                                         const double complex *input)
{
    int64_t current[DISTFFT_MAX_DIMS], total = test_product(ndims, shape);
    memcpy(current, shape, ndims * sizeof *current);
    double complex *data = malloc(total * sizeof *data);
    memcpy(data, input, total * sizeof *data);
    double n_logical = 1.0;
    for (int a = 0; a < ndims; a++) n_logical *= logical_length(kinds[a], shape[a]);
    for (int a = ndims - 1; a >= 0; a--) { /* any order: the r2c rows only drop outputs */
        if (kinds[a] == DISTFFT_NONE) continue;
        int64_t n_out = kinds[a] == DISTFFT_R2C ? shape[a] / 2 + 1 : shape[a];
        int64_t next[DISTFFT_MAX_DIMS];
        memcpy(next, current, sizeof next);
        next[a] = n_out;
        double complex *result = malloc(test_product(ndims, next) * sizeof *result);
        apply_axis(ndims, current, a, kinds[a], n_out, data, result);
        free(data);
        data = result;
        memcpy(current, next, sizeof next);
    }
    double scale = norm == DISTFFT_NORM_FORWARD ? 1.0 / n_logical
                 : norm == DISTFFT_NORM_ORTHO ? 1.0 / sqrt(n_logical) : 1.0;
    for (int64_t i = 0; i < test_product(ndims, current); i++) data[i] *= scale;
    return data;
}

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
    *rc = distfft_gather(comm, type, ndims, global_shape, local_shape, start,
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
    rc = distfft_plan_forward(plan, input, output);
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
            double complex *expected = reference_forward(k->ndims, k->shape, options.kinds,
                                                         c->norm, global_in);
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
    rc = distfft_plan_forward(plan, input, output);
    if (rc == DISTFFT_SUCCESS) rc = distfft_plan_backward(plan, output, back);
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

static void bad_inputs(test_suite *suite)
{
    int64_t shape[3] = {6, 1, 5};
    expect_failure(suite, "two r2c axes", 3, shape, "c2c,r2c,r2c", 1);
    expect_failure(suite, "DCT-I on an axis of length 1", 3, shape, "c2c,dct1,r2c", 1);
    expect_failure(suite, "Chebyshev on an axis of length 1", 3, shape, "dct2,cheb,dct2", 1);
    expect_failure(suite, "a batch of 0", 3, shape, "c2c,c2c,r2c", 0);
    expect_failure(suite, "every axis none", 3, shape, "none,none,none", 1);
    expect_failure(suite, "an unknown kind", 3, shape, "bogus,c2c,c2c", 1);
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
