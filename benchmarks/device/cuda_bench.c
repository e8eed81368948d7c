/*
 * cuda_bench.c -- distfft-cuda-bench: device plans timed against cuFFT's
 * own 3-D plan and against a device-to-device copy, in interleaved rounds
 * in one process (built in build-cuda/ only; run by benchmarks/device/gpu.sh).
 *
 *   distfft-cuda-bench --shape 256x256x256 --kind c2c|r2c --precision double|float
 *                      [--rounds 5] [--inner 5] [--method staged|cuda-ipc]
 *
 * Each round times, one after the other on the same device, a forward and
 * backward pair of:
 *   distfft          the device plan (options.memory cuda), input kept;
 *   distfft-destroy  the same with options.destroy_input (cuFFT's c2r
 *                    overwrites its input; the kept input may cost a copy);
 *   cufft            cuFFT's own plans of the whole array (1 rank only);
 *   copy             two cudaMemcpy device-to-device of the rank's larger
 *                    block: the memory floor of one pass each way (each
 *                    pass reads and writes the array once).
 * A pair's time is the fastest of `inner` pairs, each ended by
 * cudaDeviceSynchronize (a plan without exchanges returns before its work
 * is done), slowest rank. One JSON line per round and variant on rank 0's
 * stdout; the ratio of same-round pairs is what is compared. On several
 * ranks (sharing a device or not) the exchanges run --method (default
 * `staged`), and cufft is left out.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>
#include <cufft.h>

#include "device_timing.h"
#include "distfft.h"
#ifdef DISTFFT_GIT_REVISION_HEADER
#include DISTFFT_GIT_REVISION_HEADER
#endif
#ifndef DISTFFT_GIT_REVISION
#define DISTFFT_GIT_REVISION "unknown"
#endif

typedef struct {
    int64_t shape[3];
    int r2c;
    distfft_precision precision;
    int rounds, inner;
    distfft_method method; /* of the exchanges, on several ranks */
} bench_options;

typedef struct {
    void *in, *out, *back;
    size_t bytes;       /* of each */
    size_t copy_bytes;  /* the larger local block */
} device_arrays;

static int me, P;

static void usage(void)
{
    if (me == 0)
        fprintf(stderr, "usage: distfft-cuda-bench --shape AxBxC --kind c2c|r2c --precision double|float "
                        "[--rounds R] [--inner K] [--method M]\n");
}

static int parse(int argc, char **argv, bench_options *o)
{
    *o = (bench_options){{64, 64, 64}, 0, DISTFFT_DOUBLE, 5, 5, DISTFFT_METHOD_STAGED};
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *key = argv[i], *value = argv[i + 1];
        long long a, b, c;
        if (strcmp(key, "--shape") == 0 && sscanf(value, "%lldx%lldx%lld", &a, &b, &c) == 3) {
            o->shape[0] = a;
            o->shape[1] = b;
            o->shape[2] = c;
        } else if (strcmp(key, "--kind") == 0 && (strcmp(value, "c2c") == 0 || strcmp(value, "r2c") == 0)) {
            o->r2c = strcmp(value, "r2c") == 0;
        } else if (strcmp(key, "--precision") == 0 && (strcmp(value, "double") == 0 || strcmp(value, "float") == 0)) {
            o->precision = strcmp(value, "float") == 0 ? DISTFFT_FLOAT : DISTFFT_DOUBLE;
        } else if (strcmp(key, "--rounds") == 0 && atoi(value) > 0) {
            o->rounds = atoi(value);
        } else if (strcmp(key, "--inner") == 0 && atoi(value) > 0) {
            o->inner = atoi(value);
        } else if (strcmp(key, "--method") == 0) {
            if (distfft_method_from_name(value, &o->method) != DISTFFT_SUCCESS || o->method == DISTFFT_METHOD_AUTO)
                return -1;
        } else {
            return -1;
        }
    }
    return argc % 2 == 1 && o->shape[0] > 0 && o->shape[1] > 0 && o->shape[2] > 0 ? 0 : -1;
}

static void *device_alloc(size_t bytes)
{
    void *pointer = NULL;
    return cudaMalloc(&pointer, bytes ? bytes : 1) == cudaSuccess ? pointer : NULL;
}

static int create_plan(const bench_options *o, int destroy_input, distfft_plan *plan)
{
    distfft_options options;
    distfft_options_init(&options);
    options.rigor = DISTFFT_MEASURE;
    options.memory = DISTFFT_MEMORY_CUDA;
    options.destroy_input = destroy_input;
    if (o->r2c) options.kinds[2] = DISTFFT_R2C;
    if (P > 1) options.method = o->method;
    return distfft_plan_create(MPI_COMM_WORLD, 3, o->shape, o->precision, &options, plan);
}

/* The arrays of `plan`, the input filled with small numbers (timing only). */
static int allocate(distfft_plan plan, device_arrays *d)
{
    distfft_type in_type, out_type;
    int64_t in_shape[3], out_shape[3];
    distfft_plan_types(plan, &in_type, &out_type);
    distfft_plan_input_block(plan, in_shape, NULL);
    distfft_plan_output_block(plan, out_shape, NULL);
    size_t in_bytes = (size_t)(in_shape[0] * in_shape[1] * in_shape[2]) * distfft_type_size(in_type);
    size_t out_bytes = (size_t)(out_shape[0] * out_shape[1] * out_shape[2]) * distfft_type_size(out_type);
    d->bytes = (size_t)distfft_plan_local_size(plan) * distfft_type_size(out_type);
    d->copy_bytes = in_bytes > out_bytes ? in_bytes : out_bytes;
    d->in = device_alloc(d->bytes);
    d->out = device_alloc(d->bytes);
    d->back = device_alloc(d->bytes);
    if (!d->in || !d->out || !d->back) return -1;
    return cudaMemset(d->in, 0, d->bytes) == cudaSuccess ? 0 : -1;
}

typedef enum { DISTFFT_PAIR, CUFFT_PAIR, COPY_PAIR } pair_kind;

typedef struct {
    pair_kind kind;
    distfft_plan plan;
    cufftHandle forward, backward;
    int r2c;
    distfft_precision precision;
} pair;

static int run_cufft(const pair *p, device_arrays *d)
{
    cufftResult f, b;
    if (p->precision == DISTFFT_DOUBLE && p->r2c) {
        f = cufftExecD2Z(p->forward, d->in, d->out);
        b = cufftExecZ2D(p->backward, d->out, d->back);
    } else if (p->precision == DISTFFT_DOUBLE) {
        f = cufftExecZ2Z(p->forward, d->in, d->out, CUFFT_FORWARD);
        b = cufftExecZ2Z(p->forward, d->out, d->back, CUFFT_INVERSE);
    } else if (p->r2c) {
        f = cufftExecR2C(p->forward, d->in, d->out);
        b = cufftExecC2R(p->backward, d->out, d->back);
    } else {
        f = cufftExecC2C(p->forward, d->in, d->out, CUFFT_FORWARD);
        b = cufftExecC2C(p->forward, d->out, d->back, CUFFT_INVERSE);
    }
    return f == CUFFT_SUCCESS && b == CUFFT_SUCCESS ? 0 : -1;
}

static int run_pair(const pair *p, device_arrays *d)
{
    int rc = 0;
    if (p->kind == DISTFFT_PAIR) {
        rc = distfft_plan_execute(p->plan, d->in, d->out, DISTFFT_FORWARD) != DISTFFT_SUCCESS ||
             distfft_plan_execute(p->plan, d->out, d->back, DISTFFT_BACKWARD) != DISTFFT_SUCCESS;
    } else if (p->kind == CUFFT_PAIR) {
        rc = run_cufft(p, d);
    } else {
        rc = cudaMemcpy(d->out, d->in, d->copy_bytes, cudaMemcpyDeviceToDevice) != cudaSuccess ||
             cudaMemcpy(d->back, d->out, d->copy_bytes, cudaMemcpyDeviceToDevice) != cudaSuccess;
    }
    return rc || cudaDeviceSynchronize() != cudaSuccess ? -1 : 0;
}

typedef struct {
    const pair *pair;
    device_arrays *arrays;
} pair_run;

static int run_timed(void *context)
{
    pair_run *run = context;
    return run_pair(run->pair, run->arrays);
}

/* A pair's time (device_timing.h); < 0 when it failed on some rank.
 * Collective. */
static double time_pair(const pair *p, device_arrays *d, int inner)
{
    pair_run run = {p, d};
    return device_time_fastest(run_timed, &run, inner);
}

static int cufft_plans(const bench_options *o, pair *p)
{
    int n[3] = {(int)o->shape[0], (int)o->shape[1], (int)o->shape[2]};
    int dbl = o->precision == DISTFFT_DOUBLE;
    cufftType forward = o->r2c ? (dbl ? CUFFT_D2Z : CUFFT_R2C) : (dbl ? CUFFT_Z2Z : CUFFT_C2C);
    cufftType backward = o->r2c ? (dbl ? CUFFT_Z2D : CUFFT_C2R) : forward;
    *p = (pair){CUFFT_PAIR, NULL, 0, 0, o->r2c, o->precision};
    if (cufftPlan3d(&p->forward, n[0], n[1], n[2], forward) != CUFFT_SUCCESS) return -1;
    if (!o->r2c) return 0;
    return cufftPlan3d(&p->backward, n[0], n[1], n[2], backward) == CUFFT_SUCCESS ? 0 : -1;
}

static void report(const bench_options *o, const char *variant, int round, double seconds, size_t copy_bytes)
{
    if (me != 0) return;
    printf("{\"bench\": \"distfft-cuda-bench\", \"revision\": \"%s\", \"ranks\": %d, \"shape\": [%lld, %lld, %lld], "
           "\"kind\": \"%s\", \"precision\": \"%s\", \"method\": \"%s\", \"variant\": \"%s\", \"round\": %d, "
           "\"inner\": %d, \"pair_seconds\": %.9g, \"block_bytes\": %zu}\n",
           DISTFFT_GIT_REVISION, P, (long long)o->shape[0], (long long)o->shape[1], (long long)o->shape[2],
           o->r2c ? "r2c" : "c2c", o->precision == DISTFFT_FLOAT ? "float" : "double",
           P > 1 ? distfft_method_name(o->method) : "none", variant, round, o->inner, seconds, copy_bytes);
    fflush(stdout);
}

/* The versions and the plan, once, on rank 0's stdout as JSON. */
static void describe(distfft_plan plan)
{
    int runtime = 0, driver = 0, cufft = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    cufftGetVersion(&cufft);
    char text[4096];
    distfft_plan_describe(plan, text, sizeof text);
    if (me == 0)
        printf("{\"bench\": \"distfft-cuda-bench\", \"cuda_runtime\": %d, \"cuda_driver\": %d, \"cufft\": %d, "
               "\"plan\": \"%s\"}\n", runtime, driver, cufft, text);
}

static int bench(const bench_options *o)
{
    distfft_plan kept = NULL, destroyed = NULL;
    if (create_plan(o, 0, &kept) != DISTFFT_SUCCESS || create_plan(o, 1, &destroyed) != DISTFFT_SUCCESS) {
        if (me == 0) fprintf(stderr, "distfft-cuda-bench: distfft_plan_create: %s\n", distfft_last_error());
        return 1;
    }
    describe(kept);
    device_arrays d;
    int failed = allocate(kept, &d) != 0;
    pair variants[4];
    memset(variants, 0, sizeof variants);
    variants[0] = (pair){.kind = DISTFFT_PAIR, .plan = kept};
    variants[1] = (pair){.kind = DISTFFT_PAIR, .plan = destroyed};
    variants[2] = (pair){.kind = COPY_PAIR};
    const char *names[4] = {"distfft", "distfft-destroy", "copy", "cufft"};
    int count = 3;
    if (P == 1) failed |= cufft_plans(o, &variants[count++]) != 0;
    int any_failed = 0;
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    for (int round = 0; round < o->rounds && !any_failed; round++) {
        for (int v = 0; v < count && !any_failed; v++) {
            double seconds = time_pair(&variants[v], &d, o->inner);
            any_failed = seconds < 0;
            if (!any_failed) report(o, names[v], round, seconds, d.copy_bytes);
        }
    }
    if (any_failed && me == 0) fprintf(stderr, "distfft-cuda-bench: a run failed: %s\n", distfft_last_error());
    if (count == 4) cufftDestroy(variants[3].forward);
    if (count == 4 && o->r2c) cufftDestroy(variants[3].backward);
    cudaFree(d.in);
    cudaFree(d.out);
    cudaFree(d.back);
    distfft_plan_destroy(&destroyed);
    distfft_plan_destroy(&kept);
    return any_failed;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    bench_options options;
    int status = 2;
    if (parse(argc, argv, &options) != 0) usage();
    else status = bench(&options);
    MPI_Finalize();
    return status;
}
