/*
 * chunks.c -- chunk geometry and the pack / unpack copies of the copying
 * redistribution methods (see chunks.h); the local remapping of the paper's
 * Sec. 3.3.1 (000), done chunk by chunk with contiguous runs instead of a
 * whole-array transpose, which also covers sizes not divisible by the
 * number of ranks.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../platform.h"
#include "../types.h"
#include "chunks.h"

/* Peer's chunk of a local array of `shape` (batch x shape, C order)
 * partitioned along `axis` into `parts` blocks. */
static chunk_span chunk_of(int ndims, const int64_t *shape, int64_t batch,
                           int axis, int parts, int peer)
{
    int64_t length, start;
    distfft_decompose(shape[axis], parts, peer, &length, &start);
    int64_t inner = shape_product(ndims - axis - 1, shape + axis + 1);
    return (chunk_span){.rows = batch * shape_product(axis, shape),
                        .run = length * inner,
                        .stride = shape[axis] * inner,
                        .offset = start * inner};
}

/* A packed chunk of `count` elements at `offset`: one run. */
static chunk_span packed_span(int64_t offset, int64_t count)
{
    return (chunk_span){.rows = 1, .run = count, .stride = count,
                        .offset = offset};
}

/* A copy of x's elements, multiplied by x->scale when `scaled`. */
static redist_copy copy_of(const chunk_exchange *x, bool scaled)
{
    return (redist_copy){.element = x->element, .single = x->single, .scale = scaled ? x->scale : 1.0,
                         .threads = x->threads};
}

/* Copy the elements of `from` in `source` to those of `to` in `target`, in
 * order (scaled by x->scale when `scaled`): both spans describe the same
 * C-ordered sub-block. */
static void copy_span(const chunk_exchange *x, const void *source, chunk_span from,
                      void *target, chunk_span to, bool scaled)
{
    redist_copy copy = copy_of(x, scaled);
    copy.from = from;
    copy.to = to;
    x->copies->copy(&copy, source, target, x->stream);
}

/* The chunk of `peer` in a reshape, in global coordinates: on the send
 * side this rank's input box met with peer's output box, on the receive
 * side this rank's output box met with peer's input box. Also this rank's
 * own box of that side (*own_start, *own_shape). Returns its elements per
 * field. */
static int64_t box_chunk(const chunk_exchange *x, bool send, int peer, int64_t *start, int64_t *shape,
                         const int64_t **own_start, const int64_t **own_shape)
{
    const struct distfft_layout_s *own = send ? x->boxes_in : x->boxes_out;
    const struct distfft_layout_s *other = send ? x->boxes_out : x->boxes_in;
    *own_start = layout_start(own, x->part);
    *own_shape = layout_shape(own, x->part);
    return layout_intersect(x->ndims, *own_start, *own_shape, layout_start(other, peer), layout_shape(other, peer),
                            start, shape);
}

/* Where a sub-box sits in an array of the batch: a local box of the
 * global array (start, shape), or packed (start NULL: the sub-box alone). */
typedef struct {
    const int64_t *start, *shape;
} box_place;

/* Copy the sub-box (start, shape) of every field of the batch from
 * `source` to `target`, placed as `from` and `to` say, in C order (scaled
 * by x->scale when `scaled`). The innermost axes that are whole in both
 * arrays and the next one make the contiguous runs; the outer axes are
 * walked with an odometer (redist_copy's box walk). */
static void copy_box(const chunk_exchange *x, const int64_t *start, const int64_t *shape, const void *source,
                     box_place from, void *target, box_place to, bool scaled)
{
    int axes = x->ndims + 1;
    int64_t sub[COPY_AXES] = {0}, from_size = 1, to_size = 1;
    redist_copy copy = copy_of(x, scaled);
    copy.box = true;
    for (int a = axes - 1; a >= 0; a--) {
        sub[a] = a ? shape[a - 1] : x->batch;
        copy.from_stride[a] = from_size;
        copy.to_stride[a] = to_size;
        from_size *= a && from.start ? from.shape[a - 1] : sub[a];
        to_size *= a && to.start ? to.shape[a - 1] : sub[a];
        if (a && from.start) copy.from_at += (start[a - 1] - from.start[a - 1]) * copy.from_stride[a];
        if (a && to.start) copy.to_at += (start[a - 1] - to.start[a - 1]) * copy.to_stride[a];
    }
    int k = axes - 1; /* the outermost axis of a run */
    copy.run = sub[k];
    while (k > 0 && sub[k] * copy.from_stride[k] == copy.from_stride[k - 1] &&
           sub[k] * copy.to_stride[k] == copy.to_stride[k - 1])
        copy.run *= sub[--k];
    copy.rows = copy.run == 0 ? 0 : 1;
    for (int a = 0; a < k; a++) copy.rows *= sub[a];
    copy.axes = k;
    memcpy(copy.extent, sub, sizeof copy.extent);
    x->copies->copy(&copy, source, target, x->stream);
}

typedef enum { COPY_PACK, COPY_UNPACK, COPY_OWN } copy_kind;

/* A reshape's copies: peer's chunk of `in` into `out` packed, the packed
 * chunk `in` into peer's chunk of `out`, or this rank's own chunk from
 * `in` to `out`. */
static void copy_box_chunk(const chunk_exchange *x, copy_kind copy, int peer, const void *in, void *out)
{
    int64_t start[DISTFFT_MAX_DIMS], shape[DISTFFT_MAX_DIMS];
    const int64_t *own_start, *own_shape, *out_start, *out_shape;
    if (copy == COPY_OWN) {
        if (box_chunk(x, true, x->part, start, shape, &own_start, &own_shape) == 0) return;
        box_chunk(x, false, x->part, start, shape, &out_start, &out_shape);
        copy_box(x, start, shape, in, (box_place){own_start, own_shape}, out, (box_place){out_start, out_shape},
                 true);
    } else if (copy == COPY_PACK) {
        if (box_chunk(x, true, peer, start, shape, &own_start, &own_shape) == 0) return;
        copy_box(x, start, shape, in, (box_place){own_start, own_shape}, out, (box_place){NULL, NULL}, false);
    } else {
        if (box_chunk(x, false, peer, start, shape, &own_start, &own_shape) == 0) return;
        copy_box(x, start, shape, in, (box_place){NULL, NULL}, out, (box_place){own_start, own_shape}, true);
    }
}

int chunk_exchange_free(chunk_exchange *exchange)
{
    int rc = DISTFFT_SUCCESS;
    free(exchange->send_chunks);
    free(exchange->receive_chunks);
    free(exchange->send_counts);
    free(exchange->receive_counts);
    free(exchange->send_offsets);
    free(exchange->receive_offsets);
    for (int p = 0; p < exchange->parts; p++) {
        if (exchange->send_messages) KEEP_MPI(big_message_free(&exchange->send_messages[p]));
        if (exchange->receive_messages) KEEP_MPI(big_message_free(&exchange->receive_messages[p]));
    }
    free(exchange->send_messages);
    free(exchange->receive_messages);
    if (exchange->copies) {
        exchange->copies->release(exchange->send_buffer);
        exchange->copies->release(exchange->receive_buffer);
    }
    memset(exchange, 0, sizeof *exchange);
    return rc;
}

/* Counts, buffer offsets and MPI messages of one side (send: the input's);
 * own chunk: 0. */
static int side_counts(const chunk_exchange *x, bool send,
                       const unsigned char *buffered, const char *method,
                       int64_t *counts, int64_t *offsets,
                       big_message *messages, int64_t *total)
{
    int64_t limit = big_count_limit();
    const chunk_span *chunks = send ? x->send_chunks : x->receive_chunks;
    *total = 0;
    for (int p = 0; p < x->parts; p++) {
        int through = p != x->part && (!buffered || buffered[p]);
        int64_t count = 0, start[DISTFFT_MAX_DIMS], shape[DISTFFT_MAX_DIMS];
        const int64_t *own_start, *own_shape;
        if (through && x->boxes_in) count = x->batch * box_chunk(x, send, p, start, shape, &own_start, &own_shape);
        else if (through) count = chunks[p].rows * chunks[p].run;
        counts[p] = count;
        offsets[p] = *total;
        *total += count;
        int code = big_message_create(count, x->datatype, limit, &messages[p]);
        if (code != MPI_SUCCESS)
            return error_fail(DISTFFT_ERR_MPI, "%s: a datatype for a chunk of "
                              "%lld elements (MPI error %d)", method,
                              (long long)count, code);
    }
    return DISTFFT_SUCCESS;
}

static void *allocate(const chunk_exchange *x, int64_t elements)
{
    return elements > 0 ? x->copies->allocate((size_t)elements * x->element) : NULL;
}

int chunk_exchange_init(const redist_geometry *g, const char *method,
                        chunk_exchange *x)
{
    return chunk_exchange_init_some(g, method, NULL, x);
}

int64_t chunk_count_between(const redist_geometry *g, int source, int target)
{
    int64_t elements = g->batch, sent, received;
    for (int i = 0; i < g->ndims; i++)
        if (i != g->axis_in && i != g->axis_out) elements *= g->in_shape[i];
    /* the input holds axis_in whole, the output axis_out */
    distfft_decompose(g->in_shape[g->axis_in], g->parts, target, &sent, NULL);
    distfft_decompose(g->out_shape[g->axis_out], g->parts, source, &received, NULL);
    return elements * sent * received;
}

int chunk_exchange_init_some(const redist_geometry *g, const char *method,
                             const unsigned char *buffered, chunk_exchange *x)
{
    int rc = DISTFFT_SUCCESS;
    int parts = g->parts;
    memset(x, 0, sizeof *x);
    x->parts = parts;
    x->part = g->part;
    x->element = distfft_type_size(g->type);
    x->datatype = type_mpi(g->type);
    x->single = type_precision(g->type) == DISTFFT_FLOAT;
    x->scale = 1.0;
    x->threads = g->threads > 1 ? g->threads : 1;
    x->boxes_in = g->boxes_in;
    x->boxes_out = g->boxes_out;
    x->ndims = g->ndims;
    x->batch = g->batch;
    x->copies = g->copies ? g->copies : &redist_host_copies;
    x->stream = g->stream;
    if (!g->boxes_in) { /* a reshape's chunks come from its boxes */
        x->send_chunks = calloc(parts, sizeof *x->send_chunks);
        x->receive_chunks = calloc(parts, sizeof *x->receive_chunks);
    }
    x->send_counts = calloc(parts, sizeof *x->send_counts);
    x->receive_counts = calloc(parts, sizeof *x->receive_counts);
    x->send_offsets = calloc(parts, sizeof *x->send_offsets);
    x->receive_offsets = calloc(parts, sizeof *x->receive_offsets);
    x->send_messages = calloc(parts, sizeof *x->send_messages);
    x->receive_messages = calloc(parts, sizeof *x->receive_messages);
    if ((!g->boxes_in && (!x->send_chunks || !x->receive_chunks)) || !x->send_counts ||
        !x->receive_counts || !x->send_offsets || !x->receive_offsets ||
        !x->send_messages || !x->receive_messages) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "%s: chunk tables", method);
        goto fail;
    }
    for (int p = 0; p < parts && !g->boxes_in; p++) {
        x->send_chunks[p] = chunk_of(g->ndims, g->in_shape, g->batch,
                                     g->axis_in, parts, p);
        x->receive_chunks[p] = chunk_of(g->ndims, g->out_shape, g->batch,
                                        g->axis_out, parts, p);
    }
    for (int p = 0; p < parts; p++) /* predefined: safe to "free" */
        x->send_messages[p] = x->receive_messages[p] =
            (big_message){.count = 0, .type = MPI_BYTE, .owned = 0};
    TRY(side_counts(x, true, buffered, method, x->send_counts,
                    x->send_offsets, x->send_messages, &x->send_total));
    TRY(side_counts(x, false, buffered, method, x->receive_counts,
                    x->receive_offsets, x->receive_messages,
                    &x->receive_total));
    x->send_buffer = allocate(x, x->send_total);
    x->receive_buffer = allocate(x, x->receive_total);
    if ((x->send_total > 0 && !x->send_buffer) ||
        (x->receive_total > 0 && !x->receive_buffer)) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "%s: buffers of %lld and %lld "
                        "elements", method, (long long)x->send_total,
                        (long long)x->receive_total);
        goto fail;
    }
    return DISTFFT_SUCCESS;
fail:
    KEEP(chunk_exchange_free(x));
    return rc;
}

int chunk_post(const chunk_exchange *x, MPI_Comm comm, const void *in, int first, int count,
               MPI_Request *receives, MPI_Request *sends)
{
    int rc = DISTFFT_SUCCESS;
    for (int i = 0; i < count; i++) receives[i] = sends[i] = MPI_REQUEST_NULL;
    for (int i = 0; i < count; i++) {
        int source = (x->part - (first + i) % x->parts + x->parts) % x->parts;
        if (x->receive_counts[source] > 0)
            TRY_MPI(MPI_Irecv(chunk_receive_region(x, source), x->receive_messages[source].count,
                              x->receive_messages[source].type, source, CHUNK_TAG, comm, &receives[i]));
    }
    for (int i = 0; i < count; i++) {
        int target = (x->part + first + i) % x->parts;
        if (x->send_counts[target] == 0) continue;
        chunk_pack(x, target, in);
        TRY_MPI(MPI_Isend(chunk_send_region(x, target), x->send_messages[target].count,
                          x->send_messages[target].type, target, CHUNK_TAG, comm, &sends[i]));
    }
fail:
    return rc;
}

/* Region of an empty chunk: any valid address will do. */
static char empty_region;

void *chunk_send_region(const chunk_exchange *x, int peer)
{
    return x->send_counts[peer] == 0
               ? (void *)&empty_region
               : (char *)x->send_buffer + x->send_offsets[peer] * (int64_t)x->element;
}

void *chunk_receive_region(const chunk_exchange *x, int peer)
{
    return x->receive_counts[peer] == 0
               ? (void *)&empty_region
               : (char *)x->receive_buffer + x->receive_offsets[peer] * (int64_t)x->element;
}

/* One copy of an exchange as local work (platform.h): a simulator that
 * samples local work charges it as it charges an FFT step. Its name says
 * everything its cost depends on -- the kind, the element size, both
 * sides' runs (a reshape: the sub-box and the boxes around it), whether it
 * scales -- and not which method asked, so the same copy made by two
 * methods is the same sample. */
typedef struct {
    const chunk_exchange *x;
    copy_kind kind;
    int peer;
} chunk_copy;

/* The two spans of a copy of pencils' chunks. */
static void copy_spans(const chunk_copy *copy, chunk_span *from, chunk_span *to)
{
    const chunk_exchange *x = copy->x;
    const chunk_span *sent = &x->send_chunks[copy->kind == COPY_OWN ? x->part : copy->peer];
    const chunk_span *received = &x->receive_chunks[copy->kind == COPY_OWN ? x->part : copy->peer];
    *from = copy->kind == COPY_UNPACK ? packed_span(0, chunk_elements(received)) : *sent;
    *to = copy->kind == COPY_PACK ? packed_span(0, chunk_elements(sent)) : *received;
}

static int run_copy(const void *context, const void *in, void *out)
{
    const chunk_copy *copy = context;
    if (copy->x->boxes_in) {
        copy_box_chunk(copy->x, copy->kind, copy->peer, in, out);
        return 0;
    }
    chunk_span from, to;
    copy_spans(copy, &from, &to);
    copy_span(copy->x, in, from, out, to, copy->kind != COPY_PACK);
    return 0;
}

static void name_copy(const void *context, char *key, size_t size)
{
    static const char *const kinds[] = {"pack", "unpack", "own"};
    const chunk_copy *copy = context;
    const chunk_exchange *x = copy->x;
    int used = snprintf(key, size, "copy %s %zu B%s", kinds[copy->kind], x->element,
                        x->scale != 1.0 && copy->kind != COPY_PACK ? " scaled" : "");
    if (!x->boxes_in) {
        chunk_span from, to;
        copy_spans(copy, &from, &to);
        snprintf(key + used, size - (size_t)used, " %lldx%lld/%lld to %lldx%lld/%lld", (long long)from.rows,
                 (long long)from.run, (long long)from.stride, (long long)to.rows, (long long)to.run,
                 (long long)to.stride);
        return;
    }
    int64_t start[DISTFFT_MAX_DIMS], shape[DISTFFT_MAX_DIMS];
    const int64_t *own_start, *own_shape, *other_start, *other_shape;
    int peer = copy->kind == COPY_OWN ? x->part : copy->peer;
    box_chunk(x, copy->kind != COPY_UNPACK, peer, start, shape, &own_start, &own_shape);
    if (copy->kind == COPY_OWN) box_chunk(x, false, peer, start, shape, &other_start, &other_shape);
    used += snprintf(key + used, size - (size_t)used, " batch %lld box", (long long)x->batch);
    for (int i = 0; i < x->ndims && (size_t)used < size; i++)
        used += snprintf(key + used, size - (size_t)used, " %lld/%lld", (long long)shape[i],
                         (long long)own_shape[i]);
    for (int i = 0; copy->kind == COPY_OWN && i < x->ndims && (size_t)used < size; i++)
        used += snprintf(key + used, size - (size_t)used, " %lld", (long long)other_shape[i]);
}

/* Bytes of this rank's local array on one side (send: the input). */
static size_t array_bytes(const chunk_exchange *x, bool send)
{
    if (!x->boxes_in) {
        const chunk_span *chunk = send ? &x->send_chunks[0] : &x->receive_chunks[0];
        return (size_t)(chunk->rows * chunk->stride) * x->element;
    }
    const int64_t *shape = layout_shape(send ? x->boxes_in : x->boxes_out, x->part);
    return (size_t)(x->batch * shape_product(x->ndims, shape)) * x->element;
}

/* Bytes of peer's packed chunk on one side. */
static size_t packed_bytes(const chunk_exchange *x, bool send, int peer)
{
    if (!x->boxes_in) return (size_t)chunk_elements(send ? &x->send_chunks[peer] : &x->receive_chunks[peer]) * x->element;
    int64_t start[DISTFFT_MAX_DIMS], shape[DISTFFT_MAX_DIMS];
    const int64_t *own_start, *own_shape;
    return (size_t)(x->batch * box_chunk(x, send, peer, start, shape, &own_start, &own_shape)) * x->element;
}

static void copy_as_work(const chunk_exchange *x, copy_kind kind, int peer, const void *in, void *out)
{
    chunk_copy copy = {x, kind, peer};
    size_t in_bytes = kind == COPY_UNPACK ? packed_bytes(x, false, peer) : array_bytes(x, true);
    size_t out_bytes = kind == COPY_PACK ? packed_bytes(x, true, peer) : array_bytes(x, false);
    platform_work work = {run_copy, name_copy, &copy, in_bytes, out_bytes};
    platform_run_local_work(&work, in, out);
}

/* Only the peers that go through the buffers have a region there. */
void chunk_pack(const chunk_exchange *x, int peer, const void *in)
{
    if (x->send_counts[peer] == 0) return;
    copy_as_work(x, COPY_PACK, peer, in, chunk_send_region(x, peer));
}

void chunk_unpack(const chunk_exchange *x, int peer, void *out)
{
    if (x->receive_counts[peer] == 0) return;
    copy_as_work(x, COPY_UNPACK, peer, chunk_receive_region(x, peer), out);
}

void chunk_copy_own(const chunk_exchange *x, const void *in, void *out)
{
    copy_as_work(x, COPY_OWN, x->part, in, out);
}

void chunk_pack_all(const chunk_exchange *x, const void *in)
{
    for (int p = 0; p < x->parts; p++) chunk_pack(x, p, in);
}

void chunk_unpack_all(const chunk_exchange *x, const void *in, void *out)
{
    chunk_copy_own(x, in, out);
    for (int p = 0; p < x->parts; p++) chunk_unpack(x, p, out);
}

int chunk_priced_init(const redist_geometry *g, const char *method, chunk_exchange **copies)
{
    *copies = NULL;
    if (!platform_hides_mpi_copies()) return DISTFFT_SUCCESS;
    chunk_exchange *exchange = malloc(sizeof *exchange);
    if (!exchange) return error_fail(DISTFFT_ERR_MEMORY, "%s: the priced copies' state", method);
    int rc = chunk_exchange_init(g, method, exchange);
    if (rc != DISTFFT_SUCCESS) {
        free(exchange);
        return rc;
    }
    *copies = exchange;
    return DISTFFT_SUCCESS;
}

void chunk_priced_run(const chunk_exchange *copies, const void *in, void *out)
{
    if (!copies) return;
    chunk_pack_all(copies, in);
    chunk_unpack_all(copies, in, out);
}

int chunk_priced_free(chunk_exchange *copies)
{
    int rc = DISTFFT_SUCCESS;
    if (!copies) return rc;
    KEEP(chunk_exchange_free(copies));
    free(copies);
    return rc;
}

void chunk_state_scale(void *state, double factor)
{
    ((chunk_exchange *)state)->scale *= factor;
}

void chunk_exchange_describe(const chunk_exchange *x, const char *what, int depth, text *out)
{
    int sends = 0, receives = 0;
    for (int p = 0; p < x->parts; p++) {
        sends += x->send_counts[p] > 0;
        receives += x->receive_counts[p] > 0;
    }
    text_node(out, depth, "%s: %d out %lld B, %d in %lld B", what, sends,
              (long long)(x->send_total * (int64_t)x->element), receives,
              (long long)(x->receive_total * (int64_t)x->element));
}

void chunk_pack_to(const chunk_exchange *x, int peer, const void *in,
                   void *packed)
{
    copy_as_work(x, COPY_PACK, peer, in, packed);
}

void chunk_unpack_from(const chunk_exchange *x, int peer, const void *packed,
                       void *out)
{
    copy_as_work(x, COPY_UNPACK, peer, packed, out);
}

chunk_span chunk_in_peer_output(const redist_geometry *g, int peer)
{
    int64_t shape[DISTFFT_MAX_DIMS];
    for (int i = 0; i < g->ndims; i++) shape[i] = g->out_shape[i];
    /* the input holds axis_in whole; the peer's output its block of it */
    distfft_decompose(g->in_shape[g->axis_in], g->parts, peer, &shape[g->axis_in], NULL);
    return chunk_of(g->ndims, shape, g->batch, g->axis_out, g->parts, g->part);
}

void chunk_put(const chunk_exchange *x, int peer, const void *in, void *peer_out, chunk_span at)
{
    copy_span(x, in, x->send_chunks[peer], peer_out, at, true);
}
