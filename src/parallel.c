/*
 * parallel.c -- OpenMP helpers of distfft's own passes (see parallel.h).
 */
#include <string.h>

#include "parallel.h"

int parallel_threads(int threads, int64_t bytes)
{
    if (threads <= 1) return 1;
    int64_t useful = bytes / PARALLEL_MIN_BYTES;
    if (useful < 2) return 1;
    return useful < threads ? (int)useful : threads;
}

void parallel_copy(void *target, const void *source, size_t bytes, int threads)
{
    int team = parallel_threads(threads, (int64_t)bytes);
    if (team == 1) {
        memcpy(target, source, bytes);
        return;
    }
    /* One contiguous slice per thread, cut at multiples of 64 bytes. */
    size_t slice = ((bytes / (size_t)team) + 63) & ~(size_t)63;
#pragma omp parallel for num_threads(team) schedule(static)
    for (int t = 0; t < team; t++) {
        size_t begin = (size_t)t * slice;
        if (begin >= bytes) continue;
        size_t end = begin + slice < bytes ? begin + slice : bytes;
        memcpy((char *)target + begin, (const char *)source + begin, end - begin);
    }
}
