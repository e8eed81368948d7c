/*
 * test_halo_errors.c -- bad input to the halo exchange (part of
 * test_halo): on one rank or on all, every rank must return the same
 * error code, leave the out-handle NULL, hang nowhere and write nothing.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

void halo_bad_input(test_suite *suite);

static int me, P;

/* A 1-D array of 10 over the world, and its arguments, to be spoiled. */
typedef struct {
    int64_t shape[1], local[1], start[1], low[1], high[1];
    int periodic[1];
    int64_t batch;
    int ndims;
    distfft_halo_variant variant;
    distfft_halo *out;
} arguments;

static arguments good(distfft_halo *out)
{
    arguments a = {.shape = {10}, .low = {1}, .high = {1}, .periodic = {1}, .batch = 1,
                   .ndims = 1, .variant = DISTFFT_HALO_DATATYPES, .out = out};
    distfft_decompose(10, P, me, &a.local[0], &a.start[0]);
    return a;
}

/* Create with a; the code must be `code` on every rank, the handle NULL. */
static void expect(test_suite *suite, const arguments *a, int code, const char *what)
{
    distfft_halo halo = NULL;
    if (a->out) *a->out = (distfft_halo)&halo; /* must come back NULL */
    int rc = test_halo_create(MPI_COMM_WORLD, DISTFFT_REAL_DOUBLE, a->ndims, a->shape,
                                 a->local, a->start, a->low, a->high, a->periodic,
                                 a->batch, a->variant, a->out);
    int codes[2] = {rc, -rc};
    MPI_Allreduce(MPI_IN_PLACE, codes, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int ok = rc == code && codes[0] == -codes[1] && (!a->out || *a->out == NULL);
    if (!ok)
        test_detail(suite, "%s: got %s (%s), expected %s", what, distfft_error_string(rc),
                    distfft_last_error(), distfft_error_string(code));
    if (rc == DISTFFT_SUCCESS && a->out) distfft_halo_destroy(a->out);
    test_case(suite, ok, "bad input: %s", what);
}

static void create_errors(test_suite *suite)
{
    distfft_halo halo;
    arguments a = good(&halo);
    if (me == P - 1) a.low[0] = -1;
    expect(suite, &a, DISTFFT_ERR_ARGUMENT, "negative width on the last rank");
    a = good(&halo);
    if (me == 0) a.start[0] = -1;
    expect(suite, &a, DISTFFT_ERR_SHAPE, "block outside the array on rank 0");
    a = good(&halo);
    a.batch = 0;
    expect(suite, &a, DISTFFT_ERR_ARGUMENT, "batch 0");
    a = good(&halo);
    a.variant = (distfft_halo_variant)7;
    expect(suite, &a, DISTFFT_ERR_ARGUMENT, "unknown variant");
    a = good(&halo);
    a.ndims = 0;
    expect(suite, &a, DISTFFT_ERR_SHAPE, "ndims 0");
    a = good(NULL);
    expect(suite, &a, DISTFFT_ERR_ARGUMENT, "NULL out-handle");
    a = good(&halo);
    a.low[0] = (int64_t)INT_MAX + 1;
    a.periodic[0] = 0;
    expect(suite, &a, DISTFFT_ERR_UNSUPPORTED, "datatypes with a padded extent past INT_MAX");
    if (P == 1) return;
    a = good(&halo);
    if (me == 0) a.high[0] = 2;
    expect(suite, &a, DISTFFT_ERR_MISMATCH, "widths differ between ranks");
    a = good(&halo);
    if (me == 1) a.periodic[0] = 0;
    expect(suite, &a, DISTFFT_ERR_MISMATCH, "periodic differs between ranks");
    a = good(&halo);
    a.local[0] = 10;
    a.start[0] = 0;
    expect(suite, &a, DISTFFT_ERR_SHAPE, "every rank claims the whole array");
    a = good(&halo);
    if (a.local[0] > 1 && me == 0) a.local[0]--, a.start[0]++;
    expect(suite, &a, DISTFFT_ERR_SHAPE, "a gap before rank 0's block");
}

/* A NULL array on rank 0 only: every rank fails, nothing is written. */
static void execute_errors(test_suite *suite)
{
    arguments a = good(NULL);
    distfft_halo halo = NULL;
    int rc = test_halo_create(MPI_COMM_WORLD, DISTFFT_REAL_DOUBLE, 1, a.shape, a.local,
                                 a.start, a.low, a.high, a.periodic, 1,
                                 DISTFFT_HALO_DATATYPES, &halo);
    test_case(suite, rc == DISTFFT_SUCCESS, "bad input: create for the execute checks");
    if (rc != DISTFFT_SUCCESS) return;
    size_t bytes = (size_t)distfft_halo_padded_block(halo, NULL, NULL) * sizeof(double);
    unsigned char *array = test_guarded_alloc(bytes, 0x33);
    rc = distfft_halo_execute(halo, me == 0 ? NULL : array);
    int codes[2] = {rc, -rc};
    MPI_Allreduce(MPI_IN_PLACE, codes, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    test_case(suite, rc == DISTFFT_ERR_ARGUMENT && codes[0] == -codes[1] &&
                         test_all_bytes(array, bytes, 0x33),
              "bad input: NULL array on rank 0, nothing written anywhere");
    rc = distfft_halo_destroy(&halo);
    test_case(suite, rc == DISTFFT_SUCCESS && halo == NULL &&
                         distfft_halo_execute(halo, array) == DISTFFT_ERR_ARGUMENT,
              "bad input: execute after destroy");
    distfft_free(array);
}

void halo_bad_input(test_suite *suite)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    create_errors(suite);
    execute_errors(suite);
}
