/*
 * soak.c -- thousands of create / execute / destroy cycles, as a long job
 * makes them: resident memory and live MPI handles must stay flat.
 *
 * Cycle i runs, on MPI_COMM_WORLD:
 *   - a plan (3-D, double): last-axis kind, method, grid dimensionality,
 *     threads (1 or 2), batch (1 or 2, with every overlap mode; progress
 *     where MPI gives MPI_THREAD_MULTIPLE) all rotate
 *     with i, the shm method's shared windows included; forward, backward,
 *     and the round trip checked;
 *   - a redistribution of the rotating method (vector included);
 *   - a halo exchange of either variant;
 *   - every 8th cycle, a batched array written to a .npy file and read
 *     back (the directory is the first non-option argument, default ".").
 * After every cycle the live communicators, datatypes, groups, requests and
 * windows (PMPI counter, tests/support/mpi_handle_counter.c, linked with
 * the STATIC library) must equal those before the first cycle. Resident
 * memory (/proc/self/statm) is read after a warm-up (every configuration
 * made at least twice: FFTW's planner keeps what it learnt, malloc's arenas
 * settle) and at the end; the growth, the largest over the ranks, must stay
 * below --rss-slack-kib (default 4096 KiB; -1: not checked, as under
 * AddressSanitizer, whose quarantine keeps freed memory). Rank 0 prints a line every
 * --report cycles: cycle, resident KiB (max over ranks), live handles.
 *
 *   usage: soak [--cycles N] [--report K] [--rss-slack-kib S] [DIR]
 * CTest runs 200 cycles (tests/CMakeLists.txt); scripts/test --long 10^4.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "distfft.h"
#include "blocks.h"
#include "mpi_handle_counter.h"

static int me, P, threads_ok, romio_counted;

/* MPICH's MPI-IO (ROMIO) calls the MPI_ names itself, so its own datatypes
 * and collectives would go through the PMPI counter: there the array-file
 * cycles are left out (Open MPI's OMPIO calls PMPI). */
static int mpich(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    return strstr(version, "MPICH") != NULL;
}

static long resident_kib(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        fclose(f);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static long live(const mpi_handle_counts *c)
{
    return c->comms + c->datatypes + c->groups + c->requests + c->windows;
}

static void *buffer(size_t bytes)
{
    void *p = distfft_malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "[rank %d] soak: out of memory\n", me);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(p, 0, bytes ? bytes : 1);
    return p;
}

static int64_t product(int n, const int64_t *shape)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++) p *= shape[i];
    return p;
}

static const distfft_method plan_methods[] = {
    DISTFFT_METHOD_ALLTOALLW, DISTFFT_METHOD_ALLTOALLV, DISTFFT_METHOD_ISEND_WAITALL,
    DISTFFT_METHOD_SHM, DISTFFT_METHOD_ISEND_WAITSOME, DISTFFT_METHOD_SENDRECV,
    DISTFFT_METHOD_HIERARCHICAL, DISTFFT_METHOD_ISEND_WAITALL_BLOCKED,
    DISTFFT_METHOD_ISEND_WAITSOME_BLOCKED};
#define N_PLAN_METHODS (int)(sizeof plan_methods / sizeof plan_methods[0])
static const distfft_kind kinds[] = {DISTFFT_C2C, DISTFFT_R2C, DISTFFT_DCT2, DISTFFT_DST3};
/* progress (a helper thread per plan, created and joined every cycle) only
 * where MPI gives MPI_THREAD_MULTIPLE: n_overlaps is 4 there, else 3. */
static const distfft_overlap overlaps[] = {DISTFFT_OVERLAP_OFF, DISTFFT_OVERLAP_ON,
                                           DISTFFT_OVERLAP_FIELDS, DISTFFT_OVERLAP_PROGRESS};
static int n_overlaps = 3;

/* One plan: create, forward, backward (the round trip must give x back). */
static int plan_cycle(long i)
{
    const int64_t shape[3] = {12, 10, 9};
    distfft_options o;
    distfft_options_init(&o);
    o.rigor = DISTFFT_ESTIMATE;
    o.method = plan_methods[i % N_PLAN_METHODS];
    o.kinds[2] = kinds[(i / 3) % 4];
    o.grid_ndims = 1 + (int)(i / 2 % 2);
    o.threads = threads_ok && i % 4 == 3 ? 2 : 1;
    o.batch = i % 5 < 2 ? 2 : 1;
    o.overlap = overlaps[(i / 5) % n_overlaps];
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(MPI_COMM_WORLD, 3, shape, DISTFFT_DOUBLE, &o, &plan);
    if (rc != DISTFFT_SUCCESS) return rc;
    int64_t in_shape[3], out_shape[3];
    distfft_type in_type, out_type;
    distfft_plan_input_block(plan, in_shape, NULL);
    distfft_plan_output_block(plan, out_shape, NULL);
    distfft_plan_types(plan, &in_type, &out_type);
    size_t n_in = (size_t)(o.batch * product(3, in_shape)) * distfft_type_size(in_type) /
                  sizeof(double);
    size_t n_out = (size_t)(o.batch * product(3, out_shape)) * distfft_type_size(out_type);
    double *x = buffer(n_in * sizeof(double)), *back = buffer(n_in * sizeof(double));
    void *y = buffer(n_out);
    for (size_t k = 0; k < n_in; k++) x[k] = sin(0.37 * (double)k + me);
    rc = distfft_plan_execute(plan, x, y, DISTFFT_FORWARD);
    if (rc == DISTFFT_SUCCESS) rc = distfft_plan_execute(plan, y, back, DISTFFT_BACKWARD);
    double error = 0;
    for (size_t k = 0; rc == DISTFFT_SUCCESS && k < n_in; k++)
        error = fmax(error, fabs(back[k] - x[k]));
    if (rc == DISTFFT_SUCCESS && error > 1e-10) {
        fprintf(stderr, "[rank %d] soak: cycle %ld round trip error %.3e\n", me, i, error);
        rc = -1;
    }
    distfft_free(x);
    distfft_free(back);
    distfft_free(y);
    int destroyed = distfft_plan_destroy(&plan);
    return rc != DISTFFT_SUCCESS ? rc : destroyed;
}

static int redist_cycle(long i)
{
    int64_t in_shape[3] = {12, 12, 3}, out_shape[3] = {12, 12, 3};
    distfft_decompose(12, P, me, &in_shape[1], NULL);   /* complete along 0 */
    distfft_decompose(12, P, me, &out_shape[0], NULL);  /* complete along 1 */
    distfft_method method = i % (N_PLAN_METHODS + 1) == N_PLAN_METHODS
                                ? DISTFFT_METHOD_VECTOR : plan_methods[i % N_PLAN_METHODS];
    if (method == DISTFFT_METHOD_VECTOR && 12 % P) method = DISTFFT_METHOD_ALLTOALLW;
    distfft_redist redist = NULL;
    int rc = distfft_redist_create(MPI_COMM_WORLD, DISTFFT_COMPLEX_FLOAT, 3, in_shape, 0,
                                   out_shape, 1, 1 + i % 2, method, &redist);
    if (rc != DISTFFT_SUCCESS) return rc;
    size_t element = distfft_type_size(DISTFFT_COMPLEX_FLOAT);
    void *in = buffer(2 * (size_t)product(3, in_shape) * element);
    void *out = buffer(2 * (size_t)product(3, out_shape) * element);
    rc = distfft_redist_execute(redist, in, out);
    distfft_free(in);
    distfft_free(out);
    int destroyed = distfft_redist_destroy(&redist);
    return rc != DISTFFT_SUCCESS ? rc : destroyed;
}

static int halo_cycle(long i)
{
    const int64_t shape[3] = {9, 5, 4}, low[3] = {2, 1, 1}, high[3] = {1, 2, 0};
    const int periodic[3] = {1, 0, 1};
    int64_t local[3] = {9, 5, 4}, start[3] = {0, 0, 0};
    distfft_decompose(9, P, me, &local[0], &start[0]);
    distfft_halo halo = NULL;
    int rc = test_halo_create(MPI_COMM_WORLD, DISTFFT_REAL_DOUBLE, 3, shape, local, start,
                                 low, high, periodic, 1 + i % 2,
                                 i % 2 ? DISTFFT_HALO_PACK : DISTFFT_HALO_DATATYPES, &halo);
    if (rc != DISTFFT_SUCCESS) return rc;
    int64_t count = distfft_halo_padded_block(halo, NULL, NULL);
    void *array = buffer((size_t)count * sizeof(double));
    rc = distfft_halo_execute(halo, array);
    distfft_free(array);
    int destroyed = distfft_halo_destroy(&halo);
    return rc != DISTFFT_SUCCESS ? rc : destroyed;
}

static int file_cycle(long i, const char *dir)
{
    const int64_t shape[2] = {10, 7};
    int64_t local[2] = {10, 7}, start[2] = {0, 0};
    distfft_decompose(10, P, me, &local[0], &start[0]);
    size_t n = 2 * (size_t)product(2, local);
    float *out = buffer(n * sizeof(float)), *in = buffer(n * sizeof(float));
    for (size_t k = 0; k < n; k++) out[k] = (float)(k + 100 * me + i);
    char path[4096];
    snprintf(path, sizeof path, "%s/soak_np%d_%ld.npy", dir, P, i % 3); /* runs side by side */
    int rc = test_array_write(MPI_COMM_WORLD, path, DISTFFT_REAL_FLOAT, 2, shape, local,
                                 start, 2, out);
    if (rc == DISTFFT_SUCCESS)
        rc = test_array_read(MPI_COMM_WORLD, path, DISTFFT_REAL_FLOAT, 2, shape, local,
                                start, 2, in);
    if (rc == DISTFFT_SUCCESS && memcmp(in, out, n * sizeof(float))) {
        fprintf(stderr, "[rank %d] soak: cycle %ld: %s read back differs\n", me, i, path);
        rc = -1;
    }
    distfft_free(out);
    distfft_free(in);
    return rc;
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    threads_ok = provided >= MPI_THREAD_FUNNELED;
    if (provided >= MPI_THREAD_MULTIPLE) n_overlaps = 4;
    romio_counted = mpich();
    if (romio_counted && me == 0) printf("soak: MPICH: no array-file cycles (ROMIO's own MPI calls would be counted)\n");
    long cycles = 200, report = 50, slack = 4096;
    const char *dir = ".";
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--cycles") && a + 1 < argc) cycles = atol(argv[++a]);
        else if (!strcmp(argv[a], "--report") && a + 1 < argc) report = atol(argv[++a]);
        else if (!strcmp(argv[a], "--rss-slack-kib") && a + 1 < argc) slack = atol(argv[++a]);
        else dir = argv[a];
    }
    /* every configuration at least twice before the memory baseline */
    long warmup = 2 * 3 * 4 * 2 * N_PLAN_METHODS;
    if (warmup > cycles / 2) warmup = cycles / 2;
    mpi_handle_counts start = mpi_handle_counts_now();
    long rss_base = 0, failures = 0, created = start.created;
    for (long i = 0; i < cycles && !failures; i++) {
        const char *what = "plan";
        int rc = plan_cycle(i);
        if (rc == DISTFFT_SUCCESS) { what = "redistribution"; rc = redist_cycle(i); }
        if (rc == DISTFFT_SUCCESS) { what = "halo"; rc = halo_cycle(i); }
        if (rc == DISTFFT_SUCCESS && i % 8 == 0 && !romio_counted) {
            what = "array file";
            rc = file_cycle(i, dir);
        }
        mpi_handle_counts now = mpi_handle_counts_now();
        int bad = rc != DISTFFT_SUCCESS || live(&now) != live(&start) ||
                  now.created == created;
        if (rc != DISTFFT_SUCCESS)
            fprintf(stderr, "[rank %d] soak: cycle %ld %s failed: %s\n", me, i, what,
                    distfft_last_error());
        else if (bad)
            fprintf(stderr, "[rank %d] soak: cycle %ld left %ld comms, %ld datatypes, %ld "
                    "groups, %ld requests, %ld windows (%ld created)\n", me, i,
                    now.comms - start.comms, now.datatypes - start.datatypes,
                    now.groups - start.groups, now.requests - start.requests,
                    now.windows - start.windows, now.created - created);
        created = now.created;
        long any = bad;
        MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
        failures += any;
        long rss = resident_kib();
        MPI_Allreduce(MPI_IN_PLACE, &rss, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
        if (i + 1 == warmup) rss_base = rss;
        if (me == 0 && (i % report == report - 1 || i + 1 == cycles || i + 1 == warmup))
            printf("soak: cycle %6ld  resident %7ld KiB  live MPI handles %ld (%ld made so far)%s\n",
                   i + 1, rss, live(&now), now.created - start.created,
                   i + 1 == warmup ? "  <- baseline" : "");
        if (i + 1 == cycles && slack >= 0 && rss - rss_base > slack) {
            if (me == 0)
                fprintf(stderr, "soak: resident memory grew by %ld KiB after the warm-up "
                        "(%ld cycles), more than %ld KiB\n", rss - rss_base, warmup, slack);
            failures++;
        }
        fflush(stdout);
    }
    if (me == 0)
        printf("soak: %s (%ld cycles on %d ranks)\n", failures ? "FAIL" : "ok", cycles, P);
    MPI_Finalize();
    return failures ? 1 : 0;
}
