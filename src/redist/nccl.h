/*
 * nccl.h -- the message schedule of the nccl exchange (nccl.c): which
 * peers, which regions of the packed buffers, in which order inside the
 * one NCCL group. Pure arithmetic on the chunk tables (chunks.h), so
 * tests/unit/test_nccl_schedule.c checks it without a device or NCCL.
 */
#ifndef DISTFFT_REDIST_NCCL_H
#define DISTFFT_REDIST_NCCL_H

#include <stddef.h>
#include <stdint.h>

#include "copies.h"

/* The messages of rank `part` of `parts` into messages[] (room for
 * 2 * (parts - 1)): for each offset k = 1 .. parts - 1, the receive from
 * rank (part - k) mod parts, then the send to rank (part + k) mod parts,
 * the order the point-to-point methods post theirs (chunk_post). Counts
 * and offsets are in elements of `element` bytes, per peer; a peer whose
 * count is 0 gets no message, and this rank's own chunk none at all (it
 * is copied locally). Returns the number of messages. Pure. */
int nccl_schedule(int parts, int part, const int64_t *send_counts, const int64_t *send_offsets,
                  const int64_t *receive_counts, const int64_t *receive_offsets, size_t element,
                  redist_message *messages);

#endif
