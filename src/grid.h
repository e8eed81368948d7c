/*
 * grid.h -- the Cartesian process grid object (paper Sec. 3.4, Listing 4).
 */
#ifndef DISTFFT_GRID_H
#define DISTFFT_GRID_H

#include "distfft.h"

struct distfft_grid_s {
    MPI_Comm comm;                        /* Cartesian communicator, ours */
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

/* Free the grid and its communicators, every one even when a free fails.
 * Returns the first failure (a message is recorded only then). */
int grid_free(struct distfft_grid_s *grid);

#endif
