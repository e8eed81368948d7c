/*
 * test_support.c -- deterministic data, serial references and reduced
 * verdicts for distfft's tests (see test_support.h).
 *
 * References are always computed in double precision by plain serial FFTW on
 * rank 0 from data gathered with distfft_layout_gather, so a test never trusts the
 * code it checks to also produce its expected values.
 */
#include "test_support.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3.h>

/* ------------------------------------------------------------------------ */
/* Shapes and indices                                                        */
/* ------------------------------------------------------------------------ */

int64_t test_product(int ndims, const int64_t *shape)
{
    int64_t product = 1;
    for (int i = 0; i < ndims; i++)
        product *= shape[i];
    return product;
}

char *test_shape_string(int ndims, const int64_t *shape, char *buf,
                        size_t size)
{
    size_t used = 0;
    if (size == 0)
        return buf;
    buf[0] = '\0';
    for (int i = 0; i < ndims && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%lld", i ? "x" : "",
                         (long long)shape[i]);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    return buf;
}

void test_block_foreach(int ndims, const int64_t *global_shape,
                        const int64_t *local_shape,
                        const int64_t *global_start, test_visit_fn visit,
                        void *context)
{
    int64_t count = test_product(ndims, local_shape);
    if (count <= 0)
        return;
    int64_t index[DISTFFT_MAX_DIMS] = {0};
    for (int64_t local = 0; local < count; local++) {
        int64_t global = 0;
        for (int i = 0; i < ndims; i++)
            global = global * global_shape[i] + global_start[i] + index[i];
        visit(local, global, context);
        for (int i = ndims - 1; i >= 0; i--) { /* C-order increment */
            if (++index[i] < local_shape[i])
                break;
            index[i] = 0;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Deterministic data                                                        */
/* ------------------------------------------------------------------------ */

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static double unit_interval(uint64_t bits) /* [-1, 1) */
{
    return (double)(bits >> 11) * 0x1.0p-52 - 1.0;
}

double complex test_value(int64_t field, int64_t global_linear)
{
    uint64_t seed = splitmix64((uint64_t)field * 0x632BE59BD9B4E019ull +
                               (uint64_t)global_linear);
    double re = unit_interval(seed);
    double im = unit_interval(splitmix64(seed));
    return re + im * I;
}

double complex test_exact_value(int64_t field, int64_t global_linear)
{
    double v = (double)(field * (INT64_C(1) << 18) + global_linear + 1);
    return v - (v + 0.5) * I;
}

static void store(distfft_type type, void *buffer, int64_t index,
                  double complex value)
{
    switch (type) {
    case DISTFFT_COMPLEX_DOUBLE:
        ((double complex *)buffer)[index] = value;
        break;
    case DISTFFT_COMPLEX_FLOAT:
        ((float complex *)buffer)[index] =
            (float)creal(value) + (float)cimag(value) * I;
        break;
    case DISTFFT_REAL_DOUBLE:
        ((double *)buffer)[index] = creal(value);
        break;
    case DISTFFT_REAL_FLOAT:
        ((float *)buffer)[index] = (float)creal(value);
        break;
    }
}

double complex test_element(distfft_type type, const void *buffer,
                            int64_t index)
{
    switch (type) {
    case DISTFFT_COMPLEX_DOUBLE:
        return ((const double complex *)buffer)[index];
    case DISTFFT_COMPLEX_FLOAT:
        return ((const float complex *)buffer)[index];
    case DISTFFT_REAL_DOUBLE:
        return ((const double *)buffer)[index];
    case DISTFFT_REAL_FLOAT:
        return ((const float *)buffer)[index];
    }
    return 0;
}

/* The value test_fill stores, as read back from `type`. */
static double complex expected(distfft_type type, int exact, int64_t field,
                               int64_t global)
{
    double complex value = exact ? test_exact_value(field, global)
                                 : test_value(field, global);
    _Alignas(16) unsigned char buffer[16];
    store(type, buffer, 0, value);
    return test_element(type, buffer, 0);
}

typedef struct {
    distfft_type type;
    int exact;
    int64_t field, offset;
    void *buffer;
    /* for checks */
    const void *cbuffer;
    int64_t mismatches;
    char *detail;
    size_t detail_size;
} fill_context;

static void fill_one(int64_t local, int64_t global, void *context)
{
    fill_context *c = context;
    store(c->type, c->buffer, c->offset + local,
          c->exact ? test_exact_value(c->field, global)
                   : test_value(c->field, global));
}

void test_fill(distfft_type type, int ndims, const int64_t *global_shape,
               const int64_t *local_shape, const int64_t *global_start,
               int64_t batch, int exact, void *buffer)
{
    int64_t count = test_product(ndims, local_shape);
    fill_context c = {.type = type, .exact = exact, .buffer = buffer};
    for (int64_t b = 0; b < batch; b++) {
        c.field = b;
        c.offset = b * count;
        test_block_foreach(ndims, global_shape, local_shape, global_start,
                           fill_one, &c);
    }
}

void test_fill_field(distfft_type type, int ndims,
                     const int64_t *global_shape, const int64_t *local_shape,
                     const int64_t *global_start, int64_t field,
                     void *buffer)
{
    fill_context c = {.type = type, .field = field, .buffer = buffer};
    test_block_foreach(ndims, global_shape, local_shape, global_start,
                       fill_one, &c);
}

static void check_one(int64_t local, int64_t global, void *context)
{
    fill_context *c = context;
    double complex want = expected(c->type, 1, c->field, global);
    double complex got = test_element(c->type, c->cbuffer, c->offset + local);
    if (creal(got) == creal(want) && cimag(got) == cimag(want))
        return;
    if (c->mismatches++ == 0 && c->detail)
        snprintf(c->detail, c->detail_size,
                 "field %lld local element %lld (global %lld): got "
                 "(%.9g, %.9g), expected (%.9g, %.9g)",
                 (long long)c->field, (long long)local, (long long)global,
                 creal(got), cimag(got), creal(want), cimag(want));
}

int64_t test_check_exact(distfft_type type, int ndims,
                         const int64_t *global_shape,
                         const int64_t *local_shape,
                         const int64_t *global_start, int64_t batch,
                         const void *buffer, char *detail,
                         size_t detail_size)
{
    int64_t count = test_product(ndims, local_shape);
    fill_context c = {.type = type, .cbuffer = buffer, .detail = detail,
                      .detail_size = detail_size};
    if (detail && detail_size)
        detail[0] = '\0';
    for (int64_t b = 0; b < batch; b++) {
        c.field = b;
        c.offset = b * count;
        test_block_foreach(ndims, global_shape, local_shape, global_start,
                           check_one, &c);
    }
    return c.mismatches;
}

void test_to_double(distfft_type type, int64_t n, const void *source,
                    double complex *target)
{
    for (int64_t j = 0; j < n; j++)
        target[j] = test_element(type, source, j);
}

/* ------------------------------------------------------------------------ */
/* Guarded buffers                                                           */
/* ------------------------------------------------------------------------ */

void *test_guarded_alloc(size_t bytes, unsigned char sentinel)
{
    void *buffer = distfft_malloc(bytes + TEST_GUARD_BYTES);
    if (!buffer) {
        fprintf(stderr, "test_guarded_alloc: out of memory (%zu bytes)\n",
                bytes);
        abort();
    }
    memset(buffer, sentinel, bytes + TEST_GUARD_BYTES);
    return buffer;
}

int test_all_bytes(const void *buffer, size_t bytes, unsigned char sentinel)
{
    const unsigned char *p = buffer;
    for (size_t j = 0; j < bytes; j++)
        if (p[j] != sentinel)
            return 0;
    return 1;
}

int test_guard_intact(const void *buffer, size_t bytes,
                      unsigned char sentinel)
{
    return test_all_bytes((const unsigned char *)buffer + bytes,
                          TEST_GUARD_BYTES, sentinel);
}

/* ------------------------------------------------------------------------ */
/* Serial references                                                         */
/* ------------------------------------------------------------------------ */

double complex *test_gather_double(MPI_Comm comm, distfft_type type,
                                   int ndims, const int64_t *global_shape,
                                   const int64_t *local_shape,
                                   const int64_t *global_start,
                                   const void *local, int *rc)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    int64_t n = test_product(ndims, global_shape);
    void *raw = NULL;
    double complex *global = NULL;
    if (rank == 0) {
        raw = malloc((size_t)(n > 0 ? n : 1) * distfft_type_size(type));
        global = malloc((size_t)(n > 0 ? n : 1) * sizeof *global);
        if (!raw || !global) {
            fprintf(stderr, "test_gather_double: out of memory\n");
            abort();
        }
    }
    *rc = test_gather(comm, type, ndims, global_shape, local_shape, global_start, local, 0, raw);
    if (rank == 0) {
        test_to_double(type, n, raw, global);
        free(raw);
    }
    return global;
}

void test_reference_dft(int ndims, const int64_t *shape, int sign,
                        const double complex *in, double complex *out)
{
    int n[DISTFFT_MAX_DIMS];
    int64_t total = test_product(ndims, shape);
    for (int i = 0; i < ndims; i++)
        n[i] = (int)shape[i];
    fftw_complex *work = fftw_malloc((size_t)total * sizeof *work);
    if (!work) {
        fprintf(stderr, "test_reference_dft: out of memory\n");
        abort();
    }
    /* In place on a private copy: planning with ESTIMATE does not touch the
     * data, and the caller's arrays may alias. */
    fftw_plan plan = fftw_plan_dft(ndims, n, work, work, sign, FFTW_ESTIMATE);
    memcpy(work, in, (size_t)total * sizeof *work);
    fftw_execute(plan);
    memcpy(out, work, (size_t)total * sizeof *work);
    fftw_destroy_plan(plan);
    fftw_free(work);
}

double test_max_abs_diff(int64_t n, const double complex *a,
                         const double complex *b)
{
    double m = 0;
    for (int64_t j = 0; j < n; j++) {
        double d = cabs(a[j] - b[j]);
        if (!(d <= m)) /* NaN propagates as a failure */
            m = d;
    }
    return m;
}

double test_max_abs(int64_t n, const double complex *a)
{
    double m = 0;
    for (int64_t j = 0; j < n; j++)
        if (cabs(a[j]) > m)
            m = cabs(a[j]);
    return m;
}

double test_tolerance(distfft_precision precision, int64_t n)
{
    double eps = precision == DISTFFT_FLOAT ? 0x1.0p-23 : 0x1.0p-52;
    double log_n = n > 1 ? log2((double)n) : 1.0;
    return TEST_TOLERANCE_FACTOR * eps * (log_n > 1.0 ? log_n : 1.0);
}

int test_close(distfft_precision precision, size_t bytes, const void *a, const void *b, int64_t points)
{
    double largest = 0.0, error = 0.0;
    size_t count = bytes / (precision == DISTFFT_FLOAT ? sizeof(float) : sizeof(double));
    for (size_t i = 0; i < count; i++) {
        double x = precision == DISTFFT_FLOAT ? ((const float *)a)[i] : ((const double *)a)[i];
        double y = precision == DISTFFT_FLOAT ? ((const float *)b)[i] : ((const double *)b)[i];
        double difference = fabs(x - y);
        largest = fmax(largest, fabs(x));
        if (!(difference <= error)) error = difference; /* a NaN sticks */
    }
    return error <= test_tolerance(precision, points) * fmax(largest, 1.0);
}

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

int test_message_names_rank(const char *message, int rank)
{
    if (!message)
        return 0;
    for (const char *p = message; *p; p++) {
        if (tolower((unsigned char)p[0]) != 'r' ||
            tolower((unsigned char)p[1]) != 'a' ||
            tolower((unsigned char)p[2]) != 'n' ||
            tolower((unsigned char)p[3]) != 'k')
            continue;
        const char *q = p + 4;
        while (*q == ' ' || *q == '=' || *q == ':' || *q == '#' || *q == '(')
            q++;
        if (!isdigit((unsigned char)*q))
            continue;
        long value = 0;
        while (isdigit((unsigned char)*q) && value < 100000000)
            value = value * 10 + (*q++ - '0');
        if (value == rank && !isdigit((unsigned char)*q))
            return 1;
    }
    return 0;
}

uint64_t test_hash_string(const char *text)
{
    uint64_t hash = 0xcbf29ce484222325ull;
    for (const unsigned char *p = (const unsigned char *)text; p && *p; p++)
        hash = (hash ^ *p) * 0x100000001b3ull;
    return hash;
}

/* ------------------------------------------------------------------------ */
/* Suites                                                                    */
/* ------------------------------------------------------------------------ */

enum { DETAIL_BUDGET = 40 };

void test_suite_init(test_suite *suite, const char *program, MPI_Comm comm)
{
    memset(suite, 0, sizeof *suite);
    suite->program = program;
    suite->comm = comm;
    MPI_Comm_rank(comm, &suite->rank);
    MPI_Comm_size(comm, &suite->size);
}

void test_case(test_suite *suite, int ok, const char *format, ...)
{
    if (suite->count == suite->capacity) {
        int capacity = suite->capacity ? 2 * suite->capacity : 256;
        char **names = realloc(suite->names, (size_t)capacity * sizeof *names);
        int *local_ok =
            realloc(suite->local_ok, (size_t)capacity * sizeof *local_ok);
        if (!names || !local_ok) {
            fprintf(stderr, "test_case: out of memory\n");
            abort();
        }
        suite->names = names;
        suite->local_ok = local_ok;
        suite->capacity = capacity;
    }
    char name[512];
    va_list args;
    va_start(args, format);
    vsnprintf(name, sizeof name, format, args);
    va_end(args);
    size_t length = strlen(name) + 1;
    char *copy = malloc(length);
    if (!copy)
        abort();
    memcpy(copy, name, length);
    suite->names[suite->count] = copy;
    suite->local_ok[suite->count] = ok ? 1 : 0;
    suite->count++;
    if (!ok)
        test_detail(suite, "case failed here: %s", name);
    if (getenv("DISTFFT_TEST_VERBOSE") && suite->rank == 0)
        printf("%s: %s %s\n", suite->program, ok ? "ok  " : "FAIL", name);
}

void test_detail(test_suite *suite, const char *format, ...)
{
    if (suite->details_printed >= DETAIL_BUDGET)
        return;
    if (++suite->details_printed == DETAIL_BUDGET) {
        fprintf(stderr, "[rank %d] %s: further details suppressed\n",
                suite->rank, suite->program);
        return;
    }
    char line[1024];
    va_list args;
    va_start(args, format);
    vsnprintf(line, sizeof line, format, args);
    va_end(args);
    fprintf(stderr, "[rank %d] %s: %s\n", suite->rank, suite->program, line);
    fflush(stderr);
}

int test_created(test_suite *suite, int rc, const char *name)
{
    test_case(suite, rc == DISTFFT_SUCCESS, "create %s", name);
    if (rc != DISTFFT_SUCCESS) test_detail(suite, "%s: %s", name, distfft_last_error());
    return rc == DISTFFT_SUCCESS;
}

int test_all(MPI_Comm comm, int ok)
{
    int local = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&local, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}

int test_suite_finish(test_suite *suite)
{
    int counts[2] = {suite->count, -suite->count}, reduced[2];
    MPI_Allreduce(counts, reduced, 2, MPI_INT, MPI_MIN, suite->comm);
    int exit_code;
    if (reduced[0] != -reduced[1]) {
        if (suite->rank == 0)
            printf("%s: ranks recorded different numbers of cases "
                   "(%d..%d): test bug\n",
                   suite->program, reduced[0], -reduced[1]);
        exit_code = 1;
    } else {
        int *all_ok = malloc((size_t)(suite->count + 1) * sizeof *all_ok);
        if (!all_ok)
            abort();
        MPI_Allreduce(suite->local_ok, all_ok, suite->count, MPI_INT, MPI_MIN,
                      suite->comm);
        int passed = 0, failed = 0;
        for (int j = 0; j < suite->count; j++) {
            if (all_ok[j]) {
                passed++;
            } else {
                failed++;
                if (suite->rank == 0)
                    printf("%s: FAIL %s\n", suite->program, suite->names[j]);
            }
        }
        if (suite->rank == 0)
            printf("%s: %d passed, %d failed (%d ranks)\n", suite->program,
                   passed, failed, suite->size);
        exit_code = (failed == 0 && passed > 0) ? 0 : 1;
        free(all_ok);
    }
    fflush(stdout);
    for (int j = 0; j < suite->count; j++)
        free(suite->names[j]);
    free(suite->names);
    free(suite->local_ok);
    suite->names = NULL;
    suite->local_ok = NULL;
    suite->count = suite->capacity = 0;
    return exit_code;
}

int test_method_serves_host(distfft_method m)
{
    const char *name = distfft_method_name(m);
    return name && m != DISTFFT_METHOD_STAGED && m != DISTFFT_METHOD_NCCL && m != DISTFFT_METHOD_CUDA_IPC;
}
