/*
 * test_device.c -- device plans (options.memory = DISTFFT_MEMORY_CUDA) on a
 * CUDA device, against the same plan on the host.
 *
 * The host plan (FFTW) is the independent reference: every configuration
 * runs as a host plan and as a device plan on the same deterministic
 * input, through arrays the test allocates on the device itself
 * (cudaMalloc, cudaMemcpy), and the two outputs must agree within the FFT
 * tolerance, forward and backward. Configurations: c2c and r2c, double and
 * float, batched, shapes of primes and blocks uneven over the ranks; on
 * several ranks once with each method that applies to device memory:
 * `staged`, `cuda-ipc` (the ranks share this node, and may share one
 * device), and `nccl` where the device's NCCL serves these ranks (several
 * ranks on one device need NCCL >= 2.30 and NCCL_MULTI_RANK_GPU_ENABLE=1;
 * a refusal is printed, "test_device: nccl not run: ...", and is a failure
 * only with DISTFFT_TEST_NCCL=1). cuda-ipc on pretended nodes of one rank
 * each is refused on every rank; a released cuda-ipc plan is freed by
 * distfft_collect. Also: a host pointer handed to a device plan (on every
 * rank, or on one) and a device pointer handed to a host plan are
 * DISTFFT_ERR_ARGUMENT on every rank, and the plan runs afterwards, as is
 * a device pointer handed to a halo, a gather or scatter, or an array
 * file; a
 * device plan's work_bytes is its host twin's plus cuFFT's work area, at
 * least what cuFFT's own 3-D plan of the array asks for on one rank, and
 * is taken from the device at create. Each step's time is the device's
 * (events on the plan's stream): every step of a run has a time, and on
 * one rank, where the run returns before the device is done, the steps
 * add up to about the run waited for.
 *
 * Where this process sees no device (or its driver is older than the
 * runtime linked here) every rank exits with 77, CTest's skip code: this
 * test says nothing about machines without one (test_memory does).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>
#include <cufft.h>

#include "test_support.h"

enum { SKIP = 77, CUDA_FAILED = -1 }; /* CUDA_FAILED: a CUDA call of the test failed, not distfft */

static test_suite suite;
static int me, P;
static distfft_method device_method = DISTFFT_METHOD_STAGED; /* the exchanges of device plans on several ranks */

typedef struct {
    int64_t shape[3];
    distfft_kind last;            /* the kind of the last axis: C2C or R2C */
    distfft_precision precision;
    int64_t batch;
} config;

/* Whether every rank sees a usable device (collective). */
static bool device_everywhere(void)
{
    int devices = 0;
    int mine = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
    cudaGetLastError(); /* clear a failed probe's sticky error */
    int all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
}

static void *device_alloc(size_t bytes)
{
    void *pointer = NULL;
    return cudaMalloc(&pointer, bytes ? bytes : 1) == cudaSuccess ? pointer : NULL;
}

static void options_for(const config *c, distfft_memory memory, distfft_options *options)
{
    distfft_options_init(options);
    options->rigor = DISTFFT_ESTIMATE;
    options->kinds[2] = c->last;
    options->batch = c->batch;
    options->memory = memory;
    if (memory == DISTFFT_MEMORY_CUDA && P > 1) options->method = device_method;
}

/* The arrays of one plan: input, output and round trip, `bytes` each. */
typedef struct {
    void *in, *out, *back;
} arrays;

/* Forward then backward on the device, waiting for the device after each
 * (a plan without exchanges returns before its work is done). */
static int run_device(distfft_plan plan, arrays *device)
{
    int rc = distfft_plan_execute(plan, device->in, device->out, DISTFFT_FORWARD);
    if (rc == DISTFFT_SUCCESS && cudaDeviceSynchronize() != cudaSuccess) rc = CUDA_FAILED;
    if (rc == DISTFFT_SUCCESS) rc = distfft_plan_execute(plan, device->out, device->back, DISTFFT_BACKWARD);
    if (rc == DISTFFT_SUCCESS && cudaDeviceSynchronize() != cudaSuccess) rc = CUDA_FAILED;
    return rc;
}

/* The device's three arrays copied into `copy` (host), true when all copied. */
static bool copy_back(const arrays *device, arrays *copy, size_t bytes)
{
    return cudaMemcpy(copy->in, device->in, bytes, cudaMemcpyDeviceToHost) == cudaSuccess &&
           cudaMemcpy(copy->out, device->out, bytes, cudaMemcpyDeviceToHost) == cudaSuccess &&
           cudaMemcpy(copy->back, device->back, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
}

static void host_arrays(arrays *a, size_t bytes)
{
    a->in = test_guarded_alloc(bytes, 0);
    a->out = test_guarded_alloc(bytes, 0);
    a->back = test_guarded_alloc(bytes, 0);
}

static void free_host(arrays *a)
{
    distfft_free(a->in);
    distfft_free(a->out);
    distfft_free(a->back);
}

static void free_device(arrays *a)
{
    cudaFree(a->in);
    cudaFree(a->out);
    cudaFree(a->back);
}

/* Bytes of this rank's input and output blocks (all fields), and of a
 * buffer that holds either. */
static void block_bytes(distfft_plan plan, const config *c, size_t *in_bytes, size_t *out_bytes, size_t *bytes)
{
    distfft_type in_type, out_type;
    int64_t in_shape[3], out_shape[3];
    distfft_plan_types(plan, &in_type, &out_type);
    distfft_plan_input_block(plan, in_shape, NULL);
    distfft_plan_output_block(plan, out_shape, NULL);
    *in_bytes = (size_t)(c->batch * test_product(3, in_shape)) * distfft_type_size(in_type);
    *out_bytes = (size_t)(c->batch * test_product(3, out_shape)) * distfft_type_size(out_type);
    *bytes = (size_t)distfft_plan_local_size(plan) * distfft_type_size(out_type);
}

static void fill_input(distfft_plan plan, const config *c, void *in)
{
    distfft_type in_type, out_type;
    int64_t in_shape[3], in_start[3];
    distfft_plan_types(plan, &in_type, &out_type);
    distfft_plan_input_block(plan, in_shape, in_start);
    test_fill(in_type, 3, c->shape, in_shape, in_start, c->batch, 0, in);
}

/* Both plans run on the same input; their outputs and round trips compared. */
static void compare(const config *c, const char *name, distfft_plan host_plan, distfft_plan device_plan)
{
    size_t in_bytes, out_bytes, bytes;
    block_bytes(host_plan, c, &in_bytes, &out_bytes, &bytes);
    arrays host, copy, device = {device_alloc(bytes), device_alloc(bytes), device_alloc(bytes)};
    host_arrays(&host, bytes);
    host_arrays(&copy, bytes);
    fill_input(host_plan, c, host.in);
    bool ready = device.in && device.out && device.back &&
                 cudaMemcpy(device.in, host.in, bytes, cudaMemcpyHostToDevice) == cudaSuccess;
    test_case(&suite, ready, "%s: device arrays", name);
    int rc = distfft_plan_execute(host_plan, host.in, host.out, DISTFFT_FORWARD);
    if (rc == DISTFFT_SUCCESS) rc = distfft_plan_execute(host_plan, host.out, host.back, DISTFFT_BACKWARD);
    test_case(&suite, rc == DISTFFT_SUCCESS, "%s: host plan runs", name);
    rc = ready ? run_device(device_plan, &device) : DISTFFT_ERR_MEMORY;
    if (rc != DISTFFT_SUCCESS) test_detail(&suite, "%s: %s", name, distfft_last_error());
    test_case(&suite, rc == DISTFFT_SUCCESS, "%s: device plan runs", name);
    bool copied = rc == DISTFFT_SUCCESS && copy_back(&device, &copy, bytes);
    int64_t points = test_product(3, c->shape);
    test_case(&suite, copied && memcmp(copy.in, host.in, in_bytes) == 0, "%s: input preserved", name);
    test_case(&suite, copied && test_close(c->precision, out_bytes, host.out, copy.out, points),
              "%s: forward matches the host plan", name);
    test_case(&suite, copied && test_close(c->precision, in_bytes, host.back, copy.back, points),
              "%s: backward matches the host plan", name);
    test_case(&suite, distfft_plan_work_bytes(device_plan) >= distfft_plan_work_bytes(host_plan),
              "%s: work_bytes %zu, at least the host plan's %zu (and cuFFT's area)", name,
              distfft_plan_work_bytes(device_plan), distfft_plan_work_bytes(host_plan));
    free_host(&host);
    free_host(&copy);
    free_device(&device);
}

static void test_config(const config *c)
{
    char name[160], shape[64];
    snprintf(name, sizeof name, "%s %s %s batch %lld%s%s", distfft_kind_name(c->last),
             c->precision == DISTFFT_FLOAT ? "float" : "double", test_shape_string(3, c->shape, shape, sizeof shape),
             (long long)c->batch, P > 1 ? " " : "", P > 1 ? distfft_method_name(device_method) : "");
    distfft_options host_options, device_options;
    options_for(c, DISTFFT_MEMORY_HOST, &host_options);
    options_for(c, DISTFFT_MEMORY_CUDA, &device_options);
    distfft_plan host_plan = NULL, device_plan = NULL;
    char host_name[200];
    snprintf(host_name, sizeof host_name, "%s on the host", name);
    bool made = test_created(&suite, distfft_plan_create(MPI_COMM_WORLD, 3, c->shape, c->precision,
                                                         &host_options, &host_plan), host_name);
    made &= test_created(&suite, distfft_plan_create(MPI_COMM_WORLD, 3, c->shape, c->precision,
                                                     &device_options, &device_plan), name);
    if (made) compare(c, name, host_plan, device_plan);
    distfft_plan_destroy(&device_plan);
    distfft_plan_destroy(&host_plan);
}

/* The device memory a plan takes at create: at least its work_bytes. Run
 * first, before any plan was released (a released plan's memory may go
 * back while the next one is made). Ranks sharing one device only add to
 * the drop each sees. */
static void test_work_memory(void)
{
    const config c = {{48, 40, 36}, DISTFFT_R2C, DISTFFT_DOUBLE, 2};
    distfft_options options;
    options_for(&c, DISTFFT_MEMORY_CUDA, &options);
    size_t free_before = 0, free_after = 0, total = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    bool measured = cudaMemGetInfo(&free_before, &total) == cudaSuccess;
    distfft_plan plan = NULL;
    if (!test_created(&suite, distfft_plan_create(MPI_COMM_WORLD, 3, c.shape, c.precision, &options, &plan),
                      "work memory plan"))
        return;
    measured &= cudaMemGetInfo(&free_after, &total) == cudaSuccess;
    size_t work = distfft_plan_work_bytes(plan);
    test_case(&suite, work > 0, "work_bytes of a batched r2c device plan is not zero (%zu)", work);
    size_t drop = free_before > free_after ? free_before - free_after : 0;
    if (measured && drop < work) test_detail(&suite, "device memory dropped by %zu, work_bytes %zu", drop, work);
    test_case(&suite, measured && drop >= work, "the device plan's work memory is on the device");
    distfft_plan_destroy(&plan);
}

/* On one rank a device plan is one cuFFT 3-D plan: its work_bytes counts
 * at least the work area cuFFT's own 3-D plan of the array asks for,
 * beside the host twin's buffers. */
static void test_cufft_work_area(void)
{
    if (P != 1) return;
    const config c = {{64, 64, 64}, DISTFFT_C2C, DISTFFT_DOUBLE, 1};
    distfft_options host_options, device_options;
    options_for(&c, DISTFFT_MEMORY_HOST, &host_options);
    options_for(&c, DISTFFT_MEMORY_CUDA, &device_options);
    distfft_plan host_plan = NULL, device_plan = NULL;
    bool made = test_created(&suite, distfft_plan_create(MPI_COMM_WORLD, 3, c.shape, c.precision,
                                                         &device_options, &device_plan), "cuFFT work area");
    made &= test_created(&suite, distfft_plan_create(MPI_COMM_WORLD, 3, c.shape, c.precision, &host_options,
                                                     &host_plan), "cuFFT work area, host");
    cufftHandle handle;
    size_t estimate = 0;
    bool asked = cufftCreate(&handle) == CUFFT_SUCCESS;
    if (asked) {
        asked = cufftSetAutoAllocation(handle, 0) == CUFFT_SUCCESS &&
                cufftMakePlan3d(handle, 64, 64, 64, CUFFT_Z2Z, &estimate) == CUFFT_SUCCESS;
        cufftDestroy(handle);
    }
    test_case(&suite, asked, "cuFFT's own 3-D plan says its work area");
    if (made && asked) {
        size_t device = distfft_plan_work_bytes(device_plan), host = distfft_plan_work_bytes(host_plan);
        test_case(&suite, device >= host + estimate, "work_bytes %zu >= the host plan's %zu + cuFFT's %zu",
                  device, host, estimate);
    }
    distfft_plan_destroy(&device_plan);
    distfft_plan_destroy(&host_plan);
}

/* Step times after one forward run waited for: every step timed, and on
 * one rank (wholly stream-ordered: the call returns at once) their sum
 * near the run's wall time with the wait, not the enqueueing's. */
static void test_step_times(void)
{
    const config c = {{256, 256, 256}, DISTFFT_C2C, DISTFFT_DOUBLE, 1};
    distfft_options options;
    options_for(&c, DISTFFT_MEMORY_CUDA, &options);
    distfft_plan plan = NULL;
    if (!test_created(&suite, distfft_plan_create(MPI_COMM_WORLD, 3, c.shape, c.precision, &options, &plan),
                      "step times"))
        return;
    size_t in_bytes, out_bytes, bytes;
    block_bytes(plan, &c, &in_bytes, &out_bytes, &bytes);
    arrays device = {device_alloc(bytes), device_alloc(bytes), device_alloc(bytes)};
    bool ready = device.in && device.out && device.back && cudaMemset(device.in, 0, bytes) == cudaSuccess;
    int rc = ready ? run_device(plan, &device) : DISTFFT_ERR_MEMORY; /* warm-up */
    if (rc == DISTFFT_SUCCESS) rc = distfft_plan_reset_timings(plan);
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    if (rc == DISTFFT_SUCCESS) rc = distfft_plan_execute(plan, device.in, device.out, DISTFFT_FORWARD);
    if (rc == DISTFFT_SUCCESS && cudaDeviceSynchronize() != cudaSuccess) rc = CUDA_FAILED;
    double wall = MPI_Wtime() - start, sum = 0.0;
    test_case(&suite, rc == DISTFFT_SUCCESS, "step times: the plan runs");
    bool every = true;
    for (int s = 0; s < distfft_plan_step_count(plan, DISTFFT_FORWARD); s++) {
        distfft_step info;
        distfft_plan_step(plan, DISTFFT_FORWARD, s, &info);
        every = every && info.seconds > 0.0 && info.executions == 1;
        sum += info.seconds;
    }
    test_case(&suite, every, "step times: every step of the run timed");
    if (P == 1) {
        if (!(sum > 0.5 * wall && sum <= wall + 1e-4)) test_detail(&suite, "steps %.6f s, run %.6f s", sum, wall);
        test_case(&suite, sum > 0.5 * wall && sum <= wall + 1e-4,
                  "step times: the device's work, not its enqueueing (%.3f of the run)", wall > 0 ? sum / wall : 0);
    }
    free_device(&device);
    distfft_plan_destroy(&plan);
}

/* Execute with rank `who` (every rank when -1) passing `odd` arrays and
 * the others `usual`; expect `code` on every rank. */
static void expect_execute(distfft_plan plan, arrays *usual, arrays *odd, int who, int code, const char *name)
{
    arrays *mine = who < 0 || who == me ? odd : usual;
    int rc = distfft_plan_execute(plan, mine->in, mine->out, DISTFFT_FORWARD);
    if (rc == DISTFFT_SUCCESS && cudaDeviceSynchronize() != cudaSuccess) rc = CUDA_FAILED;
    if (rc != code) test_detail(&suite, "%s: code %d: %s", name, rc, distfft_last_error());
    test_case(&suite, rc == code, "%s: %s on every rank", name, distfft_error_string(code));
}

static void test_pointer_check(void)
{
    const config c = {{12, 10, 8}, DISTFFT_C2C, DISTFFT_DOUBLE, 1};
    distfft_options host_options, device_options;
    options_for(&c, DISTFFT_MEMORY_HOST, &host_options);
    options_for(&c, DISTFFT_MEMORY_CUDA, &device_options);
    distfft_plan host_plan = NULL, device_plan = NULL;
    bool made = test_created(&suite, distfft_plan_create(MPI_COMM_WORLD, 3, c.shape, c.precision,
                                                         &device_options, &device_plan), "pointer check");
    made &= test_created(&suite, distfft_plan_create(MPI_COMM_WORLD, 3, c.shape, c.precision, &host_options,
                                                     &host_plan), "pointer check, host");
    if (made) {
        size_t in_bytes, out_bytes, bytes;
        block_bytes(device_plan, &c, &in_bytes, &out_bytes, &bytes);
        arrays host, device = {device_alloc(bytes), device_alloc(bytes), device_alloc(bytes)};
        host_arrays(&host, bytes);
        int odd = P > 1 ? 1 : 0;
        expect_execute(device_plan, &device, &host, -1, DISTFFT_ERR_ARGUMENT, "host arrays to a device plan");
        expect_execute(device_plan, &device, &host, odd, DISTFFT_ERR_ARGUMENT,
                       "host arrays to a device plan on one rank");
        expect_execute(host_plan, &host, &device, -1, DISTFFT_ERR_ARGUMENT, "device arrays to a host plan");
        expect_execute(device_plan, &host, &device, -1, DISTFFT_SUCCESS, "the device plan runs after");
        free_host(&host);
        free_device(&device);
    }
    distfft_plan_destroy(&device_plan);
    distfft_plan_destroy(&host_plan);
}

/* Halos, gather/scatter and array files take host memory: a device
 * pointer is DISTFFT_ERR_ARGUMENT on every rank (this process has loaded
 * the CUDA driver, so it can be told), and nothing is moved or written. */
static void test_host_calls(void)
{
    const int64_t shape[3] = {12, 10, 8};
    const int grid_dims[1] = {P};
    const int distributed_by[3] = {0, -1, -1};
    const int64_t widths[3] = {1, 1, 1};
    const int periodic[3] = {1, 1, 1};
    distfft_layout layout = NULL;
    distfft_halo halo = NULL;
    bool made = test_created(&suite, distfft_layout_from_grid(MPI_COMM_WORLD, 3, shape, 1, grid_dims, distributed_by,
                                                              &layout), "host calls: layout");
    if (made)
        made = test_created(&suite, distfft_layout_halo_create(layout, DISTFFT_COMPLEX_DOUBLE, widths, widths,
                                                               periodic, 1, DISTFFT_HALO_DATATYPES, &halo),
                            "host calls: halo");
    if (made) {
        size_t padded = (size_t)distfft_halo_padded_block(halo, NULL, NULL) * 16;
        size_t whole = (size_t)(shape[0] * shape[1] * shape[2]) * 16;
        void *device = device_alloc(padded > whole ? padded : whole);
        void *host = distfft_malloc(whole);
        int rc = distfft_halo_execute(halo, device);
        test_case(&suite, rc == DISTFFT_ERR_ARGUMENT, "halo execute refuses device memory: %s", distfft_last_error());
        rc = distfft_layout_gather(layout, DISTFFT_COMPLEX_DOUBLE, 1, device, 0, host);
        test_case(&suite, rc == DISTFFT_ERR_ARGUMENT, "gather refuses device memory: %s", distfft_last_error());
        rc = distfft_layout_scatter(layout, DISTFFT_COMPLEX_DOUBLE, 1, host, 0, device);
        test_case(&suite, rc == DISTFFT_ERR_ARGUMENT, "scatter refuses device memory: %s", distfft_last_error());
        rc = distfft_layout_array_write(layout, "test_device_refused.dfa", DISTFFT_COMPLEX_DOUBLE, 1, device);
        test_case(&suite, rc == DISTFFT_ERR_ARGUMENT, "array write refuses device memory: %s", distfft_last_error());
        distfft_free(host);
        cudaFree(device);
    }
    distfft_halo_destroy(&halo);
    distfft_layout_destroy(&layout);
}

/* Whether a device plan with `nccl` can be made here (collective): where
 * NCCL is absent or refuses these ranks, rank 0 prints why, and the
 * nccl cases are a failure only when DISTFFT_TEST_NCCL=1 asks for them. */
static bool nccl_serves(const config *c)
{
    distfft_options options;
    options_for(c, DISTFFT_MEMORY_CUDA, &options);
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(MPI_COMM_WORLD, 3, c->shape, c->precision, &options, &plan);
    if (rc == DISTFFT_SUCCESS) {
        distfft_plan_destroy(&plan);
        return true;
    }
    const char *required = getenv("DISTFFT_TEST_NCCL");
    if (me == 0) printf("test_device: nccl not run: %s\n", distfft_last_error());
    test_case(&suite, !(required && strcmp(required, "1") == 0) && rc == DISTFFT_ERR_UNSUPPORTED,
              "nccl: refused here with DISTFFT_ERR_UNSUPPORTED (asked for: DISTFFT_TEST_NCCL=1)");
    return false;
}

/* cuda-ipc needs every rank on one node: on pretended nodes of one rank
 * each it is refused on every rank, before any device memory is mapped;
 * on this node a plan of it runs, and a release then distfft_collect
 * frees it (its buffers wait for the collect's window free). */
static void test_ipc_lifetime(void)
{
    const config c = {{12, 10, 8}, DISTFFT_C2C, DISTFFT_DOUBLE, 1};
    distfft_options options;
    options_for(&c, DISTFFT_MEMORY_CUDA, &options);
    options.method = DISTFFT_METHOD_CUDA_IPC;
    options.node_size = 1;
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(MPI_COMM_WORLD, 3, c.shape, c.precision, &options, &plan);
    bool named = rc == DISTFFT_ERR_UNSUPPORTED && strstr(distfft_last_error(), "cuda-ipc") != NULL;
    if (!named) test_detail(&suite, "cuda-ipc on nodes of one rank: code %d: %s", rc, distfft_last_error());
    test_case(&suite, named && plan == NULL, "cuda-ipc on nodes of one rank: refused on every rank");
    options.node_size = 0;
    if (!test_created(&suite, distfft_plan_create(MPI_COMM_WORLD, 3, c.shape, c.precision, &options, &plan),
                      "cuda-ipc plan to release"))
        return;
    size_t in_bytes, out_bytes, bytes;
    block_bytes(plan, &c, &in_bytes, &out_bytes, &bytes);
    arrays device = {device_alloc(bytes), device_alloc(bytes), device_alloc(bytes)};
    rc = device.in && device.out && device.back ? run_device(plan, &device) : CUDA_FAILED;
    test_case(&suite, rc == DISTFFT_SUCCESS, "cuda-ipc plan runs before its release");
    rc = distfft_plan_release(&plan);
    test_case(&suite, rc == DISTFFT_SUCCESS && plan == NULL, "cuda-ipc plan released");
    rc = distfft_collect(MPI_COMM_WORLD);
    test_case(&suite, rc == DISTFFT_SUCCESS && cudaDeviceSynchronize() == cudaSuccess,
              "distfft_collect frees the released cuda-ipc plan");
    free_device(&device);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (!device_everywhere()) {
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0) printf("test_device: skipped: no usable CUDA device on some rank\n");
        MPI_Finalize();
        return SKIP;
    }
    test_suite_init(&suite, "test_device", MPI_COMM_WORLD);
    me = suite.rank;
    P = suite.size;
    test_work_memory();
    test_pointer_check();
    test_host_calls();
    test_cufft_work_area();
    test_step_times();
    static const config configs[] = {
        {{8, 6, 4}, DISTFFT_C2C, DISTFFT_DOUBLE, 1},   {{8, 6, 4}, DISTFFT_R2C, DISTFFT_DOUBLE, 1},
        {{7, 5, 3}, DISTFFT_C2C, DISTFFT_DOUBLE, 1},   {{7, 5, 3}, DISTFFT_R2C, DISTFFT_FLOAT, 1},
        {{11, 13, 7}, DISTFFT_R2C, DISTFFT_DOUBLE, 3}, {{11, 13, 7}, DISTFFT_C2C, DISTFFT_FLOAT, 2},
        {{10, 9, 6}, DISTFFT_C2C, DISTFFT_FLOAT, 1},   {{10, 9, 6}, DISTFFT_R2C, DISTFFT_DOUBLE, 2},
        {{32, 24, 20}, DISTFFT_R2C, DISTFFT_FLOAT, 1}, {{64, 64, 64}, DISTFFT_C2C, DISTFFT_DOUBLE, 1},
        {{64, 64, 64}, DISTFFT_R2C, DISTFFT_FLOAT, 2},
    };
    static const distfft_method methods[] = {DISTFFT_METHOD_STAGED, DISTFFT_METHOD_CUDA_IPC};
    for (int m = 0; m < (P > 1 ? 2 : 1); m++) {
        device_method = methods[m];
        for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) test_config(&configs[i]);
    }
    if (P > 1) test_ipc_lifetime();
    device_method = DISTFFT_METHOD_NCCL;
    if (P > 1 && nccl_serves(&configs[0]))
        for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) test_config(&configs[i]);
    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
