/*
 * blocks.c -- the layout calls on blocks given as (local_shape,
 * global_start), as many tests hold them: the layout of the blocks is made,
 * used once and destroyed (see blocks.h). Only the public API; no FFTW, so
 * tests linked against the static library compile it in too.
 */
#include "blocks.h"


/* What each call does with the blocks' layout. */
typedef struct {
    enum { GATHER, SCATTER, WRITE, READ, HALO } call;
    distfft_type type;
    int64_t batch;
    int root;
    const char *path;
    const void *in;
    void *out;
    const int64_t *widths_low, *widths_high;
    const int *periodic;
    distfft_halo_variant variant;
    distfft_halo *halo;
} block_call;

static int on_blocks(MPI_Comm comm, int ndims, const int64_t *global_shape, const int64_t *local_shape,
                     const int64_t *global_start, const block_call *c)
{
    if (c->call == HALO && c->halo) *c->halo = NULL;
    distfft_layout layout = NULL;
    int rc = distfft_layout_from_box(comm, ndims, global_shape, global_start, local_shape, &layout);
    if (rc != DISTFFT_SUCCESS) return rc;
    switch (c->call) {
    case GATHER: rc = distfft_layout_gather(layout, c->type, 1, c->in, c->root, c->out); break;
    case SCATTER: rc = distfft_layout_scatter(layout, c->type, 1, c->in, c->root, c->out); break;
    case WRITE: rc = distfft_layout_array_write(layout, c->path, c->type, c->batch, c->in); break;
    case READ: rc = distfft_layout_array_read(layout, c->path, c->type, c->batch, c->out); break;
    case HALO:
        rc = distfft_layout_halo_create(layout, c->type, c->widths_low, c->widths_high, c->periodic, c->batch,
                                        c->variant, c->halo);
        break;
    }
    int destroyed = distfft_layout_destroy(&layout);
    return rc != DISTFFT_SUCCESS ? rc : destroyed;
}

int test_gather(MPI_Comm comm, distfft_type type, int ndims, const int64_t *global_shape,
                const int64_t *local_shape, const int64_t *global_start, const void *local,
                int root, void *global)
{
    block_call c = {.call = GATHER, .type = type, .root = root, .in = local, .out = global};
    return on_blocks(comm, ndims, global_shape, local_shape, global_start, &c);
}

int test_scatter(MPI_Comm comm, distfft_type type, int ndims, const int64_t *global_shape,
                 const int64_t *local_shape, const int64_t *global_start, const void *global,
                 int root, void *local)
{
    block_call c = {.call = SCATTER, .type = type, .root = root, .in = global, .out = local};
    return on_blocks(comm, ndims, global_shape, local_shape, global_start, &c);
}

int test_array_write(MPI_Comm comm, const char *path, distfft_type type, int ndims,
                     const int64_t *global_shape, const int64_t *local_shape,
                     const int64_t *global_start, int64_t batch, const void *local)
{
    block_call c = {.call = WRITE, .type = type, .batch = batch, .path = path, .in = local};
    return on_blocks(comm, ndims, global_shape, local_shape, global_start, &c);
}

int test_array_read(MPI_Comm comm, const char *path, distfft_type type, int ndims,
                    const int64_t *global_shape, const int64_t *local_shape,
                    const int64_t *global_start, int64_t batch, void *local)
{
    block_call c = {.call = READ, .type = type, .batch = batch, .path = path, .out = local};
    return on_blocks(comm, ndims, global_shape, local_shape, global_start, &c);
}

int test_halo_create(MPI_Comm comm, distfft_type type, int ndims, const int64_t *global_shape,
                     const int64_t *local_shape, const int64_t *global_start,
                     const int64_t *widths_low, const int64_t *widths_high, const int *periodic,
                     int64_t batch, distfft_halo_variant variant, distfft_halo *halo)
{
    block_call c = {.call = HALO, .type = type, .batch = batch, .widths_low = widths_low,
                    .widths_high = widths_high, .periodic = periodic, .variant = variant, .halo = halo};
    return on_blocks(comm, ndims, global_shape, local_shape, global_start, &c);
}
