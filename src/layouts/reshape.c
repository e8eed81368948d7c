/*
 * reshape.c -- box-to-box reshapes (see reshape.h). Built once: for every
 * rank p, the intersection of this rank's input box with p's output box is
 * a subarray of the input box (what goes to p), and the intersection of
 * this rank's output box with p's input box a subarray of the output box
 * (what comes from p). A leading batch axis is one more, undivided,
 * subarray axis. Backward uses the same datatypes with the roles swapped.
 * Every rank holds every box (layout_value.h), so no communication is
 * needed to find who overlaps whom.
 */
#include <limits.h>
#include <stdlib.h>

#include "../error.h"
#include "../lifetime.h"
#include "../types.h"
#include "reshape.h"

#define RESHAPE_TAG 7301

int reshape_free(struct distfft_reshape_s *r)
{
    int rc = DISTFFT_SUCCESS;
    if (!r) return rc;
    for (int p = 0; p < r->size; p++) {
        if (r->in_types && r->in_counts && r->in_counts[p] > 0) KEEP_MPI(MPI_Type_free(&r->in_types[p]));
        if (r->out_types && r->out_counts && r->out_counts[p] > 0) KEEP_MPI(MPI_Type_free(&r->out_types[p]));
    }
    free(r->in_counts);
    free(r->out_counts);
    free(r->displacements);
    free(r->in_types);
    free(r->out_types);
    free(r->requests);
    free(r->statuses);
    free(r->packed_in);
    free(r->packed_out);
    free(r->offsets_in);
    free(r->offsets_out);
    free(r->pack_send);
    free(r->pack_receive);
    if (r->comm != MPI_COMM_NULL) KEEP_MPI(lifetime_comm_free(&r->comm));
    free(r);
    return rc;
}

const char *reshape_method_name(const struct distfft_reshape_s *reshape)
{
    return distfft_method_name(reshape->method);
}

/* The part of box (own_start, own_shape) that box (peer_start, peer_shape)
 * also covers, as a subarray datatype of the own box with a batch axis;
 * count 0 and MPI_BYTE where empty. Returns its element count via *elements. */
static int part_type(const struct distfft_reshape_s *r, const int64_t *own_start, const int64_t *own_shape,
                     const int64_t *peer_start, const int64_t *peer_shape, int *count, MPI_Datatype *type,
                     int64_t *elements)
{
    int rc = DISTFFT_SUCCESS;
    int64_t start[DISTFFT_MAX_DIMS], shape[DISTFFT_MAX_DIMS];
    *count = 0;
    *type = MPI_BYTE;
    *elements = layout_intersect(r->ndims, own_start, own_shape, peer_start, peer_shape, start, shape);
    if (*elements == 0 || r->batch == 0) return DISTFFT_SUCCESS;
    int sizes[DISTFFT_MAX_DIMS + 1], subsizes[DISTFFT_MAX_DIMS + 1], starts[DISTFFT_MAX_DIMS + 1];
    sizes[0] = subsizes[0] = (int)r->batch;
    starts[0] = 0;
    for (int a = 0; a < r->ndims; a++) {
        sizes[a + 1] = (int)own_shape[a];
        subsizes[a + 1] = (int)shape[a];
        starts[a + 1] = (int)(start[a] - own_start[a]);
    }
    MPI_Datatype made = MPI_DATATYPE_NULL;
    TRY_MPI(MPI_Type_create_subarray(r->ndims + 1, sizes, subsizes, starts, MPI_ORDER_C, type_mpi(r->type),
                                     &made));
    TRY_MPI(MPI_Type_commit(&made));
    *type = made;
    *count = 1;
    return DISTFFT_SUCCESS;
fail:
    if (made != MPI_DATATYPE_NULL) KEEP_MPI(MPI_Type_free(&made));
    return rc;
}

static int fits_int(int ndims, const int64_t *shape, int64_t batch)
{
    if (batch > INT_MAX) return 0;
    for (int a = 0; a < ndims; a++)
        if (shape[a] > INT_MAX) return 0;
    return 1;
}

/* Local: the tables and datatypes (may fail on this rank only). */
static int build_types(struct distfft_reshape_s *r, const struct distfft_layout_s *in,
                       const struct distfft_layout_s *out)
{
    int me = r->rank;
    const int64_t *in_start = layout_start(in, me), *in_shape = layout_shape(in, me);
    const int64_t *out_start = layout_start(out, me), *out_shape = layout_shape(out, me);
    if (!fits_int(r->ndims, in_shape, r->batch) || !fits_int(r->ndims, out_shape, r->batch))
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "distfft_reshape_create: a local box extent or the batch "
                          "exceeds INT_MAX, which subarray datatypes cannot describe");
    size_t n = (size_t)r->size;
    r->in_counts = calloc(n, sizeof(int));
    r->out_counts = calloc(n, sizeof(int));
    r->displacements = calloc(n, sizeof(int));
    r->in_types = calloc(n, sizeof(MPI_Datatype));
    r->out_types = calloc(n, sizeof(MPI_Datatype));
    r->requests = calloc(2 * n, sizeof(MPI_Request));
    r->statuses = calloc(2 * n, sizeof(MPI_Status));
    if (!r->in_counts || !r->out_counts || !r->displacements || !r->in_types || !r->out_types || !r->requests ||
        !r->statuses)
        return error_fail(DISTFFT_ERR_MEMORY, "distfft_reshape_create: datatype tables for %d ranks", r->size);
    int64_t element = (int64_t)distfft_type_size(r->type);
    for (int p = 0; p < r->size; p++) {
        int64_t sent, received;
        int rc = part_type(r, in_start, in_shape, layout_start(out, p), layout_shape(out, p), &r->in_counts[p],
                           &r->in_types[p], &sent);
        if (rc == DISTFFT_SUCCESS)
            rc = part_type(r, out_start, out_shape, layout_start(in, p), layout_shape(in, p),
                           &r->out_counts[p], &r->out_types[p], &received);
        if (rc != DISTFFT_SUCCESS) return rc;
        if (p == me) continue;
        r->bytes_sent += sent * r->batch * element;
        r->bytes_received += received * r->batch * element;
        r->peers_in += r->in_counts[p] > 0;
        r->peers_out += r->out_counts[p] > 0;
    }
    return DISTFFT_SUCCESS;
}

int reshape_build(const struct distfft_layout_s *in, const struct distfft_layout_s *out, distfft_type type,
                  int64_t batch, distfft_method method, struct distfft_reshape_s **reshape_out)
{
    int rc = DISTFFT_SUCCESS;
    *reshape_out = NULL;
    struct distfft_reshape_s *r = calloc(1, sizeof *r);
    if (r) r->comm = MPI_COMM_NULL; /* what reshape_free frees if the agreement fails */
    TRY(error_agree(in->comm, r ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "distfft_reshape_create: object")));
    r->type = type;
    r->batch = batch;
    r->method = DISTFFT_METHOD_ALLTOALLW;
    r->size = in->size;
    r->rank = in->rank;
    r->ndims = in->ndims;
    for (int a = 0; a < in->ndims; a++) r->global_shape[a] = in->global_shape[a];
    r->in_count = batch * layout_box_count(in, in->rank);
    r->out_count = batch * layout_box_count(out, out->rank);
    TRY_MPI(MPI_Comm_dup(in->comm, &r->comm));
    /* local, failing on some ranks only: agreed with the datatypes */
    int local = CHECK_MPI(MPI_Comm_set_errhandler(r->comm, MPI_ERRORS_RETURN));
    if (local == DISTFFT_SUCCESS) local = build_types(r, in, out);
    if (local == DISTFFT_SUCCESS) local = reshape_prepare(r, method);
    TRY(error_agree(r->comm, local));
    *reshape_out = r;
    return DISTFFT_SUCCESS;
fail:
    KEEP(reshape_free(r));
    return rc;
}

/* Packed sizes and offsets of one side's datatypes; false beyond INT_MAX bytes. */
static bool pack_table(const struct distfft_reshape_s *r, const int *counts, const MPI_Datatype *types, int *sizes,
                       int *offsets, int *total)
{
    int64_t sum = 0;
    for (int p = 0; p < r->size; p++) {
        sizes[p] = 0;
        if (counts[p] > 0 && MPI_Pack_size(1, types[p], r->comm, &sizes[p]) != MPI_SUCCESS) return false;
        offsets[p] = (int)sum;
        sum += sizes[p];
        if (sum > INT_MAX) return false;
    }
    *total = (int)sum;
    return true;
}

int reshape_prepare(struct distfft_reshape_s *r, distfft_method method)
{
    r->method = method;
    if (method != DISTFFT_METHOD_ALLTOALLV || r->pack_send) return DISTFFT_SUCCESS;
    size_t n = (size_t)r->size;
    r->packed_in = calloc(n, sizeof(int));
    r->packed_out = calloc(n, sizeof(int));
    r->offsets_in = calloc(n, sizeof(int));
    r->offsets_out = calloc(n, sizeof(int));
    if (!r->packed_in || !r->packed_out || !r->offsets_in || !r->offsets_out)
        return error_fail(DISTFFT_ERR_MEMORY, "distfft_reshape_create: alltoallv tables");
    int total_in = 0, total_out = 0;
    if (!pack_table(r, r->in_counts, r->in_types, r->packed_in, r->offsets_in, &total_in) ||
        !pack_table(r, r->out_counts, r->out_types, r->packed_out, r->offsets_out, &total_out))
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "distfft_reshape_create: alltoallv: this rank's packed "
                          "boxes exceed INT_MAX bytes (an MPI_Alltoallv count)");
    r->pack_capacity = total_in > total_out ? total_in : total_out;
    r->pack_send = malloc((size_t)r->pack_capacity + 1);
    r->pack_receive = malloc((size_t)r->pack_capacity + 1);
    if (!r->pack_send || !r->pack_receive)
        return error_fail(DISTFFT_ERR_MEMORY, "distfft_reshape_create: alltoallv buffers of %d bytes",
                          r->pack_capacity);
    return DISTFFT_SUCCESS;
}

/* MPI_Pack every piece, one MPI_Alltoallv of MPI_PACKED, MPI_Unpack. */
static int run_packed(const struct distfft_reshape_s *r, bool forward, const void *from, void *to)
{
    int rc = DISTFFT_SUCCESS;
    const int *send_counts = forward ? r->in_counts : r->out_counts;
    const int *receive_counts = forward ? r->out_counts : r->in_counts;
    const MPI_Datatype *send_types = forward ? r->in_types : r->out_types;
    const MPI_Datatype *receive_types = forward ? r->out_types : r->in_types;
    const int *send_bytes = forward ? r->packed_in : r->packed_out, *send_at = forward ? r->offsets_in : r->offsets_out;
    const int *receive_bytes = forward ? r->packed_out : r->packed_in;
    const int *receive_at = forward ? r->offsets_out : r->offsets_in;
    for (int p = 0; p < r->size; p++) {
        int position = send_at[p];
        if (send_counts[p] > 0)
            TRY_MPI(MPI_Pack(from, 1, send_types[p], r->pack_send, r->pack_capacity, &position, r->comm));
    }
    TRY_MPI(MPI_Alltoallv(r->pack_send, send_bytes, send_at, MPI_PACKED, r->pack_receive, receive_bytes, receive_at,
                          MPI_PACKED, r->comm));
    for (int p = 0; p < r->size; p++) {
        int position = receive_at[p];
        if (receive_counts[p] > 0)
            TRY_MPI(MPI_Unpack(r->pack_receive, r->pack_capacity, &position, to, 1, receive_types[p], r->comm));
    }
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

/* Point to point with the overlapping ranks only: the same datatypes. */
static int run_messages(const struct distfft_reshape_s *r, const int *send_counts, const MPI_Datatype *send_types,
                        const void *from, const int *receive_counts, const MPI_Datatype *receive_types, void *to)
{
    int rc = DISTFFT_SUCCESS, pending = 0;
    for (int p = 0; p < r->size; p++)
        if (receive_counts[p] > 0)
            TRY_MPI(MPI_Irecv(to, 1, receive_types[p], p, RESHAPE_TAG, r->comm, &r->requests[pending++]));
    for (int p = 0; p < r->size; p++)
        if (send_counts[p] > 0)
            TRY_MPI(MPI_Isend(from, 1, send_types[p], p, RESHAPE_TAG, r->comm, &r->requests[pending++]));
    TRY_MPI(MPI_Waitall(pending, r->requests, r->statuses));
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

int reshape_run(const struct distfft_reshape_s *r, bool forward, const void *from, void *to)
{
    static char empty; /* some MPI libraries reject NULL buffers even when nothing moves */
    const int *send_counts = forward ? r->in_counts : r->out_counts;
    const int *receive_counts = forward ? r->out_counts : r->in_counts;
    const MPI_Datatype *send_types = forward ? r->in_types : r->out_types;
    const MPI_Datatype *receive_types = forward ? r->out_types : r->in_types;
    if (!from) from = &empty;
    if (!to) to = &empty;
    if (r->method == DISTFFT_METHOD_ISEND_WAITALL)
        return run_messages(r, send_counts, send_types, from, receive_counts, receive_types, to);
    if (r->method == DISTFFT_METHOD_ALLTOALLV) return run_packed(r, forward, from, to);
    int rc = DISTFFT_SUCCESS;
    TRY_MPI(MPI_Alltoallw(from, send_counts, r->displacements, send_types, to, receive_counts,
                          r->displacements, receive_types, r->comm));
    return DISTFFT_SUCCESS;
fail:
    return rc;
}
