/*
 * topology.c -- where each rank's exchange partners sit, for the cost
 * model's exchanges (predict.h: model_topology): per grid direction, the
 * group of ranks a rank exchanges with, how many of them share its node,
 * and how many nodes the group spans; and, where the model knows the
 * network's levels above the node (model.h: a Dragonfly's routers and
 * groups), the messages that cross each level's busiest link.
 *
 * A plan's grid position comes from the placement (placement.h) exactly
 * as plan_build takes it, so a candidate that has not been built is
 * predicted with the same peers as its plan would have. Rank 0, which
 * holds every rank's grid index and node, counts for every rank at once
 * (O(P) time and memory there, nothing per rank but the result).
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../node.h"
#include "predict.h"

/* ---- nodes and peers ---------------------------------------------------------- */

/* The groups of one grid direction d: every grid index with its
 * coordinate d zeroed is a group's first; a group's members are its first
 * + k * stride, k < n. Groups are numbered 0..count-1 in index order. */
typedef struct {
    int n, stride, count;
} direction_groups;

static direction_groups groups_of(int grid_ndims, const int *dims, int d, int size)
{
    direction_groups g = {dims[d], 1, 0};
    for (int e = d + 1; e < grid_ndims; e++) g.stride *= dims[e];
    g.count = size / g.n;
    return g;
}

/* The group of grid index `index`, and the first index of group `id`. */
static int group_id(const direction_groups *g, int index)
{
    return index / (g->stride * g->n) * g->stride + index % g->stride;
}

static int group_first(const direction_groups *g, int id)
{
    return id / g->stride * g->stride * g->n + id % g->stride;
}

/* Every group's members counted by a key (a node, a network unit): the
 * distinct keys of group i are key[start[i]..start[i+1]) with how many of
 * its members have each (howmany[]). tally[keys] is zero on entry and on
 * return. O(P) time; start[count + 1], key[] and howmany[] of P entries. */
static void count_by_key(const direction_groups *g, const int *rank_at, const int *key_of, int *tally, int *start,
                         int *key, int *howmany)
{
    int used = 0;
    for (int id = 0; id < g->count; id++) {
        int first = group_first(g, id);
        start[id] = used;
        for (int k = 0; k < g->n; k++) {
            int v = key_of[rank_at[first + k * g->stride]];
            if (tally[v]++ == 0) key[used++] = v;
        }
        for (int i = start[id]; i < used; i++) {
            howmany[i] = tally[key[i]];
            tally[key[i]] = 0;
        }
    }
    start[g->count] = used;
}

/* Each rank's place within its node in direction d (group size, peers on
 * its node, nodes in its group), from its group's count by node:
 * O(P). node_of[r]: rank r's node (0..nodes-1). */
static void direction_nodes(const direction_groups *g, int d, const int *rank_at, const int *node_of, int *tally,
                            int *start, int *key, int *howmany, model_topology *each)
{
    count_by_key(g, rank_at, node_of, tally, start, key, howmany);
    for (int id = 0; id < g->count; id++) {
        int first = group_first(g, id);
        for (int i = start[id]; i < start[id + 1]; i++) tally[key[i]] = howmany[i];
        for (int k = 0; k < g->n; k++) {
            int r = rank_at[first + k * g->stride];
            each[r].group_size[d] = g->n;
            each[r].peers_on_node[d] = tally[node_of[r]] - 1;
            each[r].nodes_in_group[d] = start[id + 1] - start[id];
        }
        for (int i = start[id]; i < start[id + 1]; i++) tally[key[i]] = 0;
    }
}

/* The ranks by unit, a counting sort: unit u's are order[first[u] ..
 * first[u + 1]); first holds units + 1 entries, zero on entry. */
static void ranks_by_unit(int size, const int *unit_of, int units, int *first, int *order)
{
    for (int r = 0; r < size; r++) first[unit_of[r] + 1]++;
    for (int u = 0; u < units; u++) first[u + 1] += first[u];
    for (int r = 0; r < size; r++) order[first[unit_of[r]]++] = r;
    for (int u = units; u > 0; u--) first[u] = first[u - 1];
    first[0] = 0;
}

/* One network level above the node, as count_level counts it: which
 * of the model's levels, each rank's unit at it (unit_of[r]), each unit's
 * unit at the level above (parent_of[u]; all one parent at the top), and
 * how many units there are. */
typedef struct {
    int level, units;
    const int *unit_of, *parent_of;
} level_units;

/* The placed ranks: size of them, rank r at grid index pairs[2 * r] on the
 * node labelled pairs[2 * r + 1], and the rank at each grid index. */
typedef struct {
    int size;
    const int *pairs, *rank_at;
} placed_ranks;

/* count_level's scratch, one allocation, zeroed. Per unit: count (the
 * messages from the unit being counted to each unit), first (units + 1:
 * ranks_by_unit), tally (count_by_key), touched (the units with a count).
 * Per group: start (count + 1), seen (the last unit that held a member),
 * busiest. Per rank: order (ranks_by_unit), key and howmany
 * (count_by_key), held (the groups the current unit holds members of). */
typedef struct {
    long long *count;
    int *first, *tally, *touched;
    int *start, *seen, *busiest;
    int *order, *key, *howmany, *held;
} level_scratch;

static int *carve(int **next, size_t count)
{
    int *part = *next;
    *next += count;
    return part;
}

/* The scratch for `size` ranks, `units` units and `groups` groups; its
 * memory is scratch->count (free it), NULL when out of memory. */
static void level_scratch_create(size_t size, size_t units, size_t groups, level_scratch *scratch)
{
    size_t ints = 3 * units + 1 + 3 * groups + 1 + 4 * size;
    scratch->count = calloc(1, units * sizeof(long long) + ints * sizeof(int));
    if (!scratch->count) return;
    int *next = (int *)(scratch->count + units);
    scratch->first = carve(&next, units + 1);
    scratch->tally = carve(&next, units);
    scratch->touched = carve(&next, units);
    scratch->start = carve(&next, groups + 1);
    scratch->seen = carve(&next, groups);
    scratch->busiest = carve(&next, groups);
    scratch->order = carve(&next, size);
    scratch->key = carve(&next, size);
    scratch->howmany = carve(&next, size);
    scratch->held = carve(&next, size);
}

/* The messages crossing one network level in direction d, into each[].
 * All groups exchange at once, every member with every other: unit A
 * sends unit B, over all groups, the sum of n_A x n_B of each group (its
 * members in A and in B). A rank's level_out is its unit's messages to
 * every other unit; level_pair the most its unit sends one unit of the
 * same parent among those its group reaches (the busiest link it uses).
 * Units are visited one at a time, each with the groups it holds members
 * of: O(P + the sum over groups of their units squared) time, O(P +
 * units) memory; the exchange is symmetric, so the count from B to A is
 * the same and one direction suffices. 0, or -1 when out of memory. */
static int count_level(const direction_groups *g, int d, const placed_ranks *ranks, const level_units *level,
                       model_topology *each)
{
    const int *parent_of = level->parent_of;
    level_scratch s;
    level_scratch_create((size_t)ranks->size, (size_t)level->units, (size_t)g->count, &s);
    if (!s.count) return -1;
    count_by_key(g, ranks->rank_at, level->unit_of, s.tally, s.start, s.key, s.howmany);
    for (int id = 0; id < g->count; id++) s.seen[id] = -1;
    ranks_by_unit(ranks->size, level->unit_of, level->units, s.first, s.order);
    for (int u = 0; u < level->units; u++) {
        int ngroups = 0, ntouched = 0;
        long long out = 0;
        for (int i = s.first[u]; i < s.first[u + 1]; i++) { /* the groups u holds members of, once each */
            int id = group_id(g, ranks->pairs[2 * s.order[i]]);
            if (s.seen[id] != u) {
                s.seen[id] = u;
                s.held[ngroups++] = id;
            }
        }
        for (int j = 0; j < ngroups; j++) {
            int id = s.held[j];
            long long mine = 0;
            for (int i = s.start[id]; i < s.start[id + 1]; i++)
                if (s.key[i] == u) mine = s.howmany[i];
            out += mine * (g->n - mine);
            for (int i = s.start[id]; i < s.start[id + 1]; i++) {
                int v = s.key[i];
                if (v == u || parent_of[v] != parent_of[u]) continue; /* a higher level's link */
                if (s.count[v] == 0) s.touched[ntouched++] = v;
                s.count[v] += mine * s.howmany[i];
            }
        }
        for (int j = 0; j < ngroups; j++) {
            int id = s.held[j];
            long long most = 0;
            for (int i = s.start[id]; i < s.start[id + 1]; i++) {
                int v = s.key[i];
                if (v != u && parent_of[v] == parent_of[u] && s.count[v] > most) most = s.count[v];
            }
            s.busiest[id] = most > INT_MAX ? INT_MAX : (int)most;
        }
        for (int i = s.first[u]; i < s.first[u + 1]; i++) {
            int r = s.order[i];
            each[r].level_pair[d][level->level] = s.busiest[group_id(g, ranks->pairs[2 * r])];
            each[r].level_out[d][level->level] = out > INT_MAX ? INT_MAX : (int)out;
        }
        for (int t = 0; t < ntouched; t++) s.count[s.touched[t]] = 0;
    }
    free(s.count);
    return 0;
}

int model_topology_compute(const cost_model *model, int size, const int *pairs, int grid_ndims, const int *dims,
                           model_topology *each)
{
    int *rank_at = malloc((size_t)size * sizeof *rank_at), *per_node = calloc((size_t)size, sizeof *per_node);
    int *node_index = malloc((size_t)size * sizeof *node_index), *unit_of = malloc((size_t)size * sizeof *unit_of);
    int *parent_of = malloc((size_t)size * sizeof *parent_of), *node_of = malloc((size_t)size * sizeof *node_of);
    int *tally = calloc((size_t)size, sizeof *tally), *start = malloc(((size_t)size + 1) * sizeof *start);
    int *key = malloc((size_t)size * sizeof *key), *howmany = malloc((size_t)size * sizeof *howmany);
    int rc = rank_at && per_node && node_index && unit_of && parent_of && node_of && tally && start && key &&
                     howmany ? 0 : -1;
    if (rc == 0) {
        int nodes = 0;
        for (int r = 0; r < size; r++) { /* labels are lowest ranks: nodes numbered in rank order */
            rank_at[pairs[2 * r]] = r;
            if (per_node[pairs[2 * r + 1]]++ == 0) node_index[pairs[2 * r + 1]] = nodes++;
        }
        for (int r = 0; r < size; r++) {
            memset(&each[r], 0, sizeof each[r]);
            node_of[r] = node_index[pairs[2 * r + 1]];
            each[r].plan_ranks = size;
            each[r].plan_nodes = nodes;
            each[r].ranks_per_node = per_node[pairs[2 * r + 1]];
        }
        for (int d = 0; d < grid_ndims; d++) {
            direction_groups g = groups_of(grid_ndims, dims, d, size);
            direction_nodes(&g, d, rank_at, node_of, tally, start, key, howmany, each);
        }
        /* Level l's unit of node n: n / (product of the sizes up to l). */
        int levels = model ? model->levels : 0;
        long long span = 1;
        for (int l = 0; l < levels && rc == 0; l++) {
            span *= model->level[l].size;
            int units = 0;
            for (int r = 0; r < size; r++) {
                unit_of[r] = (int)(node_of[r] / span);
                units = unit_of[r] + 1 > units ? unit_of[r] + 1 : units;
            }
            for (int u = 0; u < units; u++) parent_of[u] = l + 1 < levels ? u / model->level[l + 1].size : 0;
            if (units < 2) continue; /* one unit: nothing crosses this level */
            placed_ranks ranks = {size, pairs, rank_at};
            level_units level = {l, units, unit_of, parent_of};
            for (int d = 0; d < grid_ndims && rc == 0; d++) {
                direction_groups g = groups_of(grid_ndims, dims, d, size);
                rc = count_level(&g, d, &ranks, &level, each);
            }
        }
    }
    free(rank_at);
    free(per_node);
    free(node_index);
    free(unit_of);
    free(parent_of);
    free(node_of);
    free(tally);
    free(start);
    free(key);
    free(howmany);
    return rc;
}

/* Rank 0 gathers every rank's (grid index, node label), works out each
 * rank's topology and scatters it: O(P) memory on rank 0 and O(1) on the
 * others, where an allgather would put P entries on every rank (P^2 in
 * all: in SimGrid's SMPI, whose ranks share one process, 4 GB at 16,384
 * ranks). */
int model_topology_create(MPI_Comm comm, const cost_model *model, int node_size, int node, int grid_ndims,
                          const int *dims, int grid_index, model_topology *topology)
{
    int size = 1, rank = 0, rc = DISTFFT_SUCCESS, label = 0;
    memset(topology, 0, sizeof *topology);
    int *pairs = NULL;
    model_topology *each = NULL;
    int local = mpi_rank_size(comm, &rank, &size); /* failing on one rank only: agreed below */
    if (local == DISTFFT_SUCCESS && rank == 0) {
        pairs = malloc(2 * (size_t)size * sizeof *pairs);
        each = malloc((size_t)size * sizeof *each);
        if (!pairs || !each) local = error_fail(DISTFFT_ERR_MEMORY, "model topology");
    }
    TRY(error_agree(comm, local));
    TRY(error_agree(comm, node_label_find(comm, rank, node_size, node, &label))); /* collective */
    int mine[2] = {grid_index, label};
    TRY_MPI(MPI_Gather(mine, 2, MPI_INT, pairs, 2, MPI_INT, 0, comm));
    if (rank == 0 && model_topology_compute(model, size, pairs, grid_ndims, dims, each) != 0)
        local = error_fail(DISTFFT_ERR_MEMORY, "model topology");
    TRY(error_agree(comm, local));
    TRY_MPI(MPI_Scatter(each, (int)sizeof *topology, MPI_BYTE, topology, (int)sizeof *topology, MPI_BYTE, 0,
                        comm));
fail:
    free(pairs);
    free(each);
    return rc;
}

