/*
 * calibrate_fft.c -- the cost model's FFT rates (model.h), measured for
 * calibrate.c on every rank at once, the slowest rank's time, fastest of
 * a few runs: serial transforms (serial/) per family and precision
 *   by block size  n^3 blocks along each axis, n = 16 to 128: the rate
 *                  by the local block's elements;
 *   by length      axes of 16 to 2,048 points on blocks of
 *                  MODEL_LENGTH_BLOCK elements, the axis contiguous and
 *                  strided with the lines contiguous, as a pencil's steps
 *                  see them. At n^3 blocks the length and the block grow
 *                  together, and a third of the measurement is the outer
 *                  axis at a power-of-two stride of n^2 elements, slow on
 *                  caches of limited associativity and seldom a pencil
 *                  step's: the rate by size misprices a pencil's long
 *                  axes, c2c too slow and r2c too fast.
 *   by block       the per-length rates at 64 and 512 points again on a
 *                  block 8 times larger (2 M elements, beyond a core's
 *                  cache) over the same on MODEL_LENGTH_BLOCK, per family:
 *                  the model's fft_block factors for steps on large blocks.
 *   by active ranks the per-length c2c rate at 1,024 points again
 *                  with only the first A ranks of each node computing
 *                  (A = 1, 2, 4, ... below the node's ranks), against all
 *                  of them: the model's fft_active factors. The rates
 *                  above share the node's memory bandwidth among all its
 *                  ranks; a plan with fewer ranks on a node gets more.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../error.h"
#include "../serial/serial_fft.h"
#include "../platform.h"
#include "calibrate.h"

static int RUNS = 6; /* per measurement, the fastest kept (calibrate.c) */
static const int fft_sizes[] = {16, 32, 64, 128};
static int FFT_SIZES = (int)(sizeof fft_sizes / sizeof fft_sizes[0]);
static const int fft_lengths[] = {16, 32, 64, 128, 256, 512, 1024, 2048};
static int FFT_LENGTHS = (int)(sizeof fft_lengths / sizeof fft_lengths[0]);

double calibration_slowest(MPI_Comm comm, double seconds, int *rc)
{
    double all = seconds;
    keep_mpi(rc, MPI_Allreduce(&seconds, &all, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
    return all;
}

/* One transform as local work (platform.h), named by its shape, axes and
 * bytes. */
typedef struct {
    const serial_spec *spec;
    serial_fft *fft;
    size_t used;
} fft_work;

static int execute_fft(const void *context, const void *in, void *out)
{
    serial_fft_execute(((const fft_work *)context)->fft, (void *)in, out);
    return DISTFFT_SUCCESS;
}

static void name_fft(const void *context, char *key, size_t size)
{
    const fft_work *work = context;
    const serial_spec *spec = work->spec;
    snprintf(key, size, "calibrate fft family %d precision %d %lldx%lldx%lld axes %d,%d bytes %zu",
             (int)spec->family, (int)spec->precision, (long long)spec->shape[0], (long long)spec->shape[1],
             (long long)(spec->ndims > 2 ? spec->shape[2] : 1), spec->axes[0], spec->naxes > 1 ? spec->axes[1] : -1,
             work->used);
}

/* Bytes of the larger side of `spec`'s transform (the complex side of
 * r2c and c2r). */
static size_t transform_bytes(const serial_spec *spec)
{
    size_t elements = 1;
    for (int d = 0; d < spec->ndims; d++)
        elements *= (size_t)(d == spec->ndims - 1 && (spec->family == SERIAL_R2C || spec->family == SERIAL_C2R)
                                 ? spec->shape[d] / 2 + 1
                                 : spec->shape[d]);
    size_t real = spec->precision == DISTFFT_DOUBLE ? sizeof(double) : sizeof(float);
    return elements * (spec->family == SERIAL_R2R ? real : 2 * real);
}

/* Seconds of one transform of `spec` (best of RUNS, slowest rank; ranks
 * not `active` only take part in the collectives), or -1 if it cannot be
 * planned on some rank. Collective; a failure kept in *rc. The transform
 * runs as a plan's steps do (platform_run_local_work), so on a simulator
 * that charges local work the rates describe what the simulation charges;
 * there its sampled runs get private buffers of the transform's own size,
 * as a plan's steps do (buffers of the whole calibration array would
 * leave the transform's data out of the cache and price the simulated
 * rates above a native calibration's). */
static double time_fft_runs(MPI_Comm comm, const serial_spec *spec, int active, void *in, void *out,
                            size_t bytes, int runs, int *rc)
{
    fft_work run = {spec, NULL, transform_bytes(spec)};
    if (run.used > bytes) run.used = bytes;
    platform_work work = {execute_fft, name_fft, &run, run.used, run.used};
    memset(in, 0, bytes);
    memset(out, 0, bytes);
    int ok = serial_fft_create(spec, in, out, &run.fft) == DISTFFT_SUCCESS, all = 0;
    error_clear(); /* cannot plan it: not an error here */
    keep_mpi(rc, MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
    double best = INFINITY;
    if (all) {
        memset(in, 0, bytes);
        if (active) platform_run_local_work(&work, in, out); /* warm-up */
        for (int r = 0; r < runs; r++) {
            keep_mpi(rc, MPI_Barrier(comm), "MPI_Barrier");
            double start = MPI_Wtime();
            if (active) platform_run_local_work(&work, in, out);
            double seconds = calibration_slowest(comm, MPI_Wtime() - start, rc);
            if (seconds < best) best = seconds;
        }
    }
    if (run.fft) serial_fft_destroy(run.fft);
    return all ? best : -1.0;
}

static double time_fft(MPI_Comm comm, const serial_spec *spec, int active, void *in, void *out, size_t bytes,
                       int *rc)
{
    return time_fft_runs(comm, spec, active, in, out, bytes, RUNS, rc);
}

/* The rate of one family and precision at n^3 blocks: the mean over the
 * axes (strides differ) of seconds per unit; r2c is forward and backward. */
static double fft_rate(MPI_Comm comm, model_family family, distfft_precision precision, int n,
                       distfft_rigor rigor, void *in, void *out, size_t bytes, int *rc)
{
    serial_spec spec = {.precision = precision, .ndims = 3, .shape = {n, n, n}, .batch = 1, .naxes = 1,
                        .sign = DISTFFT_FORWARD, .rigor = rigor, .threads = 1};
    double total = 0.0;
    int count = 0;
    for (int variant = 0; variant < 3; variant++) {
        if (family == MODEL_C2C) {
            spec.family = SERIAL_C2C;
            spec.axes[0] = variant;
        } else if (family == MODEL_R2C) {
            if (variant == 2) break;
            spec.family = variant == 0 ? SERIAL_R2C : SERIAL_C2R;
            spec.axes[0] = 2;
        } else {
            spec.family = SERIAL_R2R;
            spec.axes[0] = variant;
            spec.r2r_kinds[0] = DISTFFT_DCT2;
        }
        double seconds = time_fft(comm, &spec, 1, in, out, bytes, rc);
        if (seconds < 0) return -1.0;
        total += seconds / ((double)n * n * n * log2((double)n));
        count++;
    }
    return total / count;
}

/* The rate of one family and precision at axis length n, on a block of
 * `block` elements (B = block / n lines): the mean of the axis
 * contiguous (B x n, axis 1) and strided with the lines contiguous (n x B,
 * axis 0), as a pencil's first and later steps are; r2c: B x n forward
 * and backward (its halved axis is always the contiguous one). */
static double fft_rate_on(MPI_Comm comm, model_family family, distfft_precision precision, int n,
                          int64_t block, distfft_rigor rigor, int active, void *in, void *out, size_t bytes,
                          int *rc)
{
    int64_t lines = block / n;
    serial_spec spec = {.precision = precision, .ndims = 2, .batch = 1, .naxes = 1, .sign = DISTFFT_FORWARD,
                        .rigor = rigor, .threads = 1};
    double total = 0.0;
    for (int variant = 0; variant < 2; variant++) {
        int contiguous = family == MODEL_R2C || variant == 0;
        spec.shape[0] = contiguous ? lines : n;
        spec.shape[1] = contiguous ? n : lines;
        spec.axes[0] = contiguous ? 1 : 0;
        spec.family = family == MODEL_C2C ? SERIAL_C2C
                      : family == MODEL_R2R ? SERIAL_R2R
                      : variant == 0        ? SERIAL_R2C
                                            : SERIAL_C2R;
        spec.r2r_kinds[0] = DISTFFT_DCT2;
        double seconds = time_fft(comm, &spec, active, in, out, bytes, rc);
        if (seconds < 0) return -1.0;
        total += seconds / ((double)lines * n * log2((double)n));
    }
    return total / 2;
}

/* The same on MODEL_LENGTH_BLOCK elements: the per-length rates. */
static double fft_length_rate(MPI_Comm comm, model_family family, distfft_precision precision, int n,
                              distfft_rigor rigor, int active, void *in, void *out, size_t bytes, int *rc)
{
    return fft_rate_on(comm, family, precision, n, MODEL_LENGTH_BLOCK, rigor, active, in, out, bytes, rc);
}

/* The fft_block factors (model.h): per family, double precision, the rate
 * on BLOCK_FACTOR_BLOCK elements over the rate on MODEL_LENGTH_BLOCK, the
 * geometric mean over two lengths (64 and 512 points: short and long
 * lines); then the same on BIG_BLOCK elements, on arrays of their own
 * (2 x 128 MiB, freed at once), where they can be had and ranks do not
 * share one process (big_arrays_create): past 2 M elements the
 * rate goes on growing with the block. Nothing where the arrays cannot hold
 * the block (the quick calibration) or a rate cannot be measured. */
#define BLOCK_FACTOR_BLOCK (8 * (int64_t)MODEL_LENGTH_BLOCK)
#define BIG_BLOCK (4 * BLOCK_FACTOR_BLOCK)
static double block_factor(MPI_Comm comm, model_family family, int64_t block, distfft_rigor rigor, void *in,
                           void *out, size_t bytes, void *big_in, void *big_out, size_t big_bytes, int *rc)
{
    static const int lengths[] = {64, 512};
    double product = 1.0;
    for (int i = 0; i < 2; i++) {
        double small = fft_length_rate(comm, family, DISTFFT_DOUBLE, lengths[i], rigor, 1, in, out, bytes, rc);
        double large = fft_rate_on(comm, family, DISTFFT_DOUBLE, lengths[i], block, rigor, 1,
                                   big_in ? big_in : in, big_in ? big_out : out, big_in ? big_bytes : bytes, rc);
        if (!(small > 0 && large > 0)) return -1.0; /* SMPI without simulated computation: free either way */
        product *= large / small;
    }
    return sqrt(product);
}

/* The arrays of BIG_BLOCK complex elements (2 x 128 MiB) the block and
 * multi-axis factors are measured on beyond 2 M elements, on every rank or
 * none (NULL): not where ranks share one process (every rank's arrays
 * would be the host's), nor where the calibration's own arrays cannot
 * hold BLOCK_FACTOR_BLOCK (the quick calibration). */
#define BIG_BYTES ((size_t)BIG_BLOCK * 16)
static void big_arrays_create(MPI_Comm comm, size_t bytes, void **big_in, void **big_out, int *rc)
{
    *big_in = *big_out = NULL;
    if (platform_ranks_share_process()) return; /* the same answer on every rank */
    if ((size_t)BLOCK_FACTOR_BLOCK * 16 <= bytes) {
        *big_in = distfft_malloc(BIG_BYTES);
        *big_out = distfft_malloc(BIG_BYTES);
    }
    int mine = *big_in && *big_out, all = 0;
    keep_mpi(rc, MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce"); /* all or none */
    if (!all) {
        distfft_free(*big_in);
        distfft_free(*big_out);
        *big_in = *big_out = NULL;
    }
}

static void calibrate_block(MPI_Comm comm, distfft_rigor rigor, void *in, void *out, size_t bytes, void *big_in,
                            void *big_out, int *rc, cost_model *model)
{
    int big = big_in != NULL;
    size_t big_bytes = BIG_BYTES;
    for (int family = 0; family < MODEL_FAMILIES; family++) {
        model_rate *table = &model->fft_block[family];
        table->count = 0;
        if ((size_t)BLOCK_FACTOR_BLOCK * 16 > bytes) continue;
        double factor = block_factor(comm, (model_family)family, BLOCK_FACTOR_BLOCK, rigor, in, out, bytes,
                                     NULL, NULL, 0, rc);
        if (!(factor > 0)) continue;
        table->elements[0] = (double)BLOCK_FACTOR_BLOCK;
        table->seconds_per_unit[0] = factor;
        table->count = 1;
        double beyond = big ? block_factor(comm, (model_family)family, BIG_BLOCK, rigor, in, out, bytes, big_in,
                                           big_out, big_bytes, rc)
                            : -1.0;
        if (beyond > 0) {
            table->elements[1] = (double)BIG_BLOCK;
            table->seconds_per_unit[1] = beyond > factor ? beyond : factor; /* never below: noise */
            table->count = 2;
        }
    }
}

/* Several axes in one plan (a slab's first step, one rank's whole
 * transform) against the per-axis rates (by length where measured, as
 * steps are predicted): double precision at n^3, axes 1,2 -- c2c, or r2c
 * forward and c2r backward (their mean). 1 where it cannot be measured.
 * The fastest of 4 x RUNS: one factor scales every such step, and the
 * fastest of RUNS runs of a millisecond's transform is too noisy for that
 * on a shared host (it can move the factor by half). */
static double multi_axis_factor(MPI_Comm comm, model_family family, int n0, int n, distfft_rigor rigor, void *in,
                                void *out, size_t bytes, int *rc, const cost_model *model)
{
    serial_spec spec = {.precision = DISTFFT_DOUBLE, .ndims = 3, .shape = {n0, n, n}, .batch = 1, .naxes = 2,
                        .axes = {1, 2}, .sign = DISTFFT_FORWARD, .rigor = rigor, .threads = 1};
    double seconds = 0.0;
    int variants = family == MODEL_R2C ? 2 : 1;
    for (int variant = 0; variant < variants; variant++) {
        spec.family = family == MODEL_C2C ? SERIAL_C2C : variant == 0 ? SERIAL_R2C : SERIAL_C2R;
        double one = time_fft_runs(comm, &spec, 1, in, out, bytes, 4 * RUNS, rc);
        if (!(one > 0)) return 1.0;
        seconds += one / variants;
    }
    double elements = (double)n0 * n * n;
    double per_axes = model_fft_axes_seconds(model, family, DISTFFT_DOUBLE, 2, spec.axes, spec.shape, elements);
    if (per_axes < 0) { /* no per-length rates: the rate by block size */
        double per_axis = fft_rate(comm, family, DISTFFT_DOUBLE, n, rigor, in, out, bytes, rc);
        per_axes = per_axis > 0 ? per_axis * elements * 2 * log2((double)n) : -1.0;
    }
    return per_axes > 0 ? seconds / per_axes : 1.0;
}

/* The multi-axis factors by block size (model->fft_multi_axis, model.h),
 * against the per-axis rates with their block factors (measured first):
 * 64^3 (the scalars'), 128^3 (2 M elements, in the calibration's arrays)
 * and 128 x 256 x 256 (8 M, on the big arrays); nothing without the big
 * arrays (ranks sharing a process, the quick calibration): the scalars
 * then. */
static void calibrate_multi_axis(MPI_Comm comm, distfft_rigor rigor, void *in, void *out, size_t bytes,
                                 void *big_in, void *big_out, int *rc, cost_model *model)
{
    for (int r2c = 0; r2c < 2; r2c++) {
        model_rate *table = &model->fft_multi_axis[r2c];
        table->count = 0;
        if (!big_in) continue;
        model_family family = r2c ? MODEL_R2C : MODEL_C2C;
        static const int shapes[3][2] = {{64, 64}, {128, 128}, {128, 256}};
        for (int s = 0; s < 3; s++) {
            int big = s == 2;
            double factor = s == 0 ? (r2c ? model->fft_multi_axis_factor_r2c : model->fft_multi_axis_factor)
                                   : multi_axis_factor(comm, family, shapes[s][0], shapes[s][1], rigor,
                                                       big ? big_in : in, big ? big_out : out,
                                                       big ? BIG_BYTES : bytes, rc, model);
            table->elements[table->count] = (double)shapes[s][0] * shapes[s][1] * shapes[s][1];
            table->seconds_per_unit[table->count++] = factor;
        }
    }
}

/* The fft_active factors (model.h): the c2c double rate at 1,024 points
 * with the first A ranks of each node computing, over
 * the rate with all of them (`member`: this rank's index on its node), at
 * model_active_counts' A (powers of two, thinned on nodes of more than
 * 128 ranks). Nothing where the node holds one rank or a rate cannot be
 * measured. */
static void calibrate_active(MPI_Comm comm, distfft_rigor rigor, int member, int node_size, void *in,
                             void *out, size_t bytes, int *rc, cost_model *model)
{
    model_rate *table = &model->fft_active;
    int counts[MODEL_MAX_RATES], how_many = model_active_counts(node_size, counts);
    table->count = 0;
    if (how_many < 2) return;
    /* 1,024 points (or the longest calibrated, if shorter): the length the
     * factors hold at on a 16-core node; at 2,048 points the strided lines
     * (4 KiB apart) add a cache effect of their own to the factor. */
    int n = fft_lengths[FFT_LENGTHS - 1] < 1024 ? fft_lengths[FFT_LENGTHS - 1] : 1024;
    double all = fft_length_rate(comm, MODEL_C2C, DISTFFT_DOUBLE, n, rigor, 1, in, out, bytes, rc);
    for (int i = 0; all > 0 && i < how_many; i++) {
        int active = counts[i];
        double some = active == node_size ? all
                                          : fft_length_rate(comm, MODEL_C2C, DISTFFT_DOUBLE, n, rigor,
                                                            member < active, in, out, bytes, rc);
        if (!(some > 0)) break; /* SMPI without simulated computation: free either way */
        table->elements[table->count] = active;
        table->seconds_per_unit[table->count++] = some / all;
    }
    if (table->count != how_many) table->count = 0;
}

int calibrate_ffts(MPI_Comm comm, distfft_rigor rigor, int quick, int runs, int member, int node_size,
                   cost_model *model)
{
    RUNS = runs;
    FFT_SIZES = quick ? 2 : (int)(sizeof fft_sizes / sizeof fft_sizes[0]);
    FFT_LENGTHS = quick ? 3 : (int)(sizeof fft_lengths / sizeof fft_lengths[0]);
    int largest = fft_sizes[FFT_SIZES - 1];
    size_t bytes = (size_t)largest * largest * (largest + 2) * 16; /* complex double, r2c padding */
    if (bytes < (size_t)MODEL_LENGTH_BLOCK * 32) bytes = (size_t)MODEL_LENGTH_BLOCK * 32; /* and the length blocks */
    /* Scratch (platform_scratch): where ranks share a process, one pair for
     * all of them, of distinct pages, and memory that does not grow with the
     * ranks. */
    void *in = platform_scratch("calibration fft in", bytes);
    void *out = platform_scratch("calibration fft out", bytes);
    int rc = error_agree(comm, in && out ? DISTFFT_SUCCESS
                                         : error_fail(DISTFFT_ERR_MEMORY, "calibration arrays"));
    int measured = DISTFFT_SUCCESS; /* MPI failures while timing: agreed at the end */
    for (int family = 0; rc == DISTFFT_SUCCESS && family < MODEL_FAMILIES; family++)
        for (int precision = 0; precision < 2; precision++) {
            model_rate *rate = &model->fft[family][precision];
            for (int s = 0; s < FFT_SIZES; s++) {
                int n = fft_sizes[s];
                double seconds = fft_rate(comm, (model_family)family, (distfft_precision)precision, n,
                                          rigor, in, out, bytes, &measured);
                if (seconds < 0) continue; /* cannot plan it here: falls back (model.h) */
                if (seconds < 1e-18) seconds = 1e-18; /* SMPI without simulated computation: free */
                rate->elements[rate->count] = (double)n * n * n;
                rate->seconds_per_unit[rate->count++] = seconds;
            }
            model_rate *by_length = &model->fft_length[family][precision];
            for (int s = 0; s < FFT_LENGTHS; s++) {
                int n = fft_lengths[s];
                double seconds = fft_length_rate(comm, (model_family)family, (distfft_precision)precision, n,
                                                 rigor, 1, in, out, bytes, &measured);
                if (seconds < 0) continue;
                if (seconds < 1e-18) seconds = 1e-18;
                by_length->elements[by_length->count] = n;
                by_length->seconds_per_unit[by_length->count++] = seconds;
            }
        }
    model->fft_multi_axis_factor = model->fft_multi_axis_factor_r2c = 1.0;
    if (rc == DISTFFT_SUCCESS) {
        int n = largest < 64 ? largest : 64; /* within the arrays */
        model->fft_multi_axis_factor = multi_axis_factor(comm, MODEL_C2C, n, n, rigor, in, out, bytes, &measured,
                                                         model);
        model->fft_multi_axis_factor_r2c = multi_axis_factor(comm, MODEL_R2C, n, n, rigor, in, out, bytes,
                                                             &measured, model);
    }
    void *big_in = NULL, *big_out = NULL;
    if (rc == DISTFFT_SUCCESS) big_arrays_create(comm, bytes, &big_in, &big_out, &measured);
    if (rc == DISTFFT_SUCCESS) calibrate_block(comm, rigor, in, out, bytes, big_in, big_out, &measured, model);
    if (rc == DISTFFT_SUCCESS)
        calibrate_multi_axis(comm, rigor, in, out, bytes, big_in, big_out, &measured, model);
    distfft_free(big_in);
    distfft_free(big_out);
    if (rc == DISTFFT_SUCCESS) calibrate_active(comm, rigor, member, node_size, in, out, bytes, &measured, model);
    platform_scratch_free(in);
    platform_scratch_free(out);
    if (rc == DISTFFT_SUCCESS) rc = error_agree(comm, measured);
    if (rc == DISTFFT_SUCCESS && !model->fft[MODEL_C2C][0].count && !model->fft[MODEL_C2C][1].count)
        rc = error_agree(comm, error_fail(DISTFFT_ERR_FFTW, "calibration: no c2c transform could be planned"));
    return rc;
}
