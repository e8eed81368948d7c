/*
 * platform_smpi.c -- the platform of SimGrid's SMPI simulator (platform.h;
 * docs/guide/scale.md), compiled instead of platform_native.c in a build
 * configured with -DDISTFFT_SMPI=ON (C compiler smpicc): memory folding
 * and sampled local work, and what SMPI lacks (shared-memory windows,
 * threads beside a rank's own) answered as such.
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
 *                            description, shapes and byte counts; an
 *                            exchange names each copy by its runs)
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
 *                            seconds are host seconds: the platform's core
 *                            speed must equal smpi/host-speed (our
 *                            platforms do).
 *   DISTFFT_SMPI_SAMPLES=FILE with sampling: every finished sample is
 *                            appended to FILE, and a later run with the
 *                            same FILE charges those means for the same keys
 *                            without running them: runs that share FILE are
 *                            charged the same local work, so they differ in
 *                            their exchanges only (benchmarks/scale/
 *                            auto_rounds.py shares one file per round).
 *
 * A checking run (distfft-bench --check, the SMPI tests) uses neither.
 *
 * Without sampling, local work runs between MPI calls and SMPI charges
 * its host time, as measured on a host that may be busy. MPI's own copies
 * (derived datatypes packed inside a call) are never charged by SMPI, so
 * this platform says it hides them (platform_hides_mpi_copies) and the
 * datatype methods make the same copies as local work (redist/chunks.h).
 *
 * The one thing to know: SMPI runs all simulated ranks as cooperative
 * contexts of one process, one at a time, so the tables here are shared by
 * every rank on purpose: a step measured on one rank is a sample for every
 * rank whose step has the same key (same description, shapes and counts).
 * Uneven blocks give different keys, so each is measured for itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fftw3.h>
#include <smpi/smpi.h>

#include "platform.h"

const char *platform_name(void) { return "SimGrid's SMPI"; }

/* SMPI 3.32 emulates no MPI-3 shared-memory window. */
bool platform_shares_windows(void) { return false; }

/* SMPI simulates one thread per rank. */
bool platform_runs_threads(void) { return false; }

bool platform_ranks_share_process(void) { return true; }

/* SMPI serialises derived datatypes inside its MPI calls, where no host
 * time reaches the simulated clock. */
bool platform_hides_mpi_copies(void) { return true; }

/* Folded buffers start at this size; smaller ones (tables, headers) stay
 * private, so whatever the library keeps in them stays right. */
#define FOLD_THRESHOLD ((size_t)1 << 20)

static int environment_integer(const char *name)
{
    const char *value = getenv(name);
    return value ? atoi(value) : 0;
}

/* The folded pointers, to free them with SMPI_SHARED_FREE (shared by all
 * ranks: one process): an open-addressing set, room for 2^20 (16,384
 * ranks' plans and arrays several times over). A full set falls back to
 * private allocations. */
#define FOLDED_SLOTS ((size_t)1 << 21)
#define FOLDED_MOST (FOLDED_SLOTS / 2)
static void *folded[FOLDED_SLOTS];
static void *const REMOVED = (void *)&folded; /* a tombstone: never a buffer */
static size_t folded_count;

static size_t folded_slot(const void *pointer)
{
    uint64_t bits = (uint64_t)(uintptr_t)pointer;
    return (size_t)((bits >> 12) * 0x9E3779B97F4A7C15ULL >> 43) % FOLDED_SLOTS;
}

static void folded_add(void *pointer)
{
    size_t i = folded_slot(pointer);
    while (folded[i] && folded[i] != REMOVED) i = (i + 1) % FOLDED_SLOTS;
    folded[i] = pointer;
    folded_count++;
}

/* Remove `pointer` from the set; false if it was not folded. */
static bool folded_remove(void *pointer)
{
    for (size_t i = folded_slot(pointer); folded[i]; i = (i + 1) % FOLDED_SLOTS)
        if (folded[i] == pointer) {
            folded[i] = REMOVED;
            folded_count--;
            return true;
        }
    return false;
}

/* SimGrid maps a folded buffer's blocks at once (MAP_POPULATE): host time
 * a real allocation does not take, so it is kept off the simulated clock. */
void *platform_malloc(size_t bytes)
{
    if (bytes >= FOLD_THRESHOLD && folded_count < FOLDED_MOST && environment_integer("DISTFFT_SMPI_FOLD") > 0) {
        smpi_bench_end();
        void *pointer = SMPI_SHARED_MALLOC(bytes);
        if (pointer) folded_add(pointer);
        smpi_bench_begin();
        return pointer;
    }
    return fftw_malloc(bytes);
}

void platform_free(void *pointer)
{
    if (pointer && folded_remove(pointer)) {
        smpi_bench_end();
        SMPI_SHARED_FREE(pointer);
        smpi_bench_begin();
        return;
    }
    fftw_free(pointer);
}

/* The shared scratch buffers (platform_scratch), by name: the
 * calibration asks for four. A full table, or a name longer than a slot
 * holds, falls back to private allocations. */
#define SCRATCH_SLOTS 8
static struct {
    char name[64];
    void *pointer;
    size_t bytes;
    int users; /* 0: a free slot */
} scratch[SCRATCH_SLOTS];

void *platform_scratch(const char *name, size_t bytes)
{
    int unused = -1;
    for (int i = 0; i < SCRATCH_SLOTS; i++) {
        if (scratch[i].users > 0 && strcmp(scratch[i].name, name) == 0) {
            if (scratch[i].bytes < bytes) return NULL;
            scratch[i].users++;
            return scratch[i].pointer;
        }
        if (scratch[i].users == 0 && unused < 0) unused = i;
    }
    if (unused < 0 || strlen(name) >= sizeof scratch[0].name) return fftw_malloc(bytes);
    void *pointer = fftw_malloc(bytes);
    if (!pointer) return NULL;
    snprintf(scratch[unused].name, sizeof scratch[unused].name, "%s", name);
    scratch[unused].pointer = pointer;
    scratch[unused].bytes = bytes;
    scratch[unused].users = 1;
    return pointer;
}

void platform_scratch_free(void *pointer)
{
    if (!pointer) return;
    for (int i = 0; i < SCRATCH_SLOTS; i++)
        if (scratch[i].users > 0 && scratch[i].pointer == pointer) {
            if (--scratch[i].users == 0) {
                fftw_free(pointer);
                scratch[i].pointer = NULL;
            }
            return;
        }
    fftw_free(pointer); /* a private fallback */
}

/* The sample's key: a hash of the work's name. */
static uint64_t key_hash(const char *key)
{
    uint64_t hash = 1469598103934665603ULL; /* FNV-1a */
    for (const char *c = key; *c; c++) hash = (hash ^ (unsigned char)*c) * 1099511628211ULL;
    return hash | 1; /* 0 marks a free slot */
}

/* One sample per distinct key, shared by all ranks: runs so far, and the
 * host seconds of the runs after the first (which pays page faults and
 * cold caches, as a real first run does, and is charged as it ran). */
#define SAMPLE_SLOTS 8192
typedef struct {
    uint64_t key;
    int runs;
    double seconds;
    bool saved; /* in the sample file (read from it, or written) */
} sample;
static sample samples[SAMPLE_SLOTS];

static sample *sample_of(uint64_t key)
{
    for (size_t i = key % SAMPLE_SLOTS, probes = 0; probes < SAMPLE_SLOTS; i = (i + 1) % SAMPLE_SLOTS, probes++) {
        if (samples[i].key == key) return &samples[i];
        if (samples[i].key == 0) {
            samples[i].key = key;
            return &samples[i];
        }
    }
    return NULL; /* full: run for real */
}

/* CPU seconds of this thread, as SMPI times the code between MPI calls:
 * other processes on the host do not inflate a sample. */
static double host_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

/* A sampled run on private buffers, touched before (the K sampled runs
 * come from K different ranks, each on arrays it may not have touched yet;
 * folded arrays would hit the same few cached pages). Preparing them is
 * not charged to the simulated clock. Sampled runs are for timing: the
 * caller's arrays are left as they were. */
static int run_private(const platform_work *work, const void *in, void *out, double *seconds)
{
    smpi_bench_end();
    bool in_place = in == (const void *)out;
    void *private_in = fftw_malloc(work->in_bytes ? work->in_bytes : 1);
    void *private_out = in_place ? private_in : fftw_malloc(work->out_bytes ? work->out_bytes : 1);
    if (private_in) memset(private_in, 0, work->in_bytes);
    if (private_out && !in_place) memset(private_out, 0, work->out_bytes);
    smpi_bench_begin();
    double start = host_seconds();
    int status = private_in && private_out ? work->run(work->context, private_in, private_out)
                                           : work->run(work->context, in, out);
    *seconds = host_seconds() - start;
    smpi_bench_end();
    if (!in_place) fftw_free(private_out);
    fftw_free(private_in);
    smpi_bench_begin();
    return status;
}

/* The sample file (DISTFFT_SMPI_SAMPLES): one line per finished sample,
 * "HASH MEAN_SECONDS KEY", appended when a sample is first charged and read back at
 * the first sampled step of a later run, whose steps of the same keys are
 * then charged these means without running at all. Runs that share a file
 * are charged the same seconds for the same local work: what differs between
 * them is the network and the exchanges (common random numbers). File work
 * is kept off the simulated clock. A line that does not parse is skipped. */
static const char *sample_file(void)
{
    const char *path = getenv("DISTFFT_SMPI_SAMPLES");
    return path && *path ? path : NULL;
}

static void samples_load(int wanted)
{
    static bool loaded; /* set when read: smpi_bench_end lets other ranks run, and they read it too */
    const char *path = sample_file();
    if (loaded || !path) return;
    FILE *stream = fopen(path, "r");
    char line[1200];
    while (stream && fgets(line, sizeof line, stream)) {
        unsigned long long hash;
        double mean;
        if (sscanf(line, "%llx %lf", &hash, &mean) != 2 || hash == 0 || !(mean >= 0.0)) continue;
        sample *record = sample_of((uint64_t)hash);
        if (!record) break;
        record->runs = wanted + 1;
        record->seconds = mean * (double)wanted;
        record->saved = true;
    }
    if (stream) fclose(stream);
    loaded = true;
}

static void samples_save(sample *record, const char *key)
{
    const char *path = sample_file();
    if (!path || record->saved) return;
    record->saved = true;
    FILE *stream = fopen(path, "a");
    if (stream) {
        fprintf(stream, "%016llx %.9e %s\n", (unsigned long long)record->key,
                record->seconds / (double)(record->runs - 1), key);
        fclose(stream);
    }
}

int platform_run_local_work(const platform_work *work, const void *in, void *out)
{
    int wanted = environment_integer("DISTFFT_SMPI_SAMPLE");
    if (wanted <= 0) return work->run(work->context, in, out);
    /* The sampling's own bookkeeping -- the name, the table, the file -- is
     * the simulator's, not the program's: kept off the simulated clock
     * (an exchange's copies are many and small, and naming one takes
     * longer than making it). */
    smpi_bench_end();
    samples_load(wanted);
    char key[1024];
    work->name(work->context, key, sizeof key);
    sample *record = sample_of(key_hash(key));
    if (record && record->runs > wanted) { /* measured enough: charge the mean, run nothing */
        samples_save(record, key);
        smpi_bench_begin();
        smpi_execute_benched(record->seconds / (double)(record->runs - 1));
        return 0;
    }
    smpi_bench_begin();
    if (!record) return work->run(work->context, in, out);
    double seconds;
    int status = run_private(work, in, out, &seconds);
    /* Runs that finish after the sample is complete (ranks that entered
     * while the first ones ran) are not added: the mean stays the one
     * charged and saved from then on. */
    if (record->runs <= wanted && record->runs++ > 0) record->seconds += seconds;
    return status;
}
