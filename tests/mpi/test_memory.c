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
 * runs as before. cuda-ipc, a device method, is refused on every rank
 * without a device, and with host memory.
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
    distfft_options host, cuda, unknown, streamed;
    distfft_options_init(&host);
    host.rigor = DISTFFT_ESTIMATE;
    cuda = unknown = streamed = host;
    cuda.memory = DISTFFT_MEMORY_CUDA;
    unknown.memory = (distfft_memory)7;
    streamed.stream = &streamed; /* any non-NULL pointer: never used */
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
        expect_refusal(&ipc_device, &ipc_device, -1, DISTFFT_ERR_UNSUPPORTED, false, "cuda-ipc without a device");
    }
    if (P > 1) expect_refusal(&ipc_host, &ipc_host, -1, DISTFFT_ERR_UNSUPPORTED, false, "cuda-ipc on host memory");
    expect_refusal(&cuda, &cuda, -1, DISTFFT_ERR_UNSUPPORTED, true, "cuda with layouts");
    expect_refusal(&unknown, &unknown, -1, DISTFFT_ERR_ARGUMENT, false, "unknown memory");
    expect_refusal(&host, &unknown, odd_rank, DISTFFT_ERR_ARGUMENT, false, "unknown memory on one rank");
    expect_refusal(&streamed, &streamed, -1, DISTFFT_ERR_ARGUMENT, false, "stream with host memory");
    test_host_plan();

    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
