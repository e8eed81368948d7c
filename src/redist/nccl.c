/*
 * nccl.c -- the nccl exchange, for device memory: pack every peer's chunk
 * on the device, move the packed regions with one group of point-to-point
 * messages of the device's own library (the CUDA backend's NCCL:
 * ncclSend / ncclRecv between ncclGroupStart and ncclGroupEnd), unpack.
 * NCCL's all-to-all wants equal counts, and distfft's blocks are uneven,
 * hence a send and a receive per peer with a non-empty chunk (nccl.h).
 *
 * The one thing to know: nothing here waits. Pack, messages and unpack
 * are enqueued on the exchange's stream in that order and execute
 * returns; MPI is not involved once the communicator exists. The
 * library's communicator is made once per MPI communicator -- an id made
 * on rank 0, MPI_Bcast, every rank opening it -- and kept as an attribute
 * of that communicator, freed by the attribute's delete callback when the
 * communicator is freed: every exchange (and every candidate `auto`
 * times) on the same communicator shares it, and it is freed where the
 * communicator is, under the same collective rules (distfft.h: "Destroy
 * calls", "Release calls").
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "chunks.h"
#include "nccl.h"
#include "redist.h"

typedef struct {
    chunk_exchange exchange; /* first: chunk_state_scale */
    const redist_messages *library;
    void *communicator;      /* the MPI communicator's attribute holds it */
    redist_message *messages;
    int count;
} nccl_state;

int nccl_schedule(int parts, int part, const int64_t *send_counts, const int64_t *send_offsets,
                  const int64_t *receive_counts, const int64_t *receive_offsets, size_t element,
                  redist_message *messages)
{
    int count = 0;
    for (int k = 1; k < parts; k++) {
        int from = (part - k + parts) % parts, to = (part + k) % parts;
        if (receive_counts[from] > 0)
            messages[count++] = (redist_message){from, true, (size_t)receive_offsets[from] * element,
                                                 (size_t)receive_counts[from] * element};
        if (send_counts[to] > 0)
            messages[count++] = (redist_message){to, false, (size_t)send_offsets[to] * element,
                                                 (size_t)send_counts[to] * element};
    }
    return count;
}

/* ---- one library communicator per MPI communicator ------------------------------ */

typedef struct {
    const redist_messages *library;
    void *communicator;
    bool abandoned; /* its making failed on some rank: free it without waiting */
} cached_communicator;

static struct {
    pthread_once_t once;
    int keyval;
    int code;
} cache = {.once = PTHREAD_ONCE_INIT, .keyval = MPI_KEYVAL_INVALID};

/* MPI frees the communicator: free the library's with it. */
static int cached_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    cached_communicator *cached = value;
    int rc = cached->library->close(cached->communicator, cached->abandoned);
    free(cached);
    return rc == DISTFFT_SUCCESS ? MPI_SUCCESS : MPI_ERR_OTHER;
}

static void make_keyval(void)
{
    cache.code = CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, cached_delete, &cache.keyval, NULL));
}

/* The library's communicator cached on comm, or NULL. Local. */
static int cached_on(MPI_Comm comm, void **communicator)
{
    *communicator = NULL;
    if (pthread_once(&cache.once, make_keyval) != 0)
        return error_fail(DISTFFT_ERR_MPI, "nccl: the communicators' attribute key");
    if (cache.code != DISTFFT_SUCCESS) return cache.code;
    cached_communicator *cached = NULL;
    int found = 0;
    int rc = CHECK_MPI(MPI_Comm_get_attr(comm, cache.keyval, &cached, &found));
    if (rc == DISTFFT_SUCCESS && found) *communicator = cached->communicator;
    return rc;
}

/* A new communicator of the library on comm's ranks: the id made on rank
 * 0 and broadcast with its outcome, agreed, then opened on every rank,
 * and that outcome agreed. Collective; the same code on every rank. */
static int open_communicator(MPI_Comm comm, const redist_messages *library, void **communicator)
{
    int rank = 0, ranks = 1;
    *communicator = NULL;
    size_t bytes = sizeof(int) + library->id_bytes;
    char *id = calloc(1, bytes);
    int rc = id ? mpi_rank_size(comm, &rank, &ranks) : error_fail(DISTFFT_ERR_MEMORY, "nccl: a communicator id");
    rc = error_agree(comm, rc);
    if (rc != DISTFFT_SUCCESS) {
        free(id);
        return rc;
    }
    int code = rank == 0 ? library->make_id(id + sizeof(int)) : DISTFFT_SUCCESS;
    memcpy(id, &code, sizeof code);
    rc = CHECK_MPI(MPI_Bcast(id, (int)bytes, MPI_BYTE, 0, comm));
    if (rc == DISTFFT_SUCCESS) memcpy(&code, id, sizeof code);
    if (rc == DISTFFT_SUCCESS && code != DISTFFT_SUCCESS)
        rc = rank == 0 ? code : error_fail(code, "nccl: rank 0 could not make the communicator's id");
    rc = error_agree(comm, rc); /* every rank opens, or none: opening waits for them all */
    if (rc == DISTFFT_SUCCESS) rc = error_agree(comm, library->open(id + sizeof(int), ranks, rank, communicator));
    free(id);
    if (rc != DISTFFT_SUCCESS && *communicator) {
        KEEP(library->close(*communicator, true)); /* some rank failed: nothing to wait for */
        *communicator = NULL;
    }
    return rc;
}

/* The library's communicator of comm: the cached one, else a new one,
 * cached. Collective (every rank finds the same cache: communicators are
 * made on all ranks at once); the same code on every rank. */
static int communicator_of(MPI_Comm comm, const redist_messages *library, void **communicator)
{
    int rc = error_agree(comm, cached_on(comm, communicator));
    if (rc != DISTFFT_SUCCESS || *communicator) return rc;
    TRY(open_communicator(comm, library, communicator));
    cached_communicator *cached = malloc(sizeof *cached);
    int local = cached ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "nccl: the cached communicator");
    if (cached) {
        *cached = (cached_communicator){library, *communicator, false};
        local = CHECK_MPI(MPI_Comm_set_attr(comm, cache.keyval, cached));
    }
    bool attached = cached && local == DISTFFT_SUCCESS;
    rc = error_agree(comm, local);
    if (rc == DISTFFT_SUCCESS) return rc;
    /* cached on no rank or some: drop it everywhere, without waiting */
    if (attached) {
        cached->abandoned = true;
        KEEP_MPI(MPI_Comm_delete_attr(comm, cache.keyval));
    } else {
        KEEP(library->close(*communicator, true));
        free(cached);
    }
    *communicator = NULL;
fail:
    return rc;
}

/* ---- the method ----------------------------------------------------------------- */

static int nccl_destroy(void *opaque)
{
    int rc = DISTFFT_SUCCESS;
    nccl_state *state = opaque;
    if (!state) return rc;
    KEEP(chunk_exchange_free(&state->exchange));
    free(state->messages);
    free(state);
    return rc;
}

/* The chunk tables and the schedule. Local. */
static int prepare(const redist_geometry *g, nccl_state *state)
{
    int rc = DISTFFT_SUCCESS;
    TRY(chunk_exchange_init(g, "nccl", &state->exchange));
    const chunk_exchange *x = &state->exchange;
    state->messages = calloc(2 * (size_t)x->parts, sizeof *state->messages);
    if (!state->messages) return error_fail(DISTFFT_ERR_MEMORY, "nccl: the message schedule");
    state->count = nccl_schedule(x->parts, x->part, x->send_counts, x->send_offsets, x->receive_counts,
                                 x->receive_offsets, x->element, state->messages);
fail:
    return rc;
}

/* Collective on comm (the library's communicator is made on every rank at
 * once), agreed before it; the outcome is agreed by the caller. */
static int nccl_create(MPI_Comm comm, const redist_geometry *g, const void *parameters, void **opaque)
{
    (void)parameters;
    *opaque = NULL;
    nccl_state *state = calloc(1, sizeof *state);
    int rc = state ? prepare(g, state) : error_fail(DISTFFT_ERR_MEMORY, "nccl state");
    rc = error_agree(comm, rc);
    if (rc == DISTFFT_SUCCESS) {
        state->library = g->copies->messages;
        rc = communicator_of(comm, state->library, &state->communicator);
    }
    if (rc != DISTFFT_SUCCESS) {
        KEEP(nccl_destroy(state));
        return rc;
    }
    *opaque = state;
    return DISTFFT_SUCCESS;
}

/* Enqueued on the exchange's stream; returns before the data has moved. */
static int nccl_execute(void *opaque, MPI_Comm comm, const void *in, void *out)
{
    (void)comm;
    nccl_state *state = opaque;
    const chunk_exchange *x = &state->exchange;
    chunk_pack_all(x, in);
    if (state->count > 0) {
        int rc = state->library->run(state->communicator, state->messages, state->count, x->send_buffer,
                                     x->receive_buffer, x->stream);
        if (rc != DISTFFT_SUCCESS) return rc;
    }
    chunk_unpack_all(x, in, out);
    return DISTFFT_SUCCESS;
}

static void nccl_describe(const void *opaque, int depth, text *out)
{
    const nccl_state *state = opaque;
    text_node(out, depth, "pack on the %s, one %s group of %d sends and receives, unpack (stream-ordered)",
              state->exchange.copies->name, state->library->name, state->count);
    chunk_exchange_describe(&state->exchange, "chunks", depth, out);
}

/* Device memory only, where the plan's backend has a library of messages
 * (the CUDA backend's NCCL) and it loads here. */
static bool nccl_applicable(const redist_problem *problem, text *why)
{
    const char *missing = NULL;
    if (problem->memory == REDIST_MEMORY_HOST)
        missing = "it moves device memory with NCCL (host memory takes the MPI methods)";
    else if (!problem->messages)
        missing = "the plan's backend has no NCCL";
    else
        missing = problem->messages->unavailable();
    if (missing && why) text_append(why, "%s", missing);
    return !missing;
}

const redist_method redist_nccl = {
    .name = "nccl",
    .applicable = nccl_applicable,
    .create = nccl_create,
    .execute = nccl_execute,
    .destroy = nccl_destroy,
    .scale = chunk_state_scale,
    .describe = nccl_describe,
};
