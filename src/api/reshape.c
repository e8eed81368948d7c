/*
 * reshape.c -- the public reshape API (box-to-box, redist/reshape.h):
 * argument checks and their agreement, the method (tune_reshape: "auto"
 * times the rows of the method table that apply to boxes; an explicit
 * method must apply), execution, and the description.
 */
#include <string.h>

#include "../backend.h"
#include "../error.h"
#include "../lifetime.h"
#include "../redist/reshape.h"
#include "../redist/redist.h"
#include "../text.h"
#include "../tune/tune.h"
#include "../types.h"

/* Local checks of two layouts passed together (same ranks, ndims, global
 * shape); `where` names the call. Local; the caller agrees. */
static int check_layouts(const struct distfft_layout_s *in, const struct distfft_layout_s *out,
                         const char *where)
{
    if (!layout_same_ranks(in, out))
        return error_fail(DISTFFT_ERR_MISMATCH, "%s: the two layouts are on different communicators (not "
                          "the same ranks in the same order)", where);
    if (in->ndims != out->ndims)
        return error_fail(DISTFFT_ERR_MISMATCH, "%s: layout_in has %d axes, layout_out %d", where, in->ndims,
                          out->ndims);
    for (int a = 0; a < in->ndims; a++)
        if (in->global_shape[a] != out->global_shape[a])
            return error_fail(DISTFFT_ERR_MISMATCH, "%s: layout_in's global_shape[%d] = %lld, layout_out's "
                              "%lld: a reshape keeps the global array", where, a,
                              (long long)in->global_shape[a], (long long)out->global_shape[a]);
    return DISTFFT_SUCCESS;
}

/* Where the arrays live: a known kind whose backend this process can
 * load (the CUDA backend's refusal says why), a stream only with device
 * memory. Local; the caller agrees. */
static int check_memory(distfft_memory memory, const void *stream, const char *where)
{
    if (!distfft_memory_name(memory))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown memory kind %d", where, (int)memory);
    if (memory == DISTFFT_MEMORY_HOST && stream)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: stream is set, but memory is host; a stream orders a "
                          "reshape of device memory (memory cuda)", where);
    return backend_load(memory, where);
}

static int check_create(const struct distfft_layout_s *in, const struct distfft_layout_s *out, distfft_type type,
                        int64_t batch, const distfft_reshape_options *options, const distfft_reshape *reshape,
                        replicated_args *args)
{
    const char *where = "distfft_reshape_create";
    if (!reshape) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: reshape (out-handle) is NULL", where);
    if (!type_is_valid(type)) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown element type %d", where, (int)type);
    if (batch < 1) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: batch = %lld must be >= 1", where, (long long)batch);
    int rc = check_memory(options->memory, options->stream, where);
    if (rc != DISTFFT_SUCCESS) return rc;
    redist_problem boxes = redist_box_problem(type, backend_of(options->memory)->memory);
    if (options->method != DISTFFT_METHOD_AUTO) {
        rc = redist_check_applicable(options->method, &boxes, where);
        if (rc != DISTFFT_SUCCESS) return rc;
    }
    replicated_add(args, type, "element type");
    replicated_add(args, batch, "batch");
    replicated_add(args, options->method, "method");
    replicated_add(args, options->memory, "memory");
    rc = check_layouts(in, out, where);
    if (rc != DISTFFT_SUCCESS) return rc;
    if (shape_count_bounded(in->ndims, layout_shape(in, in->rank), batch) < 0 ||
        shape_count_bounded(out->ndims, layout_shape(out, out->rank), batch) < 0)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: batch x a box has more than 2^59 elements", where);
    return DISTFFT_SUCCESS;
}

void distfft_reshape_options_init(distfft_reshape_options *options)
{
    memset(options, 0, sizeof *options);
    options->method = DISTFFT_METHOD_AUTO;
    options->rigor = DISTFFT_MEASURE;
    options->memory = DISTFFT_MEMORY_HOST;
    options->stream = NULL;
}

int distfft_reshape_create(const struct distfft_layout_s *layout_in, const struct distfft_layout_s *layout_out,
                           distfft_type type, int64_t batch, const distfft_reshape_options *options,
                           distfft_reshape *reshape)
{
    error_clear();
    if (reshape) *reshape = NULL;
    if (!layout_in || !layout_out)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_reshape_create: layout_in or layout_out is NULL "
                          "(on this rank: it cannot reach the others)");
    distfft_reshape_options defaults;
    distfft_reshape_options_init(&defaults);
    if (!options) options = &defaults;
    replicated_args args;
    replicated_init(&args);
    int local = check_create(layout_in, layout_out, type, batch, options, reshape, &args);
    if (local == DISTFFT_SUCCESS && !distfft_rigor_name(options->rigor))
        local = error_fail(DISTFFT_ERR_ARGUMENT, "distfft_reshape_create: unknown rigor %d", (int)options->rigor);
    replicated_add(&args, options->rigor == DISTFFT_ESTIMATE, "rigor estimate");
    int rc = error_agree_replicated(layout_in->comm, local, &args);
    if (rc != DISTFFT_SUCCESS) return rc;
    tune_memory memory = {options->memory, options->stream};
    rc = tune_reshape(layout_in, layout_out, type, batch, &memory, options->method, options->rigor, reshape);
    if (rc != DISTFFT_SUCCESS) return rc;
    rc = lifetime_register_beside(&layout_in->lifetime, (*reshape)->comm, &(*reshape)->lifetime); /* agreed */
    if (rc != DISTFFT_SUCCESS) {
        KEEP(reshape_free(*reshape));
        *reshape = NULL;
    }
    return rc;
}

/* The arrays in the reshape's memory (cudaPointerGetAttributes, once the
 * CUDA backend is loaded). Local. */
static int check_pointers(const struct distfft_reshape_s *reshape, const void *in, const void *out,
                          const char *where)
{
    distfft_memory memory = reshape->memory == REDIST_MEMORY_HOST ? DISTFFT_MEMORY_HOST : DISTFFT_MEMORY_CUDA;
    int rc = backend_check_pointer(memory, in, where, "in");
    return rc != DISTFFT_SUCCESS ? rc : backend_check_pointer(memory, out, where, "out");
}

int distfft_reshape_execute(distfft_reshape reshape, const void *in, void *out, int direction)
{
    error_clear();
    const char *where = "distfft_reshape_execute";
    if (!reshape) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: reshape is NULL (destroyed or never created)", where);
    bool forward = direction != DISTFFT_BACKWARD;
    int64_t in_count = forward ? reshape->in_count : reshape->out_count;
    int64_t out_count = forward ? reshape->out_count : reshape->in_count;
    int64_t element = (int64_t)distfft_type_size(reshape->type);
    const char *pin = in, *pout = out;
    int local = DISTFFT_SUCCESS;
    if (direction != DISTFFT_FORWARD && direction != DISTFFT_BACKWARD)
        local = error_fail(DISTFFT_ERR_ARGUMENT, "%s: direction %d is neither DISTFFT_FORWARD (%d) nor "
                           "DISTFFT_BACKWARD (%d)", where, direction, DISTFFT_FORWARD, DISTFFT_BACKWARD);
    else if (!in && in_count > 0)
        local = error_fail(DISTFFT_ERR_ARGUMENT, "%s: in is NULL but this rank's box has %lld elements", where,
                           (long long)in_count);
    else if (!out && out_count > 0)
        local = error_fail(DISTFFT_ERR_ARGUMENT, "%s: out is NULL but this rank's box has %lld elements", where,
                           (long long)out_count);
    else if (in_count > 0 && out_count > 0 && pin < pout + out_count * element && pout < pin + in_count * element)
        local = error_fail(DISTFFT_ERR_ARGUMENT, "%s: in and out overlap (a reshape is out of place)", where);
    if (local == DISTFFT_SUCCESS) local = check_pointers(reshape, in, out, where);
    int rc = reshape->size == 1 ? local : error_agree(reshape->comm, local);
    if (rc != DISTFFT_SUCCESS) return rc;
    return reshape_run(reshape, forward, in, out);
}

int distfft_reshape_describe(const struct distfft_reshape_s *reshape, char *buf, size_t size)
{
    if (!reshape) return -1;
    text out = text_on(buf, size);
    char shape[512];
    shape_format(reshape->ndims, reshape->global_shape, shape, sizeof shape);
    text_append(&out, "(reshape %s %s %s", reshape_method_name(reshape), shape, distfft_type_name(reshape->type));
    if (reshape->batch > 1) text_append(&out, " batch=%lld", (long long)reshape->batch);
    text_append(&out, " sends %d/%d ranks %lld bytes)", reshape->peers_in, reshape->size - 1,
                (long long)reshape->bytes_sent);
    return (int)out.used;
}

distfft_method distfft_reshape_method(const struct distfft_reshape_s *reshape)
{
    return reshape ? reshape->method : DISTFFT_METHOD_AUTO;
}

int distfft_reshape_destroy(distfft_reshape *reshape)
{
    error_clear();
    if (!reshape) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_reshape_destroy: NULL");
    int rc = DISTFFT_SUCCESS;
    if (*reshape) KEEP(lifetime_forget(&(*reshape)->lifetime));
    KEEP(reshape_free(*reshape));
    *reshape = NULL;
    return rc;
}

static int reshape_free_opaque(void *reshape)
{
    return reshape_free(reshape);
}

int distfft_reshape_release(distfft_reshape *reshape)
{
    error_clear();
    if (!reshape) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_reshape_release: NULL");
    return reshape_release(reshape, NULL);
}

int reshape_release(distfft_reshape *reshape, MPI_Comm *companion)
{
    if (!*reshape) return DISTFFT_SUCCESS;
    lifetime_tag tag = (*reshape)->lifetime;
    int rc = lifetime_release_with(&tag, reshape_free_opaque, *reshape, companion);
    if (lifetime_released(rc, &tag)) *reshape = NULL;
    return rc;
}
