/*
 * backend_cuda.cu -- the CUDA backend (backend.h), the whole of
 * libdistfft_cuda.so's face: device memory from cudaMalloc, local steps by
 * cuFFT (cufft_step.cu), the exchanges' copies and the runner's sweep as
 * kernels (copies.cu), and the memory kind REDIST_MEMORY_CUDA, which the
 * exchange rows' applicable() are asked about. libdistfft opens the
 * library with dlopen the first time a plan asks for device memory and
 * calls distfft_cuda_backend_open once; where no device can be used (no
 * driver, a driver older than this runtime, no device) it says why, and
 * the plan is refused on every rank. The device is the one current when
 * the plan is created.
 */
#define OMPI_SKIP_MPICXX 1 /* the core's headers name MPI's C types only */
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <stdio.h>

#include <cuda_runtime.h>

#include "cuda/cuda_backend.h"

const backend_services *cuda_services;

static struct {
    void *area;
    size_t bytes;
} work;

void *cuda_allocate(size_t bytes)
{
    void *pointer = NULL;
    return cudaMalloc(&pointer, bytes) == cudaSuccess ? pointer : NULL;
}

void cuda_release(void *pointer)
{
    if (pointer) cudaFree(pointer);
}

int cuda_work_area_reserve(size_t bytes)
{
    if (bytes <= work.bytes) return DISTFFT_SUCCESS;
    void *grown = cuda_allocate(bytes);
    if (!grown) return cuda_services->fail(DISTFFT_ERR_MEMORY, "cuFFT work area of %zu bytes on the device", bytes);
    cuda_release(work.area); /* cudaFree waits for the device: no step still runs on it */
    work.area = grown;
    work.bytes = bytes;
    return DISTFFT_SUCCESS;
}

void *cuda_work_area(void) { return work.area; }

static int cuda_local_step(const step_spec *spec, void *plan_in, void *plan_out, void *scratch, void *stream,
                           step **out)
{
    (void)plan_in; /* cuFFT plans from sizes alone */
    (void)plan_out;
    *out = NULL;
    if (spec->kind == STEP_FFT) return cufft_step_create(spec, scratch, stream, out);
    return cuda_services->fail(DISTFFT_ERR_UNSUPPORTED, "memory cuda: Chebyshev weights do not run on the "
                               "device (cheb axes take host memory)");
}

static const backend cuda_backend = {"cuda",          REDIST_MEMORY_CUDA, cuda_allocate, cuda_release,
                                     cuda_local_step, &cuda_copies,      cuda_scale,    cuda_holds,
                                     cufft_step_work_bytes};

extern "C" __attribute__((visibility("default"))) int distfft_cuda_backend_open(
    int interface, const backend_services *services, const backend **out, char *why, size_t why_size)
{
    *out = NULL;
    if (interface != BACKEND_INTERFACE) {
        snprintf(why, why_size, "%s was built for backend interface %d, libdistfft has %d: build them together",
                 BACKEND_CUDA_LIBRARY, BACKEND_INTERFACE, interface);
        return DISTFFT_ERR_UNSUPPORTED;
    }
    int devices = 0, runtime = 0, driver = 0;
    cudaError_t status = cudaGetDeviceCount(&devices);
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    if (status != cudaSuccess || devices == 0) {
        snprintf(why, why_size, "no usable CUDA device (%s: %s; CUDA runtime %d, driver %d)",
                 status != cudaSuccess ? cudaGetErrorName(status) : "cudaGetDeviceCount",
                 status != cudaSuccess ? cudaGetErrorString(status) : "no device", runtime, driver);
        return DISTFFT_ERR_UNSUPPORTED;
    }
    cuda_services = services;
    *out = &cuda_backend;
    return DISTFFT_SUCCESS;
}
