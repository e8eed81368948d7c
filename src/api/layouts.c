/*
 * layouts.c -- the public layout calls: making layouts (from a box, from a
 * grid and an alignment, from a plan's side) and asking them. The other
 * calls on a layout -- gather, scatter, array files, halo -- live with
 * their implementation (gather.c, array_io.c, halo/halo.c).
 */
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../lifetime.h"
#include "../layout.h"
#include "../layouts/layout_value.h"
#include "../plan/plan.h"
#include "../text.h"
#include "../types.h"

/* A layout just made (rc its agreed outcome) becomes a public object:
 * numbered on comm, the caller's communicator, or beside `parent` (the
 * plan it describes) on the layout's own. Freed again where that fails.
 * Collective; agreed. */
static int number(MPI_Comm comm, const lifetime_tag *parent, int rc, distfft_layout *layout)
{
    if (rc != DISTFFT_SUCCESS) return rc;
    struct distfft_layout_s *l = *layout;
    rc = parent ? lifetime_register_beside(parent, l->comm, &l->lifetime) : lifetime_register(comm, &l->lifetime);
    if (rc != DISTFFT_SUCCESS) {
        KEEP(layout_value_free(l));
        *layout = NULL;
    }
    return rc;
}

int distfft_layout_from_box(MPI_Comm comm, int ndims, const int64_t *global_shape, const int64_t *start,
                            const int64_t *shape, distfft_layout *layout)
{
    error_clear();
    const char *where = "distfft_layout_from_box";
    if (layout) *layout = NULL;
    if (comm == MPI_COMM_NULL) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: comm is MPI_COMM_NULL", where);
    int prior = layout ? DISTFFT_SUCCESS
                       : error_fail(DISTFFT_ERR_ARGUMENT, "%s: layout (out-handle) is NULL", where);
    distfft_layout *out = layout ? layout : &(distfft_layout){NULL};
    return number(comm, NULL, layout_value_build(comm, ndims, global_shape, start, shape, where, prior, NULL, out),
                  out);
}

/* The grid arguments: extents, their product, the alignment. */
static int check_grid(int size, int ndims, const int64_t *global_shape, int grid_ndims, const int *grid_dims,
                      const int *distributed_by, replicated_args *args)
{
    const char *where = "distfft_layout_from_grid";
    if (ndims < 1 || ndims > DISTFFT_MAX_DIMS)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: ndims = %d must be in 1..%d", where, ndims, DISTFFT_MAX_DIMS);
    if (grid_ndims < 1 || grid_ndims > DISTFFT_MAX_DIMS)
        return error_fail(DISTFFT_ERR_GRID, "%s: grid_ndims = %d must be in 1..%d", where, grid_ndims,
                          DISTFFT_MAX_DIMS);
    if (!global_shape || !grid_dims || !distributed_by)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: global_shape, grid_dims or distributed_by is NULL", where);
    replicated_add(args, grid_ndims, "grid_ndims");
    int64_t product = 1;
    for (int d = 0; d < grid_ndims; d++) {
        replicated_add(args, grid_dims[d], "grid_dims[%d]", d);
        if (grid_dims[d] < 1)
            return error_fail(DISTFFT_ERR_GRID, "%s: grid_dims[%d] = %d must be >= 1", where, d, grid_dims[d]);
        product *= grid_dims[d];
        if (product > size) break;
    }
    if (product != size)
        return error_fail(DISTFFT_ERR_GRID, "%s: the grid's extents multiply to %lld, but comm has %d ranks",
                          where, (long long)product, size);
    int used[DISTFFT_MAX_DIMS] = {0};
    for (int a = 0; a < ndims; a++) {
        int d = distributed_by[a];
        replicated_add(args, d, "distributed_by[%d]", a);
        if (d < -1 || d >= grid_ndims)
            return error_fail(DISTFFT_ERR_ARGUMENT, "%s: distributed_by[%d] = %d must be a grid direction "
                              "(0..%d) or -1 (complete)", where, a, d, grid_ndims - 1);
        if (d >= 0 && used[d]++)
            return error_fail(DISTFFT_ERR_ARGUMENT, "%s: grid direction %d distributes two axes", where, d);
    }
    return DISTFFT_SUCCESS;
}

int distfft_layout_from_grid(MPI_Comm comm, int ndims, const int64_t *global_shape, int grid_ndims,
                             const int *grid_dims, const int *distributed_by, distfft_layout *layout_out)
{
    error_clear();
    const char *where = "distfft_layout_from_grid";
    if (layout_out) *layout_out = NULL;
    if (comm == MPI_COMM_NULL) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: comm is MPI_COMM_NULL", where);
    int size = 1, rank = 0;
    replicated_args args;
    replicated_init(&args);
    /* failing on some ranks only: agreed with the checks in layout_value_build */
    int prior = mpi_rank_size(comm, &rank, &size);
    if (prior == DISTFFT_SUCCESS)
        prior = layout_out ? check_grid(size, ndims, global_shape, grid_ndims, grid_dims, distributed_by, &args)
                           : error_fail(DISTFFT_ERR_ARGUMENT, "%s: layout (out-handle) is NULL", where);
    int64_t start[DISTFFT_MAX_DIMS] = {0}, shape[DISTFFT_MAX_DIMS] = {0};
    if (prior == DISTFFT_SUCCESS) {
        layout alignment = {.ndims = ndims};
        int coords[DISTFFT_MAX_DIMS];
        for (int d = grid_ndims - 1, rest = rank; d >= 0; d--) { /* row-major */
            coords[d] = rest % grid_dims[d];
            rest /= grid_dims[d];
        }
        for (int a = 0; a < ndims; a++) {
            alignment.global_shape[a] = global_shape[a] < 0 ? 0 : global_shape[a];
            alignment.distributed_by[a] = distributed_by[a];
        }
        layout_block(&alignment, grid_dims, coords, shape, start);
    }
    distfft_layout *out = layout_out ? layout_out : &(distfft_layout){NULL};
    return number(comm, NULL, layout_value_build(comm, ndims, global_shape, start, shape, where, prior, &args, out),
                  out);
}

/* A plan's side: the caller's layout when it gave one, else the plan's blocks. */
static int plan_side(const struct distfft_plan_s *plan, int end, distfft_layout *layout, const char *where)
{
    error_clear();
    if (layout) *layout = NULL;
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: plan is NULL", where);
    if (!layout) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: layout (out-handle) is NULL", where);
    const struct distfft_layout_s *given = plan_end_layout(plan, end);
    if (given) return number(MPI_COMM_NULL, &plan->lifetime, layout_value_copy(given, layout), layout);
    const algebra_steps *a = &plan->algebra;
    int rc = layout_value_build(plan->comm, plan->request.ndims, end ? a->out_shape : a->in_shape,
                                end ? a->output_start : a->input_start, end ? a->output_local : a->input_local,
                                where, DISTFFT_SUCCESS, NULL, layout);
    return number(MPI_COMM_NULL, &plan->lifetime, rc, layout);
}

int distfft_plan_input_layout(const struct distfft_plan_s *plan, distfft_layout *layout)
{
    return plan_side(plan, PLAN_END_INPUT, layout, "distfft_plan_input_layout");
}

int distfft_plan_output_layout(const struct distfft_plan_s *plan, distfft_layout *layout)
{
    return plan_side(plan, PLAN_END_OUTPUT, layout, "distfft_plan_output_layout");
}

/* ---- queries (local) ------------------------------------------------------ */

int distfft_layout_ndims(const struct distfft_layout_s *layout)
{
    return layout ? layout->ndims : 0;
}

int distfft_layout_size(const struct distfft_layout_s *layout)
{
    return layout ? layout->size : 0;
}

int distfft_layout_rank(const struct distfft_layout_s *layout)
{
    return layout ? layout->rank : -1;
}

int distfft_layout_global_shape(const struct distfft_layout_s *layout, int64_t *global_shape)
{
    error_clear();
    if (!layout || !global_shape)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_layout_global_shape: layout or global_shape is NULL");
    memcpy(global_shape, layout->global_shape, layout->ndims * sizeof(int64_t));
    return DISTFFT_SUCCESS;
}

int distfft_layout_box(const struct distfft_layout_s *layout, int rank, int64_t *start, int64_t *shape)
{
    error_clear();
    if (!layout) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_layout_box: layout is NULL");
    if (rank < 0 || rank >= layout->size)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_layout_box: rank %d is not in 0..%d", rank,
                          layout->size - 1);
    if (start) memcpy(start, layout_start(layout, rank), layout->ndims * sizeof(int64_t));
    if (shape) memcpy(shape, layout_shape(layout, rank), layout->ndims * sizeof(int64_t));
    return DISTFFT_SUCCESS;
}

int64_t distfft_layout_count(const struct distfft_layout_s *layout, int rank)
{
    if (!layout || rank < 0 || rank >= layout->size) return -1;
    return layout_box_count(layout, rank);
}

int distfft_layout_equal(const struct distfft_layout_s *a, const struct distfft_layout_s *b)
{
    if (!a || !b) return 0;
    if (a == b) return 1;
    if (a->ndims != b->ndims || a->size != b->size || !layout_same_ranks(a, b)) return 0;
    if (memcmp(a->global_shape, b->global_shape, a->ndims * sizeof(int64_t))) return 0;
    return memcmp(a->boxes, b->boxes, (size_t)a->size * 2 * a->ndims * sizeof(int64_t)) == 0;
}

int distfft_layout_describe(const struct distfft_layout_s *layout, char *buf, size_t size)
{
    if (!layout) return -1;
    text out = text_on(buf, size);
    char shape[512];
    shape_format(layout->ndims, layout->global_shape, shape, sizeof shape);
    text_append(&out, "(layout %s ranks=%d", shape, layout->size);
    for (int r = 0; r < layout->size; r++) {
        const int64_t *s = layout_start(layout, r), *n = layout_shape(layout, r);
        text_append(&out, " [");
        for (int a = 0; a < layout->ndims; a++)
            text_append(&out, "%s%lld:%lld", a ? "," : "", (long long)s[a], (long long)(s[a] + n[a]));
        text_append(&out, "]");
    }
    text_append(&out, ")");
    return (int)out.used;
}

int distfft_layout_destroy(distfft_layout *layout)
{
    error_clear();
    if (!layout) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_layout_destroy: NULL");
    int rc = DISTFFT_SUCCESS;
    if (*layout) KEEP(lifetime_forget(&(*layout)->lifetime));
    KEEP(layout_value_free(*layout));
    *layout = NULL;
    return rc;
}

static int layout_free_opaque(void *layout)
{
    return layout_value_free(layout);
}

int distfft_layout_release(distfft_layout *layout)
{
    error_clear();
    if (!layout) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_layout_release: NULL");
    if (!*layout) return DISTFFT_SUCCESS;
    lifetime_tag tag = (*layout)->lifetime;
    int rc = lifetime_release(&tag, layout_free_opaque, *layout);
    if (lifetime_released(rc, &tag)) *layout = NULL;
    return rc;
}
