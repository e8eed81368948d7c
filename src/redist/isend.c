/*
 * isend.c -- non-blocking point-to-point exchange (paper 001, Sec. 3.2.1):
 * OpenFFT's Isend_Waitall, Isend_Waitsome, Isend_Waitall_Block and
 * Isend_Waitsome_Block. One engine, four rows of the method table (at the
 * end of this file), each fixing two parameters: how receives complete
 * (MPI_Waitall then unpack everything; or MPI_Waitsome, unpacking each
 * chunk as it arrives, overlapping the copies with the messages still in
 * flight) and how many peers form a group (all of them, or
 * ISEND_BLOCK_SIZE at a time, which limits the messages in flight).
 *
 * Peers are visited by offset k = 1 .. P-1: send to (p + k) mod P, receive
 * from (p - k) mod P. A group is a range of consecutive offsets. Per group:
 * post every MPI_Irecv into the peer's region of the receive buffer, then
 * pack each chunk and MPI_Isend it at once, wait for the receives, and
 * finally for the sends. The message from rank q to rank q + k belongs to
 * the group of offset k on both sides, so every rank works on the same
 * group index at a time and the groups cannot deadlock. This rank's own
 * chunk is copied locally while the first group's messages are in flight.
 * Empty chunks send no message at all (sender and receiver agree on which
 * chunks are empty).
 *
 * Buffers, counts and the request arrays are allocated at create time; an
 * execution allocates nothing.
 */
#include <stdlib.h>

#include "../error.h"
#include "chunks.h"
#include "redist.h"

/* How a group's receives are completed. */
typedef enum { ISEND_WAITALL, ISEND_WAITSOME } isend_wait;

/* Peers per group: ISEND_ALL_PEERS exchanges with every peer at once; the
 * blocked variants exchange with ISEND_BLOCK_SIZE peers at a time. OpenFFT
 * uses 32 for machines with thousands of ranks; 4 keeps the grouping (and
 * its limit on messages in flight) visible on the sub-communicators of a
 * pencil or slab decomposition, which are usually small. */
enum { ISEND_ALL_PEERS = 0, ISEND_BLOCK_SIZE = 4 };

/* A row's parameters. */
typedef struct {
    const char *name;
    isend_wait wait;
    int group;
} isend_variant;

typedef struct {
    chunk_exchange exchange;
    isend_wait wait;
    int group;                   /* peers (offsets) per group, >= 1 */
    MPI_Request *receives, *sends; /* [group]: slot i is offset first + i */
    int *completed;              /* [group]: MPI_Waitsome's indices */
    MPI_Status *statuses;        /* [group], unread: MPICH's headers make
                                  * GCC warn about MPI_STATUSES_IGNORE */
} isend_state;

static int isend_destroy(void *opaque)
{
    int rc = DISTFFT_SUCCESS;
    isend_state *state = opaque;
    if (!state) return rc;
    KEEP(chunk_exchange_free(&state->exchange));
    free(state->receives);
    free(state->sends);
    free(state->completed);
    free(state->statuses);
    free(state);
    return rc;
}

static int isend_create(MPI_Comm comm, const redist_geometry *g,
                        const void *parameters, void **opaque)
{
    (void)comm;
    const isend_variant *variant = parameters;
    const char *method = variant->name;
    isend_wait wait = variant->wait;
    int group = variant->group;
    *opaque = NULL;
    int rc = DISTFFT_SUCCESS;
    isend_state *state = calloc(1, sizeof *state);
    if (!state) return error_fail(DISTFFT_ERR_MEMORY, "%s state", method);
    TRY(chunk_exchange_init(g, method, &state->exchange));
    int peers = g->parts - 1;
    state->wait = wait;
    state->group = group == ISEND_ALL_PEERS || group > peers ? peers : group;
    if (state->group < 1) state->group = 1;
    state->receives = calloc(state->group, sizeof *state->receives);
    state->sends = calloc(state->group, sizeof *state->sends);
    for (int i = 0; i < state->group && state->receives && state->sends; i++)
        state->receives[i] = state->sends[i] = MPI_REQUEST_NULL;
    state->completed = calloc(state->group, sizeof *state->completed);
    state->statuses = calloc(state->group, sizeof *state->statuses);
    if (!state->receives || !state->sends || !state->completed ||
        !state->statuses) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "%s requests", method);
        goto fail;
    }
    *opaque = state;
    return DISTFFT_SUCCESS;
fail:
    KEEP(isend_destroy(state));
    return rc;
}

static int source_of(const chunk_exchange *x, int offset)
{
    return (x->part - offset + x->parts) % x->parts;
}

/* Complete the group chunk_post posted, unpacking into out. */
static int finish_group(isend_state *state, void *out, int first, int count)
{
    const chunk_exchange *x = &state->exchange;
    int rc = DISTFFT_SUCCESS;
    if (state->wait == ISEND_WAITALL) {
        TRY_MPI(MPI_Waitall(count, state->receives, state->statuses));
        for (int i = 0; i < count; i++)
            chunk_unpack(x, source_of(x, first + i), out);
    } else {
        for (;;) {
            int done = 0;
            TRY_MPI(MPI_Waitsome(count, state->receives, &done,
                                 state->completed, state->statuses));
            if (done == MPI_UNDEFINED) break; /* no active receive left */
            for (int j = 0; j < done; j++)
                chunk_unpack(x, source_of(x, first + state->completed[j]), out);
        }
    }
    TRY_MPI(MPI_Waitall(count, state->sends, state->statuses));
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

static int isend_execute(void *opaque, MPI_Comm comm, const void *in, void *out)
{
    isend_state *state = opaque;
    const chunk_exchange *x = &state->exchange;
    int rc = DISTFFT_SUCCESS;
    int group = state->group, parts = x->parts;
    int count = group < parts - 1 ? group : parts - 1;
    TRY(chunk_post(x, comm, in, 1, count, state->receives, state->sends));
    chunk_copy_own(x, in, out);
    for (int first = 1; first < parts; first += group) {
        count = group < parts - first ? group : parts - first;
        if (first > 1) TRY(chunk_post(x, comm, in, first, count, state->receives, state->sends));
        TRY(finish_group(state, out, first, count));
    }
    return DISTFFT_SUCCESS;
fail: /* no request outlives the call */
    KEEP(requests_abandon(state->receives, group, 1));
    KEEP(requests_abandon(state->sends, group, 0));
    return rc;
}

/* The groups of peers (blocks) and how their receives complete. */
static void isend_describe(const void *opaque, int depth, text *out)
{
    const isend_state *state = opaque;
    int peers = state->exchange.parts - 1;
    text_node(out, depth, "groups %d of up to %d peers, %s", (peers + state->group - 1) / state->group,
              state->group, state->wait == ISEND_WAITALL ? "MPI_Waitall" : "MPI_Waitsome");
    chunk_exchange_describe(&state->exchange, "messages", depth, out);
}

/* ---- the four rows ------------------------------------------------------- */

#define ISEND_ROW(row, method_name, wait_mode, peers)                          \
    static const isend_variant row##_variant = {method_name, wait_mode, peers}; \
    const redist_method row = {.name = method_name,                            \
                               .applicable = redist_applies_everywhere,        \
                               .parameters = &row##_variant,                   \
                               .create = isend_create,                         \
                               .execute = isend_execute,                       \
                               .destroy = isend_destroy,                       \
                               .scale = chunk_state_scale,                     \
                               .describe = isend_describe};

ISEND_ROW(redist_isend_waitall, "isend-waitall", ISEND_WAITALL, ISEND_ALL_PEERS)
ISEND_ROW(redist_isend_waitsome, "isend-waitsome", ISEND_WAITSOME, ISEND_ALL_PEERS)
ISEND_ROW(redist_isend_waitall_blocked, "isend-waitall-blocked", ISEND_WAITALL, ISEND_BLOCK_SIZE)
ISEND_ROW(redist_isend_waitsome_blocked, "isend-waitsome-blocked", ISEND_WAITSOME, ISEND_BLOCK_SIZE)
