/*
 * platform_native.c -- the platform of a real machine (platform.h): each
 * rank a process of its own, FFTW's aligned allocator, local work run as
 * it comes, and everything MPI offers available.
 */
#include <fftw3.h>

#include "platform.h"

const char *platform_name(void) { return "native"; }

bool platform_shares_windows(void) { return true; }

bool platform_runs_threads(void) { return true; }

bool platform_ranks_share_process(void) { return false; }

/* A real MPI's datatype packing takes real time. */
bool platform_hides_mpi_copies(void) { return false; }

void *platform_malloc(size_t bytes) { return fftw_malloc(bytes); }

void platform_free(void *pointer) { fftw_free(pointer); }

void *platform_scratch(const char *name, size_t bytes)
{
    (void)name;
    return fftw_malloc(bytes);
}

void platform_scratch_free(void *pointer) { fftw_free(pointer); }

int platform_run_local_work(const platform_work *work, const void *in, void *out)
{
    return work->run(work->context, in, out);
}
