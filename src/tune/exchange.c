/*
 * exchange.c -- the method of one exchange (paper 001: run-time tuning of
 * the communication method), whether of a plan, a redistribution or a
 * reshape between layouts (two redistributions over boxes). "auto"
 * plans every row of the method table whose applicable() accepts the
 * exchange, times each on scratch arrays, and keeps the fastest. The times are maxima over
 * the ranks of a tuning communicator (the exchange's own group, or a
 * plan's whole communicator, whose sub-groups all run the same exchange at
 * once), so every rank sees the same numbers and picks the same method, as
 * FFTW's mpi/ planner does.
 */
#include <math.h>
#include <stdlib.h>

#include "../backend.h"
#include "../error.h"
#include "../redist/reshape.h"
#include "../redist/nodes.h"
#include "../types.h"
#include "progress.h"
#include "timer.h"
#include "tune.h"

/* One execution of a candidate on the tuning arrays. */
typedef struct {
    const struct distfft_redist_s *redist;
    const void *in;
    void *out;
    const redist_geometry *geometry;
} exchange_run;

/* Into the method's shared output where it made one for a plan (shm's
 * one copy), as the plan will run it; in device memory, until the
 * device is done (nccl's returns at once). */
static int run_exchange(void *context)
{
    exchange_run *run = context;
    void *shared = redist_shared_output(run->redist);
    int rc = redist_run(run->redist, run->in, shared ? shared : run->out);
    return rc == DISTFFT_SUCCESS ? tuning_wait(run->geometry->copies, run->geometry->stream) : rc;
}

/* Plan method m (which applies) and time it; *seconds is INFINITY when it
 * cannot be planned somewhere -- a resource limit on some rank: memory, an
 * extent past a datatype's int -- (then *candidate is NULL on every rank)
 * or a run of it fails somewhere. Fails (agreed) only when freeing the leftovers of a
 * method that cannot be planned fails. */
static int time_method(MPI_Comm comm, MPI_Comm tuning_comm, const redist_geometry *geometry,
                        distfft_method m, const void *in, void *out, distfft_redist *candidate,
                        double bound, double *seconds)
{
    *seconds = INFINITY;
    int created = redist_create(comm, geometry, m, candidate);
    if (error_agree(tuning_comm, created) != DISTFFT_SUCCESS) { /* not this method */
        int freed = redist_free(*candidate);
        *candidate = NULL;
        return error_agree(tuning_comm, freed);
    }
    exchange_run run = {*candidate, in, out, geometry};
    if (error_agree(tuning_comm, tuning_time(tuning_comm, run_exchange, &run, bound, seconds, NULL)) != DISTFFT_SUCCESS)
        *seconds = INFINITY; /* a method that fails its runs is not chosen */
    return DISTFFT_SUCCESS;
}

/* The arrays a candidate is timed on, in the exchange's memory: zeroed
 * host memory, or a device's as it comes (its values do not change a
 * device copy's time). */
static void *tuning_buffer(const redist_geometry *geometry, int64_t count, size_t element)
{
    if (!geometry->copies || geometry->memory == REDIST_MEMORY_HOST) return calloc((size_t)count + 1, element);
    return geometry->copies->allocate(((size_t)count + 1) * element);
}

static void release_tuning_buffer(const redist_geometry *geometry, void *buffer)
{
    if (!geometry->copies || geometry->memory == REDIST_MEMORY_HOST) free(buffer);
    else geometry->copies->release(buffer);
}

int tune_exchange(MPI_Comm comm, MPI_Comm tuning_comm, const redist_geometry *geometry,
                  const tune_progress *progress, distfft_redist *redist_out)
{
    double start = MPI_Wtime();
    size_t element = distfft_type_size(geometry->type);
    int64_t in_count = geometry->batch * shape_product(geometry->ndims, geometry->in_shape);
    int64_t out_count = geometry->batch * shape_product(geometry->ndims, geometry->out_shape);
    void *in = tuning_buffer(geometry, in_count, element), *out = tuning_buffer(geometry, out_count, element);
    int rc = error_agree(tuning_comm, in && out ? DISTFFT_SUCCESS
                                                : error_fail(DISTFFT_ERR_MEMORY, "tuning buffers"));
    struct distfft_redist_s *best = NULL;
    double best_seconds = INFINITY;
    redist_problem problem = redist_problem_of(geometry);
    for (int m = 0; rc == DISTFFT_SUCCESS && m < redist_method_count(); m++) {
        if (!redist_method_row((distfft_method)m)->applicable(&problem, NULL)) continue; /* alike on every rank */
        distfft_redist candidate = NULL;
        double seconds;
        rc = time_method(comm, tuning_comm, geometry, (distfft_method)m, in, out, &candidate, best_seconds,
                         &seconds);
        if (rc != DISTFFT_SUCCESS) break;
        progress_method(progress, distfft_method_name((distfft_method)m), m, redist_method_count(),
                        seconds);
        struct distfft_redist_s *slower = candidate;
        if (candidate && seconds < best_seconds) {
            slower = best;
            best = candidate;
            best_seconds = seconds;
        }
        rc = error_agree(tuning_comm, redist_free(slower));
    }
    release_tuning_buffer(geometry, in);
    release_tuning_buffer(geometry, out);
    if (rc == DISTFFT_SUCCESS && !best)
        rc = error_fail(DISTFFT_ERR_UNSUPPORTED, "auto: no method can do this exchange");
    if (rc != DISTFFT_SUCCESS) {
        KEEP(redist_free(best));
        return rc;
    }
    error_clear();
    best->tuning_seconds = MPI_Wtime() - start;
    *redist_out = best;
    return DISTFFT_SUCCESS;
}

/* What estimate mode takes without measuring: the first row of the table
 * that applies. Alike on every rank. */
static distfft_method first_applicable(const redist_geometry *geometry)
{
    redist_problem problem = redist_problem_of(geometry);
    return redist_first_applicable(&problem);
}

/* redist_create of a concrete method on comm, its outcome agreed on
 * agree_comm: a rank whose create succeeded frees it when another's
 * failed. */
static int create_agreed(MPI_Comm comm, MPI_Comm agree_comm, const redist_geometry *geometry,
                         distfft_method method, distfft_redist *redist)
{
    int rc = error_agree(agree_comm, redist_create(comm, geometry, method, redist));
    if (rc != DISTFFT_SUCCESS) {
        KEEP(redist_free(*redist));
        *redist = NULL;
    }
    return rc;
}

/* Whether making `method` (AUTO: every method of the table) finds the
 * ranks' nodes. */
static bool finds_nodes(distfft_method method)
{
    if (method != DISTFFT_METHOD_AUTO) return redist_method_row(method)->node_aware;
    for (int m = 0; m < redist_method_count(); m++)
        if (redist_method_row((distfft_method)m)->node_aware) return true;
    return false;
}

/* The exchange_maker of a plan (see exchange_policy). The node-aware
 * methods get the real nodes the plan's creation found once
 * (plan_comms_node), not a split of their own per exchange and candidate. */
static int make_exchange(void *context, int exchange, MPI_Comm subcomm, plan_comms *comms,
                         const redist_geometry *geometry_in, distfft_redist *redist)
{
    const exchange_policy *policy = context;
    MPI_Comm plan_comm = comms->comm;
    redist_geometry geometry = *geometry_in;
    distfft_method method = policy->forced ? policy->forced->methods[exchange] : policy->method;
    if (method == DISTFFT_METHOD_AUTO && policy->rigor == DISTFFT_ESTIMATE)
        method = first_applicable(&geometry); /* estimate mode never measures */
    /* alike on every rank: the method, the pretended nodes (options, DISTFFT_NODE_SIZE) */
    if (node_label_is_shared(&geometry) && finds_nodes(method)) {
        int rc = plan_comms_node(comms, &geometry.shared_node);
        if (rc != DISTFFT_SUCCESS) return rc;
    }
    if (method == DISTFFT_METHOD_AUTO) {
        if (policy->progress) policy->progress->exchange = exchange;
        return tune_exchange(subcomm, plan_comm, &geometry, policy->progress, redist);
    }
    return create_agreed(subcomm, plan_comm, &geometry, method, redist);
}

exchange_maker tune_exchange_maker(const exchange_policy *policy)
{
    return (exchange_maker){.make = make_exchange, .context = (void *)policy};
}

/* ---- the method of a reshape ---- */

int tune_reshape(const struct distfft_layout_s *in, const struct distfft_layout_s *out, distfft_type type,
                 int64_t batch, const tune_memory *memory, distfft_method method, distfft_rigor rigor,
                 struct distfft_reshape_s **reshape)
{
    double begin = MPI_Wtime();
    struct distfft_reshape_s *r = NULL;
    const backend *where = backend_of(memory->kind);
    int rc = reshape_open(in, out, type, batch, where->memory, where->copies, memory->stream, &r);
    if (rc != DISTFFT_SUCCESS) return rc;
    redist_geometry forward = reshape_geometry(r, true), backward = reshape_geometry(r, false);
    if (method == DISTFFT_METHOD_AUTO && rigor == DISTFFT_ESTIMATE)
        method = first_applicable(&forward); /* estimate mode never measures */
    /* forward measured (auto) or as asked; backward by the same method */
    if (method == DISTFFT_METHOD_AUTO) rc = tune_exchange(r->comm, r->comm, &forward, NULL, &r->redist[0]);
    else rc = create_agreed(r->comm, r->comm, &forward, method, &r->redist[0]);
    if (rc == DISTFFT_SUCCESS) {
        r->method = r->redist[0]->method_id;
        rc = create_agreed(r->comm, r->comm, &backward, r->method, &r->redist[1]);
    }
    if (rc != DISTFFT_SUCCESS) {
        KEEP(reshape_free(r));
        return rc;
    }
    r->tuning_seconds = MPI_Wtime() - begin;
    *reshape = r;
    return DISTFFT_SUCCESS;
}
