/*
 * test_large.c -- opt-in test of arrays beyond 32-bit sizes (not in the
 * default suite: it needs ~16 GiB of memory; see docs/reliability.md, "Large arrays").
 *
 *   mpiexec -n 2 test_large transform   (default)
 *     A 2-D DCT-II of real floats, 32800 x 65536 = 2^31 + 2^21 + ... global
 *     elements (more than 2^31), slab-decomposed over the ranks: with 2
 *     ranks each local block is 16400 x 65536 floats = 4.0 GiB (more than
 *     2 GiB), and the exchange moves 2 GiB chunks whose byte offsets pass
 *     2^31. destroy_input, so the plan needs no work memory: input + output
 *     = 2 x 8.0 GiB in all, whatever the rank count.
 *     Input: cos(pi (i + 1/2) a / N0) cos(pi (j + 1/2) b / N1), whose DCT-II
 *     is exactly N0 N1 at (a, b) and 0 elsewhere; backward must give the
 *     input back. Both within 8 eps log2(N) relative to the largest value.
 *
 *   mpiexec -n 2 test_large redist [columns]
 *     A redistribution of real floats, global 2 x columns (default
 *     2^29 + 2^19: local blocks of 2.0 GiB with 2 ranks), from rows to
 *     columns, with every method. Exact values (the global index mod 2^23),
 *     compared with ==. Memory: 2 x 4.0 GiB of arrays, plus for the copying
 *     methods a send and a receive buffer of about half a block per rank:
 *     about 12 GiB with 2 ranks. Run it also with DISTFFT_MAX_MESSAGE=
 *     268435456 to send the 2 GiB chunks as derived datatypes.
 *
 * Each rank checks /proc/meminfo first and fails with the need if the
 * machine has less available.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "distfft.h"

#define PI 3.14159265358979323846

static int rank, size;

static double wall(void) { return MPI_Wtime(); }

static void say(const char *format, const char *text, double value)
{
    if (rank == 0) {
        printf(format, text, value);
        fflush(stdout);
    }
}

/* GiB the kernel says are available, or -1. */
static double available_gib(void)
{
    FILE *file = fopen("/proc/meminfo", "r");
    if (!file) return -1;
    char line[256];
    double kib = -1;
    while (fgets(line, sizeof line, file))
        if (sscanf(line, "MemAvailable: %lf kB", &kib) == 1) break;
    fclose(file);
    return kib < 0 ? -1 : kib / (1024.0 * 1024.0);
}

/* 1 on every rank if the node can hold need_gib more (ranks share it). */
static int enough_memory(double need_gib)
{
    double have = available_gib();
    int ok = have < 0 || have >= need_gib, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all && rank == 0)
        printf("test_large: FAIL needs about %.1f GiB of memory, %.1f GiB available\n",
               need_gib, have);
    return all;
}

static int all_ok(int ok)
{
    int all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* ---- transform --------------------------------------------------------------- */

static int transform(void)
{
    const int64_t shape[2] = {32800, 65536};
    const int64_t a = 7, b = 1234; /* the mode that carries the signal */
    double global_gib = (double)shape[0] * shape[1] * 4 / (1 << 30);
    if (rank == 0)
        printf("test_large: transform: DCT-II of %lld real floats, input + output %.1f GiB "
               "in all\n", (long long)(shape[0] * shape[1]), 2 * global_gib);
    if (!enough_memory(2 * global_gib + 0.5 * size)) return 1;

    distfft_options options;
    distfft_options_init(&options);
    options.kinds[0] = options.kinds[1] = DISTFFT_DCT2;
    options.grid_ndims = 1;
    options.rigor = DISTFFT_ESTIMATE;
    options.destroy_input = 1;
    const char *method = getenv("DISTFFT_LARGE_METHOD");
    if (method && distfft_method_from_name(method, &options.method) != DISTFFT_SUCCESS) return 1;
    distfft_plan plan;
    double t = wall();
    if (distfft_plan_create(MPI_COMM_WORLD, 2, shape, DISTFFT_FLOAT, &options, &plan)) {
        if (rank == 0) printf("test_large: FAIL create: %s\n", distfft_last_error());
        return 1;
    }
    int64_t in_shape[2], in_start[2], out_shape[2], out_start[2];
    distfft_plan_input_block(plan, in_shape, in_start);
    distfft_plan_output_block(plan, out_shape, out_start);
    int64_t in_count = in_shape[0] * in_shape[1], out_count = out_shape[0] * out_shape[1];
    char text[256];
    distfft_plan_describe(plan, text, sizeof text);
    say("test_large: plan %s\n", text, 0);
    if (rank == 0)
        printf("test_large: local input block %lld x %lld = %.2f GiB, work memory %zu bytes\n",
               (long long)in_shape[0], (long long)in_shape[1],
               in_count * 4.0 / (1 << 30), distfft_plan_work_bytes(plan));
    float *in = distfft_malloc((size_t)in_count * sizeof(float));
    float *out = distfft_malloc((size_t)out_count * sizeof(float));
    if (!all_ok(in && out)) {
        say("test_large: FAIL %s\n", "allocation", 0);
        return 1;
    }
    /* Separable input from two tables of cosines. */
    float *row = malloc(shape[0] * sizeof *row), *column = malloc(shape[1] * sizeof *column);
    for (int64_t i = 0; i < shape[0]; i++) row[i] = (float)cos(PI * (i + 0.5) * a / shape[0]);
    for (int64_t j = 0; j < shape[1]; j++) column[j] = (float)cos(PI * (j + 0.5) * b / shape[1]);
    for (int64_t i = 0; i < in_shape[0]; i++) {
        float r = row[in_start[0] + i];
        float *line = in + i * in_shape[1];
        for (int64_t j = 0; j < in_shape[1]; j++) line[j] = r * column[in_start[1] + j];
    }
    say("test_large: %s %.1f s\n", "created and filled in", wall() - t);

    t = wall();
    int ok = distfft_plan_execute(plan, in, out, DISTFFT_FORWARD) == DISTFFT_SUCCESS;
    say("test_large: %s %.1f s\n", "forward", wall() - t);
    double peak = (double)shape[0] * shape[1], error = 0;
    for (int64_t k = 0; k < out_shape[0]; k++)
        for (int64_t l = 0; l < out_shape[1]; l++) {
            int64_t gk = out_start[0] + k, gl = out_start[1] + l;
            double expected = gk == a && gl == b ? peak : 0.0;
            double diff = fabs(out[k * out_shape[1] + l] - expected);
            if (!(diff <= error)) error = diff;
        }
    double tolerance = 8 * 0x1.0p-23 * log2(peak);
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    ok &= error / peak <= tolerance;
    if (rank == 0)
        printf("test_large: forward: relative error %.3e (tolerance %.3e)\n", error / peak, tolerance);

    t = wall();
    ok &= distfft_plan_execute(plan, out, in, DISTFFT_BACKWARD) == DISTFFT_SUCCESS;
    say("test_large: %s %.1f s\n", "backward", wall() - t);
    error = 0;
    for (int64_t i = 0; i < in_shape[0]; i++)
        for (int64_t j = 0; j < in_shape[1]; j++) {
            double expected = (double)row[in_start[0] + i] * column[in_start[1] + j];
            double diff = fabs(in[i * in_shape[1] + j] - expected);
            if (!(diff <= error)) error = diff;
        }
    MPI_Allreduce(MPI_IN_PLACE, &error, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    ok &= error <= tolerance;
    if (rank == 0)
        printf("test_large: backward(forward(x)): max error %.3e (tolerance %.3e)\n", error,
               tolerance);
    free(row);
    free(column);
    distfft_free(in);
    distfft_free(out);
    distfft_plan_destroy(&plan);
    return !all_ok(ok);
}

/* ---- redistribution ---------------------------------------------------------- */

static float value_at(int64_t global) { return (float)(global % (1 << 23)); }

static int redist(int64_t columns)
{
    const int64_t rows = size;
    double block_gib = (double)columns * 4 / (1 << 30);
    say("test_large: %s: 2 x %.0f real floats\n", "redist", (double)columns);
    if (!enough_memory(2 * rows * block_gib * (1 + (size - 1.0) / size) + 0.5 * size)) return 1;
    /* In: row `rank`, complete along axis 1. Out: all rows, a block of the
     * columns (distfft_decompose). */
    int64_t part, start;
    distfft_decompose(columns, size, rank, &part, &start);
    const int64_t in_shape[2] = {1, columns}, out_shape[2] = {rows, part};
    float *in = distfft_malloc((size_t)columns * sizeof(float));
    float *out = distfft_malloc((size_t)(rows * part) * sizeof(float));
    if (!all_ok(in && out)) return 1;
    for (int64_t j = 0; j < columns; j++) in[j] = value_at(rank * columns + j);
    if (rank == 0)
        printf("test_large: local blocks %.2f GiB in, %.2f GiB out\n", columns * 4.0 / (1 << 30),
               rows * part * 4.0 / (1 << 30));
    int failures = 0;
    for (int m = 0; m < distfft_method_count(); m++) {
        const char *name = distfft_method_name((distfft_method)m);
        if (m == DISTFFT_METHOD_STAGED || m == DISTFFT_METHOD_NCCL || m == DISTFFT_METHOD_CUDA_IPC)
            continue; /* device memory only */
        distfft_redist plan;
        double t = wall();
        int rc = distfft_redist_create(MPI_COMM_WORLD, DISTFFT_REAL_FLOAT, 2, in_shape, 1,
                                       out_shape, 0, 1, (distfft_method)m, &plan);
        if (rc != DISTFFT_SUCCESS) {
            if (rank == 0) printf("test_large: FAIL %s create: %s\n", name, distfft_last_error());
            failures++;
            continue;
        }
        memset(out, 0xff, (size_t)(rows * part) * sizeof(float));
        rc = distfft_redist_execute(plan, in, out);
        double seconds = wall() - t;
        int64_t wrong = 0;
        for (int64_t r = 0; r < rows; r++)
            for (int64_t j = 0; j < part; j++)
                wrong += out[r * part + j] != value_at(r * columns + start + j);
        MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
        int ok = all_ok(rc == DISTFFT_SUCCESS) && wrong == 0;
        if (rank == 0)
            printf("test_large: %s %s: %.1f s, %lld wrong elements\n", ok ? "ok  " : "FAIL", name,
                   seconds, (long long)wrong);
        failures += !ok;
        distfft_redist_destroy(&plan);
    }
    distfft_free(in);
    distfft_free(out);
    return failures != 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "transform";
    int status;
    if (strcmp(mode, "transform") == 0) status = transform();
    else if (strcmp(mode, "redist") == 0)
        status = redist(argc > 2 ? strtoll(argv[2], NULL, 10) : ((int64_t)1 << 29) + (1 << 19));
    else {
        if (rank == 0) fprintf(stderr, "usage: test_large [transform | redist [columns]]\n");
        status = 2;
    }
    if (rank == 0) printf("test_large %s: %s\n", mode, status ? "FAILED" : "passed");
    MPI_Finalize();
    return status;
}
