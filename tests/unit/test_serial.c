/*
 * test_serial.c -- the public serial-transform API (distfft_serial_*), no
 * MPI at run time: every kind family in the three precisions (float,
 * double, long double) against direct sums in long double
 * (tests/support/direct_reference.c, independent of FFTW; tolerances from
 * each precision's epsilon, so a long-double plan computed in double
 * fails), FFTW's halfcomplex and Hartley kinds (r2hc, hc2r, dht), on awkward
 * shapes (prime lengths, 1-point axes, loop axes), strided and in-place
 * arrays, the backward transforms as inverses, new-array execution, FFTW's
 * wisdom and time limit, and every bad argument's error.
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "direct_reference.h"
#include "distfft.h"

#define PI 3.14159265358979323846

static int passed, failed;

static void check(int ok, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void check(int ok, const char *format, ...)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    va_list args;
    va_start(args, format);
    printf("test_serial: FAIL ");
    vprintf(format, args);
    printf(" (%s)\n", distfft_last_error());
    va_end(args);
}

static int64_t product(int ndims, const int64_t *shape)
{
    int64_t total = 1;
    for (int a = 0; a < ndims; a++) total *= shape[a];
    return total;
}

#define PRECISIONS 3
static const distfft_precision precisions[PRECISIONS] = {DISTFFT_DOUBLE, DISTFFT_FLOAT, DISTFFT_LONG_DOUBLE};

/* Bytes of one real number, and the machine epsilon, of a precision. */
static size_t real_size(distfft_precision precision)
{
    return precision == DISTFFT_FLOAT ? sizeof(float)
         : precision == DISTFFT_LONG_DOUBLE ? sizeof(long double) : sizeof(double);
}

static long double epsilon(distfft_precision precision)
{
    return precision == DISTFFT_FLOAT ? FLT_EPSILON : precision == DISTFFT_LONG_DOUBLE ? LDBL_EPSILON : DBL_EPSILON;
}

/* Element i of an array of complex (components 2) or real numbers. */
static long double complex get(distfft_precision precision, int components, const void *data, int64_t i)
{
    if (precision == DISTFFT_FLOAT) {
        const float *f = data;
        return components == 2 ? f[2 * i] + I * f[2 * i + 1] : f[i];
    }
    if (precision == DISTFFT_LONG_DOUBLE) {
        const long double *l = data;
        return components == 2 ? l[2 * i] + I * l[2 * i + 1] : l[i];
    }
    const double *d = data;
    return components == 2 ? d[2 * i] + I * d[2 * i + 1] : d[i];
}

static void set(distfft_precision precision, int components, void *data, int64_t i, long double complex value)
{
    if (precision == DISTFFT_FLOAT) {
        float *f = data;
        f[components * i] = (float)creall(value);
        if (components == 2) f[2 * i + 1] = (float)cimagl(value);
    } else if (precision == DISTFFT_LONG_DOUBLE) {
        long double *l = data;
        l[components * i] = creall(value);
        if (components == 2) l[2 * i + 1] = cimagl(value);
    } else {
        double *d = data;
        d[components * i] = (double)creall(value);
        if (components == 2) d[2 * i + 1] = (double)cimagl(value);
    }
}

/* The value stored for x in `precision` (what the transform sees). */
static long double complex rounded(distfft_precision precision, long double complex x)
{
    long double buffer[2];
    set(precision, 2, buffer, 0, x);
    return get(precision, 2, buffer, 0);
}

/* One transform case: shape, the transformed axes and their kinds. */
typedef struct {
    int ndims;
    int64_t shape[4];
    int naxes;
    int axes[4];
    distfft_kind kinds[4];
    int flags;
} serial_case;

static const char *precision_name(distfft_precision p) { return distfft_precision_name(p); }

/* C-order strides of shape (elements). */
static void c_order(int ndims, const int64_t *shape, int64_t *strides)
{
    int64_t step = 1;
    for (int a = ndims - 1; a >= 0; a--) {
        strides[a] = step;
        step *= shape[a];
    }
}

/* Linear offset of C-order index `linear` of `shape` in an array of
 * `strides` (elements). */
static int64_t offset_of(int ndims, const int64_t *shape, const int64_t *strides, int64_t linear)
{
    int64_t offset = 0;
    for (int a = ndims - 1; a >= 0; a--) {
        offset += (linear % shape[a]) * strides[a];
        linear /= shape[a];
    }
    return offset;
}

/* Forward against direct sums, then backward(forward(x)) == N x. With
 * `strided`, the input is every other element of a twice-as-long last
 * axis and the output is in reversed axis order (strides transposed). */
static void run_case(const serial_case *c, distfft_precision precision, int strided, int threads)
{
    int ndims = c->ndims;
    bool halving = false, real_to_real = false;
    distfft_kind all[4] = {DISTFFT_NONE, DISTFFT_NONE, DISTFFT_NONE, DISTFFT_NONE};
    double N = 1;
    for (int j = 0; j < c->naxes; j++) {
        all[c->axes[j]] = c->kinds[j];
        halving |= c->kinds[j] == DISTFFT_R2C;
        real_to_real |= c->kinds[j] != DISTFFT_C2C && c->kinds[j] != DISTFFT_R2C;
        N *= direct_logical_length(c->kinds[j], c->shape[c->axes[j]]);
    }
    bool complex_data = c->flags & DISTFFT_SERIAL_COMPLEX_DATA;
    int in_components = halving || (real_to_real && !complex_data) ? 1 : 2;
    int out_components = real_to_real && !complex_data ? 1 : 2;
    int64_t out_shape[4];
    memcpy(out_shape, c->shape, sizeof out_shape);
    if (halving) out_shape[c->axes[c->naxes - 1]] = c->shape[c->axes[c->naxes - 1]] / 2 + 1;
    int64_t n_in = product(ndims, c->shape), n_out = product(ndims, out_shape);
    size_t real = real_size(precision);

    int64_t c_in[4], c_out[4], in_strides[4], out_strides[4], step = 1;
    c_order(ndims, c->shape, c_in);
    c_order(ndims, out_shape, c_out);
    for (int a = 0; a < ndims; a++) {   /* strided: every other element; output in Fortran order */
        in_strides[a] = (strided ? 2 : 1) * c_in[a];
        out_strides[a] = strided ? step : c_out[a];
        step *= out_shape[a];
    }
    int64_t in_span = (strided ? 2 : 1) * n_in;
    void *in = distfft_malloc((size_t)in_span * in_components * real + 64);
    void *out = distfft_malloc((size_t)n_out * out_components * real + 64);
    void *back = distfft_malloc((size_t)in_span * in_components * real + 64);
    long double complex *x = malloc((size_t)n_in * sizeof *x);
    for (int64_t i = 0; i < n_in; i++) {
        long double li = (long double)i;
        x[i] = rounded(precision, sinl(1 + 0.7L * li) + (in_components == 2 ? I * cosl(0.3L * li * li) : 0));
    }

    char what[160];
    snprintf(what, sizeof what, "%s %s%s threads=%d shape %lldx%lldx%lld axes %d..%d kinds %s..%s",
             precision_name(precision), strided ? "strided " : "", complex_data ? "complex-data " : "", threads,
             (long long)c->shape[0], (long long)(ndims > 1 ? c->shape[1] : 0),
             (long long)(ndims > 2 ? c->shape[2] : 0), c->axes[0], c->axes[c->naxes - 1],
             distfft_kind_name(c->kinds[0]), distfft_kind_name(c->kinds[c->naxes - 1]));

    distfft_serial_plan forward = NULL, backward = NULL;
    const int64_t *given_in = strided ? in_strides : NULL, *given_out = strided ? out_strides : NULL;
    int rc = distfft_serial_plan_create(ndims, c->shape, c->naxes, c->axes, c->kinds, DISTFFT_FORWARD,
                                        precision, in, given_in, out, given_out, DISTFFT_ESTIMATE,
                                        c->flags, threads, &forward);
    check(rc == DISTFFT_SUCCESS && forward, "%s: forward plan (rc %d)", what, rc);
    rc = distfft_serial_plan_create(ndims, c->shape, c->naxes, c->axes, c->kinds, DISTFFT_BACKWARD,
                                    precision, out, given_out, back, given_in, DISTFFT_MEASURE,
                                    c->flags, threads, &backward);
    check(rc == DISTFFT_SUCCESS && backward, "%s: backward plan (rc %d)", what, rc);
    if (!forward || !backward) goto done;

    /* Filled after planning (MEASURE overwrites the planning arrays). */
    for (int64_t i = 0; i < n_in; i++) set(precision, in_components, in, offset_of(ndims, c->shape, in_strides, i), x[i]);
    check(distfft_serial_plan_execute(forward, in, out) == DISTFFT_SUCCESS, "%s: forward execute", what);
    long double complex *expected = direct_forward_long(ndims, c->shape, all, DISTFFT_NORM_NONE, x);
    long double error = 0, scale = 0;
    for (int64_t i = 0; i < n_out; i++) {
        long double complex got = get(precision, out_components, out,
                                      offset_of(ndims, out_shape, out_strides, i));
        error = fmaxl(error, cabsl(got - expected[i]));
        scale = fmaxl(scale, cabsl(expected[i]));
    }
    /* FFTW's error grows like eps log n (seen: under 3 eps here); 16 eps
     * log2 n is loose for that, and for long double still 20 times below
     * double's eps, so a long-double plan computed in double fails. */
    long double tolerance = 16 * epsilon(precision) * (1 + scale) * log2l((long double)n_in + 2);
    check(error <= tolerance, "%s: forward differs from direct sums by %Lg (tolerance %Lg)", what, error,
          tolerance);
    free(expected);

    /* backward(forward(x)) == N x, into a third array (new-array execute). */
    check(distfft_serial_plan_execute(backward, out, back) == DISTFFT_SUCCESS, "%s: backward execute", what);
    error = 0;
    scale = 0;
    for (int64_t i = 0; i < n_in; i++) {
        long double complex got = get(precision, in_components, back,
                                      offset_of(ndims, c->shape, in_strides, i));
        error = fmaxl(error, cabsl(got / N - x[i]));
        scale = fmaxl(scale, cabsl(x[i]));
    }
    check(error <= 16 * epsilon(precision) * (1 + scale) * log2l((long double)n_in + 2),
          "%s: backward(forward(x)) / N differs from x by %Lg", what, error);
done:
    check(distfft_serial_plan_destroy(&forward) == DISTFFT_SUCCESS && !forward, "%s: destroy", what);
    check(distfft_serial_plan_destroy(&backward) == DISTFFT_SUCCESS && !backward, "%s: destroy", what);
    distfft_free(in);
    distfft_free(out);
    distfft_free(back);
    free(x);
}

static const serial_case cases[] = {
    /* c2c: prime lengths, a 1-point axis transformed and one looped */
    {3, {5, 1, 7}, 2, {0, 2}, {DISTFFT_C2C, DISTFFT_C2C}, 0},
    {3, {5, 1, 7}, 1, {1}, {DISTFFT_C2C}, 0},
    {1, {13}, 1, {0}, {DISTFFT_C2C}, 0},
    {3, {3, 4, 5}, 3, {2, 0, 1}, {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_C2C}, 0},
    /* r2c: the halved axis listed last, odd and even, with a c2c axis */
    {2, {7, 5}, 2, {0, 1}, {DISTFFT_C2C, DISTFFT_R2C}, 0},
    {3, {2, 11, 3}, 2, {2, 1}, {DISTFFT_C2C, DISTFFT_R2C}, 0},
    {2, {1, 8}, 1, {1}, {DISTFFT_R2C}, 0},
    {3, {3, 6, 1}, 1, {0}, {DISTFFT_R2C}, 0},
    /* real-to-real: every DCT and DST, mixed, short axes */
    {3, {5, 3, 2}, 3, {0, 1, 2}, {DISTFFT_DCT1, DISTFFT_DST2, DISTFFT_DCT4}, 0},
    {3, {7, 1, 4}, 3, {0, 1, 2}, {DISTFFT_DST1, DISTFFT_DCT2, DISTFFT_DST3}, 0},
    {2, {3, 5}, 2, {1, 0}, {DISTFFT_DCT3, DISTFFT_DST4}, 0},
    {2, {2, 9}, 1, {1}, {DISTFFT_DCT1}, 0},
    /* real-to-real on complex arrays */
    {2, {4, 5}, 2, {0, 1}, {DISTFFT_DCT2, DISTFFT_DST1}, DISTFFT_SERIAL_COMPLEX_DATA},
    /* FFTW's halfcomplex and Hartley kinds: even and odd lengths (the even
     * r_{n/2}), one point, and mixed with DCTs and DSTs */
    {1, {8}, 1, {0}, {DISTFFT_R2HC}, 0},
    {2, {3, 7}, 1, {1}, {DISTFFT_R2HC}, 0},
    {1, {1}, 1, {0}, {DISTFFT_HC2R}, 0},
    {2, {6, 5}, 2, {0, 1}, {DISTFFT_HC2R, DISTFFT_HC2R}, 0},
    {1, {11}, 1, {0}, {DISTFFT_DHT}, 0},
    {3, {4, 3, 6}, 3, {2, 0, 1}, {DISTFFT_DHT, DISTFFT_DCT2, DISTFFT_R2HC}, 0},
    {2, {5, 4}, 2, {0, 1}, {DISTFFT_HC2R, DISTFFT_DST3}, 0},
    {2, {4, 7}, 2, {1, 0}, {DISTFFT_R2HC, DISTFFT_DHT}, DISTFFT_SERIAL_COMPLEX_DATA},
};

static void test_transforms(void)
{
    int count = (int)(sizeof cases / sizeof cases[0]);
    for (int p = 0; p < PRECISIONS; p++)
        for (int i = 0; i < count; i++)
            for (int strided = 0; strided < 2; strided++)
                run_case(&cases[i], precisions[p], strided, 1 + (i % 3 == 0 && strided));
}

/* In place: c2c, and r2c with FFTW's padded real array. */
static void test_in_place(void)
{
    int64_t shape[2] = {3, 5};
    int axes[2] = {0, 1};
    distfft_kind kinds[2] = {DISTFFT_C2C, DISTFFT_R2C};
    int64_t real_strides[2] = {6, 1}, complex_strides[2] = {3, 1};   /* 2 (5/2+1) = 6 reals a row */
    double *data = distfft_malloc(18 * sizeof(double));
    double complex x[15];
    for (int i = 0; i < 15; i++) x[i] = cos(0.4 * i + 0.1);
    distfft_serial_plan plan = NULL;
    int rc = distfft_serial_plan_create(2, shape, 2, axes, kinds, DISTFFT_FORWARD, DISTFFT_DOUBLE, data,
                                        real_strides, data, complex_strides, DISTFFT_ESTIMATE, 0, 1, &plan);
    check(rc == DISTFFT_SUCCESS, "in-place r2c plan");
    for (int i = 0; i < 15; i++) data[(i / 5) * 6 + i % 5] = creal(x[i]);
    check(distfft_serial_plan_execute(plan, data, data) == DISTFFT_SUCCESS, "in-place r2c execute");
    distfft_kind all[2] = {DISTFFT_C2C, DISTFFT_R2C};
    double complex *expected = direct_forward(2, shape, all, DISTFFT_NORM_NONE, x);
    double error = 0;
    for (int i = 0; i < 9; i++) error = fmax(error, cabs((data[2 * i] + I * data[2 * i + 1]) - expected[i]));
    check(error < 1e-12, "in-place r2c differs from direct sums by %g", error);
    check(distfft_serial_plan_execute(plan, data, data + 2) == DISTFFT_ERR_ARGUMENT,
          "an in-place plan refuses two arrays");
    free(expected);
    distfft_serial_plan_destroy(&plan);

    kinds[1] = DISTFFT_C2C;
    double complex *z = distfft_malloc(15 * sizeof *z), *copy = malloc(15 * sizeof *copy);
    rc = distfft_serial_plan_create(2, shape, 2, axes, kinds, DISTFFT_BACKWARD, DISTFFT_DOUBLE, z, NULL, z,
                                    NULL, DISTFFT_MEASURE, 0, 1, &plan);
    check(rc == DISTFFT_SUCCESS, "in-place c2c plan");
    for (int i = 0; i < 15; i++) copy[i] = z[i] = x[i] + I * sin(i);
    check(distfft_serial_plan_execute(plan, z, z) == DISTFFT_SUCCESS, "in-place c2c execute");
    error = 0;
    for (int k = 0; k < 15; k++) {   /* sign +1: the conjugate of the forward sum of conj(x) */
        double complex sum = 0;
        for (int j = 0; j < 15; j++)
            sum += copy[j] * cexp(2 * PI * I * ((double)((j / 5) * (k / 5)) / 3 + (double)((j % 5) * (k % 5)) / 5));
        error = fmax(error, cabs(z[k] - sum));
    }
    check(error < 1e-12, "in-place backward c2c differs from direct sums by %g", error);
    distfft_serial_plan_destroy(&plan);
    distfft_free(z);
    free(copy);
    distfft_free(data);
}

/* create(...) with one argument spoilt returns `code`, a message naming
 * the call, and a NULL plan, and leaves the arrays alone: the `guarded`
 * bytes of the test's arrays are as they were. */
static struct {
    const void *in, *out;
    unsigned char in_before[2048], out_before[2048];
    size_t bytes;
} guarded;

static void guard(const void *in, const void *out, size_t bytes)
{
    guarded.in = in;
    guarded.out = out;
    guarded.bytes = bytes;
    memcpy(guarded.in_before, in, bytes);
    memcpy(guarded.out_before, out, bytes);
}

typedef struct {
    int ndims;
    const int64_t *shape;
    int naxes;
    const int *axes;
    const distfft_kind *kinds;
    int direction;
    distfft_precision precision;
    void *in, *out;
    const int64_t *in_strides, *out_strides;
    distfft_rigor rigor;
    int flags, threads;
} create_args;

static void expect_refused(create_args a, int code, const char *what)
{
    distfft_serial_plan plan = (distfft_serial_plan)&plan;   /* not NULL: must become NULL */
    int rc = distfft_serial_plan_create(a.ndims, a.shape, a.naxes, a.axes, a.kinds, a.direction, a.precision,
                                        a.in, a.in_strides, a.out, a.out_strides, a.rigor, a.flags, a.threads,
                                        &plan);
    bool named = strstr(distfft_last_error(), "distfft_serial_plan_create") != NULL;
    check(rc == code && (code == DISTFFT_SUCCESS ? plan != NULL : plan == NULL && named),
          "%s: rc %d (expected %d), plan %s", what, rc, code, plan ? "set" : "NULL");
    if (code != DISTFFT_SUCCESS && guarded.bytes)
        check(!memcmp(guarded.in, guarded.in_before, guarded.bytes) &&
              !memcmp(guarded.out, guarded.out_before, guarded.bytes), "%s: the arrays were touched", what);
    if (rc == DISTFFT_SUCCESS) distfft_serial_plan_destroy(&plan);
}

static void test_bad_arguments(void)
{
    int64_t shape[3] = {4, 6, 5}, bad_shape[3] = {4, -1, 5}, one[3] = {4, 1, 5};
    int axes[3] = {0, 1, 2}, out_of_range[2] = {0, 3}, twice[2] = {1, 1}, last_two[2] = {1, 2};
    distfft_kind c2c[3] = {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_C2C};
    distfft_kind r2c_first[2] = {DISTFFT_R2C, DISTFFT_C2C}, two_r2c[2] = {DISTFFT_R2C, DISTFFT_R2C};
    distfft_kind mixed[2] = {DISTFFT_C2C, DISTFFT_DCT2}, r2c_mixed[2] = {DISTFFT_DCT2, DISTFFT_R2C};
    distfft_kind not_kind[1] = {(distfft_kind)42}, none[1] = {DISTFFT_NONE}, cheb[1] = {DISTFFT_CHEB};
    distfft_kind dct1[1] = {DISTFFT_DCT1}, c2r[2] = {DISTFFT_C2C, DISTFFT_R2C};
    distfft_kind r2hc_c2c[2] = {DISTFFT_R2HC, DISTFFT_C2C}, dht_r2c[2] = {DISTFFT_DHT, DISTFFT_R2C};
    distfft_kind hc2r[1] = {DISTFFT_HC2R};
    double complex *in = distfft_malloc(120 * sizeof *in), *out = distfft_malloc(120 * sizeof *out);
    for (int i = 0; i < 120; i++) {
        in[i] = i + 0.5 * I;
        out[i] = -i;
    }
    guard(in, out, 120 * sizeof *in);
    create_args good = {3, shape, 3, axes, c2c, DISTFFT_FORWARD, DISTFFT_DOUBLE, in, out, NULL, NULL,
                        DISTFFT_ESTIMATE, 0, 1};
    create_args a;
    expect_refused(good, DISTFFT_SUCCESS, "the good arguments");
    a = good; a.precision = DISTFFT_LONG_DOUBLE; a.in = a.out = NULL;
    expect_refused(a, DISTFFT_ERR_ARGUMENT, "long double, in NULL");
    a = good; a.precision = DISTFFT_LONG_DOUBLE; a.shape = one; a.naxes = 1; a.axes = last_two; a.kinds = dct1;
    expect_refused(a, DISTFFT_ERR_SHAPE, "long double: dct1 on one point");
    a = good; a.precision = DISTFFT_LONG_DOUBLE; a.flags = DISTFFT_SERIAL_COMPLEX_DATA;
    expect_refused(a, DISTFFT_ERR_ARGUMENT, "long double: complex data c2c");
    a = good; a.naxes = 2; a.axes = last_two; a.kinds = r2hc_c2c;
    expect_refused(a, DISTFFT_ERR_UNSUPPORTED, "r2hc mixed with c2c");
    a.kinds = dht_r2c; expect_refused(a, DISTFFT_ERR_UNSUPPORTED, "dht mixed with r2c");
    a = good; a.naxes = 1; a.kinds = hc2r; a.shape = bad_shape; a.precision = DISTFFT_LONG_DOUBLE;
    expect_refused(a, DISTFFT_ERR_SHAPE, "hc2r, long double, negative extent");
    a = good; a.naxes = 1; a.kinds = hc2r; a.flags = 1 << 9; expect_refused(a, DISTFFT_ERR_ARGUMENT, "hc2r, bad flag");
    a = good; a.ndims = 0; expect_refused(a, DISTFFT_ERR_ARGUMENT, "ndims 0");
    a = good; a.ndims = DISTFFT_MAX_DIMS + 1; expect_refused(a, DISTFFT_ERR_ARGUMENT, "ndims 17");
    a = good; a.shape = NULL; expect_refused(a, DISTFFT_ERR_ARGUMENT, "shape NULL");
    a = good; a.shape = bad_shape; expect_refused(a, DISTFFT_ERR_SHAPE, "negative extent");
    a = good; a.naxes = 0; expect_refused(a, DISTFFT_ERR_ARGUMENT, "naxes 0");
    a = good; a.naxes = 4; expect_refused(a, DISTFFT_ERR_ARGUMENT, "naxes > ndims");
    a = good; a.axes = NULL; expect_refused(a, DISTFFT_ERR_ARGUMENT, "axes NULL");
    a = good; a.kinds = NULL; expect_refused(a, DISTFFT_ERR_ARGUMENT, "kinds NULL");
    a = good; a.naxes = 2; a.axes = out_of_range; expect_refused(a, DISTFFT_ERR_ARGUMENT, "axis 3 of 3");
    a = good; a.naxes = 2; a.axes = twice; expect_refused(a, DISTFFT_ERR_ARGUMENT, "an axis twice");
    a = good; a.naxes = 1; a.kinds = not_kind; expect_refused(a, DISTFFT_ERR_ARGUMENT, "kind 42");
    a = good; a.naxes = 1; a.kinds = none; expect_refused(a, DISTFFT_ERR_ARGUMENT, "kind none");
    a = good; a.naxes = 1; a.kinds = cheb; expect_refused(a, DISTFFT_ERR_UNSUPPORTED, "kind cheb");
    a = good; a.naxes = 2; a.axes = last_two; a.kinds = r2c_first;
    expect_refused(a, DISTFFT_ERR_ARGUMENT, "r2c not last");
    a.kinds = two_r2c; expect_refused(a, DISTFFT_ERR_ARGUMENT, "two r2c axes");
    a.kinds = mixed; expect_refused(a, DISTFFT_ERR_UNSUPPORTED, "c2c mixed with dct2");
    a.kinds = r2c_mixed; expect_refused(a, DISTFFT_ERR_UNSUPPORTED, "dct2 mixed with r2c");
    a = good; a.shape = one; a.naxes = 1; a.axes = last_two; a.kinds = dct1;
    expect_refused(a, DISTFFT_ERR_SHAPE, "dct1 on one point");
    a = good; a.direction = 0; expect_refused(a, DISTFFT_ERR_ARGUMENT, "direction 0");
    a = good; a.precision = (distfft_precision)7; expect_refused(a, DISTFFT_ERR_ARGUMENT, "precision 7");
    a = good; a.rigor = (distfft_rigor)9; expect_refused(a, DISTFFT_ERR_ARGUMENT, "rigor 9");
    a = good; a.threads = 0; expect_refused(a, DISTFFT_ERR_ARGUMENT, "threads 0");
    a = good; a.threads = DISTFFT_MAX_THREADS + 1; expect_refused(a, DISTFFT_ERR_ARGUMENT, "threads 4097");
    a = good; a.flags = 1 << 10; expect_refused(a, DISTFFT_ERR_ARGUMENT, "unknown flag");
    a = good; a.flags = DISTFFT_SERIAL_DESTROY_INPUT | DISTFFT_SERIAL_PRESERVE_INPUT;
    expect_refused(a, DISTFFT_ERR_ARGUMENT, "destroy and preserve");
    a = good; a.flags = DISTFFT_SERIAL_COMPLEX_DATA; expect_refused(a, DISTFFT_ERR_ARGUMENT, "complex data c2c");
    a = good; a.naxes = 2; a.axes = last_two; a.kinds = c2r; a.direction = DISTFFT_BACKWARD;
    a.flags = DISTFFT_SERIAL_PRESERVE_INPUT; expect_refused(a, DISTFFT_ERR_UNSUPPORTED, "preserved 2-axis c2r");
    a.flags = 0; a.out = in; expect_refused(a, DISTFFT_ERR_ARGUMENT, "in-place c2r without strides");
    a = good; a.in = NULL; expect_refused(a, DISTFFT_ERR_ARGUMENT, "in NULL");
    a = good; a.out = NULL; expect_refused(a, DISTFFT_ERR_ARGUMENT, "out NULL");
    a = good; a.rigor = DISTFFT_MEASURE; a.flags = DISTFFT_SERIAL_WISDOM_ONLY;
    distfft_serial_wisdom_forget(DISTFFT_DOUBLE);
    expect_refused(a, DISTFFT_ERR_FFTW, "wisdom only, without wisdom");
    check(strstr(distfft_last_error(), "wisdom") != NULL, "the wisdom-only message says wisdom");
    check(distfft_serial_plan_create(3, shape, 3, axes, c2c, DISTFFT_FORWARD, DISTFFT_DOUBLE, in, NULL, out,
                                     NULL, DISTFFT_ESTIMATE, 0, 1, NULL) == DISTFFT_ERR_ARGUMENT,
          "plan pointer NULL");

    /* An array without elements: a plan that does nothing, NULL arrays. */
    int64_t empty[3] = {4, 0, 5};
    distfft_serial_plan plan = NULL;
    check(distfft_serial_plan_create(3, empty, 3, axes, c2c, DISTFFT_FORWARD, DISTFFT_FLOAT, NULL, NULL, NULL,
                                     NULL, DISTFFT_MEASURE, 0, 1, &plan) == DISTFFT_SUCCESS,
          "an empty array plans");
    check(distfft_serial_plan_execute(plan, NULL, NULL) == DISTFFT_SUCCESS, "an empty plan runs on NULL");
    char text[64];
    check(distfft_serial_plan_describe(plan, text, sizeof text) == 7 && !strcmp(text, "(empty)"),
          "an empty plan describes itself as (empty)");
    distfft_serial_plan_destroy(&plan);

    /* Execute: the arrays must fit the plan. */
    check(distfft_serial_plan_create(3, shape, 3, axes, c2c, DISTFFT_FORWARD, DISTFFT_DOUBLE, in, NULL, out,
                                     NULL, DISTFFT_ESTIMATE, 0, 1, &plan) == DISTFFT_SUCCESS, "a c2c plan");
    check(distfft_serial_plan_execute(NULL, in, out) == DISTFFT_ERR_ARGUMENT, "execute NULL plan");
    check(distfft_serial_plan_execute(plan, NULL, out) == DISTFFT_ERR_ARGUMENT, "execute NULL in");
    check(distfft_serial_plan_execute(plan, in, in) == DISTFFT_ERR_ARGUMENT, "execute in place, planned out of it");
    double *shifted = (double *)out + 1;   /* 8 bytes off FFTW's 16 */
    check(distfft_serial_plan_execute(plan, in, shifted) == DISTFFT_ERR_ALIGNMENT, "execute on a misaligned out");
    int length = distfft_serial_plan_describe(plan, text, sizeof text);
    check(length > 0 && text[0] == '(', "describe: FFTW's text (%d bytes)", length);
    check(distfft_serial_plan_describe(NULL, text, sizeof text) == -1, "describe NULL");
    distfft_serial_plan_destroy(&plan);
    check(distfft_serial_plan_create(3, shape, 3, axes, c2c, DISTFFT_FORWARD, DISTFFT_DOUBLE, in, NULL, out,
                                     NULL, DISTFFT_ESTIMATE, DISTFFT_SERIAL_UNALIGNED, 1, &plan) ==
              DISTFFT_SUCCESS, "an unaligned c2c plan");
    check(distfft_serial_plan_execute(plan, in, shifted) == DISTFFT_SUCCESS, "unaligned: any alignment runs");
    distfft_serial_plan_destroy(&plan);
    guarded.bytes = 0;
    check(distfft_serial_plan_destroy(NULL) == DISTFFT_ERR_ARGUMENT, "destroy NULL");
    check(distfft_serial_plan_destroy(&plan) == DISTFFT_SUCCESS, "destroy a NULL plan");
    distfft_free(in);
    distfft_free(out);
}

/* FFTW's wisdom through the API: measured plans are remembered, exported,
 * forgotten, imported (text and file) and then plan from wisdom only. */
static void test_wisdom(const char *directory)
{
    int64_t shape[2] = {12, 10};
    int axes[2] = {0, 1};
    distfft_kind kinds[2] = {DISTFFT_DCT2, DISTFFT_DST3};
    char path[512];
    snprintf(path, sizeof path, "%s/test_serial_wisdom.txt", directory);
    for (int p = 0; p < PRECISIONS; p++) {
        distfft_precision precision = precisions[p];
        void *in = distfft_malloc(120 * real_size(precision)), *out = distfft_malloc(120 * real_size(precision));
        distfft_serial_plan plan = NULL;
        check(distfft_serial_wisdom_forget(precision) == DISTFFT_SUCCESS, "forget");
        check(distfft_serial_plan_create(2, shape, 2, axes, kinds, DISTFFT_FORWARD, precision, in, NULL, out,
                                         NULL, DISTFFT_PATIENT, 0, 1, &plan) == DISTFFT_SUCCESS,
              "%s: a patient plan", precision_name(precision));
        distfft_serial_plan_destroy(&plan);
        char *text = distfft_serial_wisdom_export(precision);
        check(text && strstr(text, "wisdom"), "%s: exported wisdom", precision_name(precision));
        check(distfft_serial_wisdom_export_file(precision, path) == DISTFFT_SUCCESS, "export to %s", path);
        distfft_serial_wisdom_forget(precision);
        int rc = distfft_serial_plan_create(2, shape, 2, axes, kinds, DISTFFT_FORWARD, precision, in, NULL, out,
                                            NULL, DISTFFT_PATIENT, DISTFFT_SERIAL_WISDOM_ONLY, 1, &plan);
        check(rc == DISTFFT_ERR_FFTW && !plan, "%s: forgotten wisdom plans nothing", precision_name(precision));
        check(distfft_serial_wisdom_import(precision, text) == DISTFFT_SUCCESS, "import the text");
        rc = distfft_serial_plan_create(2, shape, 2, axes, kinds, DISTFFT_FORWARD, precision, in, NULL, out,
                                        NULL, DISTFFT_PATIENT, DISTFFT_SERIAL_WISDOM_ONLY, 1, &plan);
        check(rc == DISTFFT_SUCCESS, "%s: imported wisdom plans", precision_name(precision));
        distfft_serial_plan_destroy(&plan);
        distfft_serial_wisdom_forget(precision);
        check(distfft_serial_wisdom_import_file(precision, path) == DISTFFT_SUCCESS, "import from %s", path);
        rc = distfft_serial_plan_create(2, shape, 2, axes, kinds, DISTFFT_FORWARD, precision, in, NULL, out,
                                        NULL, DISTFFT_PATIENT, DISTFFT_SERIAL_WISDOM_ONLY, 1, &plan);
        check(rc == DISTFFT_SUCCESS, "%s: wisdom from the file plans", precision_name(precision));
        distfft_serial_plan_destroy(&plan);
        /* wisdom is per precision: forgetting another's keeps this one's */
        distfft_serial_wisdom_forget(precisions[(p + 1) % PRECISIONS]);
        rc = distfft_serial_plan_create(2, shape, 2, axes, kinds, DISTFFT_FORWARD, precision, in, NULL, out,
                                        NULL, DISTFFT_PATIENT, DISTFFT_SERIAL_WISDOM_ONLY, 1, &plan);
        check(rc == DISTFFT_SUCCESS, "%s: wisdom kept when %s's is forgotten", precision_name(precision),
              precision_name(precisions[(p + 1) % PRECISIONS]));
        distfft_serial_plan_destroy(&plan);
        check(distfft_serial_set_timelimit(precision, 0.5) == DISTFFT_SUCCESS &&
                  distfft_serial_set_timelimit(precision, -1.0) == DISTFFT_SUCCESS,
              "%s: a time limit and none", precision_name(precision));
        free(text);
        distfft_free(in);
        distfft_free(out);
    }
    char *long_text = distfft_serial_wisdom_export(DISTFFT_LONG_DOUBLE);
    check(long_text && strstr(long_text, "fftwl"), "long double's wisdom is FFTW's long-double wisdom");
    free(long_text);
    check(distfft_serial_wisdom_import(DISTFFT_DOUBLE, "not wisdom") == DISTFFT_ERR_ARGUMENT,
          "import of a text that is not wisdom");
    check(distfft_serial_wisdom_import(DISTFFT_DOUBLE, NULL) == DISTFFT_ERR_ARGUMENT, "import NULL");
    check(distfft_serial_wisdom_import_file(DISTFFT_FLOAT, "/nonexistent/wisdom") == DISTFFT_ERR_ARGUMENT,
          "import of a missing file");
    check(distfft_serial_wisdom_export_file(DISTFFT_DOUBLE, "/nonexistent/dir/wisdom") == DISTFFT_ERR_ARGUMENT,
          "export to an unwritable path");
    check(distfft_serial_wisdom_export_file(DISTFFT_DOUBLE, NULL) == DISTFFT_ERR_ARGUMENT, "export to NULL");
    check(distfft_serial_wisdom_export((distfft_precision)5) == NULL, "export of precision 5");
    check(distfft_serial_wisdom_forget((distfft_precision)5) == DISTFFT_ERR_ARGUMENT, "forget precision 5");
    check(distfft_serial_set_timelimit(DISTFFT_FLOAT, 0.5) == DISTFFT_SUCCESS, "a time limit");
    check(distfft_serial_set_timelimit(DISTFFT_FLOAT, -1.0) == DISTFFT_SUCCESS, "no time limit");
    check(distfft_serial_set_timelimit(DISTFFT_DOUBLE, NAN) == DISTFFT_ERR_ARGUMENT, "a NaN time limit");
    check(distfft_serial_set_timelimit((distfft_precision)-1, 1.0) == DISTFFT_ERR_ARGUMENT,
          "time limit of precision -1");
    remove(path);
}

int main(int argc, char **argv)
{
    test_transforms();
    test_in_place();
    test_bad_arguments();
    test_wisdom(argc > 1 ? argv[1] : ".");
    printf("test_serial: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
