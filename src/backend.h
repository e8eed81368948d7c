/*
 * backend.h -- the per-plan door for where a plan's arrays live and what
 * runs on them: the memory kind, the work memory, the local steps (serial
 * FFTs, weights), the exchanges' pack / unpack copies and the runner's
 * passes over the data, and which exchange methods apply (the memory kind
 * every row's applicable() is asked about, redist.h). The host backend
 * (backend_host.c: FFTW's steps on the platform's memory) serves every
 * plan today; a device backend comes through the same door.
 *
 * Two axes: the platform (platform.h) is chosen when the library is built
 * and answers for the whole process; a backend is chosen per plan, by its
 * request, and is alike on every rank once the request is agreed. The
 * plan composes steps; it asks its backend for memory and local steps and
 * never calls an allocator or an FFT library by name.
 */
#ifndef DISTFFT_BACKEND_H
#define DISTFFT_BACKEND_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" { /* a backend library may be C++ (CUDA) */
#endif

#include "redist/redist.h"
#include "step.h"

/* Marks around a step on a stream, for timing work that is enqueued and
 * returns at once (CUDA events): one pair per step of a plan. */
typedef struct {
    /* A new pair of marks; NULL when none can be had. Local. */
    void *(*create)(void);
    /* Put the start (end false) or end mark on `stream`. Local. */
    void (*mark)(void *pair, bool end, void *stream);
    /* Seconds between the two marks, once the end mark has passed (waits
     * for it); 0 when they cannot be read. Local. */
    double (*seconds)(void *pair);
    void (*destroy)(void *pair);
} backend_marks;

typedef struct {
    const char *name;                 /* for messages and describe: "host" */
    redist_memory memory;             /* where its arrays live: the exchanges' memory kind */
    /* Work memory of `bytes` (> 0) that its local steps and exchanges may
     * use, aligned as distfft_malloc aligns; NULL when it cannot be had.
     * Local. */
    void *(*allocate)(size_t bytes);
    /* Give back allocate's memory; NULL is ignored. Local. */
    void (*release)(void *pointer);
    /* The local step of `spec` (STEP_FFT or STEP_WEIGHTS): an FFT planned
     * on the planning arrays plan_in and plan_out, a padded one or a copy
     * through `scratch` (as fft_step_create, step.h), its work ordered on
     * `stream` (the plan's options.stream; the host's ignores it). A step
     * the backend cannot run is refused here, never run elsewhere.
     * Local; may fail on some ranks only (the plan agrees). */
    int (*local_step)(const step_spec *spec, void *plan_in, void *plan_out, void *scratch, void *stream,
                      step **out);
    /* The exchanges' buffers and copies in this memory (redist/copies.h:
     * pack, unpack, the own chunk, a reshape's boxes, staging to the
     * host; and, where the backend has them, messages between its buffers
     * without MPI: copies->messages), lent to every exchange of the plan;
     * and the runner's own
     * passes: its copies between the caller's arrays and the work
     * buffers (copies->move). copies->ipc (NULL: none) maps its buffers
     * between the processes of a node, for the cuda-ipc exchange. */
    const redist_copies *copies;
    /* The runner's normalisation sweep: `count` reals of `precision` at
     * `data` multiplied by factor, ordered on `stream`. Local. */
    void (*scale)(distfft_precision precision, void *data, int64_t count, double factor, int threads,
                  void *stream);
    /* Whether `pointer` is in this backend's memory (a device's: device or
     * managed memory); NULL for the host's, which cannot tell its own
     * memory from any other. Local. */
    bool (*holds)(const void *pointer);
    /* Bytes of work memory a local step of this backend (made by
     * local_step) uses beside the plan's buffers: returned, what it uses
     * of memory shared with other steps (cuFFT's work area, which the
     * CUDA backend keeps once per process and every device plan's steps
     * share); in *held, what it holds of its own (a copy of its input);
     * 0 when none. NULL for the host's, whose FFTW plans keep what they
     * need themselves. Local. */
    size_t (*step_work_bytes)(const step *local, size_t *held);
    /* How its steps are timed: marks on the plan's stream around each
     * (a device's, whose steps return before their work is done); NULL
     * for the host's, whose steps are done when they return, so the
     * clock around the call times them. */
    const backend_marks *marks;
} backend;

/* The host backend: FFTW on host memory (backend_host.c). */
const backend *backend_host(void);

/* Load the backend of `memory` into this process if it is not yet
 * (backend_load.c): the host's is built in; the CUDA backend is a library
 * of its own, BACKEND_CUDA_LIBRARY, opened with dlopen the first time a
 * plan asks for device memory, so the core never links CUDA and loads
 * where cuFFT and NCCL are absent. DISTFFT_ERR_UNSUPPORTED, with the
 * reason (not built, cannot load, no device) naming `where`, when it
 * cannot serve plans here; every later call gives the same answer. The
 * answer is this process's own: the caller agrees on it before any
 * collective. For host memory it succeeds, after looking for the CUDA
 * driver in the process (device_memory.h). Local; thread-safe. */
int backend_load(distfft_memory memory, const char *where);

/* The backend of `memory` once backend_load succeeded for it; NULL
 * before. Local. */
const backend *backend_of(distfft_memory memory);

/* DISTFFT_ERR_ARGUMENT, naming `where` and `what`, when `pointer` (not
 * NULL) is not in `memory`: a host pointer handed to a plan of device
 * memory, or a device pointer (where the CUDA driver was found,
 * device_memory.h) to a plan of host memory. Local: the caller agrees on it
 * before any collective. */
int backend_check_pointer(distfft_memory memory, const void *pointer, const char *where, const char *what);

/* ---- what a backend library implements ---------------------------------------- */

#define BACKEND_CUDA_LIBRARY "libdistfft_cuda.so"
#define BACKEND_CUDA_ENTRY "distfft_cuda_backend_open"
/* Raised whenever backend, backend_services, step.h or redist/copies.h
 * change shape: a backend library built against another refuses to open. */
#define BACKEND_INTERFACE 6

/* What the core lends a backend library (which sees none of its symbols:
 * libdistfft exports only the public API). */
typedef struct {
    /* error_fail (error.h): record the message, return the code. */
    int (*fail)(int code, const char *format, ...);
    /* text_append (text.h): a step's describe. */
    void (*append)(text *out, const char *format, ...);
} backend_services;

/* The entry BACKEND_CUDA_ENTRY of a backend library: *out its backend
 * when it can serve plans in this process (interface BACKEND_INTERFACE,
 * a device present), else a DISTFFT_ERR_* code and the reason in
 * why[why_size]. Called once per process. */
typedef int backend_open_function(int interface, const backend_services *services, const backend **out,
                                  char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
