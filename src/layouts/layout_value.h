/*
 * layout_value.h -- the public layout value (distfft_layout): a global
 * shape and every rank's box, replicated on every rank, checked once when
 * made (the boxes tile the global array: no gap, no overlap, inside
 * bounds). heFFTe's box3d and mpi4py-fft's Pencil, for any number of axes.
 *
 * The one thing to know: every rank holds every rank's box, so any
 * question about the layout (is it equal to that one, who overlaps my box)
 * is answered locally and identically on every rank -- which is what lets
 * reshapes and checks agree without further communication.
 */
#ifndef DISTFFT_LAYOUTS_LAYOUT_VALUE_H
#define DISTFFT_LAYOUTS_LAYOUT_VALUE_H

#include <stdint.h>
#include <mpi.h>

#include "distfft.h"
#include "../error.h"
#include "../lifetime.h"

struct distfft_layout_s {
    MPI_Comm comm;                          /* our duplicate (MPI_ERRORS_RETURN) */
    int ndims, size, rank;
    int64_t global_shape[DISTFFT_MAX_DIMS];
    int64_t *boxes;                         /* size x (start[ndims], shape[ndims]) */
    lifetime_tag lifetime;                  /* a public one's number; {NULL, 0} for copies */
};

/* Rank r's start and shape (pointers into the table). */
static inline const int64_t *layout_start(const struct distfft_layout_s *l, int r)
{
    return l->boxes + (size_t)r * 2 * l->ndims;
}
static inline const int64_t *layout_shape(const struct distfft_layout_s *l, int r)
{
    return l->boxes + (size_t)r * 2 * l->ndims + l->ndims;
}

/* Make a layout on a duplicate of comm from this rank's box: local checks,
 * one agreement (ndims and global_shape replicated, with `args`, which the
 * caller may have filled, and the caller's own verdict `prior`), one
 * MPI_Allgather of the boxes, the tiling check (identical on every rank).
 * `where` names the public call in messages. Collective on comm; *layout
 * NULL on failure. args may be NULL. */
int layout_value_build(MPI_Comm comm, int ndims, const int64_t *global_shape,
                       const int64_t *start, const int64_t *shape, const char *where, int prior,
                       replicated_args *args, struct distfft_layout_s **layout);

/* A second handle on the same value (its own duplicate of the
 * communicator). Collective on the layout's communicator. */
int layout_value_copy(const struct distfft_layout_s *layout, struct distfft_layout_s **copy);

/* Elements of rank r's box (one field). */
int64_t layout_box_count(const struct distfft_layout_s *layout, int r);

/* Do the two layouts' communicators hold the same ranks in the same order
 * (MPI_IDENT or MPI_CONGRUENT)? Local. */
int layout_same_ranks(const struct distfft_layout_s *a, const struct distfft_layout_s *b);

/* The intersection of box A (start a0, shape an) and box B: its start and
 * shape; returns its element count (0: empty). */
int64_t layout_intersect(int ndims, const int64_t *a0, const int64_t *an, const int64_t *b0,
                         const int64_t *bn, int64_t *start, int64_t *shape);

/* Free everything, even when an MPI free fails (NULL: no-op). Returns
 * the first failure (a message is recorded only then). */
int layout_value_free(struct distfft_layout_s *layout);

#endif
