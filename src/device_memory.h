/*
 * device_memory.h -- whether a pointer is NVIDIA device memory, asked of
 * the CUDA driver itself, for the calls that take host memory only (host
 * plans, halos, gather/scatter, array files).
 *
 * Device memory exists only in a process that has loaded the CUDA driver
 * (libcuda). A probe looks for it among the loaded libraries -- never
 * loads it -- and, once found, keeps its cuPointerGetAttribute, which then
 * answers each check (device memory: not host-accessible; managed and
 * pinned host memory are host memory). Without the driver every pointer
 * is host memory. The core links no CUDA: the driver is reached by dlsym.
 */
#ifndef DISTFFT_DEVICE_MEMORY_H
#define DISTFFT_DEVICE_MEMORY_H

/* Look for the CUDA driver in this process, if it was not found before
 * (about 30 microseconds while it is absent): at creates and one-shot
 * calls, never per execution. Local; thread-safe. */
void device_memory_probe(void);

/* DISTFFT_ERR_ARGUMENT, naming `where` and `what`, when the driver has
 * been found and `pointer` (not NULL) is device memory; else
 * DISTFFT_SUCCESS. Local: the caller agrees on it before any
 * collective. */
int device_memory_refuse(const void *pointer, const char *where, const char *what);

#endif
