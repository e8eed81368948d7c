/*
 * copies.h -- the local copies of an exchange as plain descriptors, and
 * the table of whoever runs them in the exchange's memory: the host's
 * loops (copies.c) or a device backend's kernels (backend.h lends its
 * table to the exchanges of its plans: redist_geometry.copies).
 *
 * The one thing to know: chunks.c works out WHAT to copy -- a chunk of
 * pencils is two spans, a chunk of a reshape a walk over a sub-box -- from
 * the same chunk tables on every memory, and hands each copy over as a
 * redist_copy; the table only moves the elements it describes. So the
 * geometry is computed once, on the host, and a device's kernels get it
 * ready-made (its library sees no symbol of libdistfft).
 */
#ifndef DISTFFT_REDIST_COPIES_H
#define DISTFFT_REDIST_COPIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "distfft.h"

/* Elements of an array: `rows` runs of `run` contiguous elements, `stride`
 * elements from the start of one run to the next, the first at `offset`. */
typedef struct {
    int64_t rows, run, stride, offset;
} chunk_span;

static inline int64_t chunk_elements(const chunk_span *span)
{
    return span->rows * span->run;
}

/* The axes of a box walk: the batch and the array's axes. */
enum { COPY_AXES = DISTFFT_MAX_DIMS + 1 };

/* One copy, source to target, element by element in C order, every real
 * multiplied by `scale` unless it is 1. Either between two spans of the
 * same number of elements (`box` false: each run length is a multiple of
 * the other's), or a walk (`box` true): `rows` runs of `run` contiguous
 * elements, run r's place found by an odometer over the outer axes
 * 0..axes-1 of extent[a], from_stride[a] and to_stride[a] elements apart,
 * the first run at from_at and to_at. */
typedef struct {
    size_t element;    /* bytes of one element */
    bool single;       /* float reals (else double): how scale multiplies */
    double scale;
    int threads;       /* the host's OpenMP threads (0, 1: none) */
    bool box;
    chunk_span from, to;                           /* !box */
    int axes;                                      /* box */
    int64_t extent[COPY_AXES], from_stride[COPY_AXES], to_stride[COPY_AXES];
    int64_t from_at, to_at, run, rows;
} redist_copy;

/* One message of a device exchange: `bytes` bytes from this rank's send
 * buffer at `offset` to rank `peer` (receive false), or from `peer` into
 * its receive buffer at `offset` (receive true). */
typedef struct {
    int peer;
    bool receive;
    size_t offset, bytes;
} redist_message;

/* A device library's messages between device buffers (the CUDA backend's
 * NCCL), for the exchange rows that move device memory without MPI. The
 * library is found the first time it is asked about (unavailable), so a
 * backend loads where it is absent. Functions return DISTFFT_SUCCESS or an
 * error code with its message recorded. */
typedef struct redist_messages {
    const char *name;                     /* "nccl" */
    /* NULL when the library serves this process, else why not (it is not
     * installed, say). Local; thread-safe; the same answer every time. */
    const char *(*unavailable)(void);
    size_t id_bytes;                      /* a communicator's id, made on one rank */
    int (*make_id)(void *id);
    /* The library's communicator of `ranks` ranks named by `id` (the same
     * bytes on every rank), this one `rank`, on the current device.
     * Collective over those ranks (each must call it, or it hangs). */
    int (*open)(const void *id, int ranks, int rank, void **communicator);
    /* Free it: it may wait for the other ranks to free theirs; `abort`:
     * at once, its making having failed on some rank. */
    int (*close)(void *communicator, bool abort);
    /* The `count` messages as one group on `stream`, enqueued, not waited
     * for: every rank of the communicator calls it with matching
     * messages. */
    int (*run)(void *communicator, const redist_message *messages, int count, const void *send_buffer,
               void *receive_buffer, void *stream);
} redist_messages;

/* Where an exchange's buffers and copies live, and how its memory meets
 * the host's (a staged exchange: the device packs, MPI moves host memory).
 * `stream` is the exchange's (redist_geometry.stream): the order of a
 * device's work; the host ignores it. Every function is local. */
typedef struct redist_copies {
    const char *name;                     /* "host", "cuda" */
    /* Buffers in this memory, aligned as distfft_malloc aligns; NULL when
     * they cannot be had. release(NULL) is a no-op. */
    void *(*allocate)(size_t bytes);
    void (*release)(void *pointer);
    /* The copy `copy` describes, from source to target (both in this
     * memory), ordered on stream. Cannot fail once its buffers exist. */
    void (*copy)(const redist_copy *copy, const void *source, void *target, void *stream);
    /* `bytes` from source to target, both in this memory. */
    void (*move)(void *target, const void *source, size_t bytes, void *stream);
    /* Host buffers this memory copies to and from at full speed (pinned),
     * for the MPI of a staged exchange; NULL when they cannot be had. */
    void *(*allocate_host)(size_t bytes);
    void (*release_host)(void *pointer);
    /* `bytes` between this memory and host memory (to_host: source is
     * here, target on the host; else the reverse), complete on return:
     * MPI may touch the host side at once. DISTFFT_SUCCESS or an error
     * code with its message recorded. */
    int (*stage)(void *target, const void *source, size_t bytes, bool to_host, void *stream);
    /* Messages between buffers of this memory without MPI (NULL: none). */
    const redist_messages *messages;
    /* Whether other processes of the node can map this memory (NULL: they
     * cannot; the host's). */
    const struct redist_ipc *ipc;
} redist_copies;

/* Memory of this table's kind that the processes of one node map into
 * each other (CUDA IPC, for cuda_ipc.c): a buffer is exported as a handle
 * of REDIST_IPC_HANDLE_BYTES opaque bytes, sent to the peers over MPI,
 * and opened there. A process cannot open its own export. Every function
 * is local and returns DISTFFT_SUCCESS or an error code with its message
 * recorded. */
enum { REDIST_IPC_HANDLE_BYTES = 64 };
typedef struct redist_ipc {
    /* The handle of `buffer`, the start of an allocate() of this table. */
    int (*export_buffer)(void *buffer, unsigned char *handle);
    /* Map a peer process's export; *buffer its address here. */
    int (*open)(const unsigned char *handle, void **buffer);
    /* Unmap what open mapped. Before its owner may free it. */
    int (*close)(void *buffer);
    /* Wait until the work ordered on stream is done. */
    int (*wait)(void *stream);
} redist_ipc;

/* The host's table (copies.c): distfft_malloc, memcpy, the copy loops. */
extern const redist_copies redist_host_copies;

#endif
