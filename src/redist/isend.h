/*
 * isend.h -- the engine behind OpenFFT's four non-blocking point-to-point
 * methods (paper 001, Sec. 3.2.1): isend-waitall, isend-waitsome and their
 * blocked variants. Each method is one file with one table row that fixes
 * the two parameters below; the exchange itself lives in isend.c.
 */
#ifndef DISTFFT_REDIST_ISEND_H
#define DISTFFT_REDIST_ISEND_H

#include "redist.h"

/* How a group's receives are completed: MPI_Waitall, then unpack every
 * chunk; or MPI_Waitsome, unpacking each chunk as soon as it has arrived
 * (overlapping the copies with the messages still in flight). */
typedef enum { ISEND_WAITALL, ISEND_WAITSOME } isend_wait;

/* Peers per group: ISEND_ALL_PEERS exchanges with every peer at once; the
 * blocked variants exchange with ISEND_BLOCK_SIZE peers at a time. OpenFFT
 * uses 32 for machines with thousands of ranks; 4 keeps the grouping (and
 * its limit on messages in flight) visible on the sub-communicators of a
 * pencil or slab decomposition, which are usually small. */
enum { ISEND_ALL_PEERS = 0, ISEND_BLOCK_SIZE = 4 };

/* The redist_method functions; create takes the method's parameters. */
int isend_create(const redist_geometry *g, const char *method,
                 isend_wait wait, int group, void **state);
int isend_execute(void *state, MPI_Comm comm, const void *in, void *out);
void isend_destroy(void *state);

#endif
