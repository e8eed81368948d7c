/*
 * parallel.h -- OpenMP threads in distfft's own passes over memory
 * (pack/unpack, scaling, weights, copies), when a plan has options.threads
 * > 1. FFTW's threads do the FFTs (serial/); these do everything else
 * between them. The one thing to know: a pass is split only when it is
 * large enough to pay for waking a thread team (PARALLEL_MIN_BYTES per
 * thread), so small transforms stay on one thread and threads = 1 runs
 * exactly the serial code (bit-identical results).
 */
#ifndef DISTFFT_PARALLEL_H
#define DISTFFT_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

/* Bytes a thread must have to do before a pass is split. */
#define PARALLEL_MIN_BYTES ((int64_t)32 * 1024)

/* Threads to use for a pass over `bytes` with up to `threads`: at least 1. */
int parallel_threads(int threads, int64_t bytes);

#endif
