/*
 * reshape.h -- a reshape: the data of one layout moved into another layout
 * of the same global array on the same ranks (box to box), with a leading
 * batch of fields. Paper 000's idea carried to its end: each rank's piece
 * of another rank's box is a subarray of both boxes, so the whole reshape
 * is one MPI_Alltoallw over subarray datatypes built once here; ranks
 * whose boxes do not overlap exchange nothing (count 0).
 *
 * Methods (ids of the method table, distfft_method): ALLTOALLW (the
 * default), ALLTOALLV (the same datatypes packed with MPI_Pack into one
 * contiguous buffer, one MPI_Alltoallv of MPI_PACKED, MPI_Unpack; the
 * buffers are allocated when the method is prepared, at create time) and
 * ISEND_WAITALL (the same datatypes, one MPI_Isend/MPI_Irecv per
 * overlapping peer only, then MPI_Waitall): the rows of the method table
 * whose applicable() accepts boxes (redist_box_problem). The others
 * exchange aligned pencils of a process grid, not arbitrary boxes.
 */
#ifndef DISTFFT_LAYOUTS_RESHAPE_H
#define DISTFFT_LAYOUTS_RESHAPE_H

#include <stdbool.h>
#include <stdint.h>
#include <mpi.h>

#include "distfft.h"
#include "layout_value.h"

struct distfft_reshape_s {
    MPI_Comm comm;                 /* our duplicate of the input layout's */
    distfft_type type;
    int64_t batch;
    distfft_method method;         /* ALLTOALLW or ISEND_WAITALL */
    int size, rank, ndims;
    int64_t global_shape[DISTFFT_MAX_DIMS];
    int64_t in_count, out_count;   /* local elements, batch included */
    int64_t bytes_sent;            /* forward, to other ranks */
    int64_t bytes_received;        /* forward, from other ranks */
    int peers_in, peers_out;       /* other ranks this one sends to / receives from (forward) */
    /* Per rank p: the part of this rank's input box that p's output box
     * holds (sent forward, received backward), and the part of this rank's
     * output box that p's input box holds. Count 0 (type MPI_BYTE, never
     * freed) where empty. */
    int *in_counts, *out_counts, *displacements;
    MPI_Datatype *in_types, *out_types;
    MPI_Request *requests;         /* 2 x size, for ISEND_WAITALL */
    MPI_Status *statuses;          /* 2 x size (not MPI_STATUSES_IGNORE: GCC misreads MPICH's) */
    /* ALLTOALLV: per rank the packed bytes of in_types[p] and out_types[p]
     * and their offsets in the packed buffers (NULL until prepared). */
    int *packed_in, *packed_out, *offsets_in, *offsets_out;
    char *pack_send, *pack_receive;
    int pack_capacity;
    double tuning_seconds;
};

/* The reshape between two agreed, compatible layouts (same ranks, same
 * global shape), on a duplicate of in's communicator. The datatypes may
 * fail on some ranks only: the outcome is agreed. Collective. */
int reshape_build(const struct distfft_layout_s *in, const struct distfft_layout_s *out, distfft_type type,
                  int64_t batch, distfft_method method, struct distfft_reshape_s **reshape);

/* Make ready to run with `method` (ALLTOALLV allocates its packed
 * buffers; the others need nothing more), and set it. Local; may fail on
 * some ranks only (DISTFFT_ERR_UNSUPPORTED beyond INT_MAX packed bytes,
 * DISTFFT_ERR_MEMORY): the caller agrees. */
int reshape_prepare(struct distfft_reshape_s *reshape, distfft_method method);

/* Run it: forward moves `from` (input layout) into `to` (output layout);
 * backward the reverse. No checks. Collective. */
int reshape_run(const struct distfft_reshape_s *reshape, bool forward, const void *from, void *to);

/* "reshape alltoallw" into a description. */
const char *reshape_method_name(const struct distfft_reshape_s *reshape);

/* Free everything, even when an MPI free fails (NULL: no-op). Returns
 * the first failure (a message is recorded only then). */
int reshape_free(struct distfft_reshape_s *reshape);

#endif
