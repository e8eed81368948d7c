/*
 * ipc_puts.h -- the put schedule of an exchange whose ranks write their
 * chunks straight into each other's receive buffers (cuda_ipc.c): for
 * each peer, where this rank's chunk for it sits among its packed send
 * chunks, where it goes in the peer's receive buffer, and how many
 * elements.
 *
 * The one thing to know: a receive buffer holds the chunks of the other
 * ranks packed in rank order, its owner's own chunk left out -- the order
 * in which chunk_exchange_init lays out receive_offsets -- so a writer
 * finds its place in a peer's buffer from the counts alone: the sum of
 * what the ranks ahead of it send that peer. Pure arithmetic, no MPI and
 * no device: the same numbers on every rank from the same count matrix.
 */
#ifndef DISTFFT_REDIST_IPC_PUTS_H
#define DISTFFT_REDIST_IPC_PUTS_H

#include <stdint.h>

typedef struct {
    int peer;
    int64_t source_offset; /* elements: the chunk among this rank's packed send chunks */
    int64_t target_offset; /* elements: the chunk in the peer's receive buffer */
    int64_t count;         /* elements, > 0 */
} ipc_put;

/* counts[s * parts + t]: the elements rank s sends rank t; the diagonal
 * (a rank's own chunk, copied locally) is ignored. */

/* Where rank `owner` keeps the chunk of rank `writer` (!= owner) in its
 * receive buffer. */
int64_t ipc_receive_offset(int parts, const int64_t *counts, int owner, int writer);

/* Elements of rank owner's receive buffer: every chunk sent to it but its
 * own. */
int64_t ipc_receive_total(int parts, const int64_t *counts, int owner);

/* The puts of rank `me`, one per peer it sends a nonempty chunk, in rank
 * order, into puts[parts]; returns how many. Its own chunk is not one. */
int ipc_put_schedule(int parts, const int64_t *counts, int me, ipc_put *puts);

#endif
