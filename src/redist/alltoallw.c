/*
 * alltoallw.c -- the paper's method (Sec. 3.3.2, Alg. 2 and 3, Listings 2
 * and 3): subarray datatypes for the chunk of the input to send to each
 * peer and the chunk of the output to receive from each, built once here;
 * each execution is ONE MPI_Alltoallw with counts 1. No local copies, no
 * transposes (MPI packs the datatypes; on a platform whose MPI does so
 * without charging the time, the same copies are made as local work
 * before the call: chunk_priced_run).
 *
 * Sending: the input is partitioned along its aligned axis v into the
 *   parts' blocks (chunk p goes to rank p, which will own block p of v).
 * Receiving: the output is partitioned along its aligned axis w (chunk p
 *   comes from rank p, which owned block p of w).
 * A leading batch dimension is one more, undivided, subarray dimension, so
 * all fields travel in the same exchange.
 * An empty chunk (a rank with no points along an axis) is sent as count 0.
 *
 * One datatype per chunk LENGTH, not per peer: the paper gives chunk p a
 * subarray starting at block p's start; two chunks of the same length are
 * the same subarray shifted along the axis, so here each distinct length
 * (one or two: distfft_decompose's blocks differ by at most one point) gets
 * one subarray starting at 0, and the shift of chunk p goes into
 * MPI_Alltoallw's byte displacement. A rank then holds 2 to 4 datatypes per
 * exchange instead of 2p: at thousands of ranks and slabs that is what a
 * plan's datatypes cost (SimGrid's SMPI, whose datatypes are large, held
 * ~20 GB of them for 8,192 simulated ranks of a 512^3 pencil). The
 * displacements are ints: when a shift exceeds the message limit
 * (big_count_limit: INT_MAX, or DISTFFT_MAX_MESSAGE in the tests) every
 * chunk gets its own subarray with the shift inside, as in the paper.
 * Sizes: a subarray type takes int extents per axis, so each local axis
 * (and the batch) must stay below 2^31; the chunk as a whole may hold more
 * than INT_MAX elements and bytes (count 1 of a type whose size MPI keeps
 * as an MPI_Count).
 *
 * Between the boxes of two layouts (a reshape) the chunks are the boxes'
 * intersections, subarrays of both boxes; chunks of one shape share a
 * datatype in the same way (make_box_subarrays).
 */
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../big_count.h"
#include "../error.h"
#include "../types.h"
#include "chunks.h"
#include "redist.h"

typedef struct {
    int parts;
    int *send_counts, *receive_counts;
    int *send_displacements, *receive_displacements;  /* bytes */
    MPI_Datatype *send_types, *receive_types;         /* [parts], shared between peers */
    MPI_Datatype *owned;                              /* the distinct ones, freed once */
    int owned_count;
    chunk_exchange *priced; /* MPI's copies made as local work (chunks.h); NULL natively */
} alltoallw_state;

static int alltoallw_destroy(void *opaque)
{
    int rc = DISTFFT_SUCCESS;
    alltoallw_state *state = opaque;
    if (!state) return rc;
    for (int i = 0; i < state->owned_count; i++) KEEP_MPI(MPI_Type_free(&state->owned[i]));
    free(state->owned);
    free(state->send_counts);
    free(state->receive_counts);
    free(state->send_displacements);
    free(state->receive_displacements);
    free(state->send_types);
    free(state->receive_types);
    KEEP(chunk_priced_free(state->priced));
    free(state);
    return rc;
}

/* The subarray (subshape at `start`) of a local array of `shape`, with the
 * leading batch dimension, committed and recorded in state->owned. */
static int make_box(alltoallw_state *state, distfft_type type, int ndims, const int64_t *shape, int64_t batch,
                    const int64_t *subshape, const int64_t *start, MPI_Datatype *made)
{
    int rc = DISTFFT_SUCCESS;
    int sizes[DISTFFT_MAX_DIMS + 1], subsizes[DISTFFT_MAX_DIMS + 1], starts[DISTFFT_MAX_DIMS + 1];
    sizes[0] = subsizes[0] = (int)batch;
    starts[0] = 0;
    for (int i = 0; i < ndims; i++) {
        sizes[i + 1] = (int)shape[i];
        subsizes[i + 1] = (int)subshape[i];
        starts[i + 1] = (int)start[i];
    }
    MPI_Datatype chunk;
    TRY_MPI(MPI_Type_create_subarray(ndims + 1, sizes, subsizes, starts, MPI_ORDER_C,
                                     type_mpi(type), &chunk));
    state->owned[state->owned_count++] = chunk; /* freed by alltoallw_destroy, even uncommitted */
    TRY_MPI(MPI_Type_commit(&state->owned[state->owned_count - 1]));
    *made = state->owned[state->owned_count - 1];
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

/* The subarray of a chunk of `length` points along `axis`, from `start`. */
static int make_subarray(alltoallw_state *state, distfft_type type, int ndims,
                         const int64_t *shape, int64_t batch, int axis, int64_t length,
                         int64_t start, MPI_Datatype *made)
{
    int64_t subshape[DISTFFT_MAX_DIMS], starts[DISTFFT_MAX_DIMS] = {0};
    for (int i = 0; i < ndims; i++) subshape[i] = shape[i];
    subshape[axis] = length;
    starts[axis] = start;
    return make_box(state, type, ndims, shape, batch, subshape, starts, made);
}

/* Alg. 2: the datatypes and byte displacements of the `parts` chunks of a
 * local array of `shape` (with leading batch dimension) partitioned along
 * `axis`: one subarray per distinct chunk length and the chunk's shift in
 * its displacement, or, when a shift does not fit the limit, one subarray
 * per chunk (top of the file). An empty chunk gets count 0 and the
 * predefined MPI_BYTE (never freed). */
static int make_subarrays(alltoallw_state *state, distfft_type type, int ndims,
                          const int64_t *shape, int64_t batch, int axis, int *counts,
                          int *displacements, MPI_Datatype *types)
{
    int parts = state->parts;
    /* bytes from one point of `axis` to the next: the axes after it, one element */
    int64_t row[DISTFFT_MAX_DIMS + 1];
    int factors = 0;
    for (int i = axis + 1; i < ndims; i++) row[factors++] = shape[i];
    row[factors++] = (int64_t)distfft_type_size(type);
    int64_t last_length, last_start;
    distfft_decompose(shape[axis], parts, parts - 1, &last_length, &last_start);
    row[factors] = last_start;
    bool shifted = last_start == 0 ||
                   big_count_product_fits(factors + 1, row, big_count_limit());
    int64_t stride = shape_product(factors, row); /* fits when shifted and last_start > 0 */
    int64_t known_length[2];                      /* distfft_decompose: at most two */
    MPI_Datatype known_type[2];
    int known = 0;
    for (int p = 0; p < parts; p++) {
        int64_t length, start;
        distfft_decompose(shape[axis], parts, p, &length, &start);
        counts[p] = 0;
        displacements[p] = 0;
        types[p] = MPI_BYTE; /* a count-0 entry still needs a valid handle */
        if (length == 0 || shape_product(ndims, shape) == 0) continue;
        counts[p] = 1;
        int k = 0;
        if (shifted) {
            displacements[p] = (int)(start * stride);
            while (k < known && known_length[k] != length) k++;
            if (k < known) {
                types[p] = known_type[k];
                continue;
            }
        }
        int rc = make_subarray(state, type, ndims, shape, batch, axis, length,
                               shifted ? 0 : start, &types[p]);
        if (rc != DISTFFT_SUCCESS) return rc;
        if (shifted && known < 2) {
            known_length[known] = length;
            known_type[known++] = types[p];
        }
    }
    return DISTFFT_SUCCESS;
}

/* A reshape's side: peer p's chunk is this rank's box of `own` met with
 * p's box of `other` (`shapes`: room for a shape per peer). Peers whose
 * chunks have the same shape share one
 * subarray starting at 0, the chunk's place in the byte displacement --
 * O(1) datatypes where the boxes are pencils of a grid -- unless that
 * place is past the message limit: then the chunk gets its own subarray
 * with its start inside. */
static int make_box_subarrays(alltoallw_state *state, const redist_geometry *g,
                              const struct distfft_layout_s *own, const struct distfft_layout_s *other,
                              int64_t *shapes, int *counts, int *displacements, MPI_Datatype *types)
{
    int ndims = g->ndims, me = g->part, known = 0, first = state->owned_count;
    const int64_t *own_start = layout_start(own, me), *own_shape = layout_shape(own, me);
    int64_t element = (int64_t)distfft_type_size(g->type), limit = big_count_limit();
    for (int p = 0; p < state->parts; p++) {
        int64_t start[DISTFFT_MAX_DIMS], shape[DISTFFT_MAX_DIMS], at = 0;
        counts[p] = 0;
        displacements[p] = 0;
        types[p] = MPI_BYTE; /* a count-0 entry still needs a valid handle */
        if (layout_intersect(ndims, own_start, own_shape, layout_start(other, p), layout_shape(other, p), start,
                             shape) == 0)
            continue;
        counts[p] = 1;
        for (int i = 0; i < ndims; i++) {
            start[i] -= own_start[i];
            at = at * own_shape[i] + start[i];
        }
        bool shifted = at * element <= limit;
        int k = 0; /* the subarrays made by this side that start at 0 are state->owned[first ..] */
        while (shifted && k < known && memcmp(shapes + (size_t)k * ndims, shape, ndims * sizeof *shape)) k++;
        if (shifted) displacements[p] = (int)(at * element);
        if (shifted && k < known) {
            types[p] = state->owned[first + k];
            continue;
        }
        int64_t origin[DISTFFT_MAX_DIMS] = {0};
        int rc = make_box(state, g->type, ndims, own_shape, g->batch, shape, shifted ? origin : start, &types[p]);
        if (rc != DISTFFT_SUCCESS) return rc;
        if (shifted && known == state->owned_count - 1 - first)
            memcpy(shapes + (size_t)known++ * ndims, shape, ndims * sizeof *shape);
    }
    return DISTFFT_SUCCESS;
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
    state->send_displacements = calloc(parts, sizeof(int));
    state->receive_displacements = calloc(parts, sizeof(int));
    state->send_types = calloc(parts, sizeof(MPI_Datatype));
    state->receive_types = calloc(parts, sizeof(MPI_Datatype));
    state->owned = calloc(2 * (size_t)parts, sizeof(MPI_Datatype));
    if (!state->send_counts || !state->receive_counts || !state->send_displacements ||
        !state->receive_displacements || !state->send_types || !state->receive_types ||
        !state->owned) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "alltoallw datatype tables");
        goto fail;
    }
    TRY(chunk_priced_init(g, "alltoallw", &state->priced));
    if (g->boxes_in) {
        int64_t *shapes = malloc((size_t)parts * g->ndims * sizeof *shapes + 1);
        rc = shapes ? make_box_subarrays(state, g, g->boxes_in, g->boxes_out, shapes, state->send_counts,
                                         state->send_displacements, state->send_types)
                    : error_fail(DISTFFT_ERR_MEMORY, "alltoallw datatype shapes");
        if (rc == DISTFFT_SUCCESS)
            rc = make_box_subarrays(state, g, g->boxes_out, g->boxes_in, shapes, state->receive_counts,
                                    state->receive_displacements, state->receive_types);
        free(shapes);
        if (rc != DISTFFT_SUCCESS) goto fail;
        *opaque = state;
        return DISTFFT_SUCCESS;
    }
    TRY(make_subarrays(state, g->type, g->ndims, g->in_shape, g->batch, g->axis_in,
                       state->send_counts, state->send_displacements, state->send_types));
    TRY(make_subarrays(state, g->type, g->ndims, g->out_shape, g->batch, g->axis_out,
                       state->receive_counts, state->receive_displacements,
                       state->receive_types));
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
    chunk_priced_run(state->priced, in, out);
    TRY_MPI(MPI_Alltoallw(in ? in : &empty, state->send_counts,
                          state->send_displacements, state->send_types,
                          out ? out : (void *)&empty, state->receive_counts,
                          state->receive_displacements, state->receive_types, comm));
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
    chunk_priced_run(state->priced, in, out);
    TRY_MPI(MPI_Ialltoallw(in ? in : &empty, state->send_counts, state->send_displacements,
                           state->send_types, out ? out : (void *)&empty, state->receive_counts,
                           state->receive_displacements, state->receive_types, comm, request));
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

/* The chunks and the distinct subarray datatypes describing them (this
 * rank's own chunk too: MPI copies it through the types). */
static void alltoallw_describe(const void *opaque, int depth, text *out)
{
    const alltoallw_state *state = opaque;
    int sends = 0, receives = 0;
    for (int p = 0; p < state->parts; p++) {
        sends += state->send_counts[p] > 0;
        receives += state->receive_counts[p] > 0;
    }
    text_node(out, depth, "one MPI_Alltoallw, %d send and %d receive chunks, %d subarray datatypes",
              sends, receives, state->owned_count);
}

const redist_method redist_alltoallw = {
    .name = "alltoallw",
    .applicable = redist_applies_everywhere,
    .create = alltoallw_create,
    .execute = alltoallw_execute,
    .destroy = alltoallw_destroy,
    .start = alltoallw_start,
    .describe = alltoallw_describe,
};
