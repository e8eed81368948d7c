/*
 * distfft_f.c -- the C side of the Fortran module (src/fortran/distfft.f90).
 *
 * Fortran passes communicators as MPI_Fint handles and lays arrays out in
 * column-major order: a Fortran array a(n1, n2, n3) is the C array
 * [n3][n2][n1]. These small functions convert both at the boundary, so the
 * module's shapes, starts, kinds and axes are in Fortran order (axis 1 is
 * the fastest varying, C's last), and the module itself only declares
 * interfaces. They need nothing but mpi.h (and, for the release calls, the
 * library's own headers), so they are always part of the library (the
 * module is built only where a Fortran compiler is found).
 *
 * Also here: the options layout as C sees it (the module compares it with
 * its bind(C) mirror of distfft_options), and the agreement the module's
 * own argument checks go through (error.c's).
 */
#include <stddef.h>
#include <string.h>

#include "error.h"
#include "fortran_order.h"
#include "plan/plan.h"
#include "redist/redist.h"

/* Prototypes: these are the module's interface, not the C API. */
int distfft_f_options_layout(int64_t *layout, int size);
int distfft_f_fail(int code, const char *message);
int distfft_f_agree(MPI_Fint comm, int local_code);
int distfft_f_check_buffer(int local_code, const char *where, const char *name, int type, int64_t count,
                           int want_type, int64_t want_count);
int distfft_f_plan_create(MPI_Fint comm, int ndims, const int64_t *shape, int precision,
                          const distfft_options *options, distfft_plan *plan, MPI_Fint *plan_comm);
int distfft_f_plan_create_layouts(MPI_Fint comm, int ndims, const int64_t *shape, int precision,
                                  const distfft_options *options, const struct distfft_layout_s *layout_in,
                                  const struct distfft_layout_s *layout_out, distfft_plan *plan,
                                  MPI_Fint *plan_comm);
int distfft_f_plan_block(const struct distfft_plan_s *plan, int output, int64_t *local_shape,
                         int64_t *global_start);
int distfft_f_plan_output_shape(const struct distfft_plan_s *plan, int64_t *global_shape);
int distfft_f_redist_create(MPI_Fint subcomm, int type, int ndims, const int64_t *in_shape, int axis_in,
                            const int64_t *out_shape, int axis_out, int64_t batch, int method,
                            distfft_redist *redist, MPI_Fint *redist_comm);
int distfft_f_comm_free(MPI_Fint *comm);
int distfft_f_plan_release(distfft_plan *plan, MPI_Fint *plan_comm);
int distfft_f_redist_release(distfft_redist *redist, MPI_Fint *redist_comm);
int distfft_f_collect(MPI_Fint comm);
int distfft_f_array_file_info(MPI_Fint comm, const char *path, int *type, int *naxes, int64_t *shape);
size_t distfft_f_strlen(const char *text);

/* sizeof(distfft_options), then the offset of each field in declaration
 * order; returns the number of values written (at most size). */
int distfft_f_options_layout(int64_t *layout, int size)
{
    const int64_t values[] = {
        sizeof(distfft_options),
        offsetof(distfft_options, grid_ndims), offsetof(distfft_options, grid_dims),
        offsetof(distfft_options, method), offsetof(distfft_options, norm),
        offsetof(distfft_options, rigor), offsetof(distfft_options, destroy_input),
        offsetof(distfft_options, kinds), offsetof(distfft_options, batch),
        offsetof(distfft_options, placement), offsetof(distfft_options, node_size),
        offsetof(distfft_options, verbose),
        offsetof(distfft_options, threads), offsetof(distfft_options, overlap),
        offsetof(distfft_options, padding), offsetof(distfft_options, complex_data),
        offsetof(distfft_options, in_place), offsetof(distfft_options, tune_budget),
        offsetof(distfft_options, memory), offsetof(distfft_options, stream)};
    int count = (int)(sizeof values / sizeof values[0]);
    if (count > size) count = size;
    memcpy(layout, values, (size_t)count * sizeof *layout);
    return count;
}

size_t distfft_f_strlen(const char *text) { return text ? strlen(text) : 0; }

int distfft_f_fail(int code, const char *message) { return error_fail(code, "%s", message); }

int distfft_f_agree(MPI_Fint comm, int local_code)
{
    return error_agree(MPI_Comm_f2c(comm), local_code);
}

/* One array the module was handed: its element type and size against what
 * the call needs. Keeps an earlier failure. Local. */
int distfft_f_check_buffer(int local_code, const char *where, const char *name, int type, int64_t count,
                           int want_type, int64_t want_count)
{
    if (local_code != DISTFFT_SUCCESS) return local_code;
    if (type != want_type)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: %s is an array of %s, the call needs %s", where, name,
                          distfft_type_name((distfft_type)type), distfft_type_name((distfft_type)want_type));
    if (count != want_count)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: %s has %lld elements, the call needs %lld (this rank's block)",
                          where, name, (long long)count, (long long)want_count);
    return DISTFFT_SUCCESS;
}



int distfft_f_comm_free(MPI_Fint *handle)
{
    MPI_Comm comm = MPI_Comm_f2c(*handle);
    int rc = comm != MPI_COMM_NULL ? CHECK_MPI(MPI_Comm_free(&comm)) : DISTFFT_SUCCESS;
    *handle = MPI_Comm_c2f(MPI_COMM_NULL);
    return rc;
}

/* Release calls: the module's duplicate (plan%comm, redist%comm) is
 * parked with the object's own communicators -- MPI_Comm_free is
 * collective, a release is not -- and freed by the same distfft_collect.
 * Local. Where nothing was freed (DISTFFT_ERR_MEMORY) both stay. */
int distfft_f_plan_release(distfft_plan *plan, MPI_Fint *plan_comm)
{
    error_clear();
    MPI_Comm comm = MPI_Comm_f2c(*plan_comm);
    int rc = plan_release(plan, &comm);
    *plan_comm = MPI_Comm_c2f(comm);
    return rc;
}

int distfft_f_redist_release(distfft_redist *redist, MPI_Fint *redist_comm)
{
    error_clear();
    MPI_Comm comm = MPI_Comm_f2c(*redist_comm);
    int rc = redist_release(redist, &comm);
    *redist_comm = MPI_Comm_c2f(comm);
    return rc;
}

int distfft_f_collect(MPI_Fint comm)
{
    return distfft_collect(MPI_Comm_f2c(comm));
}

/* Shape, options.kinds and options.padding in Fortran order; options may
 * be NULL. layout_in / layout_out (may be NULL) as distfft_plan_create_layouts. */
int distfft_f_plan_create_layouts(MPI_Fint comm, int ndims, const int64_t *shape, int precision,
                                  const distfft_options *options, const struct distfft_layout_s *layout_in,
                                  const struct distfft_layout_s *layout_out, distfft_plan *plan,
                                  MPI_Fint *plan_comm)
{
    int64_t c_shape[DISTFFT_MAX_DIMS];
    distfft_options c_options;
    *plan = NULL;
    *plan_comm = MPI_Comm_c2f(MPI_COMM_NULL);
    if (ndims >= 1 && ndims <= DISTFFT_MAX_DIMS && shape) fortran_reverse(ndims, shape, c_shape);
    if (options) c_options = *options;
    if (options && ndims >= 1 && ndims <= DISTFFT_MAX_DIMS)
        for (int i = 0; i < ndims; i++) {
            c_options.kinds[i] = options->kinds[ndims - 1 - i];
            c_options.padding[i] = options->padding[ndims - 1 - i];
        }
    MPI_Comm c_comm = MPI_Comm_f2c(comm);
    int rc = fortran_duplicate(c_comm, plan_comm);
    if (rc == DISTFFT_SUCCESS && !layout_in && !layout_out)
        rc = distfft_plan_create(c_comm, ndims, shape ? c_shape : NULL, (distfft_precision)precision,
                                 options ? &c_options : NULL, plan);
    else if (rc == DISTFFT_SUCCESS)
        rc = distfft_plan_create_layouts(c_comm, ndims, shape ? c_shape : NULL, (distfft_precision)precision,
                                         options ? &c_options : NULL, layout_in, layout_out, plan);
    if (rc != DISTFFT_SUCCESS) distfft_f_comm_free(plan_comm);
    return rc;
}

int distfft_f_plan_create(MPI_Fint comm, int ndims, const int64_t *shape, int precision,
                          const distfft_options *options, distfft_plan *plan, MPI_Fint *plan_comm)
{
    return distfft_f_plan_create_layouts(comm, ndims, shape, precision, options, NULL, NULL, plan, plan_comm);
}

/* The input (output = 0) or output block, in Fortran order. Local. */
int distfft_f_plan_block(const struct distfft_plan_s *plan, int output, int64_t *local_shape,
                         int64_t *global_start)
{
    int64_t shape[DISTFFT_MAX_DIMS], start[DISTFFT_MAX_DIMS];
    int rc = output ? distfft_plan_output_block(plan, shape, start) : distfft_plan_input_block(plan, shape, start);
    if (rc != DISTFFT_SUCCESS) return rc;
    int ndims = distfft_plan_ndims(plan);
    fortran_reverse(ndims, shape, local_shape);
    fortran_reverse(ndims, start, global_start);
    return DISTFFT_SUCCESS;
}

/* The global output shape, in Fortran order. Local. */
int distfft_f_plan_output_shape(const struct distfft_plan_s *plan, int64_t *global_shape)
{
    int64_t shape[DISTFFT_MAX_DIMS];
    int rc = distfft_plan_output_shape(plan, shape);
    if (rc == DISTFFT_SUCCESS) fortran_reverse(distfft_plan_ndims(plan), shape, global_shape);
    return rc;
}

/* Shapes in Fortran order; axes 1-based Fortran axes. */
int distfft_f_redist_create(MPI_Fint subcomm, int type, int ndims, const int64_t *in_shape, int axis_in,
                            const int64_t *out_shape, int axis_out, int64_t batch, int method,
                            distfft_redist *redist, MPI_Fint *redist_comm)
{
    int64_t c_in[DISTFFT_MAX_DIMS], c_out[DISTFFT_MAX_DIMS];
    int valid = ndims >= 1 && ndims <= DISTFFT_MAX_DIMS && in_shape && out_shape;
    *redist = NULL;
    *redist_comm = MPI_Comm_c2f(MPI_COMM_NULL);
    if (valid) {
        fortran_reverse(ndims, in_shape, c_in);
        fortran_reverse(ndims, out_shape, c_out);
    }
    MPI_Comm c_comm = MPI_Comm_f2c(subcomm);
    int rc = fortran_duplicate(c_comm, redist_comm);
    if (rc == DISTFFT_SUCCESS)
        rc = distfft_redist_create(c_comm, (distfft_type)type, ndims, valid ? c_in : NULL, ndims - axis_in,
                                   valid ? c_out : NULL, ndims - axis_out, batch, (distfft_method)method, redist);
    if (rc != DISTFFT_SUCCESS) distfft_f_comm_free(redist_comm);
    return rc;
}

/* distfft_array_file_info with the shape in Fortran order (a batch last). */
int distfft_f_array_file_info(MPI_Fint comm, const char *path, int *type, int *naxes, int64_t *shape)
{
    int64_t c_shape[DISTFFT_MAX_DIMS + 1];
    distfft_type c_type;
    int rc = distfft_array_file_info(MPI_Comm_f2c(comm), path, &c_type, naxes, c_shape);
    if (rc != DISTFFT_SUCCESS) return rc;
    *type = (int)c_type;
    for (int i = 0; i < *naxes; i++) shape[i] = c_shape[*naxes - 1 - i];
    return rc;
}
