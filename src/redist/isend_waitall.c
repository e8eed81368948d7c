/*
 * isend_waitall.c -- OpenFFT's Isend_Waitall (paper 001, Sec. 3.2.1):
 * MPI_Irecv and MPI_Isend with every peer at once, one MPI_Waitall, then
 * every chunk unpacked. The engine is isend.c.
 */
#include "isend.h"

static int isend_waitall_create(MPI_Comm comm, const redist_geometry *g,
                                void **state)
{
    (void)comm;
    return isend_create(g, "isend-waitall", ISEND_WAITALL,
                        ISEND_ALL_PEERS, state);
}

const redist_method redist_isend_waitall = {
    .name = "isend-waitall",
    .create = isend_waitall_create,
    .execute = isend_execute,
    .destroy = isend_destroy,
};
