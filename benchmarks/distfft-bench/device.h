/*
 * device.h -- distfft-bench's arrays in device memory (--memory cuda): a
 * device plan takes device arrays, so the bench keeps its host arrays for
 * filling and checking and hands the plan device copies of them.
 *
 * Only a build with the CUDA backend (build-cuda/, DISTFFT_BENCH_CUDA)
 * links the CUDA runtime; elsewhere every call fails, and a device plan is
 * refused at create before any of them is reached.
 */
#ifndef BENCH_DEVICE_H
#define BENCH_DEVICE_H

#include <stddef.h>

/* Device memory of `bytes` (> 0), or NULL. Local. */
void *bench_device_alloc(size_t bytes);
/* Give it back; NULL is ignored. Local. */
void bench_device_free(void *pointer);
/* Copy `bytes` between host and device memory, either way (the CUDA
 * runtime tells them apart). 0, or -1 with a message on stderr. Local. */
int bench_device_copy(void *target, const void *source, size_t bytes);
/* Wait until the device has finished all work queued so far: a device
 * plan without exchanges returns before its work is done. 0, or -1 with a
 * message on stderr. Local. */
int bench_device_synchronize(void);

#endif /* BENCH_DEVICE_H */
