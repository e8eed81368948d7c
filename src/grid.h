/*
 * grid.h -- the Cartesian process grid object (paper Sec. 3.4, Listing 4).
 */
#ifndef DISTFFT_GRID_H
#define DISTFFT_GRID_H

#include "distfft.h"

struct distfft_grid_s {
    MPI_Comm comm;                        /* Cartesian communicator, ours (distfft_grid_create);
                                           * MPI_COMM_NULL on a plan's grid (grid_create_on) */
    int ndims;                            /* r */
    int dims[DISTFFT_MAX_DIMS];           /* M_0 .. M_{r-1} */
    int coords[DISTFFT_MAX_DIMS];         /* p_0 .. p_{r-1} of this rank */
    MPI_Comm subcomms[DISTFFT_MAX_DIMS];  /* P_0 .. P_{r-1}, one per direction */
    distfft_placement placement;          /* how ranks were laid on it */
};

/* Check ndims/dims against a communicator of `size` ranks and complete the
 * zero entries with MPI_Dims_create. Local; identical on every rank that
 * passes identical arguments. */
int grid_choose_dims(int size, int ndims, const int *dims, int *chosen);

/* A plan's grid: distfft_grid_create_placed's ranks, coordinates and
 * sub-communicators, built on comm itself -- a communicator the caller
 * owns and keeps (a plan's), errors returned on it -- with one
 * MPI_Comm_split per direction and nothing else: no duplicate, no
 * Cartesian communicator (grid->comm stays MPI_COMM_NULL), no reordered
 * copy. node: this rank's node label for the node placement when the
 * caller knows it (plan_comms), 0: found here. Collective on comm;
 * failures agreed. */
int grid_create_on(MPI_Comm comm, int ndims, const int *dims, distfft_placement placement, int node_size,
                   int node, int busy_direction, struct distfft_grid_s **grid_out);

/* Free the grid and its communicators, every one even when a free fails.
 * Returns the first failure (a message is recorded only then). */
int grid_free(struct distfft_grid_s *grid);

#endif
