/*
 * halo.c -- the halo (ghost-cell) exchange of a distributed array, after
 * paper 004 Sec. 3 (MILC's ghost gathers with nested datatypes instead of
 * packing): the public API -- argument checks and their agreement, create,
 * execute, destroy, the padded-block queries and pad/unpad copies.
 *
 * create: local checks -> ONE agreement (with every argument that must be
 * equal across ranks) -> the message plan from the layout's boxes
 * (halo_plan.c) -> agreement -> datatypes or buffers (halo_transfer.c) ->
 * agreement. Nothing is written to the caller's out-handle before the last
 * agreement succeeded.
 *
 * The blocks are a layout's boxes (distfft_layout_halo_create); the halo
 * works on its own duplicate of the layout's communicator.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../device_memory.h"
#include "../error.h"
#include "../text.h"
#include "../layouts/layout_value.h"
#include "../types.h"
#include "halo.h"

/* Bound on widths, so padded extents cannot overflow. */
#define WIDTH_LIMIT ((int64_t)1 << 59)

static int check_axis(const struct distfft_halo_s *h, int i)
{
    const char *where = "distfft_layout_halo_create";
    if (h->global_shape[i] < 0 || h->local_shape[i] < 0 || h->global_start[i] < 0 ||
        h->global_start[i] > h->global_shape[i] - h->local_shape[i])
        return error_fail(DISTFFT_ERR_SHAPE, "%s: axis %d: the block of %lld at %lld does "
                          "not lie in 0..%lld", where, i, (long long)h->local_shape[i],
                          (long long)h->global_start[i], (long long)h->global_shape[i]);
    if (h->low[i] < 0 || h->high[i] < 0 || h->low[i] > WIDTH_LIMIT || h->high[i] > WIDTH_LIMIT)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: widths_low[%d] = %lld and widths_high[%d] "
                          "= %lld must be in 0..2^59", where, i, (long long)h->low[i], i,
                          (long long)h->high[i]);
    int64_t padded = h->low[i] + h->local_shape[i] + h->high[i];
    if (h->variant == DISTFFT_HALO_DATATYPES && padded > INT_MAX)
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: the padded extent %lld along axis %d "
                          "exceeds INT_MAX, which subarray datatypes cannot describe (the "
                          "\"pack\" variant can)", where, (long long)padded, i);
    return DISTFFT_SUCCESS;
}

/* Copy the arguments into h (whatever their validity) and check them. */
static int check_create(struct distfft_halo_s *h, distfft_type type, int ndims,
                        const int64_t *global_shape, const int64_t *local_shape,
                        const int64_t *global_start, const int64_t *widths_low,
                        const int64_t *widths_high, const int *periodic, int64_t batch,
                        distfft_halo_variant variant, const distfft_halo *out)
{
    const char *where = "distfft_layout_halo_create";
    if (!out) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: halo (out-handle) is NULL", where);
    if (!type_is_valid(type))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown element type %d", where, (int)type);
    if (!distfft_halo_variant_name(variant))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown variant %d", where, (int)variant);
    if (ndims < 1 || ndims > DISTFFT_MAX_DIMS)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: ndims = %d must be in 1..%d", where, ndims,
                          DISTFFT_MAX_DIMS);
    if (!global_shape || !local_shape || !global_start || !widths_low)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: global_shape, local_shape, global_start "
                          "or widths_low is NULL", where);
    if (batch < 1 || (variant == DISTFFT_HALO_DATATYPES && batch > INT_MAX))
        return error_fail(batch < 1 ? DISTFFT_ERR_ARGUMENT : DISTFFT_ERR_UNSUPPORTED,
                          "%s: batch = %lld must be in 1..%s", where, (long long)batch,
                          variant == DISTFFT_HALO_DATATYPES ? "INT_MAX" : "2^59");
    h->type = type;
    h->variant = variant;
    h->element = distfft_type_size(type);
    h->ndims = ndims;
    h->batch = h->padded[0] = batch;
    for (int i = 0; i < ndims; i++) {
        h->global_shape[i] = global_shape[i];
        h->local_shape[i] = local_shape[i];
        h->global_start[i] = global_start[i];
        h->low[i] = widths_low[i];
        h->high[i] = widths_high ? widths_high[i] : widths_low[i];
        h->periodic[i] = periodic ? periodic[i] != 0 : 0;
        int rc = check_axis(h, i);
        if (rc != DISTFFT_SUCCESS) return rc;
        h->padded[i + 1] = h->low[i] + h->local_shape[i] + h->high[i];
        if (h->low[i] + h->high[i] > 0) h->stage[h->stages++].axis = i;
    }
    h->padded_count = shape_count_bounded(ndims, h->padded + 1, batch);
    if (h->padded_count < 0 || shape_count_bounded(ndims, global_shape, 1) < 0)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: the padded block or the global array has "
                          "more than 2^59 elements", where);
    return DISTFFT_SUCCESS;
}

static void replicate(const struct distfft_halo_s *h, replicated_args *args)
{
    replicated_init(args);
    replicated_add(args, h->type, "element type");
    replicated_add(args, h->variant, "variant");
    replicated_add(args, h->ndims, "ndims");
    replicated_add(args, h->batch, "batch");
    for (int i = 0; i < h->ndims; i++) {
        replicated_add(args, h->global_shape[i], "global_shape[%d]", i);
        replicated_add(args, h->low[i], "widths_low[%d]", i);
        replicated_add(args, h->high[i], "widths_high[%d]", i);
        replicated_add(args, h->periodic[i], "periodic[%d]", i);
    }
}

/* A new halo object (*h; NULL when out of memory) with the arguments
 * copied and checked; the values every rank must share into args. Local. */
static int halo_new(struct distfft_halo_s **h, const char *where, distfft_type type, int ndims,
                    const int64_t *global_shape, const int64_t *local_shape, const int64_t *global_start,
                    const int64_t *widths_low, const int64_t *widths_high, const int *periodic, int64_t batch,
                    distfft_halo_variant variant, const distfft_halo *out, replicated_args *args)
{
    replicated_init(args);
    *h = calloc(1, sizeof **h);
    if (!*h) return error_fail(DISTFFT_ERR_MEMORY, "%s: halo object", where);
    (*h)->comm = MPI_COMM_NULL; /* ready for halo_free */
    int local = check_create(*h, type, ndims, global_shape, local_shape, global_start, widths_low, widths_high,
                             periodic, batch, variant, out);
    if (local == DISTFFT_SUCCESS) replicate(*h, args);
    return local;
}

static int halo_free(struct distfft_halo_s *h)
{
    int rc = DISTFFT_SUCCESS;
    if (!h) return rc;
    KEEP(halo_transfer_free(h));
    if (h->comm != MPI_COMM_NULL) KEEP_MPI(lifetime_comm_free(&h->comm));
    free(h);
    return rc;
}

/* The arguments and the layout agreed, h->comm set (the halo's own): the
 * messages and what carries them. `pending`: a local failure of the
 * caller's on this rank, agreed first. Collective on h->comm; agreed. */
static int halo_build(struct distfft_halo_s *h, const struct distfft_layout_s *layout, int pending)
{
    int rc = DISTFFT_SUCCESS;
    h->rank = layout->rank;
    h->size = layout->size;
    TRY(error_agree(h->comm, pending ? pending : halo_plan_messages(h, layout->boxes)));
    TRY(error_agree(h->comm, halo_transfer_prepare(h)));
fail:
    return rc;
}

int distfft_layout_halo_create(const struct distfft_layout_s *layout, distfft_type type,
                               const int64_t *widths_low, const int64_t *widths_high, const int *periodic,
                               int64_t batch, distfft_halo_variant variant, distfft_halo *halo)
{
    error_clear();
    if (halo) *halo = NULL;
    if (!layout) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_layout_halo_create: layout is NULL");
    int rc = DISTFFT_SUCCESS;
    struct distfft_halo_s *h;
    replicated_args args;
    device_memory_probe(); /* device pointers recognised at execute */
    int local = halo_new(&h, "distfft_layout_halo_create", type, layout->ndims, layout->global_shape,
                         layout_shape(layout, layout->rank), layout_start(layout, layout->rank), widths_low,
                         widths_high, periodic, batch, variant, halo, &args);
    TRY(error_agree_replicated(layout->comm, local, &args));
    TRY_MPI(MPI_Comm_dup(layout->comm, &h->comm));
    TRY(halo_build(h, layout, CHECK_MPI(MPI_Comm_set_errhandler(h->comm, MPI_ERRORS_RETURN))));
    TRY(lifetime_register_beside(&layout->lifetime, h->comm, &h->lifetime)); /* agreed */
    *halo = h;
    return DISTFFT_SUCCESS;
fail:
    KEEP(halo_free(h));
    return rc;
}

int distfft_halo_execute(distfft_halo halo, void *array)
{
    error_clear();
    if (!halo)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_halo_execute: halo is NULL "
                          "(destroyed or never created)");
    int local = DISTFFT_SUCCESS;
    if (!array && halo->padded_count > 0)
        local = error_fail(DISTFFT_ERR_ARGUMENT, "distfft_halo_execute: array is NULL but "
                           "this rank's padded block has %lld elements",
                           (long long)halo->padded_count);
    if (local == DISTFFT_SUCCESS)
        local = device_memory_refuse(array, "distfft_halo_execute", "array");
    int rc = error_agree(halo->comm, local);
    if (rc != DISTFFT_SUCCESS) return rc;
    return halo_transfer_run(halo, array);
}

int64_t distfft_halo_padded_block(const struct distfft_halo_s *halo, int64_t *padded_shape,
                                  int64_t *padded_start)
{
    if (!halo) return -1;
    for (int i = 0; i < halo->ndims; i++) {
        if (padded_shape) padded_shape[i] = halo->padded[i + 1];
        if (padded_start) padded_start[i] = halo->global_start[i] - halo->low[i];
    }
    return halo->padded_count;
}

/* Copy the owned block between a plain block and the padded array's
 * interior (into the padded array when `padding`). */
static int copy_interior(const struct distfft_halo_s *h, const void *from, void *to,
                         int padding, const char *where)
{
    error_clear();
    if (!h) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: halo is NULL", where);
    if ((!from || !to) && shape_product(h->ndims, h->local_shape) > 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: a NULL array for a nonempty block",
                          where);
    int rc = device_memory_refuse(from, where, padding ? "block" : "padded");
    if (rc == DISTFFT_SUCCESS) rc = device_memory_refuse(to, where, padding ? "padded" : "block");
    if (rc != DISTFFT_SUCCESS) return rc;
    int64_t block[HALO_DIMS], offset[HALO_DIMS], origin[HALO_DIMS] = {0};
    block[0] = h->batch;
    offset[0] = 0;
    for (int i = 0; i < h->ndims; i++) {
        block[i + 1] = h->local_shape[i];
        offset[i + 1] = h->low[i];
    }
    halo_copy_box(h->element, h->ndims + 1, block, from, padding ? block : h->padded,
                  padding ? origin : offset, to, padding ? h->padded : block,
                  padding ? offset : origin);
    return DISTFFT_SUCCESS;
}

int distfft_halo_pad(const struct distfft_halo_s *halo, const void *block, void *padded)
{
    return copy_interior(halo, block, padded, 1, "distfft_halo_pad");
}

int distfft_halo_unpad(const struct distfft_halo_s *halo, const void *padded, void *block)
{
    return copy_interior(halo, padded, block, 0, "distfft_halo_unpad");
}

int distfft_halo_describe(const struct distfft_halo_s *halo, char *buf, size_t size)
{
    if (!halo) return -1;
    text out = text_on(buf, size);
    char shape[512];
    shape_format(halo->ndims, halo->global_shape, shape, sizeof shape);
    text_append(&out, "(halo %s %s %s", distfft_halo_variant_name(halo->variant), shape,
                distfft_type_name(halo->type));
    if (halo->batch > 1) text_append(&out, " batch=%lld", (long long)halo->batch);
    text_append(&out, " widths=");
    for (int a = 0; a < halo->ndims; a++)
        text_append(&out, "%s%lld:%lld%s", a ? "," : "", (long long)halo->low[a], (long long)halo->high[a],
                    halo->periodic[a] ? "p" : "");
    int messages = 0;
    int64_t elements = 0;
    for (int s = 0; s < halo->stages; s++)
        for (int m = 0; m < halo->stage[s].sends; m++) {
            messages += halo->stage[s].send[m].peer != halo->rank;
            elements += halo->stage[s].send[m].peer != halo->rank ? halo->stage[s].send[m].elements : 0;
        }
    text_append(&out, " sends %d message%s %lld bytes)", messages, messages == 1 ? "" : "s",
                (long long)elements * (long long)halo->element);
    return (int)out.used;
}

int distfft_halo_destroy(distfft_halo *halo)
{
    error_clear();
    if (!halo) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_halo_destroy: NULL");
    int rc = DISTFFT_SUCCESS;
    if (*halo) KEEP(lifetime_forget(&(*halo)->lifetime));
    KEEP(halo_free(*halo));
    *halo = NULL;
    return rc;
}

static int halo_free_opaque(void *halo)
{
    return halo_free(halo);
}

int distfft_halo_release(distfft_halo *halo)
{
    error_clear();
    if (!halo) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_halo_release: NULL");
    return halo_release(halo, NULL);
}

int halo_release(distfft_halo *halo, MPI_Comm *companion)
{
    if (!*halo) return DISTFFT_SUCCESS;
    lifetime_tag tag = (*halo)->lifetime;
    int rc = lifetime_release_with(&tag, halo_free_opaque, *halo, companion);
    if (lifetime_released(rc, &tag)) *halo = NULL;
    return rc;
}
