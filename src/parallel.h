/*
 * parallel.h -- OpenMP threads in distfft's own passes over memory
 * (pack/unpack, scaling, weights, copies), when a plan has options.threads
 * > 1, and in FFTW's threaded FFTs too: serial/ gives FFTW parallel_jobs
 * as its threads backend, so the two run on one pool. Two pools on the
 * same cores fight: after a pass, OpenMP's idle threads spin for a while
 * (libgomp's default wait policy), and an FFT started on FFTW's own
 * pthreads in that time shares the cores with them. The one thing to
 * know: a pass is split only when it is large enough to pay for waking a
 * thread team (PARALLEL_MIN_BYTES per thread), so small transforms stay
 * on one thread and threads = 1 runs exactly the serial code
 * (bit-identical results).
 */
#ifndef DISTFFT_PARALLEL_H
#define DISTFFT_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

/* Bytes a thread must have to do before a pass is split. */
#define PARALLEL_MIN_BYTES ((int64_t)32 * 1024)

/* Threads to use for a pass over `bytes` with up to `threads`: at least 1. */
int parallel_threads(int threads, int64_t bytes);

/* memcpy with up to `threads` threads. */
void parallel_copy(void *target, const void *source, size_t bytes, int threads);

/* Runs work(jobs + i * job_bytes) for i < count, one job per OpenMP thread
 * of a team of `count` (inside a parallel region, on the caller's thread
 * one after the other). The signature is FFTW's threads callback
 * (fftw_threads_set_callback): FFTW's jobs are independent. */
void parallel_jobs(void *(*work)(char *), char *jobs, size_t job_bytes, int count, void *unused);

#endif
