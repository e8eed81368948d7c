/*
 * halo_transfer.c -- how the boxes of halo_plan.c travel (paper 004
 * Sec. 3: datatypes instead of packing).
 *
 * DATATYPES: each box is a subarray type of the padded array (batch first,
 * so every field travels in the same message); a message of several boxes
 * (widths beyond a neighbour's block) nests them in one struct type. Built
 * once at create; each execution posts, per stage, the receives and sends
 * on the array itself -- zero copies outside MPI -- and waits.
 * PACK: the same messages through two buffers sized for the busiest stage:
 * boxes are copied into the send buffer, sent contiguously (derived types
 * only past the message count limit, big_count.h), and copied out of the
 * receive buffer after the stage's wait.
 * Receive regions (ghosts along the stage's axis) and send regions (owned
 * along it) never overlap, so a stage's messages may all be in flight at
 * once; stages run in order, since each sends what the earlier ones filled.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../types.h"
#include "halo.h"

enum { HALO_TAG = 4099 };

void halo_copy_box(size_t element, int dims, const int64_t *extent,
                   const void *source, const int64_t *source_shape,
                   const int64_t *source_start, void *target,
                   const int64_t *target_shape, const int64_t *target_start)
{
    int64_t source_stride[HALO_DIMS], target_stride[HALO_DIMS], index[HALO_DIMS];
    int64_t from = 0, to = 0;
    for (int i = dims - 1; i >= 0; i--) {
        if (extent[i] == 0) return;
        source_stride[i] = i == dims - 1 ? 1 : source_stride[i + 1] * source_shape[i + 1];
        target_stride[i] = i == dims - 1 ? 1 : target_stride[i + 1] * target_shape[i + 1];
        from += source_start[i] * source_stride[i];
        to += target_start[i] * target_stride[i];
        index[i] = 0;
    }
    size_t run = (size_t)extent[dims - 1] * element;
    for (;;) {
        memcpy((char *)target + to * (int64_t)element,
               (const char *)source + from * (int64_t)element, run);
        int i = dims - 2;
        for (; i >= 0; i--) { /* the odometer over all but the last axis */
            from += source_stride[i];
            to += target_stride[i];
            if (++index[i] < extent[i]) break;
            from -= extent[i] * source_stride[i];
            to -= extent[i] * target_stride[i];
            index[i] = 0;
        }
        if (i < 0) return;
    }
}

/* DATATYPES: one committed type for all boxes of a message. */
static int message_datatype(const struct distfft_halo_s *h, halo_message *m)
{
    int rc = DISTFFT_SUCCESS, dims = h->ndims + 1, made = 0;
    int sizes[HALO_DIMS], subsizes[HALO_DIMS], starts[HALO_DIMS];
    MPI_Datatype *parts = malloc((size_t)m->boxes * sizeof *parts);
    int *ones = malloc((size_t)m->boxes * sizeof *ones);
    MPI_Aint *zeros = calloc((size_t)m->boxes, sizeof *zeros);
    if (!parts || !ones || !zeros) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "halo: datatype tables");
        goto fail;
    }
    for (; made < m->boxes; made++) {
        for (int i = 0; i < dims; i++) { /* int: checked at create */
            sizes[i] = (int)h->padded[i];
            subsizes[i] = (int)m->box[made].extent[i];
            starts[i] = (int)m->box[made].start[i];
        }
        ones[made] = 1;
        TRY_MPI(MPI_Type_create_subarray(dims, sizes, subsizes, starts, MPI_ORDER_C,
                                         type_mpi(h->type), &parts[made]));
    }
    if (m->boxes == 1) {
        m->type = parts[0];
        made = 0; /* kept, not freed below */
    } else {
        TRY_MPI(MPI_Type_create_struct(m->boxes, ones, zeros, parts, &m->type));
    }
    TRY_MPI(MPI_Type_commit(&m->type));
fail:
    for (int k = 0; k < made; k++) KEEP_MPI(MPI_Type_free(&parts[k]));
    free(parts);
    free(ones);
    free(zeros);
    return rc;
}

/* PACK: buffer offsets and MPI arguments of one side of a stage. */
static int pack_side(const struct distfft_halo_s *h, halo_message *list, int count,
                     int64_t *total)
{
    int64_t limit = big_count_limit();
    *total = 0;
    for (int k = 0; k < count; k++) {
        list[k].offset = *total;
        *total += list[k].elements;
        int code = big_message_create(list[k].elements, type_mpi(h->type), limit, &list[k].packed);
        if (code != MPI_SUCCESS) return error_mpi(code, "halo: a packed message's datatype");
    }
    return DISTFFT_SUCCESS;
}

int halo_transfer_prepare(struct distfft_halo_s *h)
{
    int rc = DISTFFT_SUCCESS, busiest = 0;
    int64_t send_most = 0, receive_most = 0;
    for (int s = 0; s < h->stages; s++) {
        halo_stage *stage = &h->stage[s];
        if (stage->sends + stage->receives > busiest) busiest = stage->sends + stage->receives;
        if (h->variant == DISTFFT_HALO_DATATYPES) {
            for (int k = 0; k < stage->sends; k++) TRY(message_datatype(h, &stage->send[k]));
            for (int k = 0; k < stage->receives; k++) TRY(message_datatype(h, &stage->receive[k]));
            continue;
        }
        TRY(pack_side(h, stage->send, stage->sends, &stage->send_total));
        TRY(pack_side(h, stage->receive, stage->receives, &stage->receive_total));
        if (stage->send_total > send_most) send_most = stage->send_total;
        if (stage->receive_total > receive_most) receive_most = stage->receive_total;
    }
    h->requests = malloc(((size_t)busiest + 1) * sizeof *h->requests);
    h->statuses = malloc(((size_t)busiest + 1) * sizeof *h->statuses);
    h->send_buffer = send_most ? distfft_malloc((size_t)send_most * h->element) : NULL;
    h->receive_buffer = receive_most ? distfft_malloc((size_t)receive_most * h->element) : NULL;
    if (!h->requests || !h->statuses || (send_most && !h->send_buffer) ||
        (receive_most && !h->receive_buffer))
        return error_fail(DISTFFT_ERR_MEMORY, "halo: requests and buffers (%lld and %lld "
                          "elements)", (long long)send_most, (long long)receive_most);
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

/* PACK: copy a message's boxes between the array and its buffer region. */
static void pack_boxes(const struct distfft_halo_s *h, const halo_message *m,
                       void *buffer, void *array, int packing)
{
    static const int64_t origin[HALO_DIMS];
    char *region = (char *)buffer + m->offset * (int64_t)h->element;
    int dims = h->ndims + 1;
    for (int k = 0; k < m->boxes; k++) {
        const halo_box *box = &m->box[k];
        if (packing)
            halo_copy_box(h->element, dims, box->extent, array, h->padded, box->start,
                          region, box->extent, origin);
        else
            halo_copy_box(h->element, dims, box->extent, region, box->extent, origin,
                          array, h->padded, box->start);
        int64_t elements = 1;
        for (int i = 0; i < dims; i++) elements *= box->extent[i];
        region += elements * (int64_t)h->element;
    }
}

/* Where a message's data lies and how MPI should see it. */
static void message_arguments(const struct distfft_halo_s *h, const halo_message *m,
                              void *buffer, void *array, void **address, int *count,
                              MPI_Datatype *type)
{
    if (h->variant == DISTFFT_HALO_DATATYPES) {
        *address = array;
        *count = 1;
        *type = m->type;
    } else {
        *address = (char *)buffer + m->offset * (int64_t)h->element;
        *count = m->packed.count;
        *type = m->packed.type;
    }
}

static int run_stage(const struct distfft_halo_s *h, const halo_stage *stage, void *array)
{
    int rc = DISTFFT_SUCCESS, pack = h->variant == DISTFFT_HALO_PACK, posted = 0, received = 0;
    void *address;
    int count;
    MPI_Datatype type;
    for (int k = 0; k < stage->receives; k++) {
        const halo_message *m = &stage->receive[k];
        message_arguments(h, m, h->receive_buffer, array, &address, &count, &type);
        TRY_MPI(MPI_Irecv(address, count, type, m->peer, HALO_TAG, h->comm,
                          &h->requests[posted++]));
        received = posted;
    }
    for (int k = 0; k < stage->sends; k++) {
        const halo_message *m = &stage->send[k];
        if (pack) pack_boxes(h, m, h->send_buffer, array, 1);
        message_arguments(h, m, h->send_buffer, array, &address, &count, &type);
        TRY_MPI(MPI_Isend(address, count, type, m->peer, HALO_TAG, h->comm,
                          &h->requests[posted++]));
    }
    TRY_MPI(MPI_Waitall(posted, h->requests, h->statuses));
    for (int k = 0; pack && k < stage->receives; k++)
        pack_boxes(h, &stage->receive[k], h->receive_buffer, array, 0);
    return DISTFFT_SUCCESS;
fail: /* no request outlives the call (waiting for them all could hang) */
    KEEP(requests_abandon(h->requests, received, 1));
    KEEP(requests_abandon(h->requests + received, posted - received, 0));
    return rc;
}

int halo_transfer_run(const struct distfft_halo_s *h, void *array)
{
    for (int s = 0; s < h->stages; s++) {
        int rc = run_stage(h, &h->stage[s], array);
        if (rc != DISTFFT_SUCCESS) return rc;
    }
    return DISTFFT_SUCCESS;
}

static int free_messages(halo_message *list, int count)
{
    int rc = DISTFFT_SUCCESS;
    for (int k = 0; list && k < count; k++) {
        if (list[k].type != MPI_DATATYPE_NULL) KEEP_MPI(MPI_Type_free(&list[k].type));
        KEEP_MPI(big_message_free(&list[k].packed));
        free(list[k].box);
    }
    free(list);
    return rc;
}

int halo_transfer_free(struct distfft_halo_s *h)
{
    int rc = DISTFFT_SUCCESS;
    for (int s = 0; s < h->stages; s++) {
        KEEP(free_messages(h->stage[s].send, h->stage[s].sends));
        KEEP(free_messages(h->stage[s].receive, h->stage[s].receives));
        memset(&h->stage[s], 0, sizeof h->stage[s]);
    }
    free(h->requests);
    free(h->statuses);
    distfft_free(h->send_buffer);
    distfft_free(h->receive_buffer);
    h->requests = NULL;
    h->statuses = NULL;
    h->send_buffer = h->receive_buffer = NULL;
    return rc;
}
