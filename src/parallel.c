/*
 * parallel.c -- OpenMP helpers of distfft's own passes (see parallel.h).
 */
#include "parallel.h"

int parallel_threads(int threads, int64_t bytes)
{
    if (threads <= 1) return 1;
    int64_t useful = bytes / PARALLEL_MIN_BYTES;
    if (useful < 2) return 1;
    return useful < threads ? (int)useful : threads;
}
