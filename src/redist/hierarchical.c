/*
 * hierarchical.c -- a node-aware exchange: one message per pair of nodes.
 *
 * Each node's lowest rank is its leader. Chunks between ranks of one node
 * go directly (MPI_Irecv / MPI_Isend, as isend-waitall). Chunks to other
 * nodes travel in three hops:
 *   gather   each rank packs its chunks for node B, in B's rank order, and
 *            sends them to its leader (one message per destination node),
 *            which receives them in place: its buffer for B holds, for
 *            each member s of its node, s's chunks for B's ranks;
 *   between  the leader sends that buffer to B's leader: ONE message per
 *            ordered pair of nodes, instead of one per pair of ranks;
 *   scatter  a leader regroups what it received by destination (for each
 *            node A, each rank of A: the chunk for this member) and sends
 *            each member one message, which it unpacks.
 * So the messages between nodes drop from (ranks per node)^2 per node pair
 * to one, at the price of two more copies at the leader and two more
 * messages inside the node -- for latency-bound exchanges among many
 * nodes, and for networks where, as paper 002 measured (Fig. 9 and its
 * text), only one processor of a node talks to other nodes at a time, so n
 * ranks per node took n times as long. With one node it is isend-waitall;
 * with one rank per node too.
 *
 * Nodes come from nodes.h (the plan's pretended nodes, DISTFFT_NODE_SIZE,
 * or the real ones); they need not share memory. Every message, its peer,
 * offset and MPI count (derived types beyond the count limit) is listed at
 * create time; an execution posts them, in the same order on both sides.
 */
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "chunks.h"
#include "nodes.h"
#include "redist.h"

/* Message tags by hop (direct chunks use CHUNK_TAG). */
enum { GATHER_TAG = CHUNK_TAG + 1, BETWEEN_TAG = CHUNK_TAG + 2, SCATTER_TAG = CHUNK_TAG + 3 };

/* One message: peer, tag, where in its buffer (elements), MPI count. */
typedef struct {
    int peer, tag;
    int64_t offset;
    big_message message;
} transfer;

/* The lists of messages, in posting order. */
enum { GATHER_SEND, GATHER_RECEIVE, BETWEEN_SEND, BETWEEN_RECEIVE, SCATTER_SEND,
       SCATTER_RECEIVE, LISTS };

typedef struct {
    redist_geometry geometry;
    chunk_exchange exchange;   /* direct chunks (same node) */
    node_map nodes;
    int node, leader, members; /* this rank's node, its leader, its size */
    int64_t *gather_offsets;   /* [nodes * members] (B, s): in `gathered` */
    int64_t *scatter_offsets;  /* [members] a member's region in `scattered` */
    int64_t *cursors;          /* [members] scratch of the regrouping */
    char *outgoing;            /* a member's chunks for other nodes, by node */
    char *gathered, *received, *scattered;   /* a leader's; `received` also a member's */
    transfer *lists[LISTS];
    int counts[LISTS];
    int64_t elements[LISTS];   /* in each list's messages, for describe */
    MPI_Request *requests;     /* [all transfers + 2 * parts] */
    MPI_Status *statuses;
} hierarchical_state;

static int hierarchical_destroy(void *opaque)
{
    int rc = DISTFFT_SUCCESS;
    hierarchical_state *state = opaque;
    if (!state) return rc;
    for (int l = 0; l < LISTS; l++) {
        for (int t = 0; t < state->counts[l]; t++) KEEP_MPI(big_message_free(&state->lists[l][t].message));
        free(state->lists[l]);
    }
    KEEP(chunk_exchange_free(&state->exchange));
    node_map_free(&state->nodes);
    free(state->gather_offsets);
    free(state->scatter_offsets);
    free(state->cursors);
    distfft_free(state->outgoing);
    distfft_free(state->gathered);
    distfft_free(state->received);
    distfft_free(state->scattered);
    free(state->requests);
    free(state->statuses);
    free(state);
    return rc;
}

/* Elements from `source` to the ranks of node n. */
static int64_t to_node(const redist_geometry *g, const node_map *m, int source, int n)
{
    int64_t total = 0;
    for (int i = m->first[n]; i < m->first[n + 1]; i++)
        total += chunk_count_between(g, source, m->members[i]);
    return total;
}

/* Elements from the ranks of node a to `target`. */
static int64_t from_node(const redist_geometry *g, const node_map *m, int a, int target)
{
    int64_t total = 0;
    for (int i = m->first[a]; i < m->first[a + 1]; i++)
        total += chunk_count_between(g, m->members[i], target);
    return total;
}

/* Append a message to list l (the list has room; empty ones are skipped). */
static int add(hierarchical_state *state, int l, int peer, int tag, int64_t offset, int64_t count)
{
    if (count == 0) return DISTFFT_SUCCESS;
    transfer *t = &state->lists[l][state->counts[l]++];
    state->elements[l] += count;
    *t = (transfer){.peer = peer, .tag = tag, .offset = offset};
    int code = big_message_create(count, state->exchange.datatype, big_count_limit(), &t->message);
    if (code == MPI_SUCCESS) return DISTFFT_SUCCESS;
    t->message = (big_message){.count = 0, .type = MPI_BYTE, .owned = 0};
    return error_fail(DISTFFT_ERR_MPI, "hierarchical: a datatype for %lld elements (MPI error %d)",
                      (long long)count, code);
}

static void *allocate(int64_t elements, size_t element)
{
    return distfft_malloc(elements > 0 ? (size_t)elements * element : 1);
}

/* A member's side: its chunks for node B to the leader; its scatter. */
static int list_member(const redist_geometry *g, hierarchical_state *state)
{
    int rc = DISTFFT_SUCCESS;
    const node_map *m = &state->nodes;
    int64_t out = 0, in = 0;
    for (int n = 0; n < m->nodes; n++) {
        if (n == state->node) continue;
        int64_t count = to_node(g, m, g->part, n);
        TRY(add(state, GATHER_SEND, state->leader, GATHER_TAG, out, count));
        out += count;
        in += from_node(g, m, n, g->part);
    }
    TRY(add(state, SCATTER_RECEIVE, state->leader, SCATTER_TAG, 0, in));
    state->outgoing = allocate(out, state->exchange.element);
    state->received = allocate(in, state->exchange.element);
    if (!state->outgoing || !state->received)
        return error_fail(DISTFFT_ERR_MEMORY, "hierarchical: buffers of %lld and %lld elements",
                          (long long)out, (long long)in);
fail:
    return rc;
}

/* A leader's side: gather from its members, one message per other node
 * each way, scatter to its members. */
static int list_leader(const redist_geometry *g, hierarchical_state *state)
{
    int rc = DISTFFT_SUCCESS;
    const node_map *m = &state->nodes;
    const int *mine = m->members + m->first[state->node];
    int64_t gathered = 0, received = 0, scattered = 0;
    for (int n = 0; n < m->nodes; n++) {
        if (n == state->node) continue;
        int64_t start = gathered, from = 0;
        for (int s = 0; s < state->members; s++) {
            int64_t count = to_node(g, m, mine[s], n);
            state->gather_offsets[n * state->members + s] = gathered;
            if (s > 0) TRY(add(state, GATHER_RECEIVE, mine[s], GATHER_TAG, gathered, count));
            gathered += count;
            from += from_node(g, m, n, mine[s]);
        }
        int other = m->members[m->first[n]];
        TRY(add(state, BETWEEN_SEND, other, BETWEEN_TAG, start, gathered - start));
        TRY(add(state, BETWEEN_RECEIVE, other, BETWEEN_TAG, received, from));
        received += from;
    }
    for (int d = 1; d < state->members; d++) {
        int64_t count = 0;
        for (int n = 0; n < m->nodes; n++)
            if (n != state->node) count += from_node(g, m, n, mine[d]);
        state->scatter_offsets[d] = scattered;
        TRY(add(state, SCATTER_SEND, mine[d], SCATTER_TAG, scattered, count));
        scattered += count;
    }
    size_t element = state->exchange.element;
    state->gathered = allocate(gathered, element);
    state->received = allocate(received, element);
    state->scattered = allocate(scattered, element);
    if (!state->gathered || !state->received || !state->scattered)
        return error_fail(DISTFFT_ERR_MEMORY, "hierarchical: leader buffers");
fail:
    return rc;
}

static int make_tables(const redist_geometry *g, hierarchical_state *state)
{
    int parts = g->parts, nodes = state->nodes.nodes, total = 0;
    int sizes[LISTS] = {nodes, parts, nodes, nodes, state->members, 1};
    for (int l = 0; l < LISTS; l++) {
        state->lists[l] = calloc((size_t)sizes[l], sizeof(transfer));
        if (!state->lists[l]) return error_fail(DISTFFT_ERR_MEMORY, "hierarchical: message lists");
        total += sizes[l];
    }
    state->gather_offsets = calloc((size_t)nodes * state->members, sizeof(int64_t));
    state->scatter_offsets = calloc((size_t)state->members, sizeof(int64_t));
    state->cursors = calloc((size_t)state->members, sizeof(int64_t));
    state->requests = calloc((size_t)total + 2 * (size_t)parts, sizeof(MPI_Request));
    state->statuses = calloc((size_t)total + 2 * (size_t)parts, sizeof(MPI_Status));
    if (!state->gather_offsets || !state->scatter_offsets || !state->cursors ||
        !state->requests || !state->statuses)
        return error_fail(DISTFFT_ERR_MEMORY, "hierarchical: tables");
    for (int i = 0; i < total + 2 * parts; i++) state->requests[i] = MPI_REQUEST_NULL;
    return DISTFFT_SUCCESS;
}

static int hierarchical_create(MPI_Comm comm, const redist_geometry *g, const void *parameters,
                               void **opaque)
{
    (void)parameters;
    *opaque = NULL;
    int rc = DISTFFT_SUCCESS, label;
    hierarchical_state *state = calloc(1, sizeof *state);
    /* every rank reaches the collectives of the node map, or none does */
    rc = error_agree(comm, state ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "hierarchical state"));
    if (rc != DISTFFT_SUCCESS) {
        free(state);
        return rc;
    }
    state->geometry = *g;
    TRY(node_label(comm, g, &label));
    TRY(node_map_create(comm, label, "hierarchical", &state->nodes));
    const node_map *m = &state->nodes;
    state->node = m->node_of[g->part];
    state->leader = m->members[m->first[state->node]];
    state->members = m->first[state->node + 1] - m->first[state->node];
    unsigned char *direct = calloc((size_t)g->parts, 1);
    if (!direct) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "hierarchical: peer table");
        goto fail;
    }
    for (int p = 0; p < g->parts; p++) direct[p] = m->node_of[p] == state->node;
    rc = chunk_exchange_init_some(g, "hierarchical", direct, &state->exchange);
    free(direct);
    if (rc != DISTFFT_SUCCESS) goto fail;
    TRY(make_tables(g, state));
    TRY(state->leader == g->part ? list_leader(g, state) : list_member(g, state));
    *opaque = state;
    return DISTFFT_SUCCESS;
fail:
    KEEP(hierarchical_destroy(state));
    return rc;
}

/* ---- executing ------------------------------------------------------------- */

/* The buffer each list's offsets count in. */
static char *buffer_of(const hierarchical_state *state, int l)
{
    switch (l) {
    case GATHER_SEND: return state->outgoing;
    case GATHER_RECEIVE: case BETWEEN_SEND: return state->gathered;
    case SCATTER_SEND: return state->scattered;
    default: return state->received;
    }
}

/* The requests of list l: after the direct ones, the lists in order. */
static MPI_Request *requests_of(const hierarchical_state *state, int l)
{
    MPI_Request *requests = state->requests + 2 * state->exchange.parts;
    for (int k = 0; k < l; k++) requests += state->counts[k];
    return requests;
}

static int post(const hierarchical_state *state, MPI_Comm comm, int l)
{
    int rc = DISTFFT_SUCCESS, sending = l % 2 == 0;
    char *buffer = buffer_of(state, l);
    MPI_Request *requests = requests_of(state, l);
    for (int t = 0; t < state->counts[l]; t++) {
        const transfer *m = &state->lists[l][t];
        char *at = buffer + m->offset * (int64_t)state->exchange.element;
        if (sending)
            TRY_MPI(MPI_Isend(at, m->message.count, m->message.type, m->peer, m->tag, comm, &requests[t]));
        else
            TRY_MPI(MPI_Irecv(at, m->message.count, m->message.type, m->peer, m->tag, comm, &requests[t]));
    }
fail:
    return rc;
}

static int finish(const hierarchical_state *state, int l)
{
    int rc = DISTFFT_SUCCESS;
    TRY_MPI(MPI_Waitall(state->counts[l], requests_of(state, l), state->statuses));
fail:
    return rc;
}

/* Pack this rank's chunks for the other nodes: node by node, rank order;
 * a leader packs straight into its gather buffer. */
static void pack_outgoing(const hierarchical_state *state, const void *in)
{
    const chunk_exchange *x = &state->exchange;
    const node_map *m = &state->nodes;
    int leading = state->leader == x->part;
    char *at = state->outgoing;
    for (int n = 0; n < m->nodes; n++) {
        if (n == state->node) continue;
        if (leading) at = state->gathered + state->gather_offsets[n * state->members] * (int64_t)x->element;
        for (int i = m->first[n]; i < m->first[n + 1]; i++) {
            chunk_pack_to(x, m->members[i], in, at);
            at += chunk_count_between(&state->geometry, x->part, m->members[i]) * (int64_t)x->element;
        }
    }
}

/* A leader: what came from the other nodes (node by node, each source's
 * chunks for this node's ranks) regrouped by destination member; its own
 * chunks unpacked at once. */
static void regroup(hierarchical_state *state, void *out)
{
    const chunk_exchange *x = &state->exchange;
    const node_map *m = &state->nodes;
    const int *mine = m->members + m->first[state->node];
    size_t element = x->element;
    const char *at = state->received;
    memcpy(state->cursors, state->scatter_offsets, (size_t)state->members * sizeof *state->cursors);
    for (int n = 0; n < m->nodes; n++) {
        if (n == state->node) continue;
        for (int i = m->first[n]; i < m->first[n + 1]; i++) {
            int source = m->members[i];
            for (int d = 0; d < state->members; d++) {
                int64_t count = chunk_count_between(&state->geometry, source, mine[d]);
                if (d == 0) chunk_unpack_from(x, source, at, out);
                else memcpy(state->scattered + state->cursors[d] * (int64_t)element, at, (size_t)count * element);
                state->cursors[d] += count;
                at += count * (int64_t)element;
            }
        }
    }
}

/* A member: unpack what its leader scattered to it. */
static void unpack_scattered(const hierarchical_state *state, void *out)
{
    const chunk_exchange *x = &state->exchange;
    const node_map *m = &state->nodes;
    const char *at = state->received;
    for (int n = 0; n < m->nodes; n++) {
        if (n == state->node) continue;
        for (int i = m->first[n]; i < m->first[n + 1]; i++) {
            chunk_unpack_from(x, m->members[i], at, out);
            at += chunk_count_between(&state->geometry, m->members[i], x->part) * (int64_t)x->element;
        }
    }
}

static int hierarchical_execute(void *opaque, MPI_Comm comm, const void *in, void *out)
{
    hierarchical_state *state = opaque;
    const chunk_exchange *x = &state->exchange;
    int rc = DISTFFT_SUCCESS, parts = x->parts, leading = state->leader == x->part;
    TRY(post(state, comm, GATHER_RECEIVE));
    TRY(post(state, comm, BETWEEN_RECEIVE));
    TRY(post(state, comm, SCATTER_RECEIVE));
    TRY(chunk_post(x, comm, in, 0, parts, state->requests, state->requests + parts)); /* within the node */
    pack_outgoing(state, in);
    TRY(post(state, comm, GATHER_SEND));
    chunk_copy_own(x, in, out);
    if (leading) {
        TRY(finish(state, GATHER_RECEIVE));
        TRY(post(state, comm, BETWEEN_SEND));
        TRY(finish(state, BETWEEN_RECEIVE));
        regroup(state, out);
        TRY(post(state, comm, SCATTER_SEND));
    } else {
        TRY(finish(state, SCATTER_RECEIVE));
        unpack_scattered(state, out);
    }
    TRY_MPI(MPI_Waitall(parts, state->requests, state->statuses));
    for (int p = 0; p < parts; p++)
        if (x->receive_counts[p] > 0) chunk_unpack(x, p, out);
    TRY_MPI(MPI_Waitall(parts, state->requests + parts, state->statuses));
    for (int l = GATHER_SEND; l < LISTS; l += 2) TRY(finish(state, l));
    return DISTFFT_SUCCESS;
fail: /* no request outlives the call */
    KEEP(requests_abandon(state->requests, parts, 1));
    KEEP(requests_abandon(state->requests + parts, parts, 0));
    for (int l = 0; l < LISTS; l++)
        KEEP(requests_abandon(requests_of(state, l), state->counts[l], l % 2));
    return rc;
}

/* ---- describing ------------------------------------------------------------ */

static const char *plural(int n)
{
    return n == 1 ? "" : "s";
}

static long long bytes_of(const hierarchical_state *state, int l)
{
    return (long long)(state->elements[l] * (int64_t)state->exchange.element);
}

/* "%d message%s %lld B" of list l, as printf arguments. */
#define MESSAGES(l) state->counts[l], plural(state->counts[l]), bytes_of(state, l)

/* The three hops (see the top) as this rank takes part in them. */
static void hierarchical_describe(const void *opaque, int depth, text *out)
{
    const hierarchical_state *state = opaque;
    int others = state->nodes.nodes - 1, led = state->members - 1;
    bool leading = state->leader == state->geometry.part;
    text_open(out, depth);
    text_append(out, "nodes %d, %d rank%s on this one, ", state->nodes.nodes, state->members, plural(state->members));
    if (leading) text_append(out, "led by this rank)");
    else text_append(out, "led by rank %d)", state->leader);
    chunk_exchange_describe(&state->exchange, "direct within the node", depth, out);
    if (others == 0) return;
    if (!leading) {
        text_node(out, depth, "gather to the leader: %d message%s %lld B", MESSAGES(GATHER_SEND));
        text_node(out, depth, "scatter from the leader: %d message%s %lld B", MESSAGES(SCATTER_RECEIVE));
        return;
    }
    text_node(out, depth, "gather from %d member%s: %d message%s %lld B", led, plural(led),
              MESSAGES(GATHER_RECEIVE));
    text_node(out, depth, "between %d other node%s: out %d message%s %lld B, in %d message%s %lld B", others,
              plural(others), MESSAGES(BETWEEN_SEND), MESSAGES(BETWEEN_RECEIVE));
    text_node(out, depth, "scatter to %d member%s: %d message%s %lld B", led, plural(led), MESSAGES(SCATTER_SEND));
}
#undef MESSAGES

const redist_method redist_hierarchical = {
    .name = "hierarchical",
    .applicable = redist_applies_to_pencils,
    .create = hierarchical_create,
    .execute = hierarchical_execute,
    .destroy = hierarchical_destroy,
    .node_aware = true,
    .describe = hierarchical_describe,
};
