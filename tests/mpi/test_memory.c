/*
 * test_memory.c -- the memory kind of a plan (distfft_options.memory).
 *
 * Where no CUDA backend can serve plans -- the library built without it
 * (build/), or built with it (build-cuda/) on a machine with no device --
 * a request for device memory is refused with DISTFFT_ERR_UNSUPPORTED on
 * every rank, whether every rank asked or only one, with one message
 * naming the refusing rank and why; the out-handle is NULL and the
 * caller's options are untouched. A device present is not this test's
 * business: set DISTFFT_TEST_DEVICE=1 there and the refusal cases are
 * skipped. With DISTFFT_TEST_CUDA_LIBRARY=1 (a build with the CUDA
 * backend, no device) the refusal must come from the loaded backend's
 * device check, not from a library that failed to load. Bad
 * memory arguments (an unknown kind, a stream with host memory) are
 * DISTFFT_ERR_ARGUMENT everywhere, and a host plan asked for explicitly
 * runs as before. Reshapes (distfft_reshape_options.memory, .stream) and
 * plans in the caller's layouts answer alike; the reshape options'
 * defaults are host memory and no stream, and a zeroed struct still means
 * alltoallw, estimate, host memory. The device-only methods nccl and
 * cuda-ipc are refused the same way: with device memory where no backend
 * serves them, and with host memory (which they never move) on every
 * rank, saying why.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static test_suite suite;
static int me, P;

static const int64_t shape[3] = {8, 6, 4};

/* Create with `options` on every rank (rank `who` alone passing `odd`
 * when who >= 0); expect `code` on every rank, a NULL handle, the options
 * untouched and a message naming rank `who` (or any rank when -1). */
static void expect_refusal(const distfft_options *options, const distfft_options *odd, int who, int code,
                           bool layouts, const char *name)
{
    const distfft_options *mine = who == me ? odd : options;
    distfft_options before = *mine;
    char not_a_plan;
    distfft_plan plan = (distfft_plan)(void *)&not_a_plan;
    int rc;
    char message[1024];
    if (layouts) {
        distfft_layout layout = NULL;
        int grid[1] = {P}, by[3] = {0, -1, -1};
        rc = distfft_layout_from_grid(MPI_COMM_WORLD, 3, shape, 1, grid, by, &layout);
        test_case(&suite, rc == DISTFFT_SUCCESS, "%s: layout", name);
        rc = distfft_plan_create_layouts(MPI_COMM_WORLD, 3, shape, DISTFFT_DOUBLE, mine, layout, layout, &plan);
        snprintf(message, sizeof message, "%s", distfft_last_error()); /* before the destroy clears it */
        distfft_layout_destroy(&layout);
    } else {
        rc = distfft_plan_create(MPI_COMM_WORLD, 3, shape, DISTFFT_DOUBLE, mine, &plan);
        snprintf(message, sizeof message, "%s", distfft_last_error());
    }
    if (rc != code) test_detail(&suite, "%s: code %d (%s): %s", name, rc, distfft_error_string(rc), message);
    test_case(&suite, rc == code, "%s: %s on every rank", name, distfft_error_string(code));
    test_case(&suite, plan == NULL, "%s: handle NULL", name);
    test_case(&suite, memcmp(&before, mine, sizeof before) == 0, "%s: options untouched", name);
    bool named = who >= 0 ? test_message_names_rank(message, who) : strstr(message, "rank") != NULL;
    if (!named) test_detail(&suite, "%s: message does not name rank %d: \"%s\"", name, who, message);
    test_case(&suite, named, "%s: the message names the rank", name);
    if (rc == DISTFFT_SUCCESS && plan) distfft_plan_destroy(&plan);
}

/* distfft_reshape_create with `options` (rank `who` alone passing `odd`
 * when who >= 0) between two layouts of one array: `code` on every rank,
 * a NULL handle, and a message naming rank `who` (any rank when -1). */
static void expect_reshape_refusal(const distfft_reshape_options *options, const distfft_reshape_options *odd,
                                   int who, int code, const char *name)
{
    int grid[1] = {P}, rows[3] = {0, -1, -1}, columns[3] = {-1, 0, -1};
    distfft_layout slabs = NULL, pencils = NULL;
    int rc = distfft_layout_from_grid(MPI_COMM_WORLD, 3, shape, 1, grid, rows, &slabs);
    if (rc == DISTFFT_SUCCESS) rc = distfft_layout_from_grid(MPI_COMM_WORLD, 3, shape, 1, grid, columns, &pencils);
    test_case(&suite, rc == DISTFFT_SUCCESS, "%s: layouts", name);
    char not_a_reshape;
    distfft_reshape reshape = (distfft_reshape)(void *)&not_a_reshape;
    rc = distfft_reshape_create(slabs, pencils, DISTFFT_COMPLEX_DOUBLE, 1, who == me ? odd : options, &reshape);
    char message[1024];
    snprintf(message, sizeof message, "%s", distfft_last_error());
    if (rc != code) test_detail(&suite, "%s: code %d (%s): %s", name, rc, distfft_error_string(rc), message);
    test_case(&suite, rc == code, "%s: %s on every rank", name, distfft_error_string(code));
    test_case(&suite, reshape == NULL, "%s: handle NULL", name);
    bool named = who >= 0 ? test_message_names_rank(message, who) : strstr(message, "rank") != NULL;
    if (!named) test_detail(&suite, "%s: message does not name rank %d: \"%s\"", name, who, message);
    test_case(&suite, named, "%s: the message names the rank", name);
    if (code == DISTFFT_ERR_UNSUPPORTED)
        test_case(&suite, strstr(message, "cuda") != NULL, "%s: the refusal says why (\"%s\")", name, message);
    if (rc == DISTFFT_SUCCESS && reshape) distfft_reshape_destroy(&reshape);
    distfft_layout_destroy(&pencils);
    distfft_layout_destroy(&slabs);
}

/* The reshape options' defaults, and a struct zeroed as older callers
 * fill it: alltoallw, untimed, in host memory, and it runs. */
static void test_reshape_options(void)
{
    distfft_reshape_options options;
    memset(&options, 0xff, sizeof options);
    distfft_reshape_options_init(&options);
    test_case(&suite, options.method == DISTFFT_METHOD_AUTO && options.rigor == DISTFFT_MEASURE &&
                      options.memory == DISTFFT_MEMORY_HOST && options.stream == NULL,
              "reshape options: defaults");
    memset(&options, 0, sizeof options);
    int grid[1] = {P}, rows[3] = {0, -1, -1}, columns[3] = {-1, 0, -1};
    distfft_layout slabs = NULL, pencils = NULL;
    distfft_reshape reshape = NULL;
    int rc = distfft_layout_from_grid(MPI_COMM_WORLD, 3, shape, 1, grid, rows, &slabs);
    if (rc == DISTFFT_SUCCESS) rc = distfft_layout_from_grid(MPI_COMM_WORLD, 3, shape, 1, grid, columns, &pencils);
    if (rc == DISTFFT_SUCCESS) rc = distfft_reshape_create(slabs, pencils, DISTFFT_REAL_DOUBLE, 1, &options, &reshape);
    test_case(&suite, rc == DISTFFT_SUCCESS && distfft_reshape_method(reshape) == DISTFFT_METHOD_ALLTOALLW,
              "reshape options zeroed: alltoallw in host memory");
    double in[8 * 6 * 4], out[8 * 6 * 4];
    for (int i = 0; i < 8 * 6 * 4; i++) in[i] = i;
    if (rc == DISTFFT_SUCCESS) rc = distfft_reshape_execute(reshape, in, out, DISTFFT_FORWARD);
    test_case(&suite, rc == DISTFFT_SUCCESS, "reshape options zeroed: it runs");
    distfft_reshape_destroy(&reshape);
    distfft_layout_destroy(&pencils);
    distfft_layout_destroy(&slabs);
}

static void test_names(void)
{
    distfft_memory memory = DISTFFT_MEMORY_HOST;
    test_case(&suite, strcmp(distfft_memory_name(DISTFFT_MEMORY_HOST), "host") == 0 &&
                      strcmp(distfft_memory_name(DISTFFT_MEMORY_CUDA), "cuda") == 0,
              "memory names");
    test_case(&suite, distfft_memory_from_name("cuda", &memory) == DISTFFT_SUCCESS &&
                      memory == DISTFFT_MEMORY_CUDA, "memory from name");
    test_case(&suite, distfft_memory_from_name("gpu", &memory) == DISTFFT_ERR_ARGUMENT, "unknown memory name");
    distfft_options options;
    distfft_options_init(&options);
    test_case(&suite, options.memory == DISTFFT_MEMORY_HOST && options.stream == NULL, "default: host memory");
}

static void test_host_plan(void)
{
    distfft_options options;
    distfft_options_init(&options);
    options.method = DISTFFT_METHOD_ALLTOALLW;
    options.rigor = DISTFFT_ESTIMATE;
    options.memory = DISTFFT_MEMORY_HOST;
    distfft_plan plan = NULL;
    if (!test_created(&suite, distfft_plan_create(MPI_COMM_WORLD, 3, shape, DISTFFT_DOUBLE, &options, &plan),
                      "host plan"))
        return;
    size_t bytes = (size_t)distfft_plan_local_size(plan) * 16;
    void *in = distfft_malloc(bytes), *out = distfft_malloc(bytes);
    memset(in, 0, bytes);
    int rc = distfft_plan_execute(plan, in, out, DISTFFT_FORWARD);
    if (rc == DISTFFT_SUCCESS) rc = distfft_plan_execute(plan, out, in, DISTFFT_BACKWARD);
    test_case(&suite, rc == DISTFFT_SUCCESS, "host plan runs");
    distfft_free(in);
    distfft_free(out);
    distfft_plan_destroy(&plan);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite_init(&suite, "test_memory", MPI_COMM_WORLD);
    me = suite.rank;
    P = suite.size;
    int odd_rank = P > 1 ? 1 : 0;
    const char *device = getenv("DISTFFT_TEST_DEVICE");

    test_names();
    distfft_options host, cuda, unknown, streamed, nccl_host, nccl_cuda;
    distfft_options_init(&host);
    host.rigor = DISTFFT_ESTIMATE;
    cuda = unknown = streamed = host;
    cuda.memory = DISTFFT_MEMORY_CUDA;
    unknown.memory = (distfft_memory)7;
    streamed.stream = &streamed; /* any non-NULL pointer: never used */
    distfft_reshape_options reshape_host, reshape_cuda, reshape_unknown, reshape_streamed;
    distfft_reshape_options_init(&reshape_host);
    reshape_host.rigor = DISTFFT_ESTIMATE;
    reshape_cuda = reshape_unknown = reshape_streamed = reshape_host;
    reshape_cuda.memory = DISTFFT_MEMORY_CUDA;
    reshape_unknown.memory = (distfft_memory)7;
    reshape_streamed.stream = &reshape_streamed;
    nccl_host = host;
    nccl_host.method = DISTFFT_METHOD_NCCL;
    nccl_cuda = cuda;
    nccl_cuda.method = DISTFFT_METHOD_NCCL;
    distfft_options ipc_device = cuda, ipc_host = host; /* a device-only method, asked for by name */
    ipc_device.method = ipc_host.method = DISTFFT_METHOD_CUDA_IPC;
    if (!(device && strcmp(device, "1") == 0)) {
        expect_refusal(&cuda, &cuda, -1, DISTFFT_ERR_UNSUPPORTED, false, "cuda on every rank");
        expect_refusal(&host, &cuda, odd_rank, DISTFFT_ERR_UNSUPPORTED, false, "cuda on one rank");
        const char *message = distfft_last_error();
        test_case(&suite, strstr(message, "cuda") != NULL, "the refusal says why (\"%s\")", message);
        /* built with the CUDA backend: the library loaded, and the device check refused */
        const char *library = getenv("DISTFFT_TEST_CUDA_LIBRARY");
        if (library && strcmp(library, "1") == 0)
            test_case(&suite, strstr(message, "no usable CUDA device") != NULL,
                      "the CUDA backend loads and finds no device");
        expect_refusal(&cuda, &cuda, -1, DISTFFT_ERR_UNSUPPORTED, true, "cuda with layouts");
        expect_refusal(&host, &cuda, odd_rank, DISTFFT_ERR_UNSUPPORTED, true, "cuda with layouts on one rank");
        expect_reshape_refusal(&reshape_cuda, &reshape_cuda, -1, DISTFFT_ERR_UNSUPPORTED, "reshape cuda");
        expect_reshape_refusal(&reshape_host, &reshape_cuda, odd_rank, DISTFFT_ERR_UNSUPPORTED,
                               "reshape cuda on one rank");
        expect_refusal(&nccl_cuda, &nccl_cuda, -1, DISTFFT_ERR_UNSUPPORTED, false, "nccl on device memory");
        message = distfft_last_error();
        test_case(&suite, strstr(message, "cuda") != NULL, "nccl without a device backend says why (\"%s\")",
                  message);
        expect_refusal(&ipc_device, &ipc_device, -1, DISTFFT_ERR_UNSUPPORTED, false, "cuda-ipc without a device");
    }
    if (P > 1) { /* one rank has no exchange to refuse it */
        expect_refusal(&ipc_host, &ipc_host, -1, DISTFFT_ERR_UNSUPPORTED, false, "cuda-ipc on host memory");
        expect_refusal(&nccl_host, &nccl_host, -1, DISTFFT_ERR_UNSUPPORTED, false, "nccl on host memory");
        const char *message = distfft_last_error();
        test_case(&suite, strstr(message, "nccl") && strstr(message, "host memory"),
                  "nccl on host memory says why (\"%s\")", message);
    }
    expect_reshape_refusal(&reshape_unknown, &reshape_unknown, -1, DISTFFT_ERR_ARGUMENT, "reshape unknown memory");
    expect_reshape_refusal(&reshape_streamed, &reshape_streamed, -1, DISTFFT_ERR_ARGUMENT,
                           "reshape stream with host memory");
    expect_reshape_refusal(&reshape_host, &reshape_streamed, odd_rank, DISTFFT_ERR_ARGUMENT,
                           "reshape stream with host memory on one rank");
    test_reshape_options();
    expect_refusal(&unknown, &unknown, -1, DISTFFT_ERR_ARGUMENT, false, "unknown memory");
    expect_refusal(&host, &unknown, odd_rank, DISTFFT_ERR_ARGUMENT, false, "unknown memory on one rank");
    expect_refusal(&streamed, &streamed, -1, DISTFFT_ERR_ARGUMENT, false, "stream with host memory");
    test_host_plan();

    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
