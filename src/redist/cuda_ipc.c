/*
 * cuda_ipc.c -- an exchange of device memory between the processes of one
 * node through CUDA IPC: the device twin of shm.c. No MPI message carries
 * data; the ranks write into each other's device memory.
 *
 * At create each rank allocates its receive buffer in device memory (the
 * chunks of its peers packed in rank order, ipc_puts.h), exports a handle
 * for it (cudaIpcGetMemHandle), the handles go round the group in one
 * MPI_Allgather, and each rank maps the buffers of the peers it sends to
 * (cudaIpcOpenMemHandle; a process cannot open its own handle and needs
 * none: it uses its own buffer directly). An execution:
 *
 *   wait for the stream, barrier    every rank has finished unpacking the
 *                                   previous execution: its buffer may
 *                                   be written again
 *   pack each chunk for a peer straight into the peer's buffer (a put),
 *   copy the own chunk
 *   wait for the stream, barrier    every put into this rank's buffer is
 *                                   done
 *   unpack each peer's chunk        enqueued on the stream; return
 *
 * Why stream waits and barriers, not interprocess events: the order is
 * the group's, not a pair's -- a rank may write a peer's buffer only once
 * that peer has read it, and read its own only once every peer has
 * written it -- and a wait and a barrier say both for all peers at once,
 * on any number of ranks per device, with the MPI the library already
 * has. Each barrier is an MPI_Allreduce of the wait's result, so a
 * failing wait fails the execution on every rank. The exchange
 * synchronises the stream, as staged does.
 *
 * Every rank of the group must be on one node -- the pretended node of a
 * plan's options or DISTFFT_NODE_SIZE (nodes.h), and the real one: a
 * handle means nothing on another node -- else create refuses on every
 * rank. Lifetime: an owner may free its buffer only after every peer has
 * closed its mapping (cudaFree before a peer's cudaIpcCloseMemHandle is
 * undefined). Destroy closes this rank's mappings, frees a window of no
 * memory on the group (MPI_Win_free returns on no rank before every rank
 * has called it: a synchronising destroy, as shm's), then frees the
 * buffer; a release closes the mappings at once and parks the window and
 * the buffer behind it (lifetime.h), for distfft_collect.
 */
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../lifetime.h"
#include "../node.h"
#include "chunks.h"
#include "ipc_puts.h"
#include "nodes.h"
#include "redist.h"

typedef struct {
    chunk_exchange exchange;  /* the chunks; receive_buffer: this rank's, exported */
    const redist_ipc *ipc;
    MPI_Win fence;            /* no memory: its free waits for every rank (see the top) */
    void **peer_buffers;      /* [parts] a peer's receive buffer mapped here, else NULL */
    ipc_put *puts;            /* [parts] this rank's, put_count of them */
    int put_count;
} ipc_state;

static int ipc_destroy(void *opaque)
{
    int rc = DISTFFT_SUCCESS;
    ipc_state *state = opaque;
    if (!state) return rc;
    chunk_exchange *x = &state->exchange;
    for (int p = 0; state->peer_buffers && p < x->parts; p++)
        if (state->peer_buffers[p]) KEEP(state->ipc->close(state->peer_buffers[p]));
    /* every peer has closed its mapping of this buffer once the fence is freed */
    if (state->fence != MPI_WIN_NULL) KEEP_MPI(lifetime_win_free(&state->fence));
    if (x->receive_buffer) KEEP_MPI(lifetime_memory_free(x->copies->release, x->receive_buffer));
    x->receive_buffer = NULL;
    KEEP(chunk_exchange_free(x));
    free(state->peer_buffers);
    free(state->puts);
    free(state);
    return rc;
}

/* Device memory only: handles of host memory are not CUDA's. */
static bool ipc_applicable(const redist_problem *problem, text *why)
{
    if (problem->memory != REDIST_MEMORY_HOST) return true;
    if (why) text_append(why, "it maps device memory between processes (CUDA IPC); host memory takes shm");
    return false;
}

/* Whether every rank of comm has the same label (MPI_MAX of it and of its
 * negation). Collective. */
static int same_label(MPI_Comm comm, int label, bool *same)
{
    int rc = DISTFFT_SUCCESS, bounds[2] = {label, -label};
    TRY_MPI(MPI_Allreduce(MPI_IN_PLACE, bounds, 2, MPI_INT, MPI_MAX, comm));
    *same = bounds[0] == -bounds[1];
fail:
    return rc;
}

/* DISTFFT_ERR_UNSUPPORTED on every rank unless the whole group is one
 * node: the pretended one (nodes.h) and the real one. Collective. */
static int check_one_node(MPI_Comm comm, const redist_geometry *g)
{
    int label = 0, real = 0;
    int local = node_label(comm, g, &label);
    if (local == DISTFFT_SUCCESS && !node_label_is_shared(g))
        local = node_label_find(comm, g->part, 0, 0, &real); /* part: rank in comm */
    int rc = error_agree(comm, local);
    if (rc != DISTFFT_SUCCESS) return rc;
    bool one = true, one_real = true;
    TRY(same_label(comm, label, &one));
    TRY(same_label(comm, real, &one_real));
    if (!one || !one_real)
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "cuda-ipc: the %d ranks of this exchange are on more than one "
                          "%snode, and CUDA IPC maps device memory between the processes of one node only; use "
                          "staged", g->parts, !one && !node_label_is_shared(g) ? "(pretended) " : "");
fail:
    return rc;
}

/* The count matrix (one MPI_Allgather of every rank's send counts) and
 * this rank's puts; where the schedule puts each peer's chunk must be
 * where this rank unpacks it (chunk_exchange_init's receive_offsets). */
static int schedule(MPI_Comm comm, ipc_state *state)
{
    chunk_exchange *x = &state->exchange;
    int rc = DISTFFT_SUCCESS, parts = x->parts;
    int64_t *counts = malloc((size_t)parts * (size_t)parts * sizeof *counts);
    TRY(error_agree(comm, counts ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "cuda-ipc: count matrix")));
    TRY_MPI(MPI_Allgather(x->send_counts, parts, MPI_INT64_T, counts, parts, MPI_INT64_T, comm));
    state->put_count = ipc_put_schedule(parts, counts, x->part, state->puts);
    bool agrees = ipc_receive_total(parts, counts, x->part) == x->receive_total;
    for (int p = 0; p < parts; p++)
        agrees &= p == x->part || x->receive_counts[p] == 0 ||
                  ipc_receive_offset(parts, counts, x->part, p) == x->receive_offsets[p];
    TRY(error_agree(comm, agrees ? DISTFFT_SUCCESS
                                 : error_fail(DISTFFT_ERR_UNSUPPORTED, "cuda-ipc: the put schedule disagrees "
                                              "with the chunks (a bug)")));
fail:
    free(counts);
    return rc;
}

/* Export this rank's buffer, gather every rank's handle, map the buffers
 * of the peers this rank puts into. Each local step agreed. Collective. */
static int map_peers(MPI_Comm comm, ipc_state *state)
{
    chunk_exchange *x = &state->exchange;
    int rc = DISTFFT_SUCCESS, parts = x->parts;
    unsigned char mine[REDIST_IPC_HANDLE_BYTES] = {0};
    unsigned char *handles = malloc((size_t)parts * REDIST_IPC_HANDLE_BYTES);
    int local = handles ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "cuda-ipc: handle table");
    if (local == DISTFFT_SUCCESS && x->receive_buffer) local = state->ipc->export_buffer(x->receive_buffer, mine);
    TRY(error_agree(comm, local));
    TRY_MPI(MPI_Allgather(mine, REDIST_IPC_HANDLE_BYTES, MPI_UNSIGNED_CHAR, handles, REDIST_IPC_HANDLE_BYTES,
                          MPI_UNSIGNED_CHAR, comm));
    for (int i = 0; local == DISTFFT_SUCCESS && i < state->put_count; i++) {
        int peer = state->puts[i].peer;
        local = state->ipc->open(handles + (size_t)peer * REDIST_IPC_HANDLE_BYTES, &state->peer_buffers[peer]);
    }
    TRY(error_agree(comm, local));
fail:
    free(handles);
    return rc;
}

static int ipc_create(MPI_Comm comm, const redist_geometry *g, const void *parameters, void **opaque)
{
    (void)parameters;
    *opaque = NULL;
    int rc = DISTFFT_SUCCESS;
    ipc_state *state = calloc(1, sizeof *state);
    /* every rank reaches the collectives below, or none does */
    rc = error_agree(comm, state ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "cuda-ipc state"));
    if (rc != DISTFFT_SUCCESS) {
        free(state);
        return rc;
    }
    state->fence = MPI_WIN_NULL;
    state->ipc = g->copies ? g->copies->ipc : NULL;
    TRY(check_one_node(comm, g));
    int local = state->ipc ? DISTFFT_SUCCESS
                           : error_fail(DISTFFT_ERR_UNSUPPORTED, "cuda-ipc: the %s memory cannot be mapped between "
                                        "processes", g->copies ? g->copies->name : "host");
    if (local == DISTFFT_SUCCESS) local = chunk_exchange_init(g, "cuda-ipc", &state->exchange);
    chunk_exchange *x = &state->exchange;
    if (local == DISTFFT_SUCCESS) { /* the puts pack straight into the peers' buffers: no send buffer */
        x->copies->release(x->send_buffer);
        x->send_buffer = NULL;
        state->peer_buffers = calloc((size_t)g->parts, sizeof *state->peer_buffers);
        state->puts = calloc((size_t)g->parts, sizeof *state->puts);
        if (!state->peer_buffers || !state->puts) local = error_fail(DISTFFT_ERR_MEMORY, "cuda-ipc: peer tables");
    }
    TRY(error_agree(comm, local));
    TRY(schedule(comm, state));
    /* from here on every failure is agreed, so every rank frees the fence
     * (a group of one maps nothing: no fence) */
    static char no_memory;
    if (g->parts > 1) TRY_MPI(MPI_Win_create(&no_memory, 0, 1, MPI_INFO_NULL, comm, &state->fence));
    TRY(map_peers(comm, state));
    *opaque = state;
    return DISTFFT_SUCCESS;
fail:
    KEEP(ipc_destroy(state));
    return rc;
}

/* The barrier of an execution: every rank's wait for its stream done,
 * and its outcome agreed. */
static int wait_all(const ipc_state *state, MPI_Comm comm)
{
    return error_agree(comm, state->ipc->wait(state->exchange.stream));
}

static int ipc_execute(void *opaque, MPI_Comm comm, const void *in, void *out)
{
    ipc_state *state = opaque;
    const chunk_exchange *x = &state->exchange;
    int rc = DISTFFT_SUCCESS;
    TRY(wait_all(state, comm)); /* every buffer read: it may be written */
    for (int i = 0; i < state->put_count; i++) {
        const ipc_put *put = &state->puts[i];
        char *target = (char *)state->peer_buffers[put->peer] + put->target_offset * (int64_t)x->element;
        chunk_pack_to(x, put->peer, in, target);
    }
    chunk_copy_own(x, in, out);
    TRY(wait_all(state, comm)); /* every buffer written: it may be read */
    for (int p = 0; p < x->parts; p++) chunk_unpack(x, p, out);
fail:
    return rc;
}

static void ipc_describe(const void *opaque, int depth, text *out)
{
    const ipc_state *state = opaque;
    const chunk_exchange *x = &state->exchange;
    text_node(out, depth, "one node: chunks put straight into %d peers' %s buffers (IPC), 2 stream waits and "
              "2 barriers (synchronising)", state->put_count, x->copies->name);
    chunk_exchange_describe(x, "chunks", depth, out);
}

const redist_method redist_cuda_ipc = {
    .name = "cuda-ipc",
    .applicable = ipc_applicable,
    .create = ipc_create,
    .execute = ipc_execute,
    .destroy = ipc_destroy,
    .scale = chunk_state_scale,
    .node_aware = true,
    .describe = ipc_describe,
};
