/*
 * predict.c -- the cost model (model.h) applied to plans: the predicted
 * seconds of each step, on the peers topology.c finds for its exchanges,
 * and the process's model (imported from a file, as wisdom is).
 *
 * Predictions are per rank and reduced with MAX, as the measured step
 * times are the slowest rank's. A candidate's grid index comes from the
 * placement exactly as plan_build takes it (model_grid_index).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../environment.h"
#include "../error.h"
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
    int rc = DISTFFT_SUCCESS, list = direction == DISTFFT_FORWARD ? PLAN_FORWARD : PLAN_BACKWARD;
    bool reshapes = false; /* the same on every rank: the lists are agreed */
    for (int s = 0; s < steps; s++) reshapes = reshapes || plan->steps[list][s]->spec.kind == STEP_RESHAPE;
    int local = count < steps ? error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_predict: room for %d "
                                           "steps, the plan has %d", count, steps)
                : !model_current() ? error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_predict: no cost model "
                                                "(distfft_model_import_file first)")
                : reshapes ? error_fail(DISTFFT_ERR_UNSUPPORTED, "distfft_plan_predict: the cost model prices "
                                        "no reshape between a caller's layout and the plan's own blocks")
                           : DISTFFT_SUCCESS;
    TRY(error_agree(plan->comm, local));
    const struct distfft_grid_s *grid = plan->grid;
    int index = 0;
    for (int d = 0; d < grid->ndims; d++) index = index * grid->dims[d] + grid->coords[d];
    model_topology topology;
    TRY(model_topology_create(plan->comm, model_current(), plan->request.options.node_size, plan->node, grid->ndims,
                              grid->dims, index, &topology));
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
