/*
 * test_cuda_ipc.c -- the cuda-ipc exchange's create, execute and destroy
 * on the CPU. Its "device" is a stand-in table (redist/copies.h): the
 * host's copy loops, buffers carved out of an MPI-3 shared window of this
 * test's, and an ipc table whose handle is (owner, offset) in that window.
 * So the count matrix, the put schedule, the agreements, the puts into
 * the peers' buffers, the barriers and the unpacks run as the method runs
 * them, and the output is checked against the global index; the mappings
 * opened are all closed at destroy. Nothing of CUDA runs here: what a
 * device does is the GPU check's (tests/cuda/test_device.c).
 * Also: ranks on more than one node (DISTFFT_NODE_SIZE=1) are refused on
 * every rank; an export that fails on one rank fails the create on every
 * rank; host memory is refused by name.
 * Internal (links the static library); several rank counts.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "redist/redist.h"

enum { POOL_BYTES = 1 << 20 };
static struct {
    MPI_Win window;
    char *base;
    size_t used;
    bool fail_export;
    int opened, closed, waits;
} pool;

static void *fake_allocate(size_t bytes)
{
    size_t at = (pool.used + 63) / 64 * 64;
    if (at + bytes > POOL_BYTES) return NULL;
    pool.used = at + bytes;
    return pool.base + at;
}

static void fake_release(void *pointer)
{
    (void)pointer; /* the pool goes with its window */
}

typedef struct {
    int owner;
    int64_t offset;
} fake_handle;

static int fake_export(void *buffer, unsigned char *handle)
{
    if (pool.fail_export) return error_fail(DISTFFT_ERR_UNSUPPORTED, "fake export refused");
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fake_handle mine = {rank, (char *)buffer - pool.base};
    memcpy(handle, &mine, sizeof mine);
    return DISTFFT_SUCCESS;
}

static int fake_open(const unsigned char *handle, void **buffer)
{
    fake_handle theirs;
    memcpy(&theirs, handle, sizeof theirs);
    MPI_Aint bytes;
    int unit;
    char *base;
    MPI_Win_shared_query(pool.window, theirs.owner, &bytes, &unit, &base);
    *buffer = base + theirs.offset;
    pool.opened++;
    return DISTFFT_SUCCESS;
}

static int fake_close(void *buffer)
{
    (void)buffer;
    pool.closed++;
    return DISTFFT_SUCCESS;
}

static int fake_wait(void *stream)
{
    (void)stream;
    pool.waits++;
    MPI_Win_sync(pool.window); /* the host's copies are done: make them visible */
    return DISTFFT_SUCCESS;
}

static const redist_ipc fake_ipc = {fake_export, fake_open, fake_close, fake_wait};
static redist_copies fake_device; /* the host's table with the pool and fake_ipc */

static double value_at(int64_t i, int64_t j, int64_t k, int part)
{
    return (double)(i * 10000 + j * 100 + k) + 0.5 * part;
}

/* A 3-d pencil exchange n0 x n1 x n2, complex double: axis 0 whole in the
 * input (axis 1 split), axis 1 whole in the output (axis 0 split). */
static redist_geometry pencils(const int64_t *n, int parts, int part)
{
    redist_geometry g = {.type = DISTFFT_COMPLEX_DOUBLE, .ndims = 3, .axis_in = 0, .axis_out = 1, .batch = 1,
                         .parts = parts, .part = part, .memory = REDIST_MEMORY_CUDA, .copies = &fake_device};
    int64_t columns, rows;
    distfft_decompose(n[1], parts, part, &columns, NULL);
    distfft_decompose(n[0], parts, part, &rows, NULL);
    int64_t in[3] = {n[0], columns, n[2]}, out[3] = {rows, n[1], n[2]};
    memcpy(g.in_shape, in, sizeof in);
    memcpy(g.out_shape, out, sizeof out);
    return g;
}

/* Two executions (the second over the first's buffers) land every chunk
 * where the global index says. */
static int check_shape(const int64_t *n, int parts, int part)
{
    redist_geometry g = pencils(n, parts, part);
    pool.used = 0;
    pool.opened = pool.closed = pool.waits = 0;
    distfft_redist redist = NULL;
    int rc = redist_create(MPI_COMM_WORLD, &g, DISTFFT_METHOD_CUDA_IPC, &redist);
    if (rc != DISTFFT_SUCCESS) {
        printf("rank %d: cuda-ipc create: %s\n", part, distfft_last_error());
        return 0;
    }
    int64_t j0, i0;
    distfft_decompose(n[1], parts, part, NULL, &j0);
    distfft_decompose(n[0], parts, part, NULL, &i0);
    int64_t jn = g.in_shape[1], in_ = g.out_shape[0];
    double *in = calloc((size_t)(n[0] * jn * n[2]) * 2 + 2, sizeof *in);
    double *out = calloc((size_t)(in_ * n[1] * n[2]) * 2 + 2, sizeof *out);
    int ok = 1;
    for (int round = 0; round < 2; round++) {
        for (int64_t i = 0; i < n[0]; i++)
            for (int64_t j = 0; j < jn; j++)
                for (int64_t k = 0; k < n[2]; k++) {
                    in[2 * ((i * jn + j) * n[2] + k)] = value_at(i, j0 + j, k, round);
                    in[2 * ((i * jn + j) * n[2] + k) + 1] = -value_at(i, j0 + j, k, 1);
                }
        ok &= redist_run(redist, in, out) == DISTFFT_SUCCESS;
        for (int64_t i = 0; ok && i < in_; i++)
            for (int64_t j = 0; j < n[1]; j++)
                for (int64_t k = 0; k < n[2]; k++) {
                    const double *z = &out[2 * ((i * n[1] + j) * n[2] + k)];
                    ok &= z[0] == value_at(i0 + i, j, k, round) && z[1] == -value_at(i0 + i, j, k, 1);
                }
    }
    if (!ok) printf("rank %d: %lldx%lldx%lld: the output is not the input's chunks\n", part, (long long)n[0],
                    (long long)n[1], (long long)n[2]);
    if (pool.waits != 4) {
        printf("rank %d: %d stream waits in two executions, expected 4\n", part, pool.waits);
        ok = 0;
    }
    int opened = pool.opened;
    redist_free(redist);
    if (pool.closed != opened || opened > parts - 1) {
        printf("rank %d: %d mappings opened, %d closed\n", part, opened, pool.closed);
        ok = 0;
    }
    free(in);
    free(out);
    return ok;
}

/* Refused on every rank, with the message naming `words`. */
static int refused_everywhere(const char *what, const char *words, int part)
{
    static const int64_t n[3] = {6, 5, 7};
    int parts;
    MPI_Comm_size(MPI_COMM_WORLD, &parts);
    redist_geometry g = pencils(n, parts, part);
    pool.used = 0;
    distfft_redist redist = NULL;
    int rc = redist_create(MPI_COMM_WORLD, &g, DISTFFT_METHOD_CUDA_IPC, &redist);
    int ok = rc != DISTFFT_SUCCESS && redist == NULL && strstr(distfft_last_error(), words) != NULL;
    if (!ok) printf("rank %d: %s: code %d, \"%s\"\n", part, what, rc, distfft_last_error());
    if (redist) redist_free(redist);
    return ok;
}

static int check_refusals(int parts, int part)
{
    int ok = 1;
    redist_problem host = {.memory = REDIST_MEMORY_HOST};
    ok &= redist_check_applicable(DISTFFT_METHOD_CUDA_IPC, &host, "test") == DISTFFT_ERR_UNSUPPORTED &&
          strstr(distfft_last_error(), "cuda-ipc") != NULL;
    if (parts < 2) return ok;
    setenv("DISTFFT_NODE_SIZE", "1", 1); /* every rank a node of its own */
    ok &= refused_everywhere("ranks on several nodes", "more than one", part);
    unsetenv("DISTFFT_NODE_SIZE");
    pool.fail_export = part == 0;
    ok &= refused_everywhere("an export failing on rank 0", part == 0 ? "fake export refused" : "rank 0", part);
    pool.fail_export = false;
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int parts, part;
    MPI_Comm_size(MPI_COMM_WORLD, &parts);
    MPI_Comm_rank(MPI_COMM_WORLD, &part);
    fake_device = redist_host_copies;
    fake_device.name = "fake device";
    fake_device.allocate = fake_allocate;
    fake_device.release = fake_release;
    fake_device.ipc = &fake_ipc;
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, part, MPI_INFO_NULL, &node);
    int node_size;
    MPI_Comm_size(node, &node_size);
    int ok = node_size == parts; /* the test's ranks share this machine */
    MPI_Win_allocate_shared(POOL_BYTES, 1, MPI_INFO_NULL, node, &pool.base, &pool.window);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, pool.window);
    static const int64_t shapes[][3] = {{6, 5, 7}, {2, 3, 4}, {1, 9, 2}, {12, 8, 3}};
    for (size_t s = 0; ok && s < sizeof shapes / sizeof shapes[0]; s++) ok &= check_shape(shapes[s], parts, part);
    ok &= check_refusals(parts, part);
    MPI_Win_unlock_all(pool.window);
    MPI_Win_free(&pool.window);
    MPI_Comm_free(&node);
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (part == 0) printf("test_cuda_ipc: %s on %d rank(s)\n", all ? "ok" : "FAILED", parts);
    MPI_Finalize();
    return all ? 0 : 1;
}
