/*
 * vector.c -- the zero-copy vector-datatype exchange of Hoefler and
 * Gottlieb (paper 004, Sec. 2.2): ONE MPI_Alltoall with count 1 per peer,
 * the local remapping folded into two datatypes built once here.
 *
 * Send type: the chunk bound for peer 0 -- `rows` runs of b_v * inner
 *   contiguous elements, one whole row of the input apart (chunks.h), i.e.
 *   a vector -- resized (MPI_Type_create_resized) to the extent of ONE run
 *   of b_v * inner elements, so the chunk of peer p starts p extents later:
 *   consecutive peers' combs interleave, as the paper's Fig. 2(b).
 * Receive type: the matching comb in the output, partitioned along
 *   axis_out, resized the same way.
 * The paper's receive type also transposes each block (blocklength 1):
 * its output is stored transposed. distfft keeps the natural axis order
 * (output axes are never transposed), so the receiver's chunk is the same
 * C-ordered sub-block as the sender's and its comb has contiguous runs too.
 *
 * The exchange is MPI_Alltoallv with count 1 and displacement p (in
 * extents) for peer p -- what MPI_Alltoall does with these types -- because
 * Bruck's algorithm, which MPI_Alltoall may choose for short blocks, sizes
 * its temporary buffers by the extent and so mishandles a type resized
 * below its true extent: Open MPI 4.1's (coll_tuned_alltoall_algorithm 3)
 * returns wrong data, SimGrid SMPI's corrupts the heap. MPI_Alltoallv's
 * algorithms take each block where it lies.
 *
 * The one thing to know: every peer gets the same type at displacements
 * p * extent, so every peer's block must have the same shape:
 * the group size M must divide both exchanged axes (in_shape[axis_in] and
 * out_shape[axis_out]). Elsewhere (uneven blocks, more ranks than points)
 * applicable() says no, naming the shape -- the same on every rank, since
 * those lengths are replicated: an explicit request fails with
 * DISTFFT_ERR_UNSUPPORTED, and "auto" skips it.
 *
 * Sizes: the vector's count, block length and stride are int in MPI. Runs
 * longer than the message limit go as one derived type (big_count.h); strides
 * are in bytes (MPI_Type_create_hvector, the byte-stride twin of the paper's
 * MPI_Type_vector); and when `rows` exceeds the limit it is split along the
 * array's own axes into nested hvectors, so only each local extent (and
 * the batch) must stay below 2^31, as for alltoallw. DISTFFT_MAX_MESSAGE=7
 * drives small arrays down those paths in the tests.
 */
#include <limits.h>
#include <stdlib.h>

#include "../error.h"
#include "../big_count.h"
#include "../types.h"
#include "chunks.h"
#include "redist.h"

typedef struct {
    MPI_Datatype send_type, receive_type;
    int *counts, *displacements;   /* per peer: 1, and p extents */
    chunk_exchange *priced;        /* MPI's copies made as local work (chunks.h); NULL natively */
} vector_state;

static int vector_destroy(void *opaque)
{
    int rc = DISTFFT_SUCCESS;
    vector_state *state = opaque;
    if (!state) return rc;
    if (state->send_type != MPI_DATATYPE_NULL) KEEP_MPI(MPI_Type_free(&state->send_type));
    if (state->receive_type != MPI_DATATYPE_NULL) KEEP_MPI(MPI_Type_free(&state->receive_type));
    free(state->counts);
    free(state->displacements);
    KEEP(chunk_priced_free(state->priced));
    free(state);
    return rc;
}

/* Replace *type by `count` copies of it `stride` bytes apart (an hvector);
 * the old type, if derived (owned), is freed. */
static int nest(int64_t count, MPI_Aint stride, MPI_Datatype *type, int *owned,
                int block)
{
    MPI_Datatype outer;
    int code = MPI_Type_create_hvector((int)count, block, stride, *type, &outer);
    if (code != MPI_SUCCESS) return error_mpi(code, "MPI_Type_create_hvector");
    int freed = *owned ? CHECK_MPI(MPI_Type_free(type)) : DISTFFT_SUCCESS;
    *type = outer;
    *owned = 1;
    return freed;
}

/* The comb of peer 0's chunk of a local array (batch x shape) partitioned
 * along `axis` in `parts` equal blocks, resized to one run's extent. */
static int comb_type(distfft_type element_type, int ndims, const int64_t *shape,
                     int64_t batch, int axis, int parts, MPI_Datatype *comb)
{
    int rc = DISTFFT_SUCCESS;
    int64_t limit = big_count_limit();
    MPI_Aint element = (MPI_Aint)distfft_type_size(element_type);
    int64_t inner = shape_product(ndims - axis - 1, shape + axis + 1);
    int64_t run = shape[axis] / parts * inner;
    big_message piece = {.count = 0, .type = MPI_BYTE, .owned = 0};
    int code = big_message_create(run, type_mpi(element_type), limit, &piece);
    if (code != MPI_SUCCESS) return error_mpi(code, "vector: a run's datatype");
    MPI_Datatype type = piece.type;
    int owned = piece.owned, block = piece.count;
    /* Outer factors, innermost first: the axes before `axis`, then the
     * batch; merged into one vector while their product stays in limit. */
    int64_t factors[DISTFFT_MAX_DIMS + 1];
    int count = 0;
    for (int i = axis - 1; i >= 0; i--) factors[count++] = shape[i];
    factors[count++] = batch;
    MPI_Aint stride = (MPI_Aint)(shape[axis] * inner) * element;
    for (int i = 0; i < count;) {
        int64_t merged = 1;
        int first = i;
        while (i < count && merged * factors[i] <= limit) /* limit <= INT_MAX */
            merged *= factors[i++];
        if (i == first) merged = factors[i++]; /* one factor beyond the limit */
        TRY(nest(merged, stride, &type, &owned, block));
        block = 1;
        stride *= (MPI_Aint)merged;
    }
    TRY_MPI(MPI_Type_create_resized(type, 0, (MPI_Aint)run * element, comb));
    TRY_MPI(MPI_Type_commit(comb)); /* made but failed: the caller frees *comb */
fail:
    if (owned) KEEP_MPI(MPI_Type_free(&type));
    return rc;
}

/* May this exchange use one type for every peer? Pencils with equal
 * blocks: then every local extent is alike on every rank, and so is the
 * answer. */
static bool vector_applicable(const redist_problem *problem, text *why)
{
    if (!redist_applies_to_pencils(problem, why)) return false;
    const redist_geometry *g = problem->pencils;
    int64_t n_in = g->in_shape[g->axis_in], n_out = g->out_shape[g->axis_out];
    if (n_in % g->parts != 0 || n_out % g->parts != 0) {
        char in_text[192], out_text[192];
        shape_format(g->ndims, g->in_shape, in_text, sizeof in_text);
        shape_format(g->ndims, g->out_shape, out_text, sizeof out_text);
        if (why)
            text_append(why, "%s (axis %d) -> %s (axis %d) on %d ranks: it needs equal blocks, so %d must "
                        "divide %lld and %lld (use alltoallw or auto for uneven blocks)", in_text, g->axis_in,
                        out_text, g->axis_out, g->parts, g->parts, (long long)n_in, (long long)n_out);
        return false;
    }
    bool fits = g->batch <= INT_MAX;
    for (int i = 0; i < g->ndims; i++) fits = fits && g->in_shape[i] <= INT_MAX && g->out_shape[i] <= INT_MAX;
    if (!fits && why) text_append(why, "a local extent or the batch exceeds INT_MAX");
    return fits;
}

static int vector_create(MPI_Comm comm, const redist_geometry *g,
                         const void *parameters, void **opaque)
{
    (void)parameters;
    (void)comm;
    *opaque = NULL;
    int rc = DISTFFT_SUCCESS;
    vector_state *state = calloc(1, sizeof *state);
    if (!state) return error_fail(DISTFFT_ERR_MEMORY, "vector state");
    state->send_type = state->receive_type = MPI_DATATYPE_NULL;
    state->counts = malloc((size_t)g->parts * sizeof(int));
    state->displacements = malloc((size_t)g->parts * sizeof(int));
    if (!state->counts || !state->displacements) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "vector: counts of %d peers", g->parts);
        goto fail;
    }
    for (int p = 0; p < g->parts; p++) {
        state->counts[p] = 1;
        state->displacements[p] = p;
    }
    TRY(chunk_priced_init(g, "vector", &state->priced));
    TRY(comb_type(g->type, g->ndims, g->in_shape, g->batch, g->axis_in,
                  g->parts, &state->send_type));
    TRY(comb_type(g->type, g->ndims, g->out_shape, g->batch, g->axis_out,
                  g->parts, &state->receive_type));
    *opaque = state;
    return DISTFFT_SUCCESS;
fail:
    KEEP(vector_destroy(state));
    return rc;
}

static int vector_execute(void *opaque, MPI_Comm comm, const void *in, void *out)
{
    const vector_state *state = opaque;
    static char empty; /* some MPIs reject NULL even for empty exchanges */
    int rc = DISTFFT_SUCCESS;
    chunk_priced_run(state->priced, in, out);
    TRY_MPI(MPI_Alltoallv(in ? in : &empty, state->counts, state->displacements, state->send_type,
                          out ? out : (void *)&empty, state->counts, state->displacements, state->receive_type,
                          comm));
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

/* The same exchange, non-blocking (pipelined batched plans overlap it). */
static int vector_start(void *opaque, MPI_Comm comm, const void *in, void *out, MPI_Request *request)
{
    const vector_state *state = opaque;
    static char empty;
    int rc = DISTFFT_SUCCESS;
    chunk_priced_run(state->priced, in, out);
    TRY_MPI(MPI_Ialltoallv(in ? in : &empty, state->counts, state->displacements, state->send_type,
                           out ? out : (void *)&empty, state->counts, state->displacements,
                           state->receive_type, comm, request));
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

static void vector_describe(const void *opaque, int depth, text *out)
{
    (void)opaque; /* the same two types for every peer, whatever the geometry */
    text_node(out, depth, "one MPI_Alltoallv, count 1 of one resized vector datatype each way");
}

const redist_method redist_vector = {
    .name = "vector",
    .applicable = vector_applicable,
    .create = vector_create,
    .execute = vector_execute,
    .destroy = vector_destroy,
    .start = vector_start,
    .describe = vector_describe,
};
