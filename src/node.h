/*
 * node.h -- which node a rank is on: the one rule the whole library uses
 * (placement, the cost model, the node-aware methods, plan creation).
 *
 * A node is named by a label: the lowest rank of the communicator on it.
 * The real node is the ranks that share memory (MPI_Comm_split_type with
 * MPI_COMM_TYPE_SHARED); a pretended node (options.node_size > 0, for
 * tests and for simulating a machine on fewer nodes) is a run of node_size
 * consecutive ranks. Finding the real node is collective and costs a
 * communicator split, so callers that ask often find it once and pass it
 * back as `known`.
 */
#ifndef DISTFFT_NODE_H
#define DISTFFT_NODE_H

#include <mpi.h>

/* This rank's node label on comm, where it is `rank` (0 <= label < size;
 * equal labels, same node): with node_size > 0 the pretended node, rank / node_size * node_size;
 * with known > 0 the label known - 1 found before; else the real node
 * (one MPI_Comm_split_type and one MPI_Allreduce on the node). Collective
 * on comm in the last case; not agreed (callers agree on the code). */
int node_label_find(MPI_Comm comm, int rank, int node_size, int known, int *label);

#endif
