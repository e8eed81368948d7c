/*
 * fortran_order.h -- what every C shim of the Fortran module needs: shapes
 * reversed between Fortran order and C order (a Fortran a(n1, n2, n3) is
 * the C array [n3][n2][n1]), and a duplicate communicator, as a Fortran
 * handle, for the module's own agreements.
 */
#ifndef DISTFFT_FORTRAN_ORDER_H
#define DISTFFT_FORTRAN_ORDER_H

#include <stdint.h>

#include "../error.h"

static inline void fortran_reverse(int ndims, const int64_t *from, int64_t *to)
{
    for (int i = 0; i < ndims; i++) to[i] = from[ndims - 1 - i];
}

/* A duplicate of comm as a Fortran handle, or an MPI error. */
static inline int fortran_duplicate(MPI_Comm comm, MPI_Fint *handle)
{
    MPI_Comm copy;
    int mpi_code = MPI_Comm_dup(comm, &copy);
    if (mpi_code != MPI_SUCCESS) return error_mpi(mpi_code, "MPI_Comm_dup");
    *handle = MPI_Comm_c2f(copy);
    return DISTFFT_SUCCESS;
}

#endif
