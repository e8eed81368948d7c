/*
 * test_device_pointers.c -- calls that take host memory (a host plan's
 * execute, a halo's execute and pad, gather and scatter, array files)
 * refuse a device pointer with DISTFFT_ERR_ARGUMENT on every rank, when
 * only one rank passes it, and move or write nothing; managed memory is
 * host memory to them.
 *
 * No device is needed: the "driver" is tests/support/fake_cuda_driver.c
 * (argv[1]: its path; built as libcuda.so.1), loaded here as a program
 * using CUDA would have loaded the real one, and told which host buffers
 * to call device or managed memory. This checks how the library asks the
 * driver and agrees on the answer, not anything of a device.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

static test_suite suite;
static int me, odd;

typedef void add_function(const void *pointer, size_t bytes, int managed);

static void expect(int rc, int code, const char *name)
{
    if (rc != code) test_detail(&suite, "%s: code %d: %s", name, rc, distfft_last_error());
    test_case(&suite, rc == code, "%s: %s on every rank", name, distfft_error_string(code));
}

/* The buffer rank `odd` passes, the others `usual`. */
static void *one_rank(void *usual, void *device)
{
    return me == odd ? device : usual;
}

static void test_plan(char *device, char *managed, size_t bytes)
{
    const int64_t shape[3] = {12, 10, 8};
    distfft_options options;
    distfft_options_init(&options);
    options.method = DISTFFT_METHOD_ALLTOALLW;
    distfft_plan plan = NULL;
    if (test_created(&suite, distfft_plan_create(MPI_COMM_WORLD, 3, shape, DISTFFT_DOUBLE, &options, &plan),
                     "host plan")) {
        size_t need = (size_t)distfft_plan_local_size(plan) * 16;
        test_case(&suite, need <= bytes, "the buffers hold the plan's block");
        char *in = distfft_malloc(bytes), *out = distfft_malloc(bytes);
        memset(in, 0, bytes);
        memset(device, 0x5a, bytes);
        expect(distfft_plan_execute(plan, one_rank(in, device), out, DISTFFT_FORWARD), DISTFFT_ERR_ARGUMENT,
               "a host plan given device memory on one rank");
        expect(distfft_plan_execute(plan, in, one_rank(out, device), DISTFFT_FORWARD), DISTFFT_ERR_ARGUMENT,
               "a host plan given a device output on one rank");
        test_case(&suite, test_all_bytes(device, bytes, 0x5a), "the refused call wrote nothing");
        memset(managed, 0, bytes);
        expect(distfft_plan_execute(plan, managed, out, DISTFFT_FORWARD), DISTFFT_SUCCESS,
               "a host plan given managed memory");
        distfft_free(in);
        distfft_free(out);
    }
    distfft_plan_destroy(&plan);
}

static void test_layout_calls(char *device, char *managed, size_t bytes)
{
    const int64_t shape[3] = {12, 10, 8}, widths[3] = {1, 1, 1};
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int grid_dims[1] = {size}, distributed_by[3] = {0, -1, -1}, periodic[3] = {1, 1, 1};
    distfft_layout layout = NULL;
    distfft_halo halo = NULL;
    int made = test_created(&suite, distfft_layout_from_grid(MPI_COMM_WORLD, 3, shape, 1, grid_dims,
                                                             distributed_by, &layout), "layout");
    if (made)
        made = test_created(&suite, distfft_layout_halo_create(layout, DISTFFT_COMPLEX_DOUBLE, widths, widths,
                                                               periodic, 1, DISTFFT_HALO_DATATYPES, &halo),
                            "halo");
    if (made) {
        size_t whole = (size_t)(shape[0] * shape[1] * shape[2]) * 16;
        test_case(&suite, (size_t)distfft_halo_padded_block(halo, NULL, NULL) * 16 <= bytes && whole <= bytes,
                  "the buffers hold the arrays");
        char *host = distfft_malloc(bytes);
        memset(host, 0, bytes);
        memset(device, 0x5a, bytes);
        expect(distfft_halo_execute(halo, one_rank(host, device)), DISTFFT_ERR_ARGUMENT,
               "halo execute given device memory on one rank");
        expect(distfft_halo_pad(halo, host, device), DISTFFT_ERR_ARGUMENT, "halo pad into device memory");
        expect(distfft_layout_gather(layout, DISTFFT_COMPLEX_DOUBLE, 1, one_rank(host, device), 0, host),
               DISTFFT_ERR_ARGUMENT, "gather from device memory on one rank");
        expect(distfft_layout_scatter(layout, DISTFFT_COMPLEX_DOUBLE, 1, me == 0 ? device : host, 0, host),
               DISTFFT_ERR_ARGUMENT, "scatter from device memory on the root");
        const char *path = "test_device_pointers.npy";
        if (me == 0) unlink(path);
        MPI_Barrier(MPI_COMM_WORLD);
        expect(distfft_layout_array_write(layout, path, DISTFFT_COMPLEX_DOUBLE, 1, one_rank(host, device)),
               DISTFFT_ERR_ARGUMENT, "array write from device memory on one rank");
        test_case(&suite, access(path, F_OK) != 0, "the refused write made no file");
        test_case(&suite, test_all_bytes(device, bytes, 0x5a), "the refused calls wrote nothing");
        memset(managed, 0, bytes);
        expect(distfft_halo_execute(halo, managed), DISTFFT_SUCCESS, "halo execute given managed memory");
        distfft_free(host);
    }
    distfft_halo_destroy(&halo);
    distfft_layout_destroy(&layout);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite_init(&suite, "test_device_pointers", MPI_COMM_WORLD);
    me = suite.rank;
    odd = suite.size > 1 ? 1 : 0;
    void *driver = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL) : NULL;
    add_function *add = NULL;
    void *entry = driver ? dlsym(driver, "fake_cuda_driver_add") : NULL;
    memcpy(&add, &entry, sizeof add);
    test_case(&suite, add != NULL, "the stand-in driver loads (%s)", argc > 1 ? argv[1] : "no path given");
    if (add) {
        enum { BYTES = 1 << 16 };
        char *device = distfft_malloc(BYTES), *managed = distfft_malloc(BYTES);
        add(device, BYTES, 0);
        add(managed, BYTES, 1);
        test_plan(device, managed, BYTES);
        test_layout_calls(device, managed, BYTES);
        distfft_free(device);
        distfft_free(managed);
    }
    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
