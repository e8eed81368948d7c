/*
 * device.c -- distfft-bench's device arrays (device.h): the CUDA runtime
 * in build-cuda/ (DISTFFT_BENCH_CUDA), nothing elsewhere.
 */
#include "device.h"

#include <stdio.h>

#ifdef DISTFFT_BENCH_CUDA
#include <cuda_runtime.h>

static int cuda_checked(cudaError_t status, const char *what)
{
    if (status == cudaSuccess) return 0;
    fprintf(stderr, "distfft-bench: %s: %s\n", what, cudaGetErrorString(status));
    return -1;
}

void *bench_device_alloc(size_t bytes)
{
    void *pointer = NULL;
    return cuda_checked(cudaMalloc(&pointer, bytes), "cudaMalloc") == 0 ? pointer : NULL;
}

void bench_device_free(void *pointer)
{
    if (pointer) cudaFree(pointer);
}

int bench_device_copy(void *target, const void *source, size_t bytes)
{
    return cuda_checked(cudaMemcpy(target, source, bytes, cudaMemcpyDefault), "cudaMemcpy");
}

int bench_device_synchronize(void)
{
    return cuda_checked(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

#else /* built without the CUDA backend: no device arrays */

static int no_device(void)
{
    fprintf(stderr, "distfft-bench: built without the CUDA backend: no device arrays\n");
    return -1;
}

void *bench_device_alloc(size_t bytes)
{
    (void)bytes;
    no_device();
    return NULL;
}

void bench_device_free(void *pointer) { (void)pointer; }

int bench_device_copy(void *target, const void *source, size_t bytes)
{
    (void)target;
    (void)source;
    (void)bytes;
    return no_device();
}

int bench_device_synchronize(void) { return no_device(); }

#endif
