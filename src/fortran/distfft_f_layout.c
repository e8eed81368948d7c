/*
 * distfft_f_layout.c -- the C side of the Fortran module's layouts,
 * reshapes and plans in layouts (distfft_layout.inc): shapes and starts in
 * Fortran order reversed at the boundary (a Fortran a(n1, n2, n3) is the C
 * array [n3][n2][n1]), communicators as MPI_Fint, and a duplicate
 * communicator for the module's own agreements on array sizes. Plans in
 * layouts are made by distfft_f.c's distfft_f_plan_create_layouts.
 */
#include <string.h>

#include "../error.h"
#include "fortran_order.h"
#include "../layouts/layout_value.h"

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
    distfft_options options;
    distfft_options_init(&options);
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
