/*
 * test_device_layouts.c -- reshapes and plans in the caller's layouts in
 * device memory (distfft_reshape_options.memory and
 * distfft_options.memory = DISTFFT_MEMORY_CUDA), against the same calls on
 * the host.
 *
 * A reshape moves elements without arithmetic, so a device reshape's
 * output must equal the host reshape's byte for byte, forward and
 * backward: slabs along axis 0 to slabs along axis 1 of a shape that
 * splits unevenly, complex double and real float, one field and a batch,
 * the method timed (AUTO) and untimed (ESTIMATE), on the default stream
 * and on a stream of the test's. A plan in the caller's layouts on the
 * device (its ends reshaped on the device) must match its host twin
 * within the FFT tolerance. Host arrays handed to a device reshape are
 * DISTFFT_ERR_ARGUMENT on every rank.
 *
 * Where this process sees no device every rank exits with 77, CTest's
 * skip code (test_memory covers the refusals without one).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "test_support.h"

enum { SKIP = 77 };

static test_suite suite;
static int me, P;

static const int64_t shape[3] = {10, 9, 7};

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

/* Slabs of the array along `axis` over all ranks (collective). */
static distfft_layout slabs(int axis)
{
    int grid[1] = {P}, by[3] = {-1, -1, -1};
    by[axis] = 0;
    distfft_layout layout = NULL;
    if (distfft_layout_from_grid(MPI_COMM_WORLD, 3, shape, 1, grid, by, &layout) != DISTFFT_SUCCESS) return NULL;
    return layout;
}

/* Elements of this rank's box of a layout. */
static int64_t box_count(distfft_layout layout)
{
    int64_t local[3];
    distfft_layout_box(layout, me, NULL, local);
    return test_product(3, local);
}

/* Fill this rank's box of `layout` with the test's function of the global index. */
static void fill_box(distfft_layout layout, distfft_type type, int64_t batch, void *data)
{
    int64_t local[3], start[3];
    distfft_layout_box(layout, me, start, local);
    test_fill(type, 3, shape, local, start, batch, 0, data);
}

typedef struct {
    distfft_type type;
    int64_t batch;
    distfft_rigor rigor;
    bool own_stream;
} reshape_case;

/* One direction of both reshapes on the same data: the device's output
 * copied back must equal the host's. */
static bool same_move(distfft_reshape host, distfft_reshape device, const void *in, size_t in_bytes,
                      size_t out_bytes, int direction, cudaStream_t stream, const char *name)
{
    void *host_out = test_guarded_alloc(out_bytes + 1, 0), *copy = test_guarded_alloc(out_bytes + 1, 0);
    void *device_in = device_alloc(in_bytes), *device_out = device_alloc(out_bytes);
    bool ready = device_in && device_out && cudaMemcpy(device_in, in, in_bytes, cudaMemcpyHostToDevice) == cudaSuccess;
    int rc = distfft_reshape_execute(host, in, host_out, direction);
    int device_rc = ready ? distfft_reshape_execute(device, device_in, device_out, direction) : DISTFFT_ERR_MEMORY;
    if (device_rc != DISTFFT_SUCCESS) test_detail(&suite, "%s: %s", name, distfft_last_error());
    bool copied = device_rc == DISTFFT_SUCCESS && cudaStreamSynchronize(stream) == cudaSuccess &&
                  cudaMemcpy(copy, device_out, out_bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
    bool same = rc == DISTFFT_SUCCESS && copied && memcmp(copy, host_out, out_bytes) == 0;
    distfft_free(host_out);
    distfft_free(copy);
    cudaFree(device_in);
    cudaFree(device_out);
    return same;
}

static void test_reshape(const reshape_case *c, distfft_layout from, distfft_layout to)
{
    char name[160];
    snprintf(name, sizeof name, "reshape %s batch %lld %s%s", distfft_type_name(c->type), (long long)c->batch,
             c->rigor == DISTFFT_ESTIMATE ? "estimate" : "auto", c->own_stream ? " on a stream" : "");
    cudaStream_t stream = NULL;
    if (c->own_stream) test_case(&suite, cudaStreamCreate(&stream) == cudaSuccess, "%s: stream", name);
    distfft_reshape_options host_options, device_options;
    distfft_reshape_options_init(&host_options);
    host_options.rigor = DISTFFT_ESTIMATE;
    distfft_reshape_options_init(&device_options);
    device_options.rigor = c->rigor;
    device_options.memory = DISTFFT_MEMORY_CUDA;
    device_options.stream = stream;
    distfft_reshape host = NULL, device = NULL;
    bool made = test_created(&suite, distfft_reshape_create(from, to, c->type, c->batch, &host_options, &host),
                             "host reshape");
    made &= test_created(&suite, distfft_reshape_create(from, to, c->type, c->batch, &device_options, &device), name);
    if (made) {
        test_case(&suite, distfft_reshape_method(device) == DISTFFT_METHOD_STAGED || c->rigor != DISTFFT_ESTIMATE,
                  "%s: untimed, the first method that applies to device memory", name);
        size_t element = distfft_type_size(c->type);
        size_t in_bytes = (size_t)(c->batch * box_count(from)) * element;
        size_t out_bytes = (size_t)(c->batch * box_count(to)) * element;
        void *in = test_guarded_alloc(in_bytes + 1, 0), *back = test_guarded_alloc(out_bytes + 1, 0);
        fill_box(from, c->type, c->batch, in);
        fill_box(to, c->type, c->batch, back);
        test_case(&suite, same_move(host, device, in, in_bytes, out_bytes, DISTFFT_FORWARD, stream, name),
                  "%s: forward equals the host reshape's", name);
        test_case(&suite, same_move(host, device, back, out_bytes, in_bytes, DISTFFT_BACKWARD, stream, name),
                  "%s: backward equals the host reshape's", name);
        distfft_free(in);
        distfft_free(back);
    }
    distfft_reshape_destroy(&device);
    distfft_reshape_destroy(&host);
    if (stream) cudaStreamDestroy(stream);
}

/* Host arrays handed to a device reshape: refused on every rank, by
 * every rank or by one. */
static void test_reshape_pointers(distfft_layout from, distfft_layout to)
{
    distfft_reshape_options options;
    distfft_reshape_options_init(&options);
    options.rigor = DISTFFT_ESTIMATE;
    options.memory = DISTFFT_MEMORY_CUDA;
    distfft_reshape device = NULL;
    if (!test_created(&suite, distfft_reshape_create(from, to, DISTFFT_COMPLEX_DOUBLE, 1, &options, &device),
                      "pointer check reshape"))
        return;
    size_t bytes = (size_t)(test_product(3, shape) + 1) * 16;
    void *host_in = test_guarded_alloc(bytes, 0), *host_out = test_guarded_alloc(bytes, 0);
    void *device_in = device_alloc(bytes), *device_out = device_alloc(bytes);
    int rc = distfft_reshape_execute(device, host_in, host_out, DISTFFT_FORWARD);
    test_case(&suite, rc == DISTFFT_ERR_ARGUMENT, "host arrays to a device reshape: refused on every rank");
    bool odd = me == (P > 1 ? 1 : 0);
    rc = distfft_reshape_execute(device, odd ? host_in : device_in, odd ? host_out : device_out, DISTFFT_FORWARD);
    test_case(&suite, rc == DISTFFT_ERR_ARGUMENT, "host arrays to a device reshape on one rank: refused on every rank");
    rc = distfft_reshape_execute(device, device_in, device_out, DISTFFT_FORWARD);
    if (rc == DISTFFT_SUCCESS) rc = cudaDeviceSynchronize() == cudaSuccess ? rc : DISTFFT_ERR_MEMORY;
    test_case(&suite, rc == DISTFFT_SUCCESS, "the device reshape runs after");
    distfft_free(host_in);
    distfft_free(host_out);
    cudaFree(device_in);
    cudaFree(device_out);
    distfft_reshape_destroy(&device);
}

/* A plan taking its input in `layout_in` (slabs along axis 1, not the
 * plan's own blocks), on the device and on the host: forward outputs
 * within the FFT tolerance, and the device's round trip too. */
static void test_plan_layouts(distfft_layout layout_in, distfft_kind last, distfft_precision precision)
{
    char name[96];
    snprintf(name, sizeof name, "plan in layouts %s %s", distfft_kind_name(last),
             precision == DISTFFT_FLOAT ? "float" : "double");
    distfft_options options;
    distfft_options_init(&options);
    options.rigor = DISTFFT_ESTIMATE;
    options.kinds[2] = last;
    distfft_plan host = NULL, device = NULL;
    bool made = test_created(&suite, distfft_plan_create_layouts(MPI_COMM_WORLD, 3, shape, precision, &options,
                                                                 layout_in, NULL, &host), "host plan in layouts");
    options.memory = DISTFFT_MEMORY_CUDA;
    made &= test_created(&suite, distfft_plan_create_layouts(MPI_COMM_WORLD, 3, shape, precision, &options,
                                                             layout_in, NULL, &device), name);
    if (made) {
        distfft_type in_type, out_type;
        int64_t in_shape[3], in_start[3], out_shape[3];
        distfft_plan_types(host, &in_type, &out_type);
        distfft_plan_input_block(host, in_shape, in_start);
        distfft_plan_output_block(host, out_shape, NULL);
        size_t in_bytes = (size_t)test_product(3, in_shape) * distfft_type_size(in_type);
        size_t out_bytes = (size_t)test_product(3, out_shape) * distfft_type_size(out_type);
        size_t bytes = (in_bytes > out_bytes ? in_bytes : out_bytes) + 1;
        void *in = test_guarded_alloc(bytes, 0), *out = test_guarded_alloc(bytes, 0);
        void *copy = test_guarded_alloc(bytes, 0), *back = test_guarded_alloc(bytes, 0);
        void *device_in = device_alloc(bytes), *device_out = device_alloc(bytes), *device_back = device_alloc(bytes);
        test_fill(in_type, 3, shape, in_shape, in_start, 1, 0, in);
        bool ready = device_in && device_out && device_back &&
                     cudaMemcpy(device_in, in, in_bytes, cudaMemcpyHostToDevice) == cudaSuccess;
        int rc = distfft_plan_execute(host, in, out, DISTFFT_FORWARD);
        int device_rc = ready ? distfft_plan_execute(device, device_in, device_out, DISTFFT_FORWARD)
                              : DISTFFT_ERR_MEMORY;
        if (device_rc == DISTFFT_SUCCESS)
            device_rc = distfft_plan_execute(device, device_out, device_back, DISTFFT_BACKWARD);
        if (device_rc != DISTFFT_SUCCESS) test_detail(&suite, "%s: %s", name, distfft_last_error());
        bool copied = device_rc == DISTFFT_SUCCESS && cudaDeviceSynchronize() == cudaSuccess &&
                      cudaMemcpy(copy, device_out, out_bytes, cudaMemcpyDeviceToHost) == cudaSuccess &&
                      cudaMemcpy(back, device_back, in_bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
        int64_t points = test_product(3, shape);
        test_case(&suite, rc == DISTFFT_SUCCESS && copied && test_close(precision, out_bytes, out, copy, points),
                  "%s: forward matches the host plan", name);
        test_case(&suite, copied && test_close(precision, in_bytes, in, back, points),
                  "%s: the round trip returns the input", name);
        distfft_free(in);
        distfft_free(out);
        distfft_free(copy);
        distfft_free(back);
        cudaFree(device_in);
        cudaFree(device_out);
        cudaFree(device_back);
    }
    distfft_plan_destroy(&device);
    distfft_plan_destroy(&host);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (!device_everywhere()) {
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0) printf("test_device_layouts: skipped: no usable CUDA device on some rank\n");
        MPI_Finalize();
        return SKIP;
    }
    test_suite_init(&suite, "test_device_layouts", MPI_COMM_WORLD);
    me = suite.rank;
    P = suite.size;
    distfft_layout rows = slabs(0), columns = slabs(1);
    test_case(&suite, rows && columns, "layouts");
    static const reshape_case cases[] = {
        {DISTFFT_COMPLEX_DOUBLE, 1, DISTFFT_ESTIMATE, false}, {DISTFFT_REAL_FLOAT, 2, DISTFFT_ESTIMATE, false},
        {DISTFFT_COMPLEX_FLOAT, 1, DISTFFT_MEASURE, false},   {DISTFFT_REAL_DOUBLE, 3, DISTFFT_ESTIMATE, true},
    };
    for (size_t i = 0; rows && columns && i < sizeof cases / sizeof cases[0]; i++)
        test_reshape(&cases[i], rows, columns);
    if (rows && columns) test_reshape_pointers(rows, columns);
    if (columns) test_plan_layouts(columns, DISTFFT_C2C, DISTFFT_DOUBLE);
    if (columns) test_plan_layouts(columns, DISTFFT_R2C, DISTFFT_FLOAT);
    distfft_layout_destroy(&columns);
    distfft_layout_destroy(&rows);
    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
