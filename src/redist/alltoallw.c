/*
 * alltoallw.c -- the paper's method (Sec. 3.3.2, Alg. 2 and 3, Listings 2
 * and 3): one subarray datatype per peer for the chunk of the input to send
 * and one for the chunk of the output to receive, built once here; each
 * execution is ONE MPI_Alltoallw with counts 1 and displacements 0, every
 * offset living inside the datatypes. No local copies, no transposes.
 *
 * Sending: the input is partitioned along its aligned axis v into the
 *   parts' blocks (chunk p goes to rank p, which will own block p of v).
 * Receiving: the output is partitioned along its aligned axis w (chunk p
 *   comes from rank p, which owned block p of w).
 * A leading batch dimension is one more, undivided, subarray dimension, so
 * all fields travel in the same exchange.
 * An empty chunk (a rank with no points along an axis) is sent as count 0.
 * Sizes: a subarray type takes int extents per axis, so each local axis
 * (and the batch) must stay below 2^31; the chunk as a whole may hold more
 * than INT_MAX elements and bytes (count 1 of a type whose size MPI keeps
 * as an MPI_Count), and no offsets appear outside the types.
 */
#include <limits.h>
#include <stdlib.h>

#include "../error.h"
#include "../types.h"
#include "redist.h"

typedef struct {
    int parts;
    int *send_counts, *receive_counts, *displacements;
    MPI_Datatype *send_types, *receive_types;
} alltoallw_state;

static int alltoallw_destroy(void *opaque)
{
    int rc = DISTFFT_SUCCESS;
    alltoallw_state *state = opaque;
    if (!state) return rc;
    for (int p = 0; p < state->parts; p++) {
        if (state->send_types && state->send_counts && state->send_counts[p] > 0)
            KEEP_MPI(MPI_Type_free(&state->send_types[p]));
        if (state->receive_types && state->receive_counts && state->receive_counts[p] > 0)
            KEEP_MPI(MPI_Type_free(&state->receive_types[p]));
    }
    free(state->send_counts);
    free(state->receive_counts);
    free(state->displacements);
    free(state->send_types);
    free(state->receive_types);
    free(state);
    return rc;
}

/* Alg. 2: the datatypes of the `parts` chunks of a local array of `shape`
 * (with leading batch dimension) partitioned along `axis`. An empty chunk
 * gets count 0 and the predefined MPI_BYTE (never freed). */
static int make_subarrays(distfft_type type, int ndims, const int64_t *shape,
                          int64_t batch, int axis, int parts, int *counts,
                          MPI_Datatype *types)
{
    int rc = DISTFFT_SUCCESS;
    int sizes[DISTFFT_MAX_DIMS + 1], subsizes[DISTFFT_MAX_DIMS + 1],
        starts[DISTFFT_MAX_DIMS + 1];
    sizes[0] = subsizes[0] = (int)batch;
    starts[0] = 0;
    for (int i = 0; i < ndims; i++) {
        sizes[i + 1] = subsizes[i + 1] = (int)shape[i];
        starts[i + 1] = 0;
    }
    for (int p = 0; p < parts; p++) {
        int64_t length, start;
        distfft_decompose(shape[axis], parts, p, &length, &start);
        subsizes[axis + 1] = (int)length;
        starts[axis + 1] = (int)start;
        counts[p] = 0;
        types[p] = MPI_BYTE; /* a count-0 entry still needs a valid handle */
        if (length == 0 || shape_product(ndims, shape) == 0) continue;
        MPI_Datatype chunk;
        TRY_MPI(MPI_Type_create_subarray(ndims + 1, sizes, subsizes, starts,
                                         MPI_ORDER_C, type_mpi(type), &chunk));
        types[p] = chunk;
        counts[p] = 1;
        TRY_MPI(MPI_Type_commit(&types[p]));
    }
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

static int fits_int(int ndims, const int64_t *shape, int64_t batch)
{
    if (batch > INT_MAX) return 0;
    for (int i = 0; i < ndims; i++)
        if (shape[i] > INT_MAX) return 0;
    return 1;
}

static int alltoallw_create(MPI_Comm comm, const redist_geometry *g,
                  const void *parameters, void **opaque)
{
    (void)parameters;
    (void)comm;
    *opaque = NULL;
    if (!fits_int(g->ndims, g->in_shape, g->batch) ||
        !fits_int(g->ndims, g->out_shape, g->batch))
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "alltoallw: a local extent "
                          "exceeds INT_MAX, which subarray datatypes cannot "
                          "describe");
    int rc = DISTFFT_SUCCESS;
    alltoallw_state *state = calloc(1, sizeof *state);
    if (!state) return error_fail(DISTFFT_ERR_MEMORY, "alltoallw state");
    int parts = state->parts = g->parts;
    state->send_counts = calloc(parts, sizeof(int));
    state->receive_counts = calloc(parts, sizeof(int));
    state->displacements = calloc(parts, sizeof(int));
    state->send_types = calloc(parts, sizeof(MPI_Datatype));
    state->receive_types = calloc(parts, sizeof(MPI_Datatype));
    if (!state->send_counts || !state->receive_counts || !state->displacements ||
        !state->send_types || !state->receive_types) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "alltoallw datatype tables");
        goto fail;
    }
    TRY(make_subarrays(g->type, g->ndims, g->in_shape, g->batch, g->axis_in,
                       parts, state->send_counts, state->send_types));
    TRY(make_subarrays(g->type, g->ndims, g->out_shape, g->batch, g->axis_out,
                       parts, state->receive_counts, state->receive_types));
    *opaque = state;
    return DISTFFT_SUCCESS;
fail:
    KEEP(alltoallw_destroy(state));
    return rc;
}

static int alltoallw_execute(void *opaque, MPI_Comm comm, const void *in,
                             void *out)
{
    alltoallw_state *state = opaque;
    /* Some MPI libraries reject NULL buffers even for empty exchanges. */
    static char empty;
    int rc = DISTFFT_SUCCESS;
    TRY_MPI(MPI_Alltoallw(in ? in : &empty, state->send_counts,
                          state->displacements, state->send_types,
                          out ? out : (void *)&empty, state->receive_counts,
                          state->displacements, state->receive_types, comm));
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

/* The same exchange, non-blocking (MPI-3's MPI_Ialltoallw): pipelined
 * batched plans overlap it with the FFTs of another field. */
static int alltoallw_start(void *opaque, MPI_Comm comm, const void *in, void *out,
                           MPI_Request *request)
{
    alltoallw_state *state = opaque;
    static char empty;
    int rc = DISTFFT_SUCCESS;
    TRY_MPI(MPI_Ialltoallw(in ? in : &empty, state->send_counts, state->displacements,
                           state->send_types, out ? out : (void *)&empty, state->receive_counts,
                           state->displacements, state->receive_types, comm, request));
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

/* The subarray datatypes of the non-empty chunks (this rank's own too:
 * MPI copies it through the types). */
static void alltoallw_describe(const void *opaque, int depth, text *out)
{
    const alltoallw_state *state = opaque;
    int sends = 0, receives = 0;
    for (int p = 0; p < state->parts; p++) {
        sends += state->send_counts[p] > 0;
        receives += state->receive_counts[p] > 0;
    }
    text_node(out, depth, "one MPI_Alltoallw, %d send and %d receive subarray datatypes", sends, receives);
}

const redist_method redist_alltoallw = {
    .name = "alltoallw",
    .create = alltoallw_create,
    .execute = alltoallw_execute,
    .destroy = alltoallw_destroy,
    .start = alltoallw_start,
    .describe = alltoallw_describe,
};
