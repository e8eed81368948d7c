/*
 * copies.cu -- the CUDA backend's exchange copies (redist/copies.h) and
 * the runner's sweep: the same descriptors the host's loops run (two
 * spans, or a box walk, from the chunk tables chunks.c computes on the
 * host), as one kernel launch per copy, one thread per real, ordered on
 * the exchange's stream; device buffers from cudaMalloc, pinned host
 * buffers (cudaMallocHost) for staged MPI, and the staging copies, which
 * wait for their stream before they return so that MPI may read or
 * write the host side at once.
 */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cuda_runtime.h>

#include "cuda/cuda_backend.h"

static const int THREADS = 256;
static const int64_t MOST_BLOCKS = 1 << 20;

/* Where element i of a copy sits in the source (from) or the target. */
__device__ static int64_t place(const redist_copy &c, int64_t i, bool from)
{
    if (!c.box) {
        const chunk_span &span = from ? c.from : c.to;
        return span.offset + (i / span.run) * span.stride + i % span.run;
    }
    int64_t row = i / c.run, at = (from ? c.from_at : c.to_at) + i % c.run;
    for (int a = c.axes - 1; a >= 0; a--) { /* the odometer's digits, innermost first */
        at += (row % c.extent[a]) * (from ? c.from_stride[a] : c.to_stride[a]);
        row /= c.extent[a];
    }
    return at;
}

template <typename Real>
__global__ static void copy_kernel(redist_copy c, const Real *source, Real *target, int64_t reals, int parts,
                                   Real factor)
{
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < reals;
         r += (int64_t)gridDim.x * blockDim.x) {
        int64_t element = r / parts, part = r % parts;
        target[place(c, element, false) * parts + part] = source[place(c, element, true) * parts + part] * factor;
    }
}

template <typename Real>
__global__ static void scale_kernel(Real *data, int64_t reals, Real factor)
{
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < reals;
         r += (int64_t)gridDim.x * blockDim.x)
        data[r] *= factor;
}

static unsigned blocks_for(int64_t reals)
{
    int64_t blocks = (reals + THREADS - 1) / THREADS;
    return (unsigned)(blocks < MOST_BLOCKS ? blocks : MOST_BLOCKS);
}

/* A copy cannot fail once its buffers exist. A launch that fails anyway
 * (no kernel image for the device, say) is not seen by a later
 * synchronisation, only by cudaGetLastError of this library's runtime:
 * the staging copies and the cuda-ipc wait ask it. */
static void cuda_copy(const redist_copy *copy, const void *source, void *target, void *stream)
{
    int64_t elements = copy->box ? copy->rows * copy->run : chunk_elements(&copy->from);
    if (elements == 0) return;
    size_t real = copy->single ? sizeof(float) : sizeof(double);
    int parts = (int)(copy->element / real);
    int64_t reals = elements * parts;
    cudaStream_t on = (cudaStream_t)stream;
    if (copy->single)
        copy_kernel<float><<<blocks_for(reals), THREADS, 0, on>>>(*copy, (const float *)source, (float *)target,
                                                                  reals, parts, (float)copy->scale);
    else
        copy_kernel<double><<<blocks_for(reals), THREADS, 0, on>>>(*copy, (const double *)source,
                                                                   (double *)target, reals, parts, copy->scale);
}

static void cuda_move(void *target, const void *source, size_t bytes, void *stream)
{
    cudaMemcpyAsync(target, source, bytes, cudaMemcpyDeviceToDevice, (cudaStream_t)stream);
}

static void *cuda_allocate_host(size_t bytes)
{
    void *pointer = NULL;
    if (cudaMallocHost(&pointer, bytes) == cudaSuccess) return pointer;
    cudaGetLastError(); /* answered by NULL: not a failed launch */
    return NULL;
}

static void cuda_release_host(void *pointer)
{
    if (pointer) cudaFreeHost(pointer);
}

static int cuda_stage(void *target, const void *source, size_t bytes, bool to_host, void *stream)
{
    cudaStream_t on = (cudaStream_t)stream;
    cudaError_t status = cudaMemcpyAsync(target, source, bytes, to_host ? cudaMemcpyDeviceToHost
                                                                         : cudaMemcpyHostToDevice, on);
    if (status == cudaSuccess) status = cudaStreamSynchronize(on);
    if (status == cudaSuccess) status = cudaGetLastError(); /* a failed launch of the packing before it */
    if (status == cudaSuccess) return DISTFFT_SUCCESS;
    cudaGetLastError(); /* reported here, not again by the next staging */
    return cuda_services->fail(DISTFFT_ERR_UNSUPPORTED, "memory cuda: staging %zu bytes %s the host failed (%s: %s)",
                               bytes, to_host ? "to" : "from", cudaGetErrorName(status),
                               cudaGetErrorString(status));
}

const redist_copies cuda_copies = {"cuda", cuda_allocate, cuda_release, cuda_copy, cuda_move,
                                   cuda_allocate_host, cuda_release_host, cuda_stage, &cuda_nccl, &cuda_ipc};

void cuda_scale(distfft_precision precision, void *data, int64_t count, double factor, int threads, void *stream)
{
    (void)threads;
    if (count == 0) return;
    cudaStream_t on = (cudaStream_t)stream;
    if (precision == DISTFFT_FLOAT)
        scale_kernel<float><<<blocks_for(count), THREADS, 0, on>>>((float *)data, count, (float)factor);
    else
        scale_kernel<double><<<blocks_for(count), THREADS, 0, on>>>((double *)data, count, factor);
}

bool cuda_holds(const void *pointer)
{
    cudaPointerAttributes attributes;
    if (cudaPointerGetAttributes(&attributes, pointer) != cudaSuccess) {
        cudaGetLastError(); /* an unknown pointer is host memory; clear the error */
        return false;
    }
    return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
}
