/*
 * test_applicable.c -- every row of the method table (src/redist/methods.def)
 * against the exchanges it must and must not serve: applicable() is a pure
 * question of the exchange's description (pencils of one grid or the boxes
 * of two layouts, element type, memory, platform), asked by "auto" before it
 * creates a candidate and by every explicit request before any message.
 * No MPI at run time.
 */
#include <stdio.h>
#include <string.h>

#include "redist/redist.h"

static int failures;

static void expect(int condition, const char *what, const char *method)
{
    if (!condition) {
        printf("FAIL: %s: %s\n", method, what);
        failures++;
    }
}

/* A 3-d pencil exchange of `n` x 8 x 6 on `parts` ranks, axis 0 -> 1. */
static redist_geometry pencils(int64_t n, int parts)
{
    redist_geometry g = {.type = DISTFFT_COMPLEX_DOUBLE, .ndims = 3, .axis_in = 0, .axis_out = 1, .batch = 1,
                         .parts = parts, .part = 0};
    int64_t in[3] = {n, 8 / parts, 6}, out[3] = {n / parts, 8, 6};
    memcpy(g.in_shape, in, sizeof in);
    memcpy(g.out_shape, out, sizeof out);
    return g;
}

/* Stand-ins for a device backend's messages (copies.h): one whose library
 * loads, one whose library is missing. applicable() asks only whether it
 * is available. */
static const char *loads(void) { return NULL; }
static const char *missing(void) { return "libnccl.so.2 cannot load"; }
static const redist_messages present_messages = {.name = "nccl", .unavailable = loads};
static const redist_messages absent_messages = {.name = "nccl", .unavailable = missing};

/* Whether row m applies, and that it says why not when it does not. */
static int applies(distfft_method m, const redist_problem *problem)
{
    const redist_method *row = redist_method_row(m);
    char reason[512] = "";
    text why = text_on(reason, sizeof reason);
    bool yes = row->applicable(problem, &why);
    expect(yes == row->applicable(problem, NULL), "the same answer with or without a reason", row->name);
    expect(yes || reason[0] != '\0', "a refusal names its reason", row->name);
    return yes;
}

int main(void)
{
    int count = redist_method_count();
    expect(count == DISTFFT_METHOD_CUDA_IPC + 1, "the table has the header's rows", "table");
    redist_geometry even = pencils(12, 4), uneven = pencils(10, 4);
    redist_problem even_pencils = redist_problem_of(&even), uneven_pencils = redist_problem_of(&uneven);
    redist_problem boxes = redist_box_problem(DISTFFT_REAL_FLOAT, REDIST_MEMORY_HOST);
    even_pencils.shared_windows = uneven_pencils.shared_windows = boxes.shared_windows = true;
    redist_geometry on_device = even;
    on_device.memory = REDIST_MEMORY_CUDA;
    redist_problem device_pencils = redist_problem_of(&on_device);
    device_pencils.shared_windows = true;
    redist_problem device_boxes = redist_box_problem(DISTFFT_REAL_FLOAT, REDIST_MEMORY_CUDA);
    device_boxes.shared_windows = true;
    expect(redist_first_applicable(&boxes) == DISTFFT_METHOD_ALLTOALLW &&
           redist_first_applicable(&device_boxes) == DISTFFT_METHOD_STAGED,
           "untimed, boxes take alltoallw in host memory and staged in a device's", "redist_first_applicable");
    expect(device_pencils.memory == REDIST_MEMORY_CUDA && even_pencils.memory == REDIST_MEMORY_HOST,
           "an exchange's problem has its geometry's memory", "redist_problem_of");
    redist_problem no_windows = even_pencils;
    no_windows.shared_windows = false;
    /* the rows that serve the boxes of arbitrary layouts: all but those that
     * need aligned pencils of a grid (vector, shm, hierarchical) */
    const distfft_method everywhere[] = {DISTFFT_METHOD_ALLTOALLW, DISTFFT_METHOD_ALLTOALLV,
                                         DISTFFT_METHOD_ISEND_WAITALL, DISTFFT_METHOD_ISEND_WAITSOME,
                                         DISTFFT_METHOD_ISEND_WAITALL_BLOCKED,
                                         DISTFFT_METHOD_ISEND_WAITSOME_BLOCKED, DISTFFT_METHOD_SENDRECV};
    for (int m = 0; m < count; m++) {
        const char *name = redist_method_row((distfft_method)m)->name;
        expect(redist_method_row((distfft_method)m)->applicable != NULL, "has applicable()", name);
        if (m == DISTFFT_METHOD_NCCL) { /* device memory with the device's messages, pencils or boxes */
            redist_problem with = device_pencils, with_boxes = device_boxes, broken = device_pencils;
            with.messages = with_boxes.messages = &present_messages;
            broken.messages = &absent_messages;
            expect(applies((distfft_method)m, &with), "serves device pencils where NCCL loads", name);
            expect(applies((distfft_method)m, &with_boxes), "serves device boxes where NCCL loads", name);
            expect(!applies((distfft_method)m, &device_pencils), "refuses a backend without NCCL", name);
            expect(!applies((distfft_method)m, &broken), "refuses where NCCL does not load", name);
            redist_problem host = even_pencils;
            host.messages = &present_messages;
            expect(!applies((distfft_method)m, &host), "refuses host pencils", name);
            expect(!applies((distfft_method)m, &boxes), "refuses host boxes", name);
            continue;
        }
        /* device memory only, pencils or boxes, any platform (cuda-ipc's
         * one node is found by its create: applicable() sees no ranks) */
        if (m == DISTFFT_METHOD_STAGED || m == DISTFFT_METHOD_CUDA_IPC) {
            expect(applies((distfft_method)m, &device_pencils), "serves device pencils", name);
            expect(applies((distfft_method)m, &device_boxes), "serves device boxes", name);
            expect(!applies((distfft_method)m, &even_pencils), "refuses host pencils", name);
            expect(!applies((distfft_method)m, &boxes), "refuses host boxes", name);
            continue;
        }
        bool general = false;
        for (size_t k = 0; k < sizeof everywhere / sizeof everywhere[0]; k++) general |= everywhere[k] == m;
        expect(applies((distfft_method)m, &even_pencils), "serves pencils with equal blocks", name);
        expect(applies((distfft_method)m, &boxes) == general, general ? "serves boxes" : "refuses boxes", name);
        expect(applies((distfft_method)m, &uneven_pencils) == (m != DISTFFT_METHOD_VECTOR),
               m == DISTFFT_METHOD_VECTOR ? "refuses uneven blocks" : "serves uneven blocks", name);
        expect(applies((distfft_method)m, &no_windows) == (m != DISTFFT_METHOD_SHM),
               m == DISTFFT_METHOD_SHM ? "refuses a platform without shared windows"
                                       : "needs no shared windows", name);
        /* every other row moves host memory (alltoallw and vector would hand
         * MPI derived datatypes over device memory; the window methods map
         * host memory): none serves a device plan's exchange */
        expect(!applies((distfft_method)m, &device_pencils), "refuses device pencils", name);
        expect(!applies((distfft_method)m, &device_boxes), "refuses device boxes", name);
    }
    /* an explicit request: DISTFFT_ERR_UNSUPPORTED naming the method and the reason */
    int rc = redist_check_applicable(DISTFFT_METHOD_VECTOR, &uneven_pencils, "test");
    expect(rc == DISTFFT_ERR_UNSUPPORTED && strstr(distfft_last_error(), "vector") &&
               strstr(distfft_last_error(), "equal blocks"), "explicit vector on uneven blocks", "vector");
    rc = redist_check_applicable(DISTFFT_METHOD_SHM, &boxes, "test");
    expect(rc == DISTFFT_ERR_UNSUPPORTED && strstr(distfft_last_error(), "shm"), "explicit shm on boxes", "shm");
    expect(redist_check_applicable((distfft_method)count, &boxes, "test") == DISTFFT_ERR_ARGUMENT,
           "an unknown method is an argument error", "table");
    rc = redist_check_applicable(DISTFFT_METHOD_NCCL, &even_pencils, "test");
    expect(rc == DISTFFT_ERR_UNSUPPORTED && strstr(distfft_last_error(), "nccl") &&
               strstr(distfft_last_error(), "host memory"), "explicit nccl on host memory", "nccl");
    redist_problem broken = device_pencils;
    broken.messages = &absent_messages;
    rc = redist_check_applicable(DISTFFT_METHOD_NCCL, &broken, "test");
    expect(rc == DISTFFT_ERR_UNSUPPORTED && strstr(distfft_last_error(), "libnccl.so.2 cannot load"),
           "explicit nccl where NCCL does not load says why", "nccl");
    distfft_method parsed = DISTFFT_METHOD_AUTO;
    expect(distfft_method_from_name("nccl", &parsed) == DISTFFT_SUCCESS && parsed == DISTFFT_METHOD_NCCL &&
               strcmp(distfft_method_name(DISTFFT_METHOD_NCCL), "nccl") == 0, "parses by name", "nccl");
    rc = redist_check_applicable(DISTFFT_METHOD_CUDA_IPC, &even_pencils, "test");
    expect(rc == DISTFFT_ERR_UNSUPPORTED && strstr(distfft_last_error(), "cuda-ipc") &&
               strstr(distfft_last_error(), "device memory"), "explicit cuda-ipc on host memory", "cuda-ipc");
    parsed = DISTFFT_METHOD_AUTO;
    expect(distfft_method_from_name("cuda-ipc", &parsed) == DISTFFT_SUCCESS && parsed == DISTFFT_METHOD_CUDA_IPC &&
               strcmp(distfft_method_name(DISTFFT_METHOD_CUDA_IPC), "cuda-ipc") == 0,
           "parses by name, and its id names it", "cuda-ipc");
    expect(redist_check_applicable(DISTFFT_METHOD_ALLTOALLW, &boxes, "test") == DISTFFT_SUCCESS,
           "alltoallw serves boxes", "alltoallw");
    if (failures) printf("%d failures\n", failures);
    else printf("ok: %d rows\n", count);
    return failures ? 1 : 0;
}
