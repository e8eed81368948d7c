/*
 * fake_cuda_driver.c -- a stand-in for the CUDA driver (built as
 * libcuda.so.1, in a folder of its own) for test_device_pointers: its
 * cuPointerGetAttribute calls the host ranges a test names "device" or
 * "managed" memory, and answers CUDA_ERROR_INVALID_VALUE for the rest, as
 * the driver does for host memory it does not know. It checks how the
 * library tells device pointers from host ones; it is no device.
 */
#include <stddef.h>
#include <stdint.h>

enum { SUCCESS = 0, INVALID_VALUE = 1, MEMORY_TYPE = 2, IS_MANAGED = 8, TYPE_DEVICE = 2 };

static struct {
    uintptr_t start;
    size_t bytes;
    int managed;
} ranges[4];
static int count;

/* The test's door: call [pointer, pointer + bytes) device memory
 * (managed when `managed`). */
__attribute__((visibility("default"))) void fake_cuda_driver_add(const void *pointer, size_t bytes, int managed)
{
    if (count < 4) ranges[count++] = (__typeof__(ranges[0])){(uintptr_t)pointer, bytes, managed};
}

__attribute__((visibility("default"))) int cuPointerGetAttribute(void *data, int attribute, uintptr_t pointer)
{
    for (int i = 0; i < count; i++) {
        if (pointer < ranges[i].start || pointer >= ranges[i].start + ranges[i].bytes) continue;
        if (attribute == MEMORY_TYPE) *(unsigned int *)data = TYPE_DEVICE;
        else if (attribute == IS_MANAGED) *(unsigned int *)data = (unsigned int)ranges[i].managed;
        else return INVALID_VALUE;
        return SUCCESS;
    }
    return INVALID_VALUE;
}
