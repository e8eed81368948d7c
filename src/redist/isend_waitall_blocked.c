/*
 * isend_waitall_blocked.c -- OpenFFT's Isend_Waitall_Block (paper 001, Sec.
 * 3.2.1): isend-waitall with ISEND_BLOCK_SIZE (4) peers at a time, group
 * after group, to limit the messages in flight (network congestion at large
 * rank counts). The engine is isend.c.
 */
#include "isend.h"

static int isend_waitall_blocked_create(MPI_Comm comm, const redist_geometry *g,
                                        void **state)
{
    (void)comm;
    return isend_create(g, "isend-waitall-blocked", ISEND_WAITALL,
                        ISEND_BLOCK_SIZE, state);
}

const redist_method redist_isend_waitall_blocked = {
    .name = "isend-waitall-blocked",
    .create = isend_waitall_blocked_create,
    .execute = isend_execute,
    .destroy = isend_destroy,
};
