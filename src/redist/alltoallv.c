/*
 * alltoallv.c -- the traditional global redistribution (paper 000, Sec.
 * 3.3.1; OpenFFT's "Alltoallv", paper 001, Sec. 3.2.1): a local remapping
 * packs every peer's chunk contiguously into one send buffer, ONE
 * MPI_Alltoallv moves them (counts differ between peers when the sizes are
 * not divisible by the number of ranks), and each received chunk is
 * unpacked into the output.
 *
 * Buffers, counts and displacements are built once at create time
 * (chunks.c). This rank's own chunk is copied straight from input to output
 * rather than through the buffers and the collective (count 0 to itself).
 * MPI_Alltoallv's counts and displacements are ints (elements of the base
 * type). When the group's whole array exceeds that (big_count.h: beyond
 * INT_MAX, or the DISTFFT_MAX_MESSAGE testing limit; decided alike on every
 * rank, so all call the same collective), the same packed buffers move
 * with ONE MPI_Alltoallw instead, whose per-peer datatypes
 * (big_count_region_type) carry each region's 64-bit offset and length, with
 * counts 1 and displacements 0: same pattern, any size.
 *
 * Its second row, staged, is the same exchange for device memory: the
 * packing and unpacking run on the device (the exchange's copies,
 * copies.h), and the packed buffers go through pinned host buffers on
 * either side of the collective, so that an MPI that cannot read device
 * memory moves them.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "../error.h"
#include "chunks.h"
#include "redist.h"

typedef struct {
    chunk_exchange exchange;
    /* staged: host buffers (pinned) that MPI moves, beside the exchange's
     * buffers in device memory; NULL for alltoallv, whose MPI moves the
     * exchange's own. */
    bool staged;
    void *host_send, *host_receive;
    int *send_counts, *receive_counts; /* ints for MPI */
    int *send_displacements, *receive_displacements;
    /* Only for large exchanges (NULL otherwise): one type per peer region. */
    MPI_Datatype *send_types, *receive_types;
} alltoallv_state;

static int free_types(int parts, MPI_Datatype *types)
{
    int rc = DISTFFT_SUCCESS;
    for (int p = 0; types && p < parts; p++)
        if (types[p] != MPI_BYTE) KEEP_MPI(MPI_Type_free(&types[p]));
    free(types);
    return rc;
}

static int alltoallv_destroy(void *opaque)
{
    int rc = DISTFFT_SUCCESS;
    alltoallv_state *state = opaque;
    if (!state) return rc;
    KEEP(free_types(state->exchange.parts, state->send_types));
    KEEP(free_types(state->exchange.parts, state->receive_types));
    if (state->exchange.copies) {
        state->exchange.copies->release_host(state->host_send);
        state->exchange.copies->release_host(state->host_receive);
    }
    KEEP(chunk_exchange_free(&state->exchange));
    free(state->send_counts);
    free(state->receive_counts);
    free(state->send_displacements);
    free(state->receive_displacements);
    free(state);
    return rc;
}

/* 1 if the data of the whole group fits in `limit` elements: then every
 * count and displacement of every rank fits an int. Every rank of the group
 * computes the same answer from the geometry (the axes other than axis_in
 * and axis_out are alike on all of them, axis_in and axis_out are complete
 * on one side each; a reshape's layouts hold the global shape), so all
 * call the same collective. */
static int group_fits(const redist_geometry *g, int64_t limit)
{
    int64_t factors[DISTFFT_MAX_DIMS + 1];
    factors[0] = g->batch;
    for (int i = 0; i < g->ndims; i++)
        factors[i + 1] = g->boxes_in ? g->boxes_in->global_shape[i]
                         : i == g->axis_out ? g->out_shape[i] : g->in_shape[i];
    return big_count_product_fits(g->ndims + 1, factors, limit);
}

static void int_arguments(int parts, const int64_t *counts,
                          const int64_t *offsets, int *int_counts,
                          int *displacements)
{
    for (int p = 0; p < parts; p++) {
        int_counts[p] = (int)counts[p];
        displacements[p] = (int)offsets[p];
    }
}

/* The large-exchange form: a region type per non-empty peer, count 1;
 * empty ones count 0 of MPI_BYTE. */
static int region_types(const chunk_exchange *x, const int64_t *counts,
                        const int64_t *offsets, int64_t limit,
                        int *int_counts, int *displacements,
                        MPI_Datatype *types)
{
    for (int p = 0; p < x->parts; p++) {
        displacements[p] = 0;
        int_counts[p] = counts[p] > 0;
        if (counts[p] == 0) continue;
        int code = big_count_region_type(offsets[p], counts[p], x->datatype,
                                       limit, &types[p]);
        if (code != MPI_SUCCESS) {
            types[p] = MPI_BYTE;
            return error_fail(DISTFFT_ERR_MPI, "alltoallv: a datatype for a "
                              "chunk of %lld elements (MPI error %d)",
                              (long long)counts[p], code);
        }
    }
    return DISTFFT_SUCCESS;
}

/* staged's host buffers: as large as the exchange's own, pinned where
 * its memory can pin them. */
static int stage_buffers(alltoallv_state *state)
{
    const chunk_exchange *x = &state->exchange;
    size_t send = (size_t)x->send_total * x->element, receive = (size_t)x->receive_total * x->element;
    state->host_send = send ? x->copies->allocate_host(send) : NULL;
    state->host_receive = receive ? x->copies->allocate_host(receive) : NULL;
    if ((send && !state->host_send) || (receive && !state->host_receive))
        return error_fail(DISTFFT_ERR_MEMORY, "staged: pinned host buffers of %zu and %zu bytes", send, receive);
    return DISTFFT_SUCCESS;
}

static int alltoallv_create(MPI_Comm comm, const redist_geometry *g,
                  const void *parameters, void **opaque)
{
    (void)comm;
    *opaque = NULL;
    int rc = DISTFFT_SUCCESS;
    int parts = g->parts;
    bool staged = parameters != NULL;
    const char *name = staged ? "staged" : "alltoallv";
    alltoallv_state *state = calloc(1, sizeof *state);
    if (!state) return error_fail(DISTFFT_ERR_MEMORY, "%s state", name);
    TRY(chunk_exchange_init(g, name, &state->exchange));
    state->staged = staged;
    if (staged) TRY(stage_buffers(state));
    state->send_counts = calloc(parts, sizeof(int));
    state->receive_counts = calloc(parts, sizeof(int));
    state->send_displacements = calloc(parts, sizeof(int));
    state->receive_displacements = calloc(parts, sizeof(int));
    if (!state->send_counts || !state->receive_counts ||
        !state->send_displacements || !state->receive_displacements) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "alltoallv counts");
        goto fail;
    }
    const chunk_exchange *x = &state->exchange;
    int64_t limit = big_count_limit();
    if (group_fits(g, limit)) {
        int_arguments(parts, x->send_counts, x->send_offsets,
                      state->send_counts, state->send_displacements);
        int_arguments(parts, x->receive_counts, x->receive_offsets,
                      state->receive_counts, state->receive_displacements);
        *opaque = state;
        return DISTFFT_SUCCESS;
    }
    state->send_types = calloc(parts, sizeof(MPI_Datatype));
    state->receive_types = calloc(parts, sizeof(MPI_Datatype));
    if (!state->send_types || !state->receive_types) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "alltoallv datatype tables");
        goto fail;
    }
    for (int p = 0; p < parts; p++)
        state->send_types[p] = state->receive_types[p] = MPI_BYTE;
    TRY(region_types(x, x->send_counts, x->send_offsets, limit,
                     state->send_counts, state->send_displacements,
                     state->send_types));
    TRY(region_types(x, x->receive_counts, x->receive_offsets, limit,
                     state->receive_counts, state->receive_displacements,
                     state->receive_types));
    *opaque = state;
    return DISTFFT_SUCCESS;
fail:
    KEEP(alltoallv_destroy(state));
    return rc;
}

/* Some MPI libraries reject NULL buffers even for empty exchanges. */
static void *or_empty(void *buffer)
{
    static char empty;
    return buffer ? buffer : &empty;
}

/* The buffers MPI moves: the exchange's own, or staged's host copies. */
static void *mpi_send(const alltoallv_state *state)
{
    return or_empty(state->staged ? state->host_send : state->exchange.send_buffer);
}

static void *mpi_receive(const alltoallv_state *state)
{
    return or_empty(state->staged ? state->host_receive : state->exchange.receive_buffer);
}

/* staged's trip through the host: the packed chunks out before the
 * collective (to_host), the received ones back after it. Each waits for
 * its copy, so MPI sees finished host buffers. */
static int stage(const alltoallv_state *state, bool to_host)
{
    const chunk_exchange *x = &state->exchange;
    int64_t elements = to_host ? x->send_total : x->receive_total;
    if (!state->staged || elements == 0) return DISTFFT_SUCCESS;
    size_t bytes = (size_t)elements * x->element;
    return to_host ? x->copies->stage(state->host_send, x->send_buffer, bytes, true, x->stream)
                   : x->copies->stage(x->receive_buffer, state->host_receive, bytes, false, x->stream);
}

static int alltoallv_execute(void *opaque, MPI_Comm comm, const void *in,
                             void *out)
{
    alltoallv_state *state = opaque;
    const chunk_exchange *x = &state->exchange;
    int rc = DISTFFT_SUCCESS;
    chunk_pack_all(x, in);
    TRY(stage(state, true));
    if (state->send_types)
        TRY_MPI(MPI_Alltoallw(mpi_send(state), state->send_counts, state->send_displacements, state->send_types,
                              mpi_receive(state), state->receive_counts, state->receive_displacements,
                              state->receive_types, comm));
    else
        TRY_MPI(MPI_Alltoallv(mpi_send(state), state->send_counts, state->send_displacements, x->datatype,
                              mpi_receive(state), state->receive_counts, state->receive_displacements,
                              x->datatype, comm));
    TRY(stage(state, false));
    chunk_unpack_all(x, in, out);
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

static void alltoallv_describe(const void *opaque, int depth, text *out)
{
    const alltoallv_state *state = opaque;
    const char *collective = state->send_types ? "MPI_Alltoallw (beyond int counts)" : "MPI_Alltoallv";
    if (state->staged)
        text_node(out, depth, "pack on the %s, to pinned host buffers, one %s, back, unpack (synchronising)",
                  state->exchange.copies->name, collective);
    else
        text_node(out, depth, "pack, one %s, unpack", collective);
    chunk_exchange_describe(&state->exchange, "chunks", depth, out);
}

const redist_method redist_alltoallv = {
    .name = "alltoallv",
    .applicable = redist_applies_everywhere,
    .create = alltoallv_create,
    .execute = alltoallv_execute,
    .destroy = alltoallv_destroy,
    .scale = chunk_state_scale,
    .describe = alltoallv_describe,
};

/* staged: alltoallv for device memory, its MPI on host buffers -- pack on
 * the device, copy the packed chunks to pinned host buffers, one
 * collective, copy back, unpack. Any MPI will do (none needs to read
 * device memory); the copies wait for the stream, so the exchange
 * synchronises it. Host memory takes alltoallv itself. */
static bool staged_applicable(const redist_problem *problem, text *why)
{
    if (problem->memory != REDIST_MEMORY_HOST) return true;
    if (why) text_append(why, "it stages device memory through host buffers (host memory takes alltoallv)");
    return false;
}

static const bool staged_parameters = true;

const redist_method redist_staged = {
    .name = "staged",
    .applicable = staged_applicable,
    .parameters = &staged_parameters,
    .create = alltoallv_create,
    .execute = alltoallv_execute,
    .destroy = alltoallv_destroy,
    .scale = chunk_state_scale,
    .describe = alltoallv_describe,
};
