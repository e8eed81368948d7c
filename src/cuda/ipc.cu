/*
 * ipc.cu -- the CUDA backend's interprocess memory (redist/copies.h,
 * redist_ipc), for the cuda-ipc exchange (redist/cuda_ipc.c): a
 * cudaMalloc'd buffer exported as a cudaIpcMemHandle_t, opened by the
 * other processes of the node (several on one device included), closed
 * before its owner frees it, and a wait for a stream's work. The one
 * thing to know: cudaIpcOpenMemHandle refuses a handle of the calling
 * process itself, so an exchange never opens its own buffer.
 */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <string.h>

#include <cuda_runtime.h>

#include "cuda/cuda_backend.h"

static_assert(sizeof(cudaIpcMemHandle_t) == REDIST_IPC_HANDLE_BYTES, "REDIST_IPC_HANDLE_BYTES is a CUDA IPC handle");

/* The error of `status` (not cudaSuccess), naming what failed. */
static int failed(cudaError_t status, const char *what)
{
    cudaGetLastError(); /* not left for the next call to find */
    return cuda_services->fail(DISTFFT_ERR_UNSUPPORTED, "memory cuda: %s failed (%s: %s)", what,
                               cudaGetErrorName(status), cudaGetErrorString(status));
}

static int cuda_export_buffer(void *buffer, unsigned char *handle)
{
    cudaIpcMemHandle_t exported;
    cudaError_t status = cudaIpcGetMemHandle(&exported, buffer);
    if (status != cudaSuccess) return failed(status, "cudaIpcGetMemHandle of a receive buffer");
    memcpy(handle, &exported, sizeof exported);
    return DISTFFT_SUCCESS;
}

static int cuda_open(const unsigned char *handle, void **buffer)
{
    cudaIpcMemHandle_t exported;
    memcpy(&exported, handle, sizeof exported);
    *buffer = NULL;
    cudaError_t status = cudaIpcOpenMemHandle(buffer, exported, cudaIpcMemLazyEnablePeerAccess);
    if (status == cudaSuccess) return DISTFFT_SUCCESS;
    *buffer = NULL;
    return failed(status, "cudaIpcOpenMemHandle of a peer's receive buffer");
}

static int cuda_close(void *buffer)
{
    cudaError_t status = cudaIpcCloseMemHandle(buffer);
    return status == cudaSuccess ? DISTFFT_SUCCESS : failed(status, "cudaIpcCloseMemHandle");
}

static int cuda_wait(void *stream)
{
    cudaError_t status = cudaStreamSynchronize((cudaStream_t)stream);
    if (status == cudaSuccess) status = cudaGetLastError(); /* a failed launch of the puts before it */
    return status == cudaSuccess ? DISTFFT_SUCCESS : failed(status, "cudaStreamSynchronize before a barrier");
}

const redist_ipc cuda_ipc = {cuda_export_buffer, cuda_open, cuda_close, cuda_wait};
