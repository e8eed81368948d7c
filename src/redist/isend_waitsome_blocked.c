/*
 * isend_waitsome_blocked.c -- OpenFFT's Isend_Waitsome_Block (paper 001, Sec.
 * 3.2.1): isend-waitsome with ISEND_BLOCK_SIZE (4) peers at a time, group
 * after group, unpacking each chunk as it arrives. The engine is isend.c.
 */
#include "isend.h"

static int isend_waitsome_blocked_create(MPI_Comm comm, const redist_geometry *g,
                                         void **state)
{
    (void)comm;
    return isend_create(g, "isend-waitsome-blocked", ISEND_WAITSOME,
                        ISEND_BLOCK_SIZE, state);
}

const redist_method redist_isend_waitsome_blocked = {
    .name = "isend-waitsome-blocked",
    .create = isend_waitsome_blocked_create,
    .execute = isend_execute,
    .destroy = isend_destroy,
};
