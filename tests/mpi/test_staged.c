/*
 * test_staged.c -- the staged exchange's schedule and its chunks, on the
 * CPU. The method moves device memory through host buffers; here its
 * "device" is a stand-in table of copies (redist/copies.h) that runs the
 * host's loops on host memory and writes down every call: which buffer
 * each copy reads and writes, each staging copy, the stream each is
 * ordered on. So it checks what needs no device -- the order (every pack
 * into the device send buffer, one copy of it to a pinned host buffer,
 * the collective, one copy back, this rank's own chunk, every unpack),
 * that MPI only ever sees the host buffers, and that the chunks land
 * where the global index says -- and nothing of a device's speed or
 * correctness: a device run is the GPU check's business.
 * Internal (links the static library); several rank counts.
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist/redist.h"

enum { LOG = 256 };
static struct {
    char events[LOG];
    int count;
    char *device[4], *host[4];           /* the buffers made, and their ends */
    size_t device_bytes[4], host_bytes[4];
    int devices, hosts;
    bool wrong_stream;
} seen;
static char stream_token; /* the exchange's stream: any pointer will do */

static void note(char event)
{
    if (seen.count < LOG - 1) seen.events[seen.count++] = event;
}

static bool inside(const void *pointer, char *const *buffers, const size_t *bytes, int count)
{
    for (int i = 0; i < count; i++)
        if ((const char *)pointer >= buffers[i] && (const char *)pointer < buffers[i] + bytes[i]) return true;
    return false;
}

static bool is_device(const void *pointer)
{
    return inside(pointer, seen.device, seen.device_bytes, seen.devices);
}

static bool is_host(const void *pointer)
{
    return inside(pointer, seen.host, seen.host_bytes, seen.hosts);
}

/* A buffer, kept in the list of its kind to tell copies apart by. */
static void *remember(char **buffers, size_t *sizes, int *count, size_t bytes)
{
    char *pointer = distfft_malloc(bytes);
    if (*count < 4) {
        sizes[*count] = bytes;
        buffers[(*count)++] = pointer;
    }
    return pointer;
}

static void *fake_allocate(size_t bytes)
{
    return remember(seen.device, seen.device_bytes, &seen.devices, bytes);
}

static void *fake_allocate_host(size_t bytes)
{
    return remember(seen.host, seen.host_bytes, &seen.hosts, bytes);
}

/* P: a pack (into a device buffer), U: an unpack (out of one), O: the own
 * chunk (array to array). */
static void fake_copy(const redist_copy *copy, const void *source, void *target, void *stream)
{
    seen.wrong_stream |= stream != &stream_token;
    note(is_device(target) ? 'P' : is_device(source) ? 'U' : 'O');
    redist_host_copies.copy(copy, source, target, stream);
}

/* H: device to a pinned host buffer, D: back. */
static int fake_stage(void *target, const void *source, size_t bytes, bool to_host, void *stream)
{
    seen.wrong_stream |= stream != &stream_token;
    bool pinned = to_host ? is_host(target) && is_device(source) : is_device(target) && is_host(source);
    note(pinned ? (to_host ? 'H' : 'D') : '?');
    memcpy(target, source, bytes);
    return DISTFFT_SUCCESS;
}

static const redist_copies fake_device = {.name = "fake device", .allocate = fake_allocate,
                                          .release = distfft_free, .copy = fake_copy,
                                          .move = NULL, .allocate_host = fake_allocate_host,
                                          .release_host = distfft_free, .stage = fake_stage};

static double value_at(int64_t i, int64_t j, int64_t k, int part)
{
    return (double)(i * 10000 + j * 100 + k) + 0.5 * part;
}

/* The events this rank must see: a pack per peer it sends to, one stage
 * each way when anything goes through the buffers, its own chunk, an
 * unpack per peer it receives from. */
static void expected_events(const int64_t *n, int parts, int part, char *out)
{
    int sends = 0, receives = 0, at = 0;
    int64_t mine_i, mine_j;
    distfft_decompose(n[0], parts, part, &mine_i, NULL);
    distfft_decompose(n[1], parts, part, &mine_j, NULL);
    for (int p = 0; p < parts; p++) {
        int64_t their_i, their_j;
        distfft_decompose(n[0], parts, p, &their_i, NULL);
        distfft_decompose(n[1], parts, p, &their_j, NULL);
        sends += p != part && their_i * mine_j * n[2] > 0;
        receives += p != part && mine_i * their_j * n[2] > 0;
    }
    for (int s = 0; s < sends; s++) out[at++] = 'P';
    if (sends) out[at++] = 'H';
    if (receives) out[at++] = 'D';
    out[at++] = 'O';
    for (int r = 0; r < receives; r++) out[at++] = 'U';
    out[at] = '\0';
}

/* A 3-d pencil exchange n0 x n1 x n2, complex double: axis 0 whole in
 * the input (axis 1 split), axis 1 whole in the output (axis 0 split). */
static int check_shape(const int64_t *n, int parts, int part)
{
    redist_geometry g = {.type = DISTFFT_COMPLEX_DOUBLE, .ndims = 3, .axis_in = 0, .axis_out = 1, .batch = 1,
                         .parts = parts, .part = part, .memory = REDIST_MEMORY_CUDA, .copies = &fake_device,
                         .stream = &stream_token};
    int64_t j0, jn, i0, in_;
    distfft_decompose(n[1], parts, part, &jn, &j0);
    distfft_decompose(n[0], parts, part, &in_, &i0);
    int64_t in_shape[3] = {n[0], jn, n[2]}, out_shape[3] = {in_, n[1], n[2]};
    memcpy(g.in_shape, in_shape, sizeof in_shape);
    memcpy(g.out_shape, out_shape, sizeof out_shape);
    memset(&seen, 0, sizeof seen);
    distfft_redist redist = NULL;
    int rc = redist_create(MPI_COMM_WORLD, &g, DISTFFT_METHOD_STAGED, &redist);
    if (rc != DISTFFT_SUCCESS) {
        printf("rank %d: staged create: %s\n", part, distfft_last_error());
        return 0;
    }
    double *in = calloc((size_t)(n[0] * jn * n[2]) * 2 + 2, sizeof *in);
    double *out = calloc((size_t)(in_ * n[1] * n[2]) * 2 + 2, sizeof *out);
    for (int64_t i = 0; i < n[0]; i++)
        for (int64_t j = 0; j < jn; j++)
            for (int64_t k = 0; k < n[2]; k++) {
                in[2 * ((i * jn + j) * n[2] + k)] = value_at(i, j0 + j, k, 0);
                in[2 * ((i * jn + j) * n[2] + k) + 1] = -value_at(i, j0 + j, k, 1);
            }
    seen.count = 0; /* the run's events only */
    rc = redist_run(redist, in, out);
    int ok = rc == DISTFFT_SUCCESS;
    for (int64_t i = 0; ok && i < in_; i++)
        for (int64_t j = 0; j < n[1]; j++)
            for (int64_t k = 0; k < n[2]; k++) {
                const double *z = &out[2 * ((i * n[1] + j) * n[2] + k)];
                ok &= z[0] == value_at(i0 + i, j, k, 0) && z[1] == -value_at(i0 + i, j, k, 1);
            }
    char expected[LOG];
    expected_events(n, parts, part, expected);
    seen.events[seen.count] = '\0';
    if (!ok) printf("rank %d: %lldx%lldx%lld: the output is not the input's chunks\n", part, (long long)n[0],
                    (long long)n[1], (long long)n[2]);
    if (strcmp(seen.events, expected) != 0) {
        printf("rank %d: %lldx%lldx%lld: schedule %s, expected %s\n", part, (long long)n[0], (long long)n[1],
               (long long)n[2], seen.events, expected);
        ok = 0;
    }
    if (seen.wrong_stream) {
        printf("rank %d: a copy was not ordered on the exchange's stream\n", part);
        ok = 0;
    }
    redist_free(redist);
    free(in);
    free(out);
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int parts, part;
    MPI_Comm_size(MPI_COMM_WORLD, &parts);
    MPI_Comm_rank(MPI_COMM_WORLD, &part);
    static const int64_t shapes[][3] = {{6, 5, 7}, {2, 3, 4}, {1, 9, 2}, {12, 8, 3}};
    int ok = 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) ok &= check_shape(shapes[s], parts, part);
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (part == 0) printf("test_staged: %s on %d rank(s)\n", all ? "ok" : "FAILED", parts);
    MPI_Finalize();
    return all ? 0 : 1;
}
