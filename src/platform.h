/*
 * platform.h -- the one door for what differs by platform, chosen when the
 * library is built: platform_native.c (a real machine; every build but
 * one) or platform_smpi.c (SimGrid's SMPI simulator: -DDISTFFT_SMPI=ON,
 * C compiler smpicc; docs/guide/scale.md). CMake compiles exactly one.
 *
 * The core never asks which platform it runs on. It allocates through
 * platform_malloc, runs each piece of local work through
 * platform_run_local_work (which a simulator may charge to its clock
 * instead of running), and asks what the platform can do where a method
 * or an option depends on it. Every answer is a constant of the build, so
 * every rank gets the same one before any collective.
 */
#ifndef DISTFFT_PLATFORM_H
#define DISTFFT_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

/* The platform's name, for messages ("native", "SimGrid's SMPI"). */
const char *platform_name(void);

/* ---- what the platform can do ------------------------------------------------- */

/* MPI-3 shared-memory windows (MPI_Win_allocate_shared, MPI_Win_sync). */
bool platform_shares_windows(void);

/* A rank may run threads beside the one that calls MPI: OpenMP and FFTW
 * threads (options.threads > 1), overlap progress's helper thread. */
bool platform_runs_threads(void);

/* All ranks run in this one process, one at a time, switching only
 * inside MPI calls: they share its globals and its memory (so a rank's
 * large private arrays cost the host as many times over as there are
 * ranks). A platform whose ranks share a process shares no windows. */
bool platform_ranks_share_process(void);

/* MPI's own copies cost no time: the platform's MPI packs and unpacks
 * derived datatypes (alltoallw's subarrays, vector's vectors) outside the
 * clock it reports, while the copies distfft makes itself (alltoallv's,
 * sendrecv's and the isend rows' pack and unpack) run as local work and
 * are charged. Where true, the datatype methods run the same copies as
 * local work too (chunks.h, chunk_priced_*), so that both kinds of
 * method pay for moving the same bytes through memory. */
bool platform_hides_mpi_copies(void);

/* ---- memory -------------------------------------------------------------------- */

/* distfft_malloc and distfft_free: aligned as fftw_malloc. */
void *platform_malloc(size_t bytes);
void platform_free(void *pointer);

/* Scratch memory for timing runs whose contents nobody reads (the cost
 * model's calibration), `bytes` under the name `name`. Where ranks share
 * a process, every rank that asks for the same name gets the same memory:
 * a rank's timed local work runs between two MPI calls, so no other rank
 * touches it meanwhile, and the calibration holds one set of buffers
 * whatever the rank count. Elsewhere a private allocation. Aligned as
 * fftw_malloc; NULL when it cannot be had (or the name is asked for again
 * with more bytes while in use). Local. */
void *platform_scratch(const char *name, size_t bytes);

/* Give back platform_scratch's memory (freed when its last user gives it
 * back); NULL is ignored. Local. */
void platform_scratch_free(void *pointer);

/* ---- local work ---------------------------------------------------------------- */

/* One piece of local work: run(context, in, out), reading in_bytes of
 * `in` and writing out_bytes of `out`. name(context, key, size) names it
 * into key[size]: equal names are the same work, on any rank (a
 * simulator that samples local work measures each name a few times and
 * charges the rest; nothing else asks for the name). */
typedef struct {
    int (*run)(const void *context, const void *in, void *out);
    void (*name)(const void *context, char *key, size_t size);
    const void *context;
    size_t in_bytes, out_bytes;
} platform_work;

/* Run `work` on in and out and return what it returns -- or, on a
 * simulator that samples local work, charge it its measured time without
 * running it (the output is then garbage: timing only). Local. */
int platform_run_local_work(const platform_work *work, const void *in, void *out);

#endif
