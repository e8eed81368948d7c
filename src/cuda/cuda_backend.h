/*
 * cuda_backend.h -- what the files of the CUDA backend library
 * (libdistfft_cuda.so: backend_cuda.cu, cufft_step.cu, copies.cu,
 * nccl.cu) share. The library
 * sees none of libdistfft's symbols; what it needs of the core (error
 * messages, describe's text) comes through the services lent at open.
 */
#ifndef DISTFFT_CUDA_BACKEND_H
#define DISTFFT_CUDA_BACKEND_H

#include "backend.h"

/* The core's services, lent at open. */
extern const backend_services *cuda_services;

/* The one cuFFT work area of the process, which every cuFFT plan of every
 * device plan uses in turn (cufftSetAutoAllocation(0), cufftSetWorkArea
 * before each execution): grown at create to the largest plan's need, kept
 * for the life of the process. Steps run one at a time, in the order of
 * the streams they are given; two plans on two streams running at once
 * would share it (not supported). DISTFFT_ERR_MEMORY when the device
 * cannot give it: a local failure of a step's creation, which the plan
 * agrees on, so every rank returns it. */
int cuda_work_area_reserve(size_t bytes);
void *cuda_work_area(void);

/* Device memory (backend_cuda.cu): cudaMalloc, cudaFree. */
void *cuda_allocate(size_t bytes);
void cuda_release(void *pointer);

/* The exchanges' copies on the device and the runner's sweep (copies.cu):
 * the backend's `copies` and `scale`. Whether a pointer is device (or
 * managed) memory: cudaPointerGetAttributes. */
extern const redist_copies cuda_copies;
/* Its messages between device buffers (nccl.cu): NCCL, opened with dlopen
 * at the first question, so that the backend loads where it is absent. */
extern const redist_messages cuda_nccl;

/* Device buffers mapped between the processes of a node (ipc.cu): the
 * copies' ipc, for the cuda-ipc exchange. */
extern const redist_ipc cuda_ipc;
void cuda_scale(distfft_precision precision, void *data, int64_t count, double factor, int threads, void *stream);
bool cuda_holds(const void *pointer);

/* A serial transform step on the device (cufft_step.cu): the transform of
 * spec->fft by cuFFT (cufft_layout.h says what it refuses), on `stream`
 * (a cudaStream_t; NULL: the default stream); a C2R that must keep its
 * input copies it into `scratch` (device memory of the plan's) first.
 * Local. */
int cufft_step_create(const step_spec *spec, void *scratch, void *stream, step **out);

/* The cuFFT work area a step of cufft_step_create's needs (0 for any
 * other step), and in *held the copy of its input it holds of its own:
 * the backend's step_work_bytes. */
size_t cufft_step_work_bytes(const step *local, size_t *held);

#endif
