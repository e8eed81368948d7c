/*
 * layout_calls.c -- gather, scatter, array files and halo exchanges from a
 * layout: the layout's communicator and this rank's box handed to the one
 * implementation each has (gather.c, array_io.c, halo/), so the triplet
 * calls and these agree by construction. The layout's tiling is already
 * checked; the implementations still agree on their own arguments.
 */
#include "../error.h"
#include "../layouts/layout_value.h"
#include "../types.h"

/* The arguments every rank must agree on before a loop over fields. */
static int agree_fields(const struct distfft_layout_s *layout, distfft_type type, int64_t batch, int root,
                        const char *where)
{
    replicated_args args;
    replicated_init(&args);
    int local = DISTFFT_SUCCESS;
    if (!type_is_valid(type)) local = error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown element type %d", where, (int)type);
    else if (batch < 1) local = error_fail(DISTFFT_ERR_ARGUMENT, "%s: batch = %lld must be >= 1", where, (long long)batch);
    else if (root < 0 || root >= layout->size)
        local = error_fail(DISTFFT_ERR_ARGUMENT, "%s: root = %d is not a rank of the layout", where, root);
    replicated_add(&args, type, "element type");
    replicated_add(&args, batch, "batch");
    replicated_add(&args, root, "root");
    return error_agree_replicated(layout->comm, local, &args);
}

static int move_fields(const struct distfft_layout_s *layout, distfft_type type, int64_t batch, void *local,
                       int root, void *global, int to_root, const char *where)
{
    error_clear();
    if (!layout) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: layout is NULL", where);
    int rc = agree_fields(layout, type, batch, root, where);
    if (rc != DISTFFT_SUCCESS) return rc;
    size_t element = distfft_type_size(type);
    int64_t local_count = layout_box_count(layout, layout->rank);
    int64_t global_count = shape_product(layout->ndims, layout->global_shape);
    for (int64_t field = 0; field < batch && rc == DISTFFT_SUCCESS; field++) {
        char *mine = local ? (char *)local + (size_t)(field * local_count) * element : NULL;
        char *whole = global && layout->rank == root ? (char *)global + (size_t)(field * global_count) * element
                                                     : NULL;
        if (to_root)
            rc = distfft_gather(layout->comm, type, layout->ndims, layout->global_shape,
                                layout_shape(layout, layout->rank), layout_start(layout, layout->rank), mine,
                                root, whole);
        else
            rc = distfft_scatter(layout->comm, type, layout->ndims, layout->global_shape,
                                 layout_shape(layout, layout->rank), layout_start(layout, layout->rank), whole,
                                 root, mine);
    }
    return rc;
}

int distfft_layout_gather(const struct distfft_layout_s *layout, distfft_type type, int64_t batch,
                          const void *local, int root, void *global)
{
    return move_fields(layout, type, batch, (void *)local, root, global, 1, "distfft_layout_gather");
}

int distfft_layout_scatter(const struct distfft_layout_s *layout, distfft_type type, int64_t batch,
                           const void *global, int root, void *local)
{
    return move_fields(layout, type, batch, local, root, (void *)global, 0, "distfft_layout_scatter");
}

int distfft_layout_array_write(const struct distfft_layout_s *layout, const char *path, distfft_type type,
                               int64_t batch, const void *local)
{
    error_clear();
    if (!layout) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_layout_array_write: layout is NULL");
    return distfft_array_write(layout->comm, path, type, layout->ndims, layout->global_shape,
                               layout_shape(layout, layout->rank), layout_start(layout, layout->rank), batch,
                               local);
}

int distfft_layout_array_read(const struct distfft_layout_s *layout, const char *path, distfft_type type,
                              int64_t batch, void *local)
{
    error_clear();
    if (!layout) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_layout_array_read: layout is NULL");
    return distfft_array_read(layout->comm, path, type, layout->ndims, layout->global_shape,
                              layout_shape(layout, layout->rank), layout_start(layout, layout->rank), batch,
                              local);
}

int distfft_layout_halo_create(const struct distfft_layout_s *layout, distfft_type type,
                               const int64_t *widths_low, const int64_t *widths_high, const int *periodic,
                               int64_t batch, distfft_halo_variant variant, distfft_halo *halo)
{
    error_clear();
    if (halo) *halo = NULL;
    if (!layout) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_layout_halo_create: layout is NULL");
    return distfft_halo_create(layout->comm, type, layout->ndims, layout->global_shape,
                               layout_shape(layout, layout->rank), layout_start(layout, layout->rank),
                               widths_low, widths_high, periodic, batch, variant, halo);
}
