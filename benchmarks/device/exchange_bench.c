/*
 * exchange_bench.c -- distfft-cuda-exchange-bench: one exchange of device
 * memory alone, by each device method, timed against a device-to-device
 * copy of the rank's share, in interleaved rounds in one process (built in
 * build-cuda/ only; run by benchmarks/device/gpu.sh on 2 and 4 ranks
 * sharing a device).
 *
 *   distfft-cuda-exchange-bench --shape 256x256x256 [--precision double|float]
 *                               [--rounds 5] [--inner 5] [--methods staged,cuda-ipc]
 *
 * The exchange is a plan's first one on a slab grid: complex elements,
 * axis 0 whole in the input (axis 1 split over the ranks), axis 1 whole in
 * the output. Each round times, one after the other:
 *   copy       one cudaMemcpy device-to-device of the rank's input block
 *              (the share): one read and one write of it, the floor;
 *   METHOD     one execution of the exchange by that method.
 * A time is the fastest of `inner` runs after one untimed, each ended by
 * cudaDeviceSynchronize, slowest rank (device_timing.h). One JSON line per round and
 * variant on rank 0's stdout; the ratio of same-round times is what is
 * compared (gpu_table.py). The exchanges are the library's own
 * redistributions, made on the CUDA backend's copies: the program links
 * libdistfft's internals (the static library), as the exchange tests do.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "backend.h"
#include "device_timing.h"
#include "error.h"
#include "redist/redist.h"
#ifdef DISTFFT_GIT_REVISION_HEADER
#include DISTFFT_GIT_REVISION_HEADER
#endif
#ifndef DISTFFT_GIT_REVISION
#define DISTFFT_GIT_REVISION "unknown"
#endif

enum { MOST_METHODS = 8 };

typedef struct {
    int64_t shape[3];
    distfft_precision precision;
    int rounds, inner;
    distfft_method methods[MOST_METHODS];
    int method_count;
} bench_options;

static int me, P;

static int parse_methods(const char *list, bench_options *o)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    o->method_count = 0;
    for (char *name = strtok(copy, ","); name; name = strtok(NULL, ",")) {
        if (o->method_count == MOST_METHODS || distfft_method_from_name(name, &o->methods[o->method_count]) ||
            o->methods[o->method_count] == DISTFFT_METHOD_AUTO)
            return -1;
        o->method_count++;
    }
    return o->method_count > 0 ? 0 : -1;
}

static int parse(int argc, char **argv, bench_options *o)
{
    *o = (bench_options){{256, 256, 256}, DISTFFT_DOUBLE, 5, 5, {DISTFFT_METHOD_STAGED, DISTFFT_METHOD_CUDA_IPC}, 2};
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *key = argv[i], *value = argv[i + 1];
        long long a, b, c;
        if (strcmp(key, "--shape") == 0 && sscanf(value, "%lldx%lldx%lld", &a, &b, &c) == 3 && a > 0 && b > 0 &&
            c > 0) {
            o->shape[0] = a;
            o->shape[1] = b;
            o->shape[2] = c;
        } else if (strcmp(key, "--precision") == 0 && (strcmp(value, "double") == 0 || strcmp(value, "float") == 0)) {
            o->precision = strcmp(value, "float") == 0 ? DISTFFT_FLOAT : DISTFFT_DOUBLE;
        } else if (strcmp(key, "--rounds") == 0 && atoi(value) > 0) {
            o->rounds = atoi(value);
        } else if (strcmp(key, "--inner") == 0 && atoi(value) > 0) {
            o->inner = atoi(value);
        } else if (strcmp(key, "--methods") != 0 || parse_methods(value, o) != 0) {
            return -1;
        }
    }
    return argc % 2 == 1 ? 0 : -1;
}

/* This rank's side of the slab exchange, in the CUDA backend's memory. */
static redist_geometry slab_exchange(const bench_options *o)
{
    redist_geometry g = {.type = o->precision == DISTFFT_FLOAT ? DISTFFT_COMPLEX_FLOAT : DISTFFT_COMPLEX_DOUBLE,
                         .ndims = 3, .axis_in = 0, .axis_out = 1, .batch = 1, .parts = P, .part = me,
                         .memory = REDIST_MEMORY_CUDA, .copies = backend_of(DISTFFT_MEMORY_CUDA)->copies};
    int64_t columns, rows;
    distfft_decompose(o->shape[1], P, me, &columns, NULL);
    distfft_decompose(o->shape[0], P, me, &rows, NULL);
    int64_t in[3] = {o->shape[0], columns, o->shape[2]}, out[3] = {rows, o->shape[1], o->shape[2]};
    memcpy(g.in_shape, in, sizeof in);
    memcpy(g.out_shape, out, sizeof out);
    return g;
}

/* One variant: the copy (exchange NULL) or an exchange's execution. */
typedef struct {
    distfft_redist exchange;
    void *in, *out;
    size_t share;
} variant_run;

/* One run, ended by the device. */
static int run(void *context)
{
    variant_run *v = context;
    int failed = v->exchange ? redist_run(v->exchange, v->in, v->out) != DISTFFT_SUCCESS
                             : cudaMemcpy(v->out, v->in, v->share, cudaMemcpyDeviceToDevice) != cudaSuccess;
    return failed || cudaDeviceSynchronize() != cudaSuccess;
}

static void report(const bench_options *o, const char *variant, int round, double seconds, size_t share)
{
    if (me != 0) return;
    printf("{\"bench\": \"distfft-cuda-exchange-bench\", \"revision\": \"%s\", \"ranks\": %d, "
           "\"shape\": [%lld, %lld, %lld], \"kind\": \"exchange\", \"precision\": \"%s\", \"variant\": \"%s\", "
           "\"round\": %d, \"inner\": %d, \"seconds\": %.9g, \"share_bytes\": %zu}\n",
           DISTFFT_GIT_REVISION, P, (long long)o->shape[0], (long long)o->shape[1], (long long)o->shape[2],
           o->precision == DISTFFT_FLOAT ? "float" : "double", variant, round, o->inner, seconds, share);
    fflush(stdout);
}

static int bench(const bench_options *o)
{
    int local = backend_load(DISTFFT_MEMORY_CUDA, "distfft-cuda-exchange-bench");
    if (error_agree(MPI_COMM_WORLD, local) != DISTFFT_SUCCESS) {
        if (me == 0) fprintf(stderr, "distfft-cuda-exchange-bench: %s\n", distfft_last_error());
        return 1;
    }
    redist_geometry g = slab_exchange(o);
    size_t element = distfft_type_size(g.type);
    size_t share = (size_t)(g.in_shape[0] * g.in_shape[1] * g.in_shape[2]) * element;
    size_t out_bytes = (size_t)(g.out_shape[0] * g.out_shape[1] * g.out_shape[2]) * element;
    void *in = NULL, *out = NULL;
    int failed = cudaMalloc(&in, share + 1) != cudaSuccess ||
                 cudaMalloc(&out, (out_bytes > share ? out_bytes : share) + 1) != cudaSuccess ||
                 cudaMemset(in, 0, share) != cudaSuccess;
    distfft_redist exchanges[MOST_METHODS] = {NULL};
    for (int m = 0; m < o->method_count; m++) {
        int rc = error_agree(MPI_COMM_WORLD, redist_create(MPI_COMM_WORLD, &g, o->methods[m], &exchanges[m]));
        if (rc != DISTFFT_SUCCESS && me == 0)
            fprintf(stderr, "distfft-cuda-exchange-bench: %s: %s\n", distfft_method_name(o->methods[m]),
                    distfft_last_error());
        failed |= rc != DISTFFT_SUCCESS;
    }
    int any_failed = 0;
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    for (int round = 0; round < o->rounds && !any_failed; round++)
        for (int v = -1; v < o->method_count && !any_failed; v++) {
            variant_run timed = {v < 0 ? NULL : exchanges[v], in, out, share};
            double seconds = device_time_fastest(run, &timed, o->inner); /* device_timing.h */
            any_failed = seconds < 0;
            if (!any_failed) report(o, v < 0 ? "copy" : distfft_method_name(o->methods[v]), round, seconds, share);
        }
    if (any_failed && me == 0) fprintf(stderr, "distfft-cuda-exchange-bench: a run failed: %s\n", distfft_last_error());
    for (int m = 0; m < o->method_count; m++) redist_free(exchanges[m]);
    cudaFree(in);
    cudaFree(out);
    return any_failed;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    bench_options options;
    int status = 2;
    if (parse(argc, argv, &options) != 0) {
        if (me == 0)
            fprintf(stderr, "usage: distfft-cuda-exchange-bench --shape AxBxC [--precision double|float] "
                            "[--rounds R] [--inner K] [--methods M,M]\n");
    } else {
        status = bench(&options);
    }
    MPI_Finalize();
    return status;
}
