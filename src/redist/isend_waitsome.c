/*
 * isend_waitsome.c -- OpenFFT's Isend_Waitsome (paper 001, Sec. 3.2.1):
 * MPI_Irecv and MPI_Isend with every peer at once, then MPI_Waitsome,
 * unpacking each chunk as soon as it has arrived so that the copies overlap
 * the messages still in flight. The engine is isend.c.
 */
#include "isend.h"

static int isend_waitsome_create(MPI_Comm comm, const redist_geometry *g,
                                 void **state)
{
    (void)comm;
    return isend_create(g, "isend-waitsome", ISEND_WAITSOME,
                        ISEND_ALL_PEERS, state);
}

const redist_method redist_isend_waitsome = {
    .name = "isend-waitsome",
    .create = isend_waitsome_create,
    .execute = isend_execute,
    .destroy = isend_destroy,
};
