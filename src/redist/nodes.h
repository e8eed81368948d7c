/*
 * nodes.h -- which ranks of a redistribution's group share a node, for the
 * node-aware methods (shm.c, hierarchical.c).
 *
 * A node is found in one of three ways, the first that applies:
 *   1. the geometry's pretended node label (a plan's options.node_size:
 *      runs of node_size consecutive ranks of the plan's communicator);
 *   2. the environment variable DISTFFT_NODE_SIZE = n > 0 (a testing knob
 *      for distfft_redist_create, which has no options): runs of n
 *      consecutive ranks of the group's own communicator;
 *   3. the real node: the geometry's shared_node when the caller found it
 *      (a plan: once per creation, for all its exchanges and candidates),
 *      else MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) on the group.
 * A pretended node need not share memory; shm.c splits it further into
 * the ranks that do.
 */
#ifndef DISTFFT_REDIST_NODES_H
#define DISTFFT_REDIST_NODES_H

#include "redist.h"

/* Every rank of the group, by node. Nodes are numbered in the order of
 * their lowest rank; a node's members are in increasing rank order. */
typedef struct {
    int parts;
    int nodes;
    int *node_of;   /* [parts] each rank's node */
    int *first;     /* [nodes + 1] node n's members are members[first[n] ..] */
    int *members;   /* [parts] */
} node_map;

/* This rank's node label (> 0; equal labels, one node) by the rules
 * above. Collective on comm. */
int node_label(MPI_Comm comm, const redist_geometry *g, int *label);

/* Whether node_label gives the real shared-memory node (rule 3), not a
 * pretended one: the ranks of one label then share memory. Local. */
bool node_label_is_shared(const redist_geometry *g);

/* The map of the nodes given each rank's label (one MPI_Allgather).
 * Collective on comm; on failure everything is freed. */
int node_map_create(MPI_Comm comm, int label, const char *method,
                    node_map *map);
void node_map_free(node_map *map);

/* The map of `labels` (one per rank of the group: equal labels, same node)
 * into a map whose parts, node_of, first (2 parts + 1) and members (parts)
 * are allocated; labels may be map->members. O(p log p). Local. */
int node_map_build(const int *labels, node_map *map);

/* The index of `rank` among the members of its node. */
int node_index_of(const node_map *map, int rank);

#endif
