/*
 * redistribution.c -- the public redistribution API (paper 000 Sec. 3.3.2,
 * Alg. 2 and 3): argument checks and their agreement on every rank, then
 * the redistribution object of redist/ -- or, for "auto", the one tune/
 * measured fastest.
 */
#include <string.h>

#include "../error.h"
#include "../lifetime.h"
#include "../redist/redist.h"
#include "../tune/tune.h"
#include "../types.h"

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
    if (!redist_method_row(method) && method != DISTFFT_METHOD_AUTO)
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
    int parts, part, rc = mpi_rank_size(comm, &part, &parts);
    if (rc != DISTFFT_SUCCESS) return rc;
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
    /* local: failing on some ranks only, it is agreed with the checks */
    int local = CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));

    redist_geometry geometry;
    replicated_args args;
    replicated_init(&args);
    if (local == DISTFFT_SUCCESS)
        local = check_create(comm, type, ndims, in_shape, axis_in, out_shape, axis_out, batch, method,
                             redist, &geometry, &args);
    TRY(error_agree_replicated(comm, local, &args));
    if (method == DISTFFT_METHOD_AUTO) TRY(tune_exchange(comm, comm, &geometry, NULL, redist));
    else {
        /* a rank whose create succeeded frees it when another's failed */
        rc = error_agree(comm, redist_create(comm, &geometry, method, redist));
        if (rc != DISTFFT_SUCCESS) {
            KEEP(redist_free(*redist));
            *redist = NULL;
            goto fail;
        }
    }
    (*redist)->owns_comm = 1;
    rc = lifetime_register(subcomm, &(*redist)->lifetime); /* agreed */
    if (rc != DISTFFT_SUCCESS) {
        KEEP(redist_free(*redist)); /* its comm with it */
        *redist = NULL;
    }
    return rc;
fail:
    if (comm != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(&comm));
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

int distfft_redist_describe(const struct distfft_redist_s *redist, char *buf, size_t size)
{
    if (!redist) return -1;
    const redist_geometry *g = &redist->geometry;
    text out = text_on(buf, size);
    char in_shape[512], out_shape[512];
    shape_format(g->ndims, g->in_shape, in_shape, sizeof in_shape);
    shape_format(g->ndims, g->out_shape, out_shape, sizeof out_shape);
    text_append(&out, "(redist %s %d->%d %s to %s %s", redist->method->name, g->axis_in, g->axis_out, in_shape,
                out_shape, distfft_type_name(g->type));
    if (g->batch > 1) text_append(&out, " batch=%lld", (long long)g->batch);
    text_append(&out, " ranks=%d sends %lld bytes)", g->parts, (long long)redist_bytes_sent(redist));
    return (int)out.used;
}

int distfft_redist_destroy(distfft_redist *redist)
{
    error_clear();
    if (!redist)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_redist_destroy: NULL");
    int rc = DISTFFT_SUCCESS;
    if (*redist) KEEP(lifetime_forget(&(*redist)->lifetime));
    KEEP(redist_free(*redist));
    *redist = NULL;
    return rc;
}

static int redist_free_opaque(void *redist)
{
    return redist_free(redist);
}

int distfft_redist_release(distfft_redist *redist)
{
    error_clear();
    if (!redist) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_redist_release: NULL");
    return redist_release(redist, NULL);
}

int redist_release(distfft_redist *redist, MPI_Comm *companion)
{
    if (!*redist) return DISTFFT_SUCCESS;
    lifetime_tag tag = (*redist)->lifetime;
    int rc = lifetime_release_with(&tag, redist_free_opaque, *redist, companion);
    if (rc == DISTFFT_ERR_MEMORY && tag.queue) return rc; /* no record: nothing freed, the object is intact */
    *redist = NULL;
    return rc;
}
