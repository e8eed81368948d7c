/*
 * test_support.h -- helpers shared by distfft's tests.
 *
 * Three pieces:
 *  - deterministic data: every test value is a function of the element's
 *    GLOBAL index (and field, for batched arrays), never of the rank or the
 *    decomposition, so any rank can predict any element of any layout;
 *  - serial references: gathering with distfft_layout_gather and FFTW in double
 *    precision on the root, error norms and tolerances;
 *  - a suite that records named cases and reduces the verdict over the
 *    communicator once, at the end, so every rank exits with the same code.
 *
 * The one thing to know: test_suite_finish() is collective, and every rank
 * must have recorded the same sequence of cases (the names are compared by
 * count; keep them free of rank-dependent text).
 */
#ifndef DISTFFT_TEST_SUPPORT_H
#define DISTFFT_TEST_SUPPORT_H

#include <complex.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "distfft.h"
#include "blocks.h"

/* ------------------------------------------------------------------------ */
/* Shapes and indices                                                        */
/* ------------------------------------------------------------------------ */

/* Product of shape[0..ndims-1] (1 for ndims == 0). */
int64_t test_product(int ndims, const int64_t *shape);

/* "5x7x11" into buf; returns buf. */
char *test_shape_string(int ndims, const int64_t *shape, char *buf,
                        size_t size);

/* Global C-order linear index of every element of a local block, in the
 * block's own C order: calls visit(local_linear, global_linear, context) for
 * each element. Local blocks with a zero extent visit nothing. */
typedef void (*test_visit_fn)(int64_t local_linear, int64_t global_linear,
                              void *context);
void test_block_foreach(int ndims, const int64_t *global_shape,
                        const int64_t *local_shape,
                        const int64_t *global_start, test_visit_fn visit,
                        void *context);

/* ------------------------------------------------------------------------ */
/* Deterministic data                                                        */
/* ------------------------------------------------------------------------ */

/* A pseudo-random complex value with both parts in [-1, 1), a function of
 * (field, global_linear) only. For FFT tests. */
double complex test_value(int64_t field, int64_t global_linear);

/* A value exactly representable in every element type (integers + 1/2 below
 * 2^22), distinct for every (field, global_linear) of a small array. For
 * permutation tests, compared with ==. */
double complex test_exact_value(int64_t field, int64_t global_linear);

/* Fill a local block, with a leading batch dimension of `batch` fields
 * (batch x local_shape, C order), with test_value (exact == 0) or
 * test_exact_value (exact != 0) converted to `type` (the imaginary part is
 * dropped for real types). */
void test_fill(distfft_type type, int ndims, const int64_t *global_shape,
               const int64_t *local_shape, const int64_t *global_start,
               int64_t batch, int exact, void *buffer);

/* Fill a local block (no batch) with test_value(field, global index)
 * converted to `type`. */
void test_fill_field(distfft_type type, int ndims,
                     const int64_t *global_shape, const int64_t *local_shape,
                     const int64_t *global_start, int64_t field,
                     void *buffer);

/* Compare a local block with what test_fill(..., exact=1) would write,
 * element by element with ==. Returns the number of mismatches; the first
 * is described in detail (if detail != NULL). */
int64_t test_check_exact(distfft_type type, int ndims,
                         const int64_t *global_shape,
                         const int64_t *local_shape,
                         const int64_t *global_start, int64_t batch,
                         const void *buffer, char *detail,
                         size_t detail_size);

/* Element `index` of a buffer of `type` as a double complex. */
double complex test_element(distfft_type type, const void *buffer,
                            int64_t index);

/* Convert n elements of a complex buffer (COMPLEX_DOUBLE or COMPLEX_FLOAT)
 * to double complex. */
void test_to_double(distfft_type type, int64_t n, const void *source,
                    double complex *target);

/* ------------------------------------------------------------------------ */
/* Guarded buffers: sentinel elements after the end catch stray writes       */
/* ------------------------------------------------------------------------ */

enum { TEST_GUARD_BYTES = 64 };

/* distfft_malloc(bytes + TEST_GUARD_BYTES); the whole allocation is filled
 * with the byte `sentinel`. Never NULL (aborts on exhaustion). */
void *test_guarded_alloc(size_t bytes, unsigned char sentinel);
/* 1 if the TEST_GUARD_BYTES after `bytes` still hold `sentinel`. */
int test_guard_intact(const void *buffer, size_t bytes,
                      unsigned char sentinel);
/* 1 if all of buffer[0..bytes) hold `sentinel`. */
int test_all_bytes(const void *buffer, size_t bytes, unsigned char sentinel);

/* ------------------------------------------------------------------------ */
/* Serial references                                                         */
/* ------------------------------------------------------------------------ */

/* Gather a distributed block array (complex type) onto rank 0 of comm as
 * double complex; returns a malloc'ed array of the global size on rank 0 and
 * NULL elsewhere. *rc receives test_gather's return code. Collective. */
double complex *test_gather_double(MPI_Comm comm, distfft_type type,
                                   int ndims, const int64_t *global_shape,
                                   const int64_t *local_shape,
                                   const int64_t *global_start,
                                   const void *local, int *rc);

/* Unnormalised serial DFT over all axes with FFTW in double precision:
 * out = sum_j in_j exp(sign * 2 pi i j.k / n). in and out may alias. */
void test_reference_dft(int ndims, const int64_t *shape, int sign,
                        const double complex *in, double complex *out);

/* max_j |a_j - b_j| and max_j |a_j|. */
double test_max_abs_diff(int64_t n, const double complex *a,
                         const double complex *b);
double test_max_abs(int64_t n, const double complex *a);

/* Tolerance for a relative max-norm error of an FFT of n points:
 * TEST_TOLERANCE_FACTOR * eps(precision) * max(1, log2 n). */
#define TEST_TOLERANCE_FACTOR 8.0
double test_tolerance(distfft_precision precision, int64_t n);

/* 1 if the reals of b (bytes of float or double, by precision) are
 * within test_tolerance(precision, points) of a's, relative to a's
 * largest magnitude (at least 1): the same transform by FFTW plans of
 * another shape (shm's plans run the FFT after each exchange out of
 * place), not the same bits. NaNs fail. */
int test_close(distfft_precision precision, size_t bytes, const void *a, const void *b, int64_t points);

/* ------------------------------------------------------------------------ */
/* Errors reported by the library                                            */
/* ------------------------------------------------------------------------ */

/* 1 if message mentions "rank" followed (after spaces, '=', ':', '#' or
 * '(') by exactly the number `rank`. */
int test_message_names_rank(const char *message, int rank);

/* 64-bit FNV-1a hash of a string (to compare messages across ranks). */
uint64_t test_hash_string(const char *text);

/* ------------------------------------------------------------------------ */
/* Suites: named cases, one reduced verdict                                  */
/* ------------------------------------------------------------------------ */

typedef struct {
    const char *program;  /* "test_c2c" */
    MPI_Comm comm;
    int rank, size;
    int count, capacity;
    char **names;         /* case names, identical on every rank */
    int *local_ok;        /* this rank's verdict per case */
    int details_printed;  /* per-rank budget of detail lines */
} test_suite;

void test_suite_init(test_suite *suite, const char *program, MPI_Comm comm);

/* Record one case: ok is this rank's verdict; name is printf-style. */
void test_case(test_suite *suite, int ok, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Print one detail line "[rank r] program: ..." to stderr (at most a few
 * dozen per rank, so a broken build does not flood the log). */
void test_detail(test_suite *suite, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The case "create <name>" for a plan creation that returned rc, with the
 * library's message as a detail when it failed. Returns rc == success. */
int test_created(test_suite *suite, int rc, const char *name);

/* Collective: reduce every case's verdict over comm (a case passes when it
 * passed on every rank), print "FAIL <case>" lines and the summary line
 * "<program>: P passed, F failed" on rank 0, free the suite and return the
 * exit code, the same on every rank (0 when all passed). */
int test_suite_finish(test_suite *suite);

/* Whether method m serves exchanges of host memory: every row of the
 * table but the device methods (staged, nccl, cuda-ipc).
 * Tests that run every method on host arrays skip the others. Local. */
int test_method_serves_host(distfft_method m);

/* 1 on every rank if `ok` holds on every rank of comm. Collective. */
int test_all(MPI_Comm comm, int ok);

#endif /* DISTFFT_TEST_SUPPORT_H */
