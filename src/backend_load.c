/*
 * backend_load.c -- which backend serves plans in a memory kind
 * (backend.h). The host's is built in. The CUDA backend is a library of
 * its own, opened the first time a plan asks for device memory: beside
 * libdistfft first (both are installed in one folder), then wherever the
 * dynamic loader looks. Opening it once per process is the whole cost;
 * its answer -- the backend, or why there is none -- is kept.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "device_memory.h"
#include "error.h"

static struct {
    pthread_once_t once;
    const backend *loaded;
    bool ready; /* loaded is set: read by any thread, without the once */
    int code;
    char why[512];
} cuda = {.once = PTHREAD_ONCE_INIT};

/* The library in the folder of the object holding this code (libdistfft,
 * or a program linked with the static library), else by name alone. When
 * neither opens, the reason is the first's where that file exists (cuFFT
 * missing, say), else the second's. */
static void *open_cuda_library(char *why, size_t size)
{
    Dl_info self;
    char path[4096] = "", beside[512] = "";
    if (dladdr((void *)&backend_load, &self) && self.dli_fname && strrchr(self.dli_fname, '/')) {
        int folder = (int)(strrchr(self.dli_fname, '/') - self.dli_fname);
        if (snprintf(path, sizeof path, "%.*s/%s", folder, self.dli_fname, BACKEND_CUDA_LIBRARY) >= (int)sizeof path)
            path[0] = '\0';
    }
    if (path[0] && access(path, F_OK) == 0) {
        void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (library) return library;
        snprintf(beside, sizeof beside, "%s", dlerror());
    }
    void *library = dlopen(BACKEND_CUDA_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library) return library;
    const char *reason = beside[0] ? beside : dlerror();
    snprintf(why, size, "the CUDA backend (%s) is not built or cannot load: %s", BACKEND_CUDA_LIBRARY,
             reason ? reason : "not found");
    return NULL;
}

static void load_cuda(void)
{
    static const backend_services services = {.fail = error_fail, .append = text_append};
    cuda.code = DISTFFT_ERR_UNSUPPORTED;
    void *library = open_cuda_library(cuda.why, sizeof cuda.why);
    if (!library) return;
    backend_open_function *open_backend = NULL;
    void *entry = dlsym(library, BACKEND_CUDA_ENTRY);
    memcpy(&open_backend, &entry, sizeof open_backend); /* object pointer to function pointer */
    if (!open_backend) {
        snprintf(cuda.why, sizeof cuda.why, "%s has no entry %s", BACKEND_CUDA_LIBRARY, BACKEND_CUDA_ENTRY);
        dlclose(library);
        return;
    }
    cuda.code = open_backend(BACKEND_INTERFACE, &services, &cuda.loaded, cuda.why, sizeof cuda.why);
    if (cuda.code != DISTFFT_SUCCESS || !cuda.loaded) {
        if (cuda.code == DISTFFT_SUCCESS) cuda.code = DISTFFT_ERR_UNSUPPORTED;
        cuda.loaded = NULL;
        dlclose(library);
        return;
    }
    /* kept open for the life of the process: its steps' code lives there */
    __atomic_store_n(&cuda.ready, true, __ATOMIC_RELEASE);
}

int backend_load(distfft_memory memory, const char *where)
{
    if (memory == DISTFFT_MEMORY_HOST) {
        device_memory_probe(); /* so that device pointers are recognised at execute */
        return DISTFFT_SUCCESS;
    }
    if (memory != DISTFFT_MEMORY_CUDA)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown memory kind %d", where, (int)memory);
    if (pthread_once(&cuda.once, load_cuda) != 0)
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: memory cuda: the CUDA backend could not be loaded", where);
    if (cuda.loaded) return DISTFFT_SUCCESS;
    return error_fail(cuda.code, "%s: memory cuda: %s", where, cuda.why);
}

const backend *backend_of(distfft_memory memory)
{
    if (memory == DISTFFT_MEMORY_HOST) return backend_host();
    return memory == DISTFFT_MEMORY_CUDA ? cuda.loaded : NULL;
}

int backend_check_pointer(distfft_memory memory, const void *pointer, const char *where, const char *what)
{
    if (memory == DISTFFT_MEMORY_HOST) return device_memory_refuse(pointer, where, what);
    if (!pointer || !__atomic_load_n(&cuda.ready, __ATOMIC_ACQUIRE)) return DISTFFT_SUCCESS;
    bool on_device = cuda.loaded->holds(pointer);
    if (on_device == (memory == DISTFFT_MEMORY_CUDA)) return DISTFFT_SUCCESS;
    return error_fail(DISTFFT_ERR_ARGUMENT, "%s: %s (%p) is %s memory, but the plan's memory is %s", where, what,
                      pointer, on_device ? "device" : "host", memory == DISTFFT_MEMORY_CUDA ? "cuda" : "host");
}
