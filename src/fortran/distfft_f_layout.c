/*
 * distfft_f_layout.c -- the C side of the Fortran module's layouts,
 * reshapes, plans in layouts and the calls that take a layout (gather,
 * scatter, array files, halo; distfft_layout.inc): shapes and starts in
 * Fortran order reversed at the boundary (a Fortran a(n1, n2, n3) is the C
 * array [n3][n2][n1]), communicators as MPI_Fint, and a duplicate
 * communicator for the module's own agreements on array sizes. Plans in
 * layouts are made by distfft_f.c's distfft_f_plan_create_layouts.
 */
#include <string.h>

#include "../error.h"
#include "fortran_order.h"
#include "../halo/halo.h"
#include "../layouts/layout_value.h"
#include "../redist/reshape.h"
#include "../types.h"

/* Prototypes: the module's interface, not the C API. */
int distfft_f_layout_from_box(MPI_Fint comm, int ndims, const int64_t *global_shape, const int64_t *start,
                              const int64_t *shape, distfft_layout *layout);
int distfft_f_layout_box(const struct distfft_layout_s *layout, int rank, int64_t *start, int64_t *shape);
int distfft_f_layout_from_grid(MPI_Fint comm, int ndims, const int64_t *global_shape, int grid_ndims,
                               const int *grid_dims, const int *distributed_by, distfft_layout *layout);
int distfft_f_reshape_create(const struct distfft_layout_s *in, const struct distfft_layout_s *out, int type,
                             int64_t batch, int method, distfft_reshape *reshape, MPI_Fint *reshape_comm,
                             int64_t *in_count, int64_t *out_count);
int distfft_f_comm_free(MPI_Fint *comm);
int distfft_f_layout_agree(const struct distfft_layout_s *layout, int local_code);
int64_t distfft_f_layout_counts(const struct distfft_layout_s *layout, int64_t *global_count);
int distfft_f_layout_halo_create(const struct distfft_layout_s *layout, int type, const int64_t *widths_low,
                                 const int64_t *widths_high, const int *periodic, int64_t batch, int variant,
                                 distfft_halo *halo, MPI_Fint *halo_comm, int64_t *padded_count);
int distfft_f_halo_padded_block(const struct distfft_halo_s *halo, int ndims, int64_t *padded_shape,
                                int64_t *padded_start);
int distfft_f_reshape_release(distfft_reshape *reshape, MPI_Fint *reshape_comm);
int distfft_f_halo_release(distfft_halo *halo, MPI_Fint *halo_comm);


int distfft_f_layout_from_box(MPI_Fint comm, int ndims, const int64_t *global_shape, const int64_t *start,
                              const int64_t *shape, distfft_layout *layout)
{
    int64_t g[DISTFFT_MAX_DIMS], s[DISTFFT_MAX_DIMS], n[DISTFFT_MAX_DIMS];
    int valid = ndims >= 1 && ndims <= DISTFFT_MAX_DIMS && global_shape && start && shape;
    if (valid) {
        fortran_reverse(ndims, global_shape, g);
        fortran_reverse(ndims, start, s);
        fortran_reverse(ndims, shape, n);
    }
    return distfft_layout_from_box(MPI_Comm_f2c(comm), ndims, valid ? g : NULL, valid ? s : NULL,
                                   valid ? n : NULL, layout);
}

/* Shape and distributed_by in Fortran order (distributed_by: 0-based grid
 * directions, -1 for a complete axis); grid_dims as they are. */
int distfft_f_layout_from_grid(MPI_Fint comm, int ndims, const int64_t *global_shape, int grid_ndims,
                               const int *grid_dims, const int *distributed_by, distfft_layout *layout)
{
    int64_t g[DISTFFT_MAX_DIMS];
    int by[DISTFFT_MAX_DIMS];
    int valid = ndims >= 1 && ndims <= DISTFFT_MAX_DIMS && global_shape && distributed_by;
    if (valid) {
        fortran_reverse(ndims, global_shape, g);
        for (int i = 0; i < ndims; i++) by[i] = distributed_by[ndims - 1 - i];
    }
    return distfft_layout_from_grid(MPI_Comm_f2c(comm), ndims, valid ? g : NULL, grid_ndims, grid_dims,
                                    valid ? by : NULL, layout);
}

/* Rank `rank`'s box (0-based rank), Fortran order. Local. */
int distfft_f_layout_box(const struct distfft_layout_s *layout, int rank, int64_t *start, int64_t *shape)
{
    int64_t s[DISTFFT_MAX_DIMS], n[DISTFFT_MAX_DIMS];
    int rc = distfft_layout_box(layout, rank, s, n);
    if (rc != DISTFFT_SUCCESS) return rc;
    fortran_reverse(layout->ndims, s, start);
    fortran_reverse(layout->ndims, n, shape);
    return DISTFFT_SUCCESS;
}


int distfft_f_reshape_create(const struct distfft_layout_s *in, const struct distfft_layout_s *out, int type,
                             int64_t batch, int method, distfft_reshape *reshape, MPI_Fint *reshape_comm,
                             int64_t *in_count, int64_t *out_count)
{
    *reshape = NULL;
    *reshape_comm = MPI_Comm_c2f(MPI_COMM_NULL);
    if (!in || !out) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_reshape_create: a layout was not created");
    distfft_reshape_options options;
    distfft_reshape_options_init(&options);
    options.method = (distfft_method)method;
    int rc = fortran_duplicate(in->comm, reshape_comm);
    if (rc == DISTFFT_SUCCESS)
        rc = distfft_reshape_create(in, out, (distfft_type)type, batch, &options, reshape);
    if (rc != DISTFFT_SUCCESS) {
        distfft_f_comm_free(reshape_comm);
        return rc;
    }
    *in_count = batch * distfft_layout_count(in, in->rank);
    *out_count = batch * distfft_layout_count(out, out->rank);
    return DISTFFT_SUCCESS;
}

/* The module's agreement on its own checks (array kinds and sizes) over
 * the layout's communicator; without a layout, this rank's error alone. */
int distfft_f_layout_agree(const struct distfft_layout_s *layout, int local_code)
{
    if (!layout)
        return local_code != DISTFFT_SUCCESS ? local_code
                                             : error_fail(DISTFFT_ERR_ARGUMENT, "the layout was not created");
    return error_agree(layout->comm, local_code);
}

/* This rank's box's element count (-1 without a layout) and the global
 * array's. Local. */
int64_t distfft_f_layout_counts(const struct distfft_layout_s *layout, int64_t *global_count)
{
    *global_count = layout ? shape_product(layout->ndims, layout->global_shape) : -1;
    return layout ? distfft_layout_count(layout, layout->rank) : -1;
}

/* distfft_layout_halo_create with widths and periodic in Fortran order
 * (widths_high, periodic may be NULL), the module's duplicate of the
 * layout's communicator for its agreements, and the padded block's
 * element count (batch included). */
int distfft_f_layout_halo_create(const struct distfft_layout_s *layout, int type, const int64_t *widths_low,
                                 const int64_t *widths_high, const int *periodic, int64_t batch, int variant,
                                 distfft_halo *halo, MPI_Fint *halo_comm, int64_t *padded_count)
{
    *halo = NULL;
    *halo_comm = MPI_Comm_c2f(MPI_COMM_NULL);
    *padded_count = 0;
    if (!layout) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_layout_halo_create: the layout was not created");
    int nd = layout->ndims, wrap[DISTFFT_MAX_DIMS];
    int64_t low[DISTFFT_MAX_DIMS], high[DISTFFT_MAX_DIMS];
    if (widths_low) fortran_reverse(nd, widths_low, low);
    if (widths_high) fortran_reverse(nd, widths_high, high);
    for (int i = 0; periodic && i < nd; i++) wrap[i] = periodic[nd - 1 - i];
    int rc = fortran_duplicate(layout->comm, halo_comm);
    if (rc == DISTFFT_SUCCESS)
        rc = distfft_layout_halo_create(layout, (distfft_type)type, widths_low ? low : NULL,
                                        widths_high ? high : NULL, periodic ? wrap : NULL, batch,
                                        (distfft_halo_variant)variant, halo);
    if (rc != DISTFFT_SUCCESS) {
        distfft_f_comm_free(halo_comm);
        return rc;
    }
    *padded_count = distfft_halo_padded_block(*halo, NULL, NULL);
    return DISTFFT_SUCCESS;
}

/* The padded block in Fortran order (ndims axes). Local. */
int distfft_f_halo_padded_block(const struct distfft_halo_s *halo, int ndims, int64_t *padded_shape,
                                int64_t *padded_start)
{
    int64_t shape[DISTFFT_MAX_DIMS], start[DISTFFT_MAX_DIMS];
    if (!halo) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_halo_padded_block: the halo was not created");
    distfft_halo_padded_block(halo, shape, start);
    fortran_reverse(ndims, shape, padded_shape);
    fortran_reverse(ndims, start, padded_start);
    return DISTFFT_SUCCESS;
}

/* distfft_reshape_release and distfft_halo_release, parking the module's
 * duplicate communicator (*comm) on the object's record: a destroy frees
 * it collectively, a release must not. */
int distfft_f_reshape_release(distfft_reshape *reshape, MPI_Fint *reshape_comm)
{
    error_clear();
    MPI_Comm comm = MPI_Comm_f2c(*reshape_comm);
    int rc = reshape_release(reshape, &comm);
    *reshape_comm = MPI_Comm_c2f(comm);
    return rc;
}

int distfft_f_halo_release(distfft_halo *halo, MPI_Fint *halo_comm)
{
    error_clear();
    MPI_Comm comm = MPI_Comm_f2c(*halo_comm);
    int rc = halo_release(halo, &comm);
    *halo_comm = MPI_Comm_c2f(comm);
    return rc;
}
