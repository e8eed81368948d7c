/*
 * ipc_puts.c -- the put schedule of cuda_ipc.c (see ipc_puts.h).
 */
#include "ipc_puts.h"

int64_t ipc_receive_offset(int parts, const int64_t *counts, int owner, int writer)
{
    int64_t offset = 0;
    for (int s = 0; s < writer; s++)
        if (s != owner) offset += counts[(int64_t)s * parts + owner];
    return offset;
}

int64_t ipc_receive_total(int parts, const int64_t *counts, int owner)
{
    return ipc_receive_offset(parts, counts, owner, parts);
}

int ipc_put_schedule(int parts, const int64_t *counts, int me, ipc_put *puts)
{
    int count = 0;
    int64_t source = 0;
    for (int peer = 0; peer < parts; peer++) {
        int64_t elements = peer == me ? 0 : counts[(int64_t)me * parts + peer];
        if (elements == 0) continue;
        puts[count++] = (ipc_put){.peer = peer, .source_offset = source,
                                  .target_offset = ipc_receive_offset(parts, counts, peer, me), .count = elements};
        source += elements;
    }
    return count;
}
