/*
 * shm.c -- the intra-node part of an exchange through MPI-3 shared memory
 * (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), MPI_Win_allocate_shared):
 * no MPI message between ranks that share memory.
 *
 * Each rank owns a slice of a shared window, sized at create time for its
 * chunks to the peers of its domain (the ranks of its node that share its
 * memory) and, when a plan asks (geometry.shared_output), for its output
 * too. Two ways to run, chosen by where `out` is:
 *
 * One copy (a plan's exchange: `out` is this rank's output in the window,
 * redist_shared_output; the plan makes it the work buffer the exchange
 * writes). A node barrier (every peer has finished with its output's
 * previous contents), then each rank copies its chunk for each domain
 * peer straight from its own input into the peer's output at the chunk's
 * final place -- the loop of an unpack with a local source and a remote
 * target, the runs of both sides contiguous -- and its own chunk; then
 * MPI_Win_sync and a second node barrier make every write visible. One
 * copy per element, as a memcpy of the rank's share.
 *
 * Two copies (`out` anywhere else: distfft_redist_execute, whose arrays
 * are the caller's). A node barrier (the peers have finished reading the
 * slice last time), pack the chunks for the peers into the slice,
 * MPI_Win_sync and a second node barrier, then copy each peer's chunk for
 * this rank out of the peer's slice into the output -- as the pack and
 * unpack of alltoallv and the isend family, which copy at least once more
 * inside MPI.
 *
 * Every rank of a domain takes the same way in one execution (a plan
 * passes the shared output on every rank, a caller never can): the puts
 * of one and the packs of another would miss each other.
 *
 * Peers outside the domain -- other nodes, or other parts of a pretended
 * node (nodes.h) that share no memory -- get point-to-point messages
 * (MPI_Irecv / MPI_Isend, as isend-waitall), so the method serves every
 * group; where no two ranks share memory it is isend-waitall.
 *
 * Create is collective on the group (it finds the nodes and allocates the
 * window); every failure that can happen on some ranks only is agreed
 * before the window is made, so either every rank has one or none.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../error.h"
#include "../lifetime.h"
#include "../platform.h"
#include "chunks.h"
#include "nodes.h"
#include "redist.h"

typedef struct {
    chunk_exchange exchange;     /* buffers for the peers outside the domain */
    node_map domains;            /* each rank's domain */
    MPI_Comm shared;             /* this rank's domain */
    MPI_Win window;              /* MPI_WIN_NULL when the domain is this rank */
    int64_t slice_elements;      /* of this rank's packed chunks in its slice */
    int64_t output_bytes;        /* of this rank's output in its slice (shared_output) */
    int locked;                  /* inside MPI_Win_lock_all */
    char *slice;                 /* this rank's packed chunks in the window */
    char **peer_slices;          /* [parts] a domain peer's packed chunks, else NULL */
    char *output;                /* this rank's output in the window, or NULL */
    char **peer_outputs;         /* [parts] a domain peer's output, else NULL */
    chunk_span *puts;            /* [parts] this rank's chunk in a domain peer's output */
    int64_t runs, direct_runs;   /* executions, and those with one copy */
    int64_t *write_offsets;      /* [parts] peer's chunk in this slice (elements) */
    int64_t *read_offsets;       /* [parts] this rank's chunk in the peer's slice */
    unsigned char *buffered;     /* [parts] outside the domain */
    MPI_Request *requests;       /* [2 * parts] receives, then sends */
    MPI_Status *statuses;        /* [2 * parts] */
} shm_state;

static int shm_destroy(void *opaque)
{
    int rc = DISTFFT_SUCCESS;
    shm_state *state = opaque;
    if (!state) return rc;
    if (state->locked) KEEP_MPI(MPI_Win_unlock_all(state->window));
    if (state->window != MPI_WIN_NULL) KEEP_MPI(lifetime_win_free(&state->window));
    if (state->shared != MPI_COMM_NULL) KEEP_MPI(lifetime_comm_free(&state->shared));
    KEEP(chunk_exchange_free(&state->exchange));
    node_map_free(&state->domains);
    free(state->peer_slices);
    free(state->peer_outputs);
    free(state->puts);
    free(state->write_offsets);
    free(state->read_offsets);
    free(state->buffered);
    free(state->requests);
    free(state->statuses);
    free(state);
    return rc;
}

/* The domain: the ranks of this rank's node that share its memory, as a
 * communicator (ranks in group order) and a label (its lowest rank + 1). */
static int find_domain(MPI_Comm comm, const redist_geometry *g, shm_state *state)
{
    int rc = DISTFFT_SUCCESS, rank = g->part, label; /* part: this rank's in comm */
    MPI_Comm node = MPI_COMM_NULL;
    TRY(node_label(comm, g, &label));
    if (node_label_is_shared(g)) { /* the label's ranks share memory: one split is the domain */
        TRY_MPI(MPI_Comm_split(comm, label, rank, &state->shared));
    } else { /* a pretended node: the part of it that shares this rank's memory */
        TRY_MPI(MPI_Comm_split(comm, label, rank, &node));
        TRY_MPI(MPI_Comm_split_type(node, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &state->shared));
    }
    TRY_MPI(MPI_Allreduce(&rank, &label, 1, MPI_INT, MPI_MIN, state->shared));
    TRY(node_map_create(comm, label + 1, "shm", &state->domains));
fail:
    if (node != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(&node));
    return rc;
}

/* Where each chunk between domain members sits: a slice holds its owner's
 * chunks for the other members, in rank order. Returns this slice's size. */
static int64_t place_chunks(const redist_geometry *g, shm_state *state)
{
    const node_map *d = &state->domains;
    int me = g->part, domain = d->node_of[me];
    int64_t mine = 0;
    for (int i = d->first[domain]; i < d->first[domain + 1]; i++) {
        int peer = d->members[i];
        if (peer == me) continue;
        state->write_offsets[peer] = mine;
        mine += chunk_count_between(g, me, peer);
        int64_t before = 0; /* in peer's slice, ahead of this rank's chunk */
        for (int j = d->first[domain]; j < d->first[domain + 1] && d->members[j] < me; j++)
            if (d->members[j] != peer) before += chunk_count_between(g, peer, d->members[j]);
        state->read_offsets[peer] = before;
    }
    return mine;
}

/* A slice: the output (shared_output_bytes, rounded up to cache lines),
 * then the packed chunks, from the first 64-byte boundary -- alike in every
 * process, whose mappings of the window are page-aligned. */
enum { SLICE_ALIGNMENT = 64 };

static int64_t round_up(int64_t bytes)
{
    return (bytes + SLICE_ALIGNMENT - 1) / SLICE_ALIGNMENT * SLICE_ALIGNMENT;
}

static char *aligned(char *base)
{
    return base + (SLICE_ALIGNMENT - (uintptr_t)base % SLICE_ALIGNMENT) % SLICE_ALIGNMENT;
}

/* Lock the new window (MPI_MODE_NOCHECK: the barriers order the accesses)
 * and find each domain member's output and packed chunks. Local. */
static int query_slices(const redist_geometry *g, shm_state *state)
{
    int rc = DISTFFT_SUCCESS;
    TRY_MPI(MPI_Win_lock_all(MPI_MODE_NOCHECK, state->window));
    state->locked = 1;
    const node_map *d = &state->domains;
    int domain = d->node_of[g->part];
    for (int i = d->first[domain]; i < d->first[domain + 1]; i++) {
        MPI_Aint bytes;
        int unit;
        char *base;
        TRY_MPI(MPI_Win_shared_query(state->window, i - d->first[domain], &bytes, &unit, &base));
        int peer = d->members[i];
        if (g->shared_output) state->peer_outputs[peer] = aligned(base);
        state->peer_slices[peer] = aligned(base) + round_up(state->output_bytes);
    }
    state->output = state->peer_outputs[g->part];
    state->slice = state->peer_slices[g->part];
fail:
    return rc;
}

/* The window's info (local). */
static int window_info(MPI_Info *info)
{
    int rc = DISTFFT_SUCCESS;
    TRY_MPI(MPI_Info_create(info));
    TRY_MPI(MPI_Info_set(*info, "alloc_shared_noncontig", "true")); /* memory near each owner */
fail:
    return rc;
}

/* Allocate the window (collective on the domain) and find the slices.
 * Local failures are agreed on the domain before the window is made and
 * after, so every member frees it together (MPI_Win_free synchronises). */
static int make_window(const redist_geometry *g, shm_state *state)
{
    int rc = DISTFFT_SUCCESS, size = 0;
    MPI_Info info = MPI_INFO_NULL;
    /* failing on one member only: that member still agrees with the others */
    int local = CHECK_MPI(MPI_Comm_size(state->shared, &size));
    if (local == DISTFFT_SUCCESS && size == 1) return DISTFFT_SUCCESS;
    int64_t bytes = SLICE_ALIGNMENT + round_up(state->output_bytes) +
                    state->slice_elements * (int64_t)distfft_type_size(g->type);
    char *base = NULL;
    if (local == DISTFFT_SUCCESS) local = window_info(&info);
    TRY(error_agree(state->shared, local));
    TRY_MPI(MPI_Win_allocate_shared((MPI_Aint)bytes, 1, info, state->shared, &base, &state->window));
    local = CHECK_MPI(MPI_Info_free(&info)); /* in the agreement: every member frees the window */
    if (local == DISTFFT_SUCCESS) local = query_slices(g, state);
    TRY(error_agree(state->shared, local));
fail:
    if (info != MPI_INFO_NULL) KEEP_MPI(MPI_Info_free(&info));
    return rc;
}

/* Pencils of one grid, on a platform with shared windows (SimGrid's SMPI
 * does not emulate MPI_Win_allocate_shared and MPI_Win_sync). */
static bool shm_applicable(const redist_problem *problem, text *why)
{
    if (!redist_applies_to_pencils(problem, why)) return false;
    if (problem->shared_windows) return true;
    if (why) text_append(why, "this platform (%s) has no shared-memory windows (MPI_Win_allocate_shared, "
                         "MPI_Win_sync); use another method", platform_name());
    return false;
}

static int shm_create(MPI_Comm comm, const redist_geometry *g, const void *parameters,
                      void **opaque)
{
    (void)parameters;
    *opaque = NULL;
    int rc = DISTFFT_SUCCESS, parts = g->parts;
    shm_state *state = calloc(1, sizeof *state);
    /* every rank reaches the collectives below, or none does */
    rc = error_agree(comm, state ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "shm state"));
    if (rc != DISTFFT_SUCCESS) {
        free(state);
        return rc;
    }
    state->shared = MPI_COMM_NULL;
    state->window = MPI_WIN_NULL;
    TRY(find_domain(comm, g, state));
    state->peer_slices = calloc(parts, sizeof *state->peer_slices);
    state->peer_outputs = calloc(parts, sizeof *state->peer_outputs);
    state->puts = calloc(parts, sizeof *state->puts);
    state->write_offsets = calloc(parts, sizeof *state->write_offsets);
    state->read_offsets = calloc(parts, sizeof *state->read_offsets);
    state->buffered = calloc(parts, 1);
    state->requests = calloc(2 * (size_t)parts, sizeof *state->requests);
    state->statuses = calloc(2 * (size_t)parts, sizeof *state->statuses);
    int local = state->peer_slices && state->peer_outputs && state->puts && state->write_offsets &&
                        state->read_offsets &&
                        state->buffered && state->requests && state->statuses
                    ? DISTFFT_SUCCESS
                    : error_fail(DISTFFT_ERR_MEMORY, "shm tables");
    for (int i = 0; local == DISTFFT_SUCCESS && i < 2 * parts; i++)
        state->requests[i] = MPI_REQUEST_NULL;
    if (local == DISTFFT_SUCCESS) {
        for (int p = 0; p < parts; p++) {
            state->buffered[p] = state->domains.node_of[p] != state->domains.node_of[g->part];
            state->puts[p] = chunk_in_peer_output(g, p);
        }
        local = chunk_exchange_init_some(g, "shm", state->buffered, &state->exchange);
    }
    TRY(error_agree(comm, local)); /* before the collective window */
    state->slice_elements = place_chunks(g, state);
    state->output_bytes = g->shared_output ? g->shared_output_bytes : 0;
    TRY(make_window(g, state));
    *opaque = state;
    return DISTFFT_SUCCESS;
fail:
    KEEP(shm_destroy(state));
    return rc;
}

/* The domain's part: with one copy (`direct`), each chunk for a peer
 * straight from `in` into the peer's output, and this rank's own, between
 * the barriers; with two, pack into this slice, then copy out of the
 * peers'. */
static int exchange_shared(shm_state *state, const void *in, void *out, bool direct)
{
    const chunk_exchange *x = &state->exchange;
    const node_map *d = &state->domains;
    int rc = DISTFFT_SUCCESS, domain = d->node_of[x->part];
    /* The peers are done with their outputs' previous contents (one copy),
     * or have read this slice's (two). */
    TRY_MPI(MPI_Win_sync(state->window));
    TRY_MPI(MPI_Barrier(state->shared));
    for (int i = d->first[domain]; i < d->first[domain + 1]; i++) {
        int peer = d->members[i];
        if (peer == x->part || chunk_elements(&x->send_chunks[peer]) == 0) continue;
        if (direct) chunk_put(x, peer, in, state->peer_outputs[peer], state->puts[peer]);
        else chunk_pack_to(x, peer, in, state->slice + state->write_offsets[peer] * (int64_t)x->element);
    }
    if (direct) chunk_copy_own(x, in, out);
    TRY_MPI(MPI_Win_sync(state->window));
    TRY_MPI(MPI_Barrier(state->shared));
    TRY_MPI(MPI_Win_sync(state->window));
    for (int i = d->first[domain]; !direct && i < d->first[domain + 1]; i++) {
        int peer = d->members[i];
        if (peer != x->part && chunk_elements(&x->receive_chunks[peer]) > 0)
            chunk_unpack_from(x, peer, state->peer_slices[peer] + state->read_offsets[peer] * (int64_t)x->element,
                              out);
    }
fail:
    return rc;
}

static int shm_execute(void *opaque, MPI_Comm comm, const void *in, void *out)
{
    shm_state *state = opaque;
    const chunk_exchange *x = &state->exchange;
    int rc = DISTFFT_SUCCESS, parts = x->parts;
    bool direct = state->output && out == state->output; /* alike on the domain (see the top) */
    state->runs++;
    state->direct_runs += direct;
    /* the messages to and from the peers outside the domain */
    TRY(chunk_post(x, comm, in, 0, parts, state->requests, state->requests + parts));
    if (state->window != MPI_WIN_NULL) TRY(exchange_shared(state, in, out, direct));
    if (!direct) chunk_copy_own(x, in, out);
    TRY_MPI(MPI_Waitall(parts, state->requests, state->statuses));
    for (int p = 0; p < parts; p++)
        if (x->receive_counts[p] > 0) chunk_unpack(x, p, out);
    TRY_MPI(MPI_Waitall(parts, state->requests + parts, state->statuses + parts));
    return DISTFFT_SUCCESS;
fail: /* no request outlives the call */
    KEEP(requests_abandon(state->requests, parts, 1));
    KEEP(requests_abandon(state->requests + parts, parts, 0));
    return rc;
}

static void *shm_shared_output(const void *opaque)
{
    return ((const shm_state *)opaque)->output;
}

/* The domain, the chunks through the window, the messages outside. */
static void shm_describe(const void *opaque, int depth, text *out)
{
    const shm_state *state = opaque;
    const chunk_exchange *x = &state->exchange;
    const node_map *d = &state->domains;
    int domain = d->node_of[x->part], written = 0, read = 0;
    for (int i = d->first[domain]; i < d->first[domain + 1]; i++) {
        int peer = d->members[i];
        written += peer != x->part && chunk_elements(&x->send_chunks[peer]) > 0;
        read += peer != x->part && chunk_elements(&x->receive_chunks[peer]) > 0;
    }
    text_node(out, depth, "domain %d of %d ranks sharing memory, %d domains", d->first[domain + 1] - d->first[domain],
              x->parts, d->nodes);
    if (state->window != MPI_WIN_NULL)
        text_node(out, depth, "window slice %lld B, chunks through it: %d out, %d in, 2 barriers",
                  (long long)(state->slice_elements * (int64_t)x->element), written, read);
    if (state->output)
        text_node(out, depth, "output in the window %lld B: one copy, chunks put straight into %d "
                  "peers' outputs (%lld of %lld runs)", (long long)state->output_bytes, written,
                  (long long)state->direct_runs, (long long)state->runs);
    chunk_exchange_describe(x, "messages outside the domain", depth, out);
}

const redist_method redist_shm = {
    .name = "shm",
    .applicable = shm_applicable,
    .create = shm_create,
    .execute = shm_execute,
    .destroy = shm_destroy,
    .node_aware = true,
    .describe = shm_describe,
    .shared_output = shm_shared_output,
};
