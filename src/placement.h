/*
 * placement.h -- where each rank sits on the process grid (after paper 003,
 * Sec. on rank ordering): row-major in the caller's order, Morton (Z)
 * order, or node-aware, keeping the busiest sub-communicator inside a node.
 */
#ifndef DISTFFT_PLACEMENT_H
#define DISTFFT_PLACEMENT_H

#include "distfft.h"

/* This rank's position on an r-dimensional grid of `dims` (row-major index
 * of its coordinates) under `placement`. node_size > 0 pretends that nodes
 * hold node_size consecutive ranks of comm; 0 finds the nodes with
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), unless `node` > 0 gives this
 * rank's node already (the lowest rank of comm on it, plus one: a plan's
 * plan_comms.node). busy_direction is the grid direction whose
 * sub-communicator should stay inside a node. Collective on comm (failures
 * are agreed); the arguments are valid and agreed, rank and size are this
 * rank's in comm and comm's, asked before the caller's agreement (an
 * MPI_Comm_rank failing on one rank must reach the others there). */
int placement_grid_index(MPI_Comm comm, int rank, int size, int ndims, const int *dims,
                         distfft_placement placement, int node_size, int node,
                         int busy_direction, int *index);

#endif
