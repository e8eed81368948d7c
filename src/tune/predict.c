/*
 * predict.c -- the cost model (model.h) applied to plans: which peers of
 * each exchange share this rank's node, the predicted seconds of each
 * step, and the process's model (imported from a file, as wisdom is).
 *
 * Predictions are per rank and reduced with MAX, as the measured step
 * times are the slowest rank's. A plan's grid position comes from the
 * placement (placement.h) exactly as plan_build takes it, so a candidate
 * that has not been built is predicted with the same peers as its plan
 * would have.
 *
 * Above the node, the model's network levels (model.h: a Dragonfly's
 * routers and groups) are counted for the actual placement: rank 0, which
 * holds every rank's grid index and node, counts for each exchange
 * direction the messages that all groups send at once from one unit of a
 * level to another, and gives each rank the count on the busiest link
 * its own messages cross.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../environment.h"
#include "../error.h"
#include "../node.h"
#include "../placement.h"
#include "../types.h"
#include "predict.h"

/* ---- the process's model ------------------------------------------------------ */

static cost_model process_model;
static int process_has_model;

const cost_model *model_current(void)
{
    return process_has_model ? &process_model : NULL;
}

void distfft_model_forget(void)
{
    process_has_model = 0;
}

/* First line of this process's MPI library banner, trailing blanks cut. */
void model_mpi_library(char *buffer, size_t size)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    if (MPI_Get_library_version(version, &length) != MPI_SUCCESS || length < 0) length = 0; /* unknown */
    version[length < MPI_MAX_LIBRARY_VERSION_STRING ? length : MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
    version[strcspn(version, "\r\n")] = '\0';
    size_t end = strlen(version);
    while (end > 0 && (version[end - 1] == ' ' || version[end - 1] == '\t')) version[--end] = '\0';
    snprintf(buffer, size, "%s", version);
}

#define MAX_MODEL_BYTES (1 << 20)

/* Rank 0 reads path; every rank gets the text (or the agreed error). */
static int read_everywhere(MPI_Comm comm, const char *path, char **text_out)
{
    int rank = -1, rc = DISTFFT_SUCCESS;
    char *text = NULL;
    long length = 0;
    int local = CHECK_MPI(MPI_Comm_rank(comm, &rank)); /* one rank may fail: agreed below */
    if (local == DISTFFT_SUCCESS && rank == 0) {
        FILE *file = fopen(path, "rb");
        if (!file) {
            local = error_fail(DISTFFT_ERR_ARGUMENT, "model file '%s' cannot be opened", path);
        } else {
            text = malloc(MAX_MODEL_BYTES + 1);
            length = text ? (long)fread(text, 1, MAX_MODEL_BYTES + 1, file) : 0;
            int bad = !text || ferror(file) || length > MAX_MODEL_BYTES || memchr(text, '\0', (size_t)length);
            fclose(file);
            if (bad)
                local = error_fail(DISTFFT_ERR_ARGUMENT, "model file '%s' is unreadable or not a "
                                   "model text (binary or over 1 MiB)", path);
        }
    }
    TRY(error_agree(comm, local));
    TRY_MPI(MPI_Bcast(&length, 1, MPI_LONG, 0, comm));
    if (rank != 0) text = malloc((size_t)length + 1);
    TRY(error_agree(comm, text ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "model text")));
    TRY_MPI(MPI_Bcast(text, (int)length, MPI_CHAR, 0, comm));
    text[length] = '\0';
    *text_out = text;
    return DISTFFT_SUCCESS;
fail:
    free(text);
    return rc;
}

int model_import_file(MPI_Comm comm, const char *path, int force, cost_model *model)
{
    char *text = NULL;
    int rc = read_everywhere(comm, path, &text);
    if (rc != DISTFFT_SUCCESS) return rc;
    char message[300];
    int local = DISTFFT_SUCCESS;
    /* Every rank parses the same text: every rank reaches the same verdict. */
    if (model_parse(text, model, message, sizeof message) != 0) {
        local = error_fail(DISTFFT_ERR_ARGUMENT, "model file '%s': %s", path, message);
    } else {
        char library[MPI_MAX_LIBRARY_VERSION_STRING];
        model_mpi_library(library, sizeof library);
        if (!force && strcmp(library, model->mpi_library) != 0)
            local = error_fail(DISTFFT_ERR_ARGUMENT, "model file '%s' was calibrated on another kind of "
                               "machine (MPI library '%s'; this one is '%s'): calibrate it here "
                               "(distfft-bench --calibrate), or force it", path, model->mpi_library, library);
    }
    free(text);
    return error_agree(comm, local);
}

int distfft_model_import_file(MPI_Comm comm, const char *path, int force)
{
    error_clear();
    if (comm == MPI_COMM_NULL)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_model_import_file: comm is MPI_COMM_NULL");
    MPI_Comm work = MPI_COMM_NULL;
    if (MPI_Comm_dup(comm, &work) != MPI_SUCCESS)
        return error_fail(DISTFFT_ERR_MPI, "distfft_model_import_file: MPI_Comm_dup failed");
    cost_model model;
    int rc = CHECK_MPI(MPI_Comm_set_errhandler(work, MPI_ERRORS_RETURN)); /* one rank may fail */
    if (rc == DISTFFT_SUCCESS && !path)
        rc = error_fail(DISTFFT_ERR_ARGUMENT, "distfft_model_import_file: path is NULL");
    rc = error_agree(work, rc);
    if (rc == DISTFFT_SUCCESS) rc = model_import_file(work, path, force, &model);
    if (rc == DISTFFT_SUCCESS) {
        process_model = model;
        process_has_model = 1;
    }
    KEEP_MPI(MPI_Comm_free(&work));
    return rc;
}

const cost_model *model_for_tuning(MPI_Comm comm, int rank, int *rc)
{
    int has = process_has_model, all = 0;
    *rc = CHECK_MPI(MPI_Allreduce(&has, &all, 1, MPI_INT, MPI_MIN, comm));
    if (*rc != DISTFFT_SUCCESS) return NULL;
    if (all) return &process_model;
    /* DISTFFT_MODEL, as rank 0 sees it (DISTFFT_MODEL_FORCE=1 forces);
     * its verdict on the variables goes with them: the same everywhere */
    char path[4096] = "";
    int settings[2] = {0, DISTFFT_SUCCESS}; /* force, rank 0's code */
    if (rank == 0) settings[1] = model_environment(path, sizeof path, &settings[0]);
    *rc = CHECK_MPI(MPI_Bcast(path, sizeof path, MPI_CHAR, 0, comm));
    if (*rc == DISTFFT_SUCCESS) *rc = CHECK_MPI(MPI_Bcast(settings, 2, MPI_INT, 0, comm));
    if (*rc == DISTFFT_SUCCESS && settings[1] != DISTFFT_SUCCESS)
        *rc = rank == 0 ? settings[1]
                        : error_fail(settings[1], "DISTFFT_MODEL on rank 0 is longer than %d bytes",
                                     (int)sizeof path - 1);
    if (*rc != DISTFFT_SUCCESS || !path[0]) return NULL;
    cost_model model;
    *rc = model_import_file(comm, path, settings[0], &model);
    if (*rc != DISTFFT_SUCCESS) return NULL;
    process_model = model;
    process_has_model = 1;
    return &process_model;
}

int model_environment(char *path, size_t size, int *force)
{
    const char *value = getenv("DISTFFT_MODEL");
    size_t length = value ? strlen(value) : 0;
    *force = environment_switch("DISTFFT_MODEL_FORCE");
    path[0] = '\0';
    if (length >= size)
        return error_fail(DISTFFT_ERR_ARGUMENT, "DISTFFT_MODEL is a path of %zu bytes, longer than the %zu "
                          "distfft takes", length, size - 1);
    if (value) memcpy(path, value, length + 1);
    return DISTFFT_SUCCESS;
}

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

/* The messages crossing one network level in direction d, into each[].
 * unit_of[r]: rank r's unit at the level; parent_of[u]: unit u's unit at
 * the level above (all one parent at the top). All groups exchange at
 * once, every member with every other: unit A sends unit B, over all
 * groups, the sum of n_A x n_B of each group (its members in A and in B).
 * A rank's level_out is its unit's messages to every other unit;
 * level_pair the most its unit sends one unit of the same parent among
 * those its group reaches (the busiest link it uses). Units are visited
 * one at a time, each with the groups it holds members of: O(P + the sum
 * over groups of their units squared) time, O(P + units) memory; the
 * exchange is symmetric, so the count from B to A is the same and one
 * direction suffices. */
static int count_level(const direction_groups *g, int size, const int *pairs, const int *rank_at, int d,
                       int level, const int *unit_of, const int *parent_of, int units, model_topology *each)
{
    int *first = calloc((size_t)units + 1, sizeof *first), *order = malloc((size_t)size * sizeof *order);
    int *tally = calloc((size_t)units, sizeof *tally), *start = malloc(((size_t)g->count + 1) * sizeof *start);
    int *key = malloc((size_t)size * sizeof *key), *howmany = malloc((size_t)size * sizeof *howmany);
    int *seen = malloc((size_t)g->count * sizeof *seen), *held = malloc((size_t)size * sizeof *held);
    int *busiest = malloc((size_t)g->count * sizeof *busiest), *touched = malloc((size_t)units * sizeof *touched);
    long long *count = calloc((size_t)units, sizeof *count);
    int rc = first && order && tally && start && key && howmany && seen && held && busiest && touched && count ? 0
                                                                                                           : -1;
    if (rc == 0) {
        count_by_key(g, rank_at, unit_of, tally, start, key, howmany);
        for (int id = 0; id < g->count; id++) seen[id] = -1;
        ranks_by_unit(size, unit_of, units, first, order);
        for (int u = 0; u < units; u++) {
            int ngroups = 0, ntouched = 0;
            long long out = 0;
            for (int i = first[u]; i < first[u + 1]; i++) { /* the groups u holds members of, once each */
                int id = group_id(g, pairs[2 * order[i]]);
                if (seen[id] != u) {
                    seen[id] = u;
                    held[ngroups++] = id;
                }
            }
            for (int j = 0; j < ngroups; j++) {
                int id = held[j];
                long long mine = 0;
                for (int i = start[id]; i < start[id + 1]; i++)
                    if (key[i] == u) mine = howmany[i];
                out += mine * (g->n - mine);
                for (int i = start[id]; i < start[id + 1]; i++) {
                    int v = key[i];
                    if (v == u || parent_of[v] != parent_of[u]) continue; /* a higher level's link */
                    if (count[v] == 0) touched[ntouched++] = v;
                    count[v] += mine * howmany[i];
                }
            }
            for (int j = 0; j < ngroups; j++) {
                int id = held[j];
                long long most = 0;
                for (int i = start[id]; i < start[id + 1]; i++) {
                    int v = key[i];
                    if (v != u && parent_of[v] == parent_of[u] && count[v] > most) most = count[v];
                }
                busiest[id] = most > INT_MAX ? INT_MAX : (int)most;
            }
            for (int i = first[u]; i < first[u + 1]; i++) {
                int r = order[i];
                each[r].level_pair[d][level] = busiest[group_id(g, pairs[2 * r])];
                each[r].level_out[d][level] = out > INT_MAX ? INT_MAX : (int)out;
            }
            for (int t = 0; t < ntouched; t++) count[touched[t]] = 0;
        }
    }
    free(first);
    free(order);
    free(tally);
    free(start);
    free(key);
    free(howmany);
    free(seen);
    free(held);
    free(busiest);
    free(touched);
    free(count);
    return rc;
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
            for (int d = 0; d < grid_ndims && rc == 0; d++) {
                direction_groups g = groups_of(grid_ndims, dims, d, size);
                rc = count_level(&g, size, pairs, rank_at, d, l, unit_of, parent_of, units, each);
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

/* ---- steps -------------------------------------------------------------------- */

static model_family family_of(serial_family family)
{
    switch (family) {
    case SERIAL_R2C:
    case SERIAL_C2R: return MODEL_R2C;
    case SERIAL_R2R: return MODEL_R2R;
    default: return MODEL_C2C;
    }
}

double model_step_seconds(const cost_model *model, const model_topology *topology, const step_spec *spec,
                          distfft_method method)
{
    if (spec->kind == STEP_FFT) {
        const serial_spec *fft = &spec->fft;
        double elements = (double)fft->batch;
        for (int a = 0; a < fft->ndims; a++) elements *= (double)fft->shape[a];
        if (fft->family == SERIAL_R2R && fft->complex_data) elements *= 2; /* real and imaginary parts */
        model_family family = family_of(fft->family);
        double seconds = model_fft_axes_seconds(model, family, fft->precision, fft->naxes, fft->axes, fft->shape,
                                                elements);
        if (seconds < 0) { /* no per-length rates: one rate by block size */
            double logs = 0.0;
            for (int i = 0; i < fft->naxes; i++) logs += log2((double)fft->shape[fft->axes[i]]);
            seconds = model_fft_seconds(model, family, fft->precision, elements * logs, elements);
        }
        if (fft->naxes > 1) seconds *= model_fft_multi_axis_factor(model, family, elements);
        seconds *= model_fft_active_factor(model, topology->ranks_per_node);
        /* a fused c2r that must keep its input copies it first (algebra.c),
         * a pass over it like a weights step's */
        if (serial_needs_copy(fft))
            seconds += model_pass_seconds(model, (double)spec->in_count * (double)distfft_type_size(spec->in_type));
        return seconds;
    }
    double in_bytes = (double)spec->in_count * (double)distfft_type_size(spec->in_type);
    if (spec->kind == STEP_WEIGHTS) return model_pass_seconds(model, in_bytes);
    int d = spec->grid_direction;
    model_exchange exchange = {
        .method = method,
        .group_size = topology->group_size[d],
        .peers_on_node = topology->peers_on_node[d],
        .nodes_in_group = topology->nodes_in_group[d],
        .ranks_per_node = topology->ranks_per_node,
        .plan_ranks = topology->plan_ranks,
        .plan_nodes = topology->plan_nodes,
        .in_bytes = in_bytes,
        .out_bytes = (double)spec->out_count * (double)distfft_type_size(spec->out_type),
        .plan_bytes = (double)spec->global_bytes};
    for (int l = 0; l < MODEL_MAX_LEVELS; l++) {
        exchange.level_pair_messages[l] = topology->level_pair[d][l];
        exchange.level_out_messages[l] = topology->level_out[d][l];
    }
    return model_exchange_seconds(model, &exchange);
}

double model_sweep_seconds(const cost_model *model, const step_spec *steps, int count, distfft_method method,
                           double factor)
{
    if (factor == 1.0 || count == 0) return 0.0;
    for (int s = count - 1; s >= 0; s--)
        if (plan_step_folds(&steps[s], method, factor)) return 0.0;
    const step_spec *last = &steps[count - 1];
    return model_pass_seconds(model, (double)last->out_count * (double)distfft_type_size(last->out_type));
}

int model_grid_index(MPI_Comm comm, int rank, int size, int grid_ndims, const int *dims,
                     const distfft_options *options, int node, int untransformed, int *index)
{
    return placement_grid_index(comm, rank, size, grid_ndims, dims, options->placement, options->node_size, node,
                                algebra_busy_direction(grid_ndims, dims, untransformed), index);
}

/* ---- a built plan ---------------------------------------------------------------- */

int distfft_plan_predict(const struct distfft_plan_s *plan, int direction, double *seconds, int count)
{
    error_clear();
    int steps = distfft_plan_step_count(plan, direction);
    if (steps < 0 || !seconds)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_predict: NULL plan or seconds, or direction "
                          "%d is neither DISTFFT_FORWARD nor DISTFFT_BACKWARD", direction);
    int rc = DISTFFT_SUCCESS;
    int local = count < steps ? error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_predict: room for %d "
                                           "steps, the plan has %d", count, steps)
                : !model_current() ? error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_predict: no cost model "
                                                "(distfft_model_import_file first)")
                                   : DISTFFT_SUCCESS;
    TRY(error_agree(plan->comm, local));
    const struct distfft_grid_s *grid = plan->grid;
    int index = 0;
    for (int d = 0; d < grid->ndims; d++) index = index * grid->dims[d] + grid->coords[d];
    model_topology topology;
    TRY(model_topology_create(plan->comm, model_current(), plan->request.options.node_size, plan->node, grid->ndims,
                              grid->dims, index, &topology));
    int list = direction == DISTFFT_FORWARD ? PLAN_FORWARD : PLAN_BACKWARD;
    for (int s = 0; s < steps; s++) {
        distfft_step info;
        distfft_plan_step(plan, direction, s, &info);
        seconds[s] = (double)plan->pipeline.fields *
                     model_step_seconds(model_current(), &topology, &plan->steps[list][s]->spec, info.method);
    }
    TRY_MPI(MPI_Allreduce(MPI_IN_PLACE, seconds, steps, MPI_DOUBLE, MPI_MAX, plan->comm));
fail:
    return rc;
}

int distfft_plan_predict_pair(const struct distfft_plan_s *plan, double *seconds)
{
    error_clear();
    if (!plan || !seconds) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_predict_pair: NULL plan or seconds");
    int rc = DISTFFT_SUCCESS, forward = distfft_plan_step_count(plan, DISTFFT_FORWARD),
        backward = distfft_plan_step_count(plan, DISTFFT_BACKWARD);
    double *steps = malloc((size_t)(forward + backward + 1) * sizeof *steps);
    TRY(error_agree(plan->comm, steps ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "distfft_plan_predict_pair")));
    TRY(distfft_plan_predict(plan, DISTFFT_FORWARD, steps, forward));
    TRY(distfft_plan_predict(plan, DISTFFT_BACKWARD, steps + forward, backward));
    double sweeps = 0.0; /* this rank's; the slowest rank's below */
    for (int list = 0; list < 2; list++)
        if (plan->sweep_scale[list] != 1.0)
            sweeps += model_pass_seconds(model_current(), (double)plan_out_bytes(plan, list));
    TRY_MPI(MPI_Allreduce(MPI_IN_PLACE, &sweeps, 1, MPI_DOUBLE, MPI_MAX, plan->comm));
    *seconds = sweeps;
    for (int s = 0; s < forward + backward; s++) *seconds += steps[s];
fail:
    free(steps);
    return rc;
}
