/*
 * predict.h -- the cost model (model.h) applied to plans and candidates:
 * the peers of their exchanges (topology.c), the predicted seconds of
 * their steps and the process's model (predict.c).
 */
#ifndef DISTFFT_MODEL_PREDICT_H
#define DISTFFT_MODEL_PREDICT_H

#include <mpi.h>

#include "../plan/plan.h"
#include "model.h"

/* Where this rank's exchange partners sit, per grid direction. */
typedef struct {
    int group_size[DISTFFT_MAX_DIMS];
    int peers_on_node[DISTFFT_MAX_DIMS];
    int nodes_in_group[DISTFFT_MAX_DIMS];
    int ranks_per_node;
    int plan_ranks, plan_nodes;
    /* Per direction and network level of the model (model_exchange's
     * level_pair_messages and level_out_messages). */
    int level_pair[DISTFFT_MAX_DIMS][MODEL_MAX_LEVELS];
    int level_out[DISTFFT_MAX_DIMS][MODEL_MAX_LEVELS];
} model_topology;

/* The topology of a grid of dims[grid_ndims] on which this rank sits at
 * row-major `grid_index`; `node` as node_label_find's `known` (node.h);
 * the messages crossing each of model's network levels (none where model
 * is NULL or has none). Collective on comm (an MPI_Gather and an
 * MPI_Scatter at rank 0). */
int model_topology_create(MPI_Comm comm, const cost_model *model, int node_size, int node, int grid_ndims,
                          const int *dims, int grid_index, model_topology *topology);

/* What model_topology_create works out at rank 0, on its own (no MPI; for
 * tests): every rank's topology, into each[size], from every rank's grid
 * index and node label (the lowest rank on its node), pairs[2 * size].
 * 0, or -1 when out of memory. */
int model_topology_compute(const cost_model *model, int size, const int *pairs, int grid_ndims, const int *dims,
                           model_topology *each);

/* This rank's grid index on a candidate grid, as plan_build places it;
 * `node`, `rank` and `size` as placement_grid_index's. Collective on comm. */
int model_grid_index(MPI_Comm comm, int rank, int size, int grid_ndims, const int *dims, const distfft_options *options,
                     int node, int untransformed, int *index);

/* Predicted seconds of one step on this rank (an exchange by `method`). */
double model_step_seconds(const cost_model *model, const model_topology *topology, const step_spec *spec,
                          distfft_method method);

/* Predicted seconds of one direction's final normalising sweep on this
 * rank, for steps[count] (a candidate's, not yet built) with every
 * exchange by `method`: a pass over the last step's output where no step
 * takes `factor` (plan_step_folds), else 0. A built plan's own is in
 * distfft_plan_predict_pair. */
double model_sweep_seconds(const cost_model *model, const step_spec *steps, int count, distfft_method method,
                           double factor);

/* The process's model (distfft_model_import_file), or NULL. */
const cost_model *model_current(void);

/* The model tuning uses: the process's on every rank, else the file named
 * by DISTFFT_MODEL on rank 0 (imported now; DISTFFT_MODEL_FORCE=1 forces
 * one from another machine kind), else NULL. *rc is an error (agreed) when
 * the file is bad. `rank`: this rank's in comm. Collective on comm. */
const cost_model *model_for_tuning(MPI_Comm comm, int rank, int *rc);

/* DISTFFT_MODEL and DISTFFT_MODEL_FORCE as this process sees them: the
 * path of the model file to import into path[size] ("" when unset or
 * empty: no model), taken whole and as it is, and the switch *force
 * (environment.h). DISTFFT_ERR_ARGUMENT when the path does not fit in
 * size - 1 bytes (never a cut path, nor a silently ignored one). Local. */
int model_environment(char *path, size_t size, int *force);

/* Read, parse and check a model file (rank 0 reads): the same verdict on
 * every rank. force: accept another MPI library. Collective on comm. */
int model_import_file(MPI_Comm comm, const char *path, int force, cost_model *model);

/* First line of this process's MPI library banner. */
void model_mpi_library(char *buffer, size_t size);

#endif
