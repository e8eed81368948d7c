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
 * the plan is created. Steps are timed by CUDA events on the plan's
 * stream (the backend's marks).
 */
#define OMPI_SKIP_MPICXX 1 /* the core's headers name MPI's C types only */
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "cuda/cuda_backend.h"

const backend_services *cuda_services;

static struct {
    void *area;
    size_t bytes;
} work;

/* A failure here is answered by NULL, and cleared: cudaGetLastError is
 * asked after each synchronisation for failed launches (copies.cu). */
void *cuda_allocate(size_t bytes)
{
    void *pointer = NULL;
    if (cudaMalloc(&pointer, bytes) == cudaSuccess) return pointer;
    cudaGetLastError();
    return NULL;
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

/* A step's two CUDA events (the backend's marks). */
typedef struct {
    cudaEvent_t start, end;
} event_pair;

static void *marks_create(void)
{
    event_pair *pair = (event_pair *)calloc(1, sizeof *pair);
    if (!pair) return NULL;
    if (cudaEventCreate(&pair->start) == cudaSuccess) {
        if (cudaEventCreate(&pair->end) == cudaSuccess) return pair;
        cudaEventDestroy(pair->start);
    }
    cudaGetLastError(); /* answered by NULL: not a failed launch */
    free(pair);
    return NULL;
}

static void marks_mark(void *pair, bool end, void *stream)
{
    event_pair *p = (event_pair *)pair;
    if (cudaEventRecord(end ? p->end : p->start, (cudaStream_t)stream) != cudaSuccess)
        cudaGetLastError(); /* a lost mark reads as 0 s */
}

static double marks_seconds(void *pair)
{
    event_pair *p = (event_pair *)pair;
    float milliseconds = 0.0f;
    if (cudaEventSynchronize(p->end) != cudaSuccess ||
        cudaEventElapsedTime(&milliseconds, p->start, p->end) != cudaSuccess) {
        cudaGetLastError();
        return 0.0;
    }
    return 1e-3 * milliseconds;
}

static void marks_destroy(void *pair)
{
    event_pair *p = (event_pair *)pair;
    if (!p) return;
    cudaEventDestroy(p->start);
    cudaEventDestroy(p->end);
    free(p);
}

static const backend_marks cuda_marks = {marks_create, marks_mark, marks_seconds, marks_destroy};

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
                                     cufft_step_work_bytes, &cuda_marks};

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
