/*
 * redist.c -- the redistribution object (paper Sec. 3.2-3.3: a global
 * redistribution v -> w within a process group), its argument checks and
 * agreement, and dispatch to the communication method chosen by name from
 * the method table.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../tuning.h"
#include "../types.h"
#include "redist.h"

#define METHOD(row) extern const redist_method row;
#include "methods.def"
#undef METHOD

static const redist_method *const method_table[] = {
#define METHOD(row) &row,
#include "methods.def"
#undef METHOD
};
#define METHOD_COUNT ((int)(sizeof method_table / sizeof method_table[0]))
_Static_assert(METHOD_COUNT <= REDIST_MAX_METHODS, "raise REDIST_MAX_METHODS");

int redist_method_count(void)
{
    return METHOD_COUNT;
}

const redist_method *redist_method_row(distfft_method method)
{
    if ((int)method < 0 || (int)method >= METHOD_COUNT) return NULL;
    return method_table[method];
}

static const redist_method *method_lookup(distfft_method method)
{
    return redist_method_row(method);
}

/* One execution of a candidate on the tuning arrays. */
typedef struct {
    const struct distfft_redist_s *redist;
    const void *in;
    void *out;
} exchange_run;

static int run_exchange(void *context)
{
    exchange_run *run = context;
    return redist_run(run->redist, run->in, run->out);
}

/* The "auto" method: plan every method, time each on scratch arrays, keep
 * the fastest. The times are maxima over the ranks of tuning_comm (comm
 * itself, or a plan's whole communicator, whose sub-groups all run the same
 * exchange at once), so every rank sees the same numbers and picks the same
 * method, as FFTW's mpi/ planner does. A method that cannot be planned
 * somewhere is skipped everywhere. */
static int tune(MPI_Comm comm, MPI_Comm tuning_comm, const redist_geometry *geometry,
                distfft_redist *redist_out)
{
    double start = MPI_Wtime();
    size_t element = distfft_type_size(geometry->type);
    int64_t in_count = geometry->batch * shape_product(geometry->ndims, geometry->in_shape);
    int64_t out_count = geometry->batch * shape_product(geometry->ndims, geometry->out_shape);
    void *in = calloc((size_t)in_count + 1, element), *out = calloc((size_t)out_count + 1, element);
    int rc = error_agree(tuning_comm, in && out ? DISTFFT_SUCCESS
                                                : error_fail(DISTFFT_ERR_MEMORY, "tuning buffers"));
    struct distfft_redist_s *best = NULL;
    double best_seconds = INFINITY;
    for (int m = 0; rc == DISTFFT_SUCCESS && m < METHOD_COUNT; m++) {
        distfft_redist candidate = NULL;
        int created = redist_create_on(comm, comm, geometry, (distfft_method)m, &candidate);
        if (error_agree(tuning_comm, created) != DISTFFT_SUCCESS) {
            redist_free(candidate);
            continue;
        }
        double seconds;
        exchange_run run = {candidate, in, out};
        tuning_time(tuning_comm, run_exchange, &run, &seconds);
        if (seconds < best_seconds) {
            redist_free(best);
            best = candidate;
            best_seconds = seconds;
        } else {
            redist_free(candidate);
        }
    }
    free(in);
    free(out);
    if (rc == DISTFFT_SUCCESS && !best)
        rc = error_fail(DISTFFT_ERR_UNSUPPORTED, "auto: no method can do this exchange");
    if (rc != DISTFFT_SUCCESS) return rc;
    error_clear();
    best->tuning_seconds = MPI_Wtime() - start;
    *redist_out = best;
    return DISTFFT_SUCCESS;
}

int redist_create_on(MPI_Comm comm, MPI_Comm tuning_comm, const redist_geometry *geometry,
                     distfft_method method, distfft_redist *redist_out)
{
    if (method == DISTFFT_METHOD_AUTO) return tune(comm, tuning_comm, geometry, redist_out);
    int rc = DISTFFT_SUCCESS;
    struct distfft_redist_s *redist = calloc(1, sizeof *redist);
    int local = redist ? DISTFFT_SUCCESS
                       : error_fail(DISTFFT_ERR_MEMORY, "redistribution object");
    if (redist) {
        redist->comm = comm;
        redist->method_id = method;
        redist->method = method_lookup(method);
        redist->geometry = *geometry;
        redist->in_count = geometry->batch *
                           shape_product(geometry->ndims, geometry->in_shape);
        redist->out_count = geometry->batch *
                            shape_product(geometry->ndims, geometry->out_shape);
        local = redist->method->create(comm, geometry, redist->method->parameters, &redist->state);
    }
    TRY(error_agree(comm, local));
    *redist_out = redist;
    return DISTFFT_SUCCESS;
fail:
    if (redist && redist->state) redist->method->destroy(redist->state);
    free(redist);
    return rc;
}

int redist_run(const struct distfft_redist_s *redist, const void *in, void *out)
{
    return redist->method->execute(redist->state, redist->comm, in, out);
}

int64_t redist_bytes_sent(const struct distfft_redist_s *redist)
{
    const redist_geometry *g = &redist->geometry;
    int64_t n = g->in_shape[g->axis_in], kept;
    if (n == 0) return 0;
    distfft_decompose(n, g->parts, g->part, &kept, NULL);
    return redist->in_count / n * (n - kept) * (int64_t)distfft_type_size(g->type);
}

/* Local checks of the public create's arguments; fills *geometry. */
static int check_create(MPI_Comm comm, distfft_type type, int ndims,
                        const int64_t *in_shape, int axis_in,
                        const int64_t *out_shape, int axis_out, int64_t batch,
                        distfft_method method, const distfft_redist *redist,
                        redist_geometry *geometry, replicated_args *args)
{
    const char *where = "distfft_redist_create";
    if (!redist) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: redist (out-handle) is NULL", where);
    if (!type_is_valid(type)) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown element type %d", where, (int)type);
    if (!method_lookup(method) && method != DISTFFT_METHOD_AUTO)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown method %d", where, (int)method);
    if (ndims < 2 || ndims > DISTFFT_MAX_DIMS)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: ndims = %d must be in 2..%d", where, ndims, DISTFFT_MAX_DIMS);
    if (!in_shape || !out_shape) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: in_shape or out_shape is NULL", where);
    if (axis_in < 0 || axis_in >= ndims || axis_out < 0 || axis_out >= ndims || axis_in == axis_out)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: axis_in = %d and axis_out = %d must be distinct axes in 0..%d",
                          where, axis_in, axis_out, ndims - 1);
    if (batch < 1) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: batch = %lld must be >= 1", where, (long long)batch);
    for (int i = 0; i < ndims; i++) {
        if (in_shape[i] < 0 || out_shape[i] < 0)
            return error_fail(DISTFFT_ERR_SHAPE, "%s: in_shape[%d] = %lld and out_shape[%d] = %lld must be >= 0",
                              where, i, (long long)in_shape[i], i, (long long)out_shape[i]);
        if (i != axis_in && i != axis_out && in_shape[i] != out_shape[i])
            return error_fail(DISTFFT_ERR_SHAPE, "%s: in_shape[%d] = %lld differs from out_shape[%d] = %lld "
                              "(axes other than axis_in and axis_out are not redistributed)",
                              where, i, (long long)in_shape[i], i, (long long)out_shape[i]);
    }
    if (shape_count_bounded(ndims, in_shape, batch) < 0 || shape_count_bounded(ndims, out_shape, batch) < 0)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: batch x in_shape or batch x out_shape has more than 2^59 elements", where);
    int parts, part;
    MPI_Comm_size(comm, &parts);
    MPI_Comm_rank(comm, &part);
    int64_t expect_out, expect_in;
    distfft_decompose(in_shape[axis_in], parts, part, &expect_out, NULL);
    distfft_decompose(out_shape[axis_out], parts, part, &expect_in, NULL);
    if (out_shape[axis_in] != expect_out)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: out_shape[%d] = %lld, but this rank's block of %lld in %d parts "
                          "has %lld elements", where, axis_in, (long long)out_shape[axis_in],
                          (long long)in_shape[axis_in], parts, (long long)expect_out);
    if (in_shape[axis_out] != expect_in)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: in_shape[%d] = %lld, but this rank's block of %lld in %d parts "
                          "has %lld elements", where, axis_out, (long long)in_shape[axis_out],
                          (long long)out_shape[axis_out], parts, (long long)expect_in);

    *geometry = (redist_geometry){.type = type, .ndims = ndims, .axis_in = axis_in,
                                  .axis_out = axis_out, .batch = batch,
                                  .parts = parts, .part = part};
    memcpy(geometry->in_shape, in_shape, ndims * sizeof *in_shape);
    memcpy(geometry->out_shape, out_shape, ndims * sizeof *out_shape);
    replicated_add(args, type, "element type");
    replicated_add(args, method, "method");
    replicated_add(args, ndims, "ndims");
    replicated_add(args, axis_in, "axis_in");
    replicated_add(args, axis_out, "axis_out");
    replicated_add(args, batch, "batch");
    /* Everything but this rank's block along axis_out is global in the group. */
    for (int i = 0; i < ndims; i++)
        if (i != axis_out) replicated_add(args, in_shape[i], "in_shape[%d]", i);
    replicated_add(args, out_shape[axis_out], "out_shape[%d]", axis_out);
    return DISTFFT_SUCCESS;
}

int distfft_redist_create(MPI_Comm subcomm, distfft_type type, int ndims,
                          const int64_t *in_shape, int axis_in,
                          const int64_t *out_shape, int axis_out,
                          int64_t batch, distfft_method method,
                          distfft_redist *redist)
{
    error_clear();
    if (redist) *redist = NULL;
    if (subcomm == MPI_COMM_NULL)
        return error_fail(DISTFFT_ERR_ARGUMENT,
                          "distfft_redist_create: subcomm is MPI_COMM_NULL");
    int rc = DISTFFT_SUCCESS;
    MPI_Comm comm = MPI_COMM_NULL;
    TRY_MPI(MPI_Comm_dup(subcomm, &comm));
    TRY_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));

    redist_geometry geometry;
    replicated_args args;
    replicated_init(&args);
    int local = check_create(comm, type, ndims, in_shape, axis_in, out_shape,
                             axis_out, batch, method, redist, &geometry, &args);
    TRY(error_agree_replicated(comm, local, &args));
    TRY(redist_create_on(comm, comm, &geometry, method, redist));
    (*redist)->owns_comm = 1;
    return DISTFFT_SUCCESS;
fail:
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    return rc;
}

/* Do the byte ranges [a, a+a_bytes) and [b, b+b_bytes) overlap? */
static int ranges_overlap(const void *a, int64_t a_bytes, const void *b,
                          int64_t b_bytes)
{
    const char *pa = a, *pb = b;
    return a_bytes > 0 && b_bytes > 0 && pa < pb + b_bytes && pb < pa + a_bytes;
}

int distfft_redist_execute(distfft_redist redist, const void *in, void *out)
{
    error_clear();
    if (!redist)
        return error_fail(DISTFFT_ERR_ARGUMENT,
                          "distfft_redist_execute: redist is NULL (destroyed "
                          "or never created)");
    int local = DISTFFT_SUCCESS;
    size_t element = distfft_type_size(redist->geometry.type);
    if (!in && redist->in_count > 0)
        local = error_fail(DISTFFT_ERR_ARGUMENT, "distfft_redist_execute: in "
                           "is NULL but this rank's input block has %lld elements",
                           (long long)redist->in_count);
    else if (!out && redist->out_count > 0)
        local = error_fail(DISTFFT_ERR_ARGUMENT, "distfft_redist_execute: out "
                           "is NULL but this rank's output block has %lld elements",
                           (long long)redist->out_count);
    else if (ranges_overlap(in, redist->in_count * (int64_t)element, out,
                            redist->out_count * (int64_t)element))
        local = error_fail(DISTFFT_ERR_ARGUMENT, "distfft_redist_execute: in "
                           "and out overlap (the exchange is out-of-place)");
    int rc = error_agree(redist->comm, local);
    if (rc != DISTFFT_SUCCESS) return rc;
    return redist_run(redist, in, out);
}

void redist_free(struct distfft_redist_s *redist)
{
    if (!redist) return;
    redist->method->destroy(redist->state);
    if (redist->owns_comm) MPI_Comm_free(&redist->comm);
    free(redist);
}

int distfft_redist_destroy(distfft_redist *redist)
{
    error_clear();
    if (!redist)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_redist_destroy: NULL");
    redist_free(*redist);
    *redist = NULL;
    return DISTFFT_SUCCESS;
}
