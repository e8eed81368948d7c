/*
 * reshape.h -- a reshape: the data of one layout moved into another layout
 * of the same global array on the same ranks (box to box), with a leading
 * batch of fields. Paper 000's idea carried to its end: each rank's piece
 * of another rank's box is a subarray of both boxes.
 *
 * A reshape is two redistributions of the method table (redist.h) over
 * the two layouts' boxes (redist_geometry.boxes_in): forward (input layout
 * to output layout) and backward, by the same method -- one of the rows
 * whose applicable() accepts boxes. The method is chosen in tune/
 * (tune_reshape), as a plan's exchanges are.
 */
#ifndef DISTFFT_REDIST_RESHAPE_H
#define DISTFFT_REDIST_RESHAPE_H

#include <stdbool.h>
#include <stdint.h>
#include <mpi.h>

#include "distfft.h"
#include "../layouts/layout_value.h"
#include "redist.h"

struct distfft_reshape_s {
    MPI_Comm comm;                 /* our duplicate of the input layout's */
    /* The two layouts' boxes (their communicator is `comm`, not owned):
     * what the redistributions' chunks are found from. */
    struct distfft_layout_s boxes[2];
    distfft_redist redist[2];      /* forward, backward (NULL until made) */
    distfft_type type;
    int64_t batch;
    distfft_method method;         /* the redistributions' */
    int size, rank, ndims;
    int64_t global_shape[DISTFFT_MAX_DIMS];
    int64_t in_count, out_count;   /* local elements, batch included */
    int64_t bytes_sent;            /* forward, to other ranks */
    int64_t bytes_received;        /* forward, from other ranks */
    int peers_in, peers_out;       /* other ranks this one sends to / receives from (forward) */
    /* Where its arrays live, who copies there (NULL: the host's) and the
     * stream its copies are ordered on: the redistributions' geometry. */
    redist_memory memory;
    const redist_copies *copies;
    void *stream;
    double tuning_seconds;
    lifetime_tag lifetime;         /* its number beside its input layout's (lifetime.h) */
};

/* The reshape object between two agreed, compatible layouts (same ranks,
 * same global shape), on a duplicate of in's communicator, without its
 * redistributions; its arrays in `memory`, copied by `copies` (NULL: the
 * host's) on `stream`. Collective; agreed. */
int reshape_open(const struct distfft_layout_s *in, const struct distfft_layout_s *out, distfft_type type,
                 int64_t batch, redist_memory memory, const redist_copies *copies, void *stream,
                 struct distfft_reshape_s **reshape);

/* The geometry of its forward (in -> out) or backward redistribution. */
redist_geometry reshape_geometry(const struct distfft_reshape_s *reshape, bool forward);

/* Run it: forward moves `from` (input layout) into `to` (output layout);
 * backward the reverse. No checks. Collective. */
int reshape_run(const struct distfft_reshape_s *reshape, bool forward, const void *from, void *to);

/* The method's name, e.g. "alltoallw". */
const char *reshape_method_name(const struct distfft_reshape_s *reshape);

/* Free everything, even when an MPI free fails (NULL: no-op). Returns
 * the first failure (a message is recorded only then). */
int reshape_free(struct distfft_reshape_s *reshape);

/* distfft_reshape_release of a non-NULL handle pointer, parking *companion
 * (a language binding's communicator beside the reshape; may be NULL) on
 * the same record (api/reshape.c). Local. */
int reshape_release(distfft_reshape *reshape, MPI_Comm *companion);

#endif
