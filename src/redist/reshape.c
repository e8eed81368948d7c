/*
 * reshape.c -- box-to-box reshapes (see reshape.h): the object, its two
 * redistributions' geometry, and what it tells (bytes and peers, found
 * from the boxes). Every rank holds every box (layout_value.h), so no
 * communication is needed to find who overlaps whom.
 */
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../lifetime.h"
#include "../types.h"
#include "reshape.h"

int reshape_free(struct distfft_reshape_s *r)
{
    int rc = DISTFFT_SUCCESS;
    if (!r) return rc;
    for (int d = 0; d < 2; d++) {
        KEEP(redist_free(r->redist[d]));
        free(r->boxes[d].boxes);
    }
    if (r->comm != MPI_COMM_NULL) KEEP_MPI(lifetime_comm_free(&r->comm));
    free(r);
    return rc;
}

const char *reshape_method_name(const struct distfft_reshape_s *reshape)
{
    return distfft_method_name(reshape->method);
}

/* A copy of a layout's boxes on the reshape's communicator. */
static int copy_boxes(const struct distfft_layout_s *layout, MPI_Comm comm, struct distfft_layout_s *copy)
{
    *copy = *layout;
    copy->comm = comm;
    copy->lifetime = (lifetime_tag){NULL, 0};
    size_t bytes = (size_t)layout->size * 2 * (size_t)layout->ndims * sizeof *layout->boxes;
    copy->boxes = malloc(bytes);
    if (!copy->boxes) return error_fail(DISTFFT_ERR_MEMORY, "distfft_reshape_create: boxes of %d ranks", layout->size);
    memcpy(copy->boxes, layout->boxes, bytes);
    return DISTFFT_SUCCESS;
}

/* Bytes and peers this rank sends to and receives from, forward. */
static void count_traffic(struct distfft_reshape_s *r)
{
    const struct distfft_layout_s *in = &r->boxes[0], *out = &r->boxes[1];
    int64_t element = (int64_t)distfft_type_size(r->type), start[DISTFFT_MAX_DIMS], shape[DISTFFT_MAX_DIMS];
    for (int p = 0; p < r->size; p++) {
        if (p == r->rank) continue;
        int64_t sent = layout_intersect(r->ndims, layout_start(in, r->rank), layout_shape(in, r->rank),
                                        layout_start(out, p), layout_shape(out, p), start, shape);
        int64_t received = layout_intersect(r->ndims, layout_start(out, r->rank), layout_shape(out, r->rank),
                                            layout_start(in, p), layout_shape(in, p), start, shape);
        r->bytes_sent += sent * r->batch * element;
        r->bytes_received += received * r->batch * element;
        r->peers_in += sent > 0;
        r->peers_out += received > 0;
    }
}

int reshape_open(const struct distfft_layout_s *in, const struct distfft_layout_s *out, distfft_type type,
                 int64_t batch, redist_memory memory, const redist_copies *copies, void *stream,
                 struct distfft_reshape_s **reshape_out)
{
    int rc = DISTFFT_SUCCESS;
    *reshape_out = NULL;
    struct distfft_reshape_s *r = calloc(1, sizeof *r);
    if (r) r->comm = MPI_COMM_NULL; /* what reshape_free frees if the agreement fails */
    TRY(error_agree(in->comm, r ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "distfft_reshape_create: object")));
    r->type = type;
    r->batch = batch;
    r->memory = memory;
    r->copies = copies;
    r->stream = stream;
    r->method = DISTFFT_METHOD_ALLTOALLW;
    r->size = in->size;
    r->rank = in->rank;
    r->ndims = in->ndims;
    for (int a = 0; a < in->ndims; a++) r->global_shape[a] = in->global_shape[a];
    r->in_count = batch * layout_box_count(in, in->rank);
    r->out_count = batch * layout_box_count(out, out->rank);
    TRY_MPI(MPI_Comm_dup(in->comm, &r->comm));
    /* local, failing on some ranks only: agreed */
    int local = CHECK_MPI(MPI_Comm_set_errhandler(r->comm, MPI_ERRORS_RETURN));
    if (local == DISTFFT_SUCCESS) local = copy_boxes(in, r->comm, &r->boxes[0]);
    if (local == DISTFFT_SUCCESS) local = copy_boxes(out, r->comm, &r->boxes[1]);
    TRY(error_agree(r->comm, local));
    count_traffic(r);
    *reshape_out = r;
    return DISTFFT_SUCCESS;
fail:
    KEEP(reshape_free(r));
    return rc;
}

redist_geometry reshape_geometry(const struct distfft_reshape_s *r, bool forward)
{
    const struct distfft_layout_s *from = &r->boxes[forward ? 0 : 1], *to = &r->boxes[forward ? 1 : 0];
    redist_geometry g = {.type = r->type, .ndims = r->ndims, .axis_in = -1, .axis_out = -1, .batch = r->batch,
                         .parts = r->size, .part = r->rank, .boxes_in = from, .boxes_out = to,
                         .memory = r->memory, .copies = r->copies, .stream = r->stream};
    memcpy(g.in_shape, layout_shape(from, r->rank), (size_t)r->ndims * sizeof *g.in_shape);
    memcpy(g.out_shape, layout_shape(to, r->rank), (size_t)r->ndims * sizeof *g.out_shape);
    return g;
}

int reshape_run(const struct distfft_reshape_s *r, bool forward, const void *from, void *to)
{
    return redist_run(r->redist[forward ? 0 : 1], from, to);
}
