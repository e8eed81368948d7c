/*
 * device_memory.c -- device pointers told from host pointers by the CUDA
 * driver's cuPointerGetAttribute (device_memory.h), found with dlsym.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "device_memory.h"
#include "error.h"

/* The driver API's values used here (cuda.h, stable since CUDA 4). */
enum {
    DRIVER_SUCCESS = 0,
    MEMORY_TYPE_ATTRIBUTE = 2, /* CU_POINTER_ATTRIBUTE_MEMORY_TYPE */
    IS_MANAGED_ATTRIBUTE = 8,  /* CU_POINTER_ATTRIBUTE_IS_MANAGED */
    MEMORY_TYPE_DEVICE = 2     /* CU_MEMORYTYPE_DEVICE */
};
typedef int pointer_attribute_function(void *data, int attribute, uintptr_t pointer);

static pointer_attribute_function *pointer_attribute; /* set once, read atomically */

void device_memory_probe(void)
{
    if (__atomic_load_n(&pointer_attribute, __ATOMIC_ACQUIRE)) return;
    void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!driver) return;
    void *entry = dlsym(driver, "cuPointerGetAttribute");
    pointer_attribute_function *found = NULL;
    memcpy(&found, &entry, sizeof found); /* object pointer to function pointer */
    /* the reference is kept: the driver stays loaded for the process */
    if (found) __atomic_store_n(&pointer_attribute, found, __ATOMIC_RELEASE);
}

int device_memory_refuse(const void *pointer, const char *where, const char *what)
{
    pointer_attribute_function *query = __atomic_load_n(&pointer_attribute, __ATOMIC_ACQUIRE);
    if (!pointer || !query) return DISTFFT_SUCCESS;
    unsigned int type = 0, managed = 0;
    /* host memory the driver does not know fails the query: host */
    if (query(&type, MEMORY_TYPE_ATTRIBUTE, (uintptr_t)pointer) != DRIVER_SUCCESS || type != MEMORY_TYPE_DEVICE)
        return DISTFFT_SUCCESS;
    if (query(&managed, IS_MANAGED_ATTRIBUTE, (uintptr_t)pointer) == DRIVER_SUCCESS && managed)
        return DISTFFT_SUCCESS; /* managed memory is host-accessible */
    return error_fail(DISTFFT_ERR_ARGUMENT, "%s: %s (%p) is device memory, but this call takes host memory", where,
                      what, pointer);
}
