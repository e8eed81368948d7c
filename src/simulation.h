/*
 * simulation.h -- what a run on SimGrid's SMPI simulator needs from the
 * library (docs/guide/scale.md). Only a build configured with
 * -DDISTFFT_SMPI=ON (C compiler smpicc) does anything here; in every other
 * build these are the plain allocator and a direct call.
 *
 * SMPI runs every simulated rank inside one host process: the computation
 * runs for real on the host and is charged to the simulated clock, the
 * network is simulated. Two of SMPI's own tools keep thousands of ranks
 * within one machine's memory and time, both switched on at run time by
 * environment variables (all ranks see the same environment):
 *
 *   DISTFFT_SMPI_FOLD=1      memory folding: buffers of distfft_malloc of
 *                            1 MiB and more come from SMPI_SHARED_MALLOC
 *                            (run with --cfg=smpi/shared-malloc:global), so
 *                            every rank's array maps the same few physical
 *                            pages. The data are garbage: timing only.
 *   DISTFFT_SMPI_SAMPLE=K    sampled computation: each distinct local step
 *                            (same key: the plan names a step by its
 *                            description, shapes and byte counts)
 *                            runs for real 1 + K times over all ranks
 *                            (more where ranks reach it before those runs
 *                            finished: each run yields to the others; only
 *                            the first 1 + K to finish count), then
 *                            the mean host time of the last K is charged to
 *                            the simulated clock (smpi_execute_benched)
 *                            without running the step. The sampled runs
 *                            read and write private buffers touched
 *                            before, so they see warm pages but real memory
 *                            traffic (not folded pages' cache hits); the
 *                            results are garbage: timing only. Charged
 *                            seconds are
 *                            host seconds: the platform's core speed must
 *                            equal smpi/host-speed (our platforms do).
 *   DISTFFT_SMPI_SAMPLES=FILE with sampling: every finished sample is
 *                            appended to FILE, and a later run with the
 *                            same FILE charges those means for the same keys
 *                            without running them: runs that share FILE are
 *                            charged the same local work, so they differ in
 *                            their exchanges only (benchmarks/scale/
 *                            auto_rounds.py shares one file per round).
 *
 * A checking run (distfft-bench --check, the SMPI tests) uses neither.
 */
#ifndef DISTFFT_SIMULATION_H
#define DISTFFT_SIMULATION_H

#include <stdbool.h>
#include <stddef.h>

/* True in a build for SMPI (the library then refuses what SMPI lacks). */
bool simulation_build(void);

/* distfft_malloc / distfft_free (folded when DISTFFT_SMPI_FOLD is set). */
void *simulation_malloc(size_t bytes);
void simulation_free(void *pointer);

/* Scratch memory for timing runs whose contents nobody reads (the cost
 * model's calibration, src/tune/calibrate*.c), `bytes` under the name
 * `name`. In an SMPI build every simulated rank that asks for the same name
 * gets the same memory (they run one at a time in one process), so the
 * calibration holds one set of buffers whatever the rank count -- with a
 * private set per rank, 135 MB each, 256 simulated ranks need 35 GB. A
 * rank's timed local work (a memcpy, a transform) runs between two MPI
 * calls, so no other rank touches the memory meanwhile; what a rank's
 * messages or another rank's work leave in it is garbage. Not folded
 * (DISTFFT_SMPI_FOLD): distinct pages, as the timings need. Elsewhere a
 * private allocation. Aligned as fftw_malloc; NULL when it cannot be had
 * (or the name is asked for again with more bytes while in use). Local. */
void *simulation_scratch(const char *name, size_t bytes);

/* Give back simulation_scratch's memory (freed when its last user gives
 * it back); NULL is ignored. Local. */
void simulation_scratch_free(void *pointer);

/* True when local work is sampled (an SMPI build, DISTFFT_SMPI_SAMPLE set). */
bool simulation_sampling(void);

/* Local work the simulator may sample: work(context, in, out). */
typedef int (*simulation_work)(const void *context, const void *in, void *out);

/* Run `work` for real, or charge its sampled mean (simulation_sampling()).
 * `key` names the work (equal keys: the same work, on any rank); `in_bytes`
 * and `out_bytes` are what it reads and writes (private buffers of these
 * sizes stand in for the caller's arrays during sampled runs). */
int simulation_run(const char *key, simulation_work work, const void *context, const void *in, void *out,
                   size_t in_bytes, size_t out_bytes);

#endif
