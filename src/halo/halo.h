/*
 * halo.h -- the halo (ghost-cell) exchange object, shared by its three
 * files: halo.c (public API: checks, agreement, execute), halo_plan.c
 * (which rank sends which boxes to whom: neighbours from the gathered
 * blocks) and halo_transfer.c (the boxes as datatypes, or as pack/unpack
 * copies through buffers).
 *
 * The one thing to know: the exchange runs in stages, one per axis with a
 * nonzero width, in increasing axis order. Stage a moves boxes that span,
 * along each earlier axis, everything already valid there (owned plus the
 * ghost layers filled so far) and, along each later axis, the owned range
 * only; so after the last stage faces, edges and corners are all filled
 * without diagonal messages. Coordinates of boxes are in the padded array
 * with the batch as dimension 0.
 */
#ifndef DISTFFT_HALO_H
#define DISTFFT_HALO_H

#include <stddef.h>
#include <stdint.h>

#include "../big_count.h"
#include "distfft.h"
#include "../lifetime.h"

#define HALO_DIMS (DISTFFT_MAX_DIMS + 1) /* batch + array axes */

/* A box of the padded array: dims = ndims + 1 (batch first). */
typedef struct {
    int64_t start[HALO_DIMS], extent[HALO_DIMS];
} halo_box;

/* One message of one stage: the boxes, in an order both ends agree on. */
typedef struct {
    int peer;               /* rank in the halo's communicator */
    int boxes, capacity;
    halo_box *box;
    int64_t elements;       /* in all boxes */
    MPI_Datatype type;      /* DATATYPES: count 1 of this over the array */
    big_message packed;         /* PACK: how the buffer region travels */
    int64_t offset;         /* PACK: region in the stage's buffer, elements */
} halo_message;

typedef struct {
    int axis;
    int sends, receives;
    halo_message *send, *receive;
    int64_t send_total, receive_total; /* elements (PACK buffers) */
} halo_stage;

struct distfft_halo_s {
    MPI_Comm comm;
    distfft_type type;
    distfft_halo_variant variant;
    size_t element;
    int ndims, rank, size;
    int64_t batch;
    int64_t global_shape[DISTFFT_MAX_DIMS], local_shape[DISTFFT_MAX_DIMS];
    int64_t global_start[DISTFFT_MAX_DIMS];
    int64_t low[DISTFFT_MAX_DIMS], high[DISTFFT_MAX_DIMS];
    int periodic[DISTFFT_MAX_DIMS];
    int64_t padded[HALO_DIMS];       /* batch, then padded extents */
    int64_t padded_count;            /* elements, batch included */
    int stages;
    halo_stage stage[DISTFFT_MAX_DIMS];
    MPI_Request *requests;           /* room for the busiest stage */
    MPI_Status *statuses;            /* as many: MPI_STATUSES_IGNORE makes GCC
                                      * warn with MPICH's headers */
    void *send_buffer, *receive_buffer; /* PACK: the largest stage's */
    lifetime_tag lifetime;           /* its number beside its layout's (lifetime.h) */
};

/* distfft_halo_release of a non-NULL handle pointer, parking *companion
 * (a language binding's communicator beside the halo; may be NULL) on the
 * same record (halo.c). Local. */
int halo_release(distfft_halo *halo, MPI_Comm *companion);

/* halo_plan.c: from every rank's block (`blocks`: a layout's table,
 * start[ndims] then shape[ndims] per rank), check that each line tiles the
 * array, and fill every stage's messages and boxes. Local: the caller
 * agrees on the outcome. */
int halo_plan_messages(struct distfft_halo_s *halo, const int64_t *blocks);

/* halo_transfer.c: build what the variant needs (datatypes, or buffer
 * offsets, messages and the buffers); local. */
int halo_transfer_prepare(struct distfft_halo_s *halo);
/* One execution of every stage. Collective. */
int halo_transfer_run(const struct distfft_halo_s *halo, void *array);
/* Free stages, their boxes, datatypes, buffers and requests, all of them
 * even when an MPI free fails; returns the first failure. */
int halo_transfer_free(struct distfft_halo_s *halo);

/* Copy a box of `extent` (dims dimensions) from `source` (an array of
 * source_shape, box at source_start) to `target` (target_shape, at
 * target_start), contiguous runs along the last dimension. */
void halo_copy_box(size_t element, int dims, const int64_t *extent,
                   const void *source, const int64_t *source_shape,
                   const int64_t *source_start, void *target,
                   const int64_t *target_shape, const int64_t *target_start);

#endif
