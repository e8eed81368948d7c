/*
 * fftw_mpi_bench.c -- the FFTW-MPI peer of distfft-bench.
 *
 *   mpiexec -n 2 fftw-mpi-bench --shape 128x128x128 --kind r2c \
 *       --layout transposed --rigor measure --json
 *
 * Times what a user of FFTW's own MPI interface would write: one slab-
 * decomposed plan per direction from fftw_mpi_plan_dft (c2c) or
 * fftw_mpi_plan_dft_r2c / _c2r (fftw_mpi_plan_dft_3d and _r2c_3d are these
 * calls with rank 3), either in natural order (the output is distributed
 * like the input, so FFTW transposes back) or with FFTW_MPI_TRANSPOSED_OUT
 * on the forward and FFTW_MPI_TRANSPOSED_IN on the backward plan (the
 * output keeps the first two axes swapped, one global transpose saved).
 * --layout serial plans the same global transform with serial FFTW
 * (fftw_plan_dft, fftw_plan_dft_r2c / _c2r) on one rank: the compute floor
 * against which parallel efficiency is measured.
 *
 * Timing is distfft-bench's (benchmarks/distfft-bench/timing.c): `outer`
 * repetitions of MPI_Barrier + `inner` forward+backward pairs, the elapsed
 * time max over ranks, the fastest repetition / inner reported with the
 * median beside it.
 * A pair is forward(a -> b), backward(b -> a), a *= 1/N: the same work as
 * distfft's default norm "backward" and mpi4py-fft's normalised backward
 * (--norm none leaves the scaling out; with --threads T the scaling loop
 * runs on T OpenMP threads, as a threaded user's would). --threads T
 * gives every plan T threads (fftw_init_threads before fftw_mpi_init,
 * fftw_plan_with_nthreads before planning): with --layout serial on one
 * rank, FFTW's threaded serial transform -- the single-node baseline of
 * distfft's P ranks x T threads. Before timing, one untimed pair is
 * checked: max|backward(forward(x))/N - x| / max|x|, max over ranks, must be
 * within 8 eps log2 N (exit status 1 otherwise). The JSON line uses
 * distfft-bench --json's field names; fft_seconds and redistribute_seconds
 * are null because FFTW does not split its time. It carries both plans as
 * FFTW prints them (plan, backward_plan) and plan_seconds, the planning of
 * both (slowest rank). --wisdom-in FILE: rank 0 imports FFTW's wisdom of
 * the precision and broadcasts it before planning (fftw_mpi_broadcast_wisdom);
 * --wisdom-out FILE: after planning, every rank's wisdom gathered on rank 0
 * (fftw_mpi_gather_wisdom), which writes it -- so that a second run plans
 * from wisdom instead of measuring again.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fftw3-mpi.h>
#include <mpi.h>

enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };
enum { MAX_AXES = 8 };

/* Indices into the name tables below (ints, so that -1 can mean unknown). */
enum { PRECISION_DOUBLE, PRECISION_FLOAT };
enum { KIND_C2C, KIND_R2C };
enum { LAYOUT_NATURAL, LAYOUT_TRANSPOSED, LAYOUT_SERIAL };

static const char *const precision_names[] = {"double", "float"};
static const char *const kind_names[] = {"c2c", "r2c"};
static const char *const layout_names[] = {"natural", "transposed", "serial"};
static const char *const rigor_names[] = {"estimate", "measure", "patient",
                                          "exhaustive"};
static const unsigned rigor_flags[] = {FFTW_ESTIMATE, FFTW_MEASURE,
                                       FFTW_PATIENT, FFTW_EXHAUSTIVE};

typedef struct {
    int ndims;
    ptrdiff_t shape[MAX_AXES];
    int precision, kind, layout, rigor; /* indices into the name tables */
    int normalise;
    int threads;
    int inner, outer;
    int json;
    const char *wisdom_in, *wisdom_out; /* FFTW wisdom files; NULL: none */
} options_t;

/* ---- command line ---------------------------------------------------------- */

static void print_usage(FILE *stream)
{
    fputs("Usage: mpiexec -n RANKS fftw-mpi-bench [options]\n"
          "\n"
          "Time forward+backward pairs of an FFTW-MPI transform the way\n"
          "distfft-bench does (the fastest of --outer repetitions of --inner\n"
          "pairs, max over ranks), after checking one round trip.\n"
          "\n"
          "  --shape N0xN1[x...]  global shape, 2 to 8 axes (default 64x64x64)\n"
          "  --kind K             c2c | r2c (default c2c; r2c on the last axis)\n"
          "  --precision P        double | float (default double)\n"
          "  --layout L           natural | transposed (FFTW_MPI_TRANSPOSED_OUT\n"
          "                       forward, _IN backward; default transposed) |\n"
          "                       serial (plain serial FFTW plans over the whole\n"
          "                       array, no MPI: the compute floor; 1 rank only)\n"
          "  --rigor R            estimate | measure | patient | exhaustive\n"
          "                       (default measure)\n"
          "  --norm M             backward (scale by 1/N after each backward,\n"
          "                       timed; default) | none\n"
          "  --threads T          FFTW threads per rank (default 1)\n"
          "  --inner N            pairs per timed repetition (default 3)\n"
          "  --outer N            timed repetitions (default 50)\n"
          "  --wisdom-in FILE     import FFTW's wisdom (rank 0 reads, all get it)\n"
          "  --wisdom-out FILE    export every rank's FFTW wisdom after planning\n"
          "  --json               print one JSON object on one line\n"
          "  --help               print this text\n"
          "\n"
          "Exit status: 0 success, 1 planning failed or the round trip is\n"
          "inaccurate, 2 bad usage.\n",
          stream);
}

static int find_name(const char *value, const char *const *names, int count)
{
    for (int index = 0; index < count; ++index)
        if (strcmp(value, names[index]) == 0)
            return index;
    return -1;
}

#define COUNT_OF(array) ((int)(sizeof(array) / sizeof((array)[0])))

static int parse_positive(const char *text, long *value)
{
    char *end;
    if (text[0] < '0' || text[0] > '9')
        return -1;
    *value = strtol(text, &end, 10);
    return *end == '\0' && *value > 0 ? 0 : -1;
}

static int parse_shape(const char *text, options_t *options)
{
    options->ndims = 0;
    const char *next = text;
    while (*next) {
        if (options->ndims == MAX_AXES || *next < '0' || *next > '9')
            return -1;
        char *end;
        long extent = strtol(next, &end, 10);
        if (extent <= 0 || (*end != 'x' && *end != '\0'))
            return -1;
        options->shape[options->ndims++] = extent;
        next = *end == 'x' ? end + 1 : end;
        if (*end == 'x' && *next == '\0')
            return -1;
    }
    return options->ndims >= 2 ? 0 : -1;
}

/* Returns 0, or EXIT_USAGE after a message (from rank 0), or -1 for --help. */
static int parse_options(int argc, char **argv, int rank, options_t *options)
{
    *options = (options_t){.ndims = 3, .shape = {64, 64, 64},
                           .layout = LAYOUT_TRANSPOSED, .rigor = 1,
                           .normalise = 1, .threads = 1, .inner = 3, .outer = 50};
    for (int index = 1; index < argc; ++index) {
        const char *name = argv[index];
        if (strcmp(name, "--help") == 0)
            return -1;
        if (strcmp(name, "--json") == 0) {
            options->json = 1;
            continue;
        }
        if (index + 1 >= argc) {
            if (rank == 0)
                fprintf(stderr, "fftw-mpi-bench: %s needs a value\n", name);
            return EXIT_USAGE;
        }
        const char *value = argv[++index];
        int ok = 1;
        long number = 0;
        if (strcmp(name, "--shape") == 0)
            ok = parse_shape(value, options) == 0;
        else if (strcmp(name, "--kind") == 0)
            ok = (options->kind = find_name(value, kind_names, COUNT_OF(kind_names))) >= 0;
        else if (strcmp(name, "--precision") == 0)
            ok = (options->precision = find_name(value, precision_names,
                                                 COUNT_OF(precision_names))) >= 0;
        else if (strcmp(name, "--layout") == 0)
            ok = (options->layout = find_name(value, layout_names,
                                              COUNT_OF(layout_names))) >= 0;
        else if (strcmp(name, "--rigor") == 0)
            ok = (options->rigor = find_name(value, rigor_names, COUNT_OF(rigor_names))) >= 0;
        else if (strcmp(name, "--norm") == 0)
            ok = (options->normalise = find_name(value, (const char *const[]){"none", "backward"}, 2)) >= 0;
        else if (strcmp(name, "--threads") == 0) {
            ok = parse_positive(value, &number) == 0 && number <= 4096;
            options->threads = (int)number;
        } else if (strcmp(name, "--inner") == 0) {
            ok = parse_positive(value, &number) == 0 && number <= 1000000;
            options->inner = (int)number;
        } else if (strcmp(name, "--outer") == 0) {
            ok = parse_positive(value, &number) == 0 && number <= 1000000;
            options->outer = (int)number;
        } else if (strcmp(name, "--wisdom-in") == 0) {
            options->wisdom_in = value;
        } else if (strcmp(name, "--wisdom-out") == 0) {
            options->wisdom_out = value;
        } else {
            if (rank == 0)
                fprintf(stderr, "fftw-mpi-bench: unknown option %s (try --help)\n", name);
            return EXIT_USAGE;
        }
        if (!ok) {
            if (rank == 0)
                fprintf(stderr, "fftw-mpi-bench: bad value '%s' for %s\n", value, name);
            return EXIT_USAGE;
        }
    }
    return 0;
}

/* ---- FFTW-MPI in either precision ------------------------------------------
 * The two precisions are separate libraries with separate types; these few
 * functions hide that behind void pointers so the rest is written once. */

typedef struct {
    void *forward, *backward; /* fftw_plan or fftwf_plan */
    ptrdiff_t local_n0, local_0_start; /* this rank's slab of the input */
    ptrdiff_t local_n1;                /* ... of the transposed output */
    ptrdiff_t alloc_complex;           /* complex elements per array */
    void *input, *output;              /* alloc_complex complex each */
    ptrdiff_t input_reals;             /* reals of the (padded) input slab */
    double plan_seconds;               /* both plans, slowest rank */
} peer_t;

static size_t real_size(int precision)
{
    return precision == PRECISION_FLOAT ? sizeof(float) : sizeof(double);
}

/* FFTW's order: init_threads, then mpi_init, then plan_with_nthreads. */
static void peer_init(int precision, int threads)
{
    if (precision == PRECISION_FLOAT) {
        fftwf_init_threads();
        fftwf_mpi_init();
        fftwf_plan_with_nthreads(threads);
    } else {
        fftw_init_threads();
        fftw_mpi_init();
        fftw_plan_with_nthreads(threads);
    }
}

static void *plan_one(const options_t *options, int forward,
                      const ptrdiff_t *shape, void *in, void *out,
                      unsigned flags)
{
    int rank = options->ndims;
    int sign = forward ? FFTW_FORWARD : FFTW_BACKWARD;
    if (options->layout == LAYOUT_SERIAL) {
        /* The real side keeps FFTW-MPI's padded rows (see peer_create), so
         * r2c/c2r name it through the advanced interface's embedding. */
        int n[MAX_AXES], padded[MAX_AXES];
        for (int axis = 0; axis < rank; ++axis)
            n[axis] = padded[axis] = (int)shape[axis];
        padded[rank - 1] = 2 * (n[rank - 1] / 2 + 1);
        if (options->precision == PRECISION_FLOAT) {
            if (options->kind == KIND_C2C)
                return fftwf_plan_dft(rank, n, in, out, sign, flags);
            return forward ? (void *)fftwf_plan_many_dft_r2c(rank, n, 1, in, padded, 1, 0,
                                                             out, NULL, 1, 0, flags)
                           : (void *)fftwf_plan_many_dft_c2r(rank, n, 1, in, NULL, 1, 0,
                                                             out, padded, 1, 0, flags);
        }
        if (options->kind == KIND_C2C)
            return fftw_plan_dft(rank, n, in, out, sign, flags);
        return forward ? (void *)fftw_plan_many_dft_r2c(rank, n, 1, in, padded, 1, 0,
                                                        out, NULL, 1, 0, flags)
                       : (void *)fftw_plan_many_dft_c2r(rank, n, 1, in, NULL, 1, 0,
                                                        out, padded, 1, 0, flags);
    }
    if (options->precision == PRECISION_FLOAT) {
        if (options->kind == KIND_C2C)
            return fftwf_mpi_plan_dft(rank, shape, in, out, MPI_COMM_WORLD, sign, flags);
        return forward ? (void *)fftwf_mpi_plan_dft_r2c(rank, shape, in, out, MPI_COMM_WORLD, flags)
                       : (void *)fftwf_mpi_plan_dft_c2r(rank, shape, in, out, MPI_COMM_WORLD, flags);
    }
    if (options->kind == KIND_C2C)
        return fftw_mpi_plan_dft(rank, shape, in, out, MPI_COMM_WORLD, sign, flags);
    return forward ? (void *)fftw_mpi_plan_dft_r2c(rank, shape, in, out, MPI_COMM_WORLD, flags)
                   : (void *)fftw_mpi_plan_dft_c2r(rank, shape, in, out, MPI_COMM_WORLD, flags);
}

static void execute(int precision, void *plan)
{
    if (precision == PRECISION_FLOAT)
        fftwf_execute(plan);
    else
        fftw_execute(plan);
}

static char *describe(int precision, void *plan)
{
    return precision == PRECISION_FLOAT ? fftwf_sprint_plan(plan)
                                        : fftw_sprint_plan(plan);
}

static void peer_free(const options_t *options, peer_t *peer)
{
    int single = options->precision == PRECISION_FLOAT;
    if (peer->forward)
        single ? fftwf_destroy_plan(peer->forward) : fftw_destroy_plan(peer->forward);
    if (peer->backward)
        single ? fftwf_destroy_plan(peer->backward) : fftw_destroy_plan(peer->backward);
    fftw_free(peer->input);
    fftw_free(peer->output);
}

static void peer_cleanup(int precision)
{
    if (precision == PRECISION_FLOAT)
        fftwf_mpi_cleanup();
    else
        fftw_mpi_cleanup();
}

/* --wisdom-in (import 1) before planning, --wisdom-out (import 0) after:
 * rank 0 reads or writes the file, the others receive or send their wisdom
 * through FFTW-MPI. Returns 0 on every rank or 1 on every rank. */
static int peer_wisdom(const options_t *options, int rank, int import)
{
    const char *path = import ? options->wisdom_in : options->wisdom_out;
    if (path == NULL)
        return 0;
    int single = options->precision == PRECISION_FLOAT, ok = 1;
    if (!import)
        single ? fftwf_mpi_gather_wisdom(MPI_COMM_WORLD) : fftw_mpi_gather_wisdom(MPI_COMM_WORLD);
    if (rank == 0 && import)
        ok = single ? fftwf_import_wisdom_from_filename(path) : fftw_import_wisdom_from_filename(path);
    else if (rank == 0)
        ok = single ? fftwf_export_wisdom_to_filename(path) : fftw_export_wisdom_to_filename(path);
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) {
        if (rank == 0)
            fprintf(stderr, "fftw-mpi-bench: %s: cannot %s '%s' as FFTW wisdom (%s)\n",
                    import ? "--wisdom-in" : "--wisdom-out", import ? "read" : "write", path,
                    precision_names[options->precision]);
        return 1;
    }
    if (import)
        single ? fftwf_mpi_broadcast_wisdom(MPI_COMM_WORLD) : fftw_mpi_broadcast_wisdom(MPI_COMM_WORLD);
    return 0;
}

/* This rank's slab of the input (local_n0 from local_0_start), of the
 * transposed output (local_n1) and the complex elements each array needs
 * (FFTW-MPI may need more than either slab holds). Serial: everything. */
static void set_local_sizes(const options_t *options,
                            const ptrdiff_t *complex_shape, peer_t *peer)
{
    if (options->layout == LAYOUT_SERIAL) {
        peer->local_n0 = options->shape[0];
        peer->local_0_start = 0;
        peer->local_n1 = options->shape[1];
        peer->alloc_complex = 1;
        for (int axis = 0; axis < options->ndims; ++axis)
            peer->alloc_complex *= complex_shape[axis];
        return;
    }
    ptrdiff_t local_1_start;
    if (options->precision == PRECISION_FLOAT)
        peer->alloc_complex = fftwf_mpi_local_size_transposed(
            options->ndims, complex_shape, MPI_COMM_WORLD, &peer->local_n0,
            &peer->local_0_start, &peer->local_n1, &local_1_start);
    else
        peer->alloc_complex = fftw_mpi_local_size_transposed(
            options->ndims, complex_shape, MPI_COMM_WORLD, &peer->local_n0,
            &peer->local_0_start, &peer->local_n1, &local_1_start);
}

/* Sizes, arrays and both plans. Returns 0 on every rank or 1 on every rank. */
static int peer_create(const options_t *options, peer_t *peer)
{
    memset(peer, 0, sizeof *peer);
    /* r2c: the complex side has n/2+1 elements on the last axis, and the
     * real side is padded to twice that (FFTW's in-place-compatible layout). */
    ptrdiff_t complex_shape[MAX_AXES];
    memcpy(complex_shape, options->shape, sizeof complex_shape);
    int last = options->ndims - 1;
    if (options->kind == KIND_R2C)
        complex_shape[last] = options->shape[last] / 2 + 1;
    set_local_sizes(options, complex_shape, peer);
    ptrdiff_t row = 1; /* reals per index of axis 0 */
    for (int axis = 1; axis < last; ++axis)
        row *= options->shape[axis];
    row *= options->kind == KIND_R2C ? 2 * complex_shape[last] : 2 * options->shape[last];
    peer->input_reals = peer->local_n0 * row;

    size_t bytes = (size_t)(peer->alloc_complex > 0 ? peer->alloc_complex : 1) * 2 *
                   real_size(options->precision);
    peer->input = fftw_malloc(bytes);
    peer->output = fftw_malloc(bytes);
    int failed = !peer->input || !peer->output, any_failed;
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (any_failed)
        return 1;

    double plan_start = MPI_Wtime();
    unsigned flags = rigor_flags[options->rigor];
    unsigned forward_flags = flags, backward_flags = flags;
    if (options->layout == LAYOUT_TRANSPOSED) {
        forward_flags |= FFTW_MPI_TRANSPOSED_OUT;
        backward_flags |= FFTW_MPI_TRANSPOSED_IN;
    }
    peer->forward = plan_one(options, 1, options->shape, peer->input,
                             peer->output, forward_flags);
    peer->backward = plan_one(options, 0, options->shape, peer->output,
                              peer->input, backward_flags);
    double plan_seconds = MPI_Wtime() - plan_start;
    MPI_Allreduce(&plan_seconds, &peer->plan_seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    failed = !peer->forward || !peer->backward;
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return any_failed;
}

/* ---- data ------------------------------------------------------------------ */

static uint64_t mix64(uint64_t value)
{
    value += 0x9e3779b97f4a7c15u;
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9u;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebu;
    return value ^ (value >> 31);
}

/* Reals of the input slab that hold data (not r2c padding) are set to a
 * deterministic function of their global position in [-1, 1); padding is 0. */
static void fill_input(const options_t *options, const peer_t *peer, double *copy)
{
    ptrdiff_t last_reals = options->kind == KIND_R2C ? 2 * (options->shape[options->ndims - 1] / 2 + 1)
                                                     : 2 * options->shape[options->ndims - 1];
    ptrdiff_t data_reals = options->kind == KIND_R2C ? options->shape[options->ndims - 1] : last_reals;
    ptrdiff_t first = peer->local_0_start * (peer->input_reals / (peer->local_n0 ? peer->local_n0 : 1));
    for (ptrdiff_t index = 0; index < peer->input_reals; ++index) {
        double value = index % last_reals < data_reals
            ? (double)(mix64((uint64_t)(first + index)) >> 11) * 0x1.0p-52 - 1.0 : 0.0;
        if (options->precision == PRECISION_FLOAT)
            ((float *)peer->input)[index] = (float)value;
        else
            ((double *)peer->input)[index] = value;
        copy[index] = options->precision == PRECISION_FLOAT ? (double)(float)value : value;
    }
}

static void scale_input(const options_t *options, peer_t *peer, double factor)
{
    if (options->precision == PRECISION_FLOAT) {
        float *values = peer->input, single = (float)factor;
#pragma omp parallel for num_threads(options->threads) if (options->threads > 1)
        for (ptrdiff_t index = 0; index < peer->input_reals; ++index)
            values[index] *= single;
    } else {
        double *values = peer->input;
#pragma omp parallel for num_threads(options->threads) if (options->threads > 1)
        for (ptrdiff_t index = 0; index < peer->input_reals; ++index)
            values[index] *= factor;
    }
}

static double total_elements(const options_t *options)
{
    double elements = 1.0;
    for (int axis = 0; axis < options->ndims; ++axis)
        elements *= (double)options->shape[axis];
    return elements;
}

static void run_pair(const options_t *options, peer_t *peer)
{
    execute(options->precision, peer->forward);
    execute(options->precision, peer->backward);
    if (options->normalise)
        scale_input(options, peer, 1.0 / total_elements(options));
}

/* max|x - a| / max|x| over the data (r2c padding is skipped), max over ranks. */
static double roundtrip_error(const options_t *options, const peer_t *peer,
                              const double *copy)
{
    ptrdiff_t last_reals = options->kind == KIND_R2C ? 2 * (options->shape[options->ndims - 1] / 2 + 1)
                                                     : 2 * options->shape[options->ndims - 1];
    ptrdiff_t data_reals = options->kind == KIND_R2C ? options->shape[options->ndims - 1] : last_reals;
    double local[2] = {0.0, 0.0}, global[2];
    double scale = options->normalise ? 1.0 : 1.0 / total_elements(options);
    for (ptrdiff_t index = 0; index < peer->input_reals; ++index) {
        if (index % last_reals >= data_reals)
            continue;
        double value = options->precision == PRECISION_FLOAT
                           ? ((const float *)peer->input)[index]
                           : ((const double *)peer->input)[index];
        double difference = fabs(value * scale - copy[index]);
        if (!(difference <= local[0]))
            local[0] = difference; /* also catches NaN */
        if (fabs(copy[index]) > local[1])
            local[1] = fabs(copy[index]);
    }
    MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return global[1] > 0.0 ? global[0] / global[1] : global[0];
}

/* ---- timing (as benchmarks/distfft-bench/timing.c) --------------------------- */

enum { KEPT = 64 }; /* repetitions whose times are kept in order */

typedef struct {
    double pair_seconds, pair_seconds_median;
    double pair_seconds_each[KEPT]; /* the first KEPT repetitions, in order */
    int kept;
} timing_t;

static int compare_doubles(const void *first, const void *second)
{
    double left = *(const double *)first, right = *(const double *)second;
    return (left > right) - (left < right);
}

static int time_pairs(const options_t *options, peer_t *peer, timing_t *timing)
{
    double *seconds = malloc((size_t)options->outer * sizeof *seconds);
    int failed = seconds == NULL, any_failed;
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (any_failed) {
        free(seconds);
        return 1;
    }
    for (int repetition = 0; repetition < options->outer; ++repetition) {
        MPI_Barrier(MPI_COMM_WORLD);
        double start = MPI_Wtime();
        for (int pair = 0; pair < options->inner; ++pair)
            run_pair(options, peer);
        double elapsed = MPI_Wtime() - start, slowest;
        MPI_Allreduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        seconds[repetition] = slowest / options->inner;
        if (timing->kept < KEPT)
            timing->pair_seconds_each[timing->kept++] = seconds[repetition];
    }
    qsort(seconds, (size_t)options->outer, sizeof *seconds, compare_doubles);
    int count = options->outer;
    timing->pair_seconds = seconds[0];
    timing->pair_seconds_median = count % 2 ? seconds[count / 2]
                                            : 0.5 * (seconds[count / 2 - 1] + seconds[count / 2]);
    free(seconds);
    return 0;
}

/* ---- report ------------------------------------------------------------------ */

static void print_json_string(FILE *stream, const char *text)
{
    fputc('"', stream);
    for (const unsigned char *next = (const unsigned char *)text; *next; ++next) {
        if (*next == '"' || *next == '\\')
            fprintf(stream, "\\%c", *next);
        else if (*next < 0x20)
            fprintf(stream, "\\u%04x", *next);
        else
            fputc(*next, stream);
    }
    fputc('"', stream);
}

static void print_number(FILE *stream, double value)
{
    if (isfinite(value))
        fprintf(stream, "%.9g", value);
    else
        fputs("null", stream);
}

typedef struct {
    int ranks;
    timing_t timing;
    double roundtrip_error, tolerance;
    unsigned long long work_bytes; /* largest on any rank: our two arrays */
    char mpi_library[MPI_MAX_LIBRARY_VERSION_STRING];
    char *plan, *backward_plan; /* as FFTW prints them (rank 0) */
    double plan_seconds;
} results_t;

static void report(const options_t *options, const results_t *results)
{
    double elements = total_elements(options);
    double gflops = 2.0 * 5.0 * elements * log2(elements) /
                    results->timing.pair_seconds * 1e-9;
    int passed = results->roundtrip_error <= results->tolerance;
    if (!options->json) {
        printf("fftw-mpi-bench (FFTW %s)\nshape                 : ", fftw_version);
        for (int axis = 0; axis < options->ndims; ++axis)
            printf("%s%td", axis ? "x" : "", options->shape[axis]);
        printf("\nranks                 : %d\nkind                  : %s\n"
               "precision             : %s\nlayout                : %s\n"
               "rigor                 : %s\nnorm                  : %s\n"
               "threads               : %d per rank\n"
               "timing                : fastest of %d repetitions of %d pairs, max over ranks\n"
               "plan_seconds          : %.6e (both plans, slowest rank)\n"
               "pair_seconds          : %.6e\npair_seconds_median   : %.6e\n"
               "gflops                : %.3f (nominal, 5 N log2 N per transform)\n"
               "roundtrip_error       : %.3e (tolerance %.3e) %s\n",
               results->ranks, kind_names[options->kind],
               precision_names[options->precision], layout_names[options->layout],
               rigor_names[options->rigor], options->normalise ? "backward" : "none",
               options->threads, options->outer, options->inner, results->plan_seconds,
               results->timing.pair_seconds,
               results->timing.pair_seconds_median, gflops,
               results->roundtrip_error, results->tolerance,
               passed ? "passed" : "FAILED");
        return;
    }
    printf("{\"program\": \"fftw-mpi-bench\", \"fftw_version\": ");
    print_json_string(stdout, fftw_version);
    printf(", \"shape\": [");
    for (int axis = 0; axis < options->ndims; ++axis)
        printf("%s%td", axis ? ", " : "", options->shape[axis]);
    printf("], \"ranks\": %d, \"grid\": [%d], \"precision\": \"%s\", "
           "\"kind\": \"%s\", \"method\": \"fftw-mpi\", \"layout\": \"%s\", "
           "\"rigor\": \"%s\", \"norm\": \"%s\", \"threads\": %d, \"inner\": %d, \"outer\": %d",
           results->ranks, results->ranks, precision_names[options->precision],
           kind_names[options->kind], layout_names[options->layout],
           rigor_names[options->rigor], options->normalise ? "backward" : "none",
           options->threads, options->inner, options->outer);
    printf(", \"pair_seconds\": ");
    print_number(stdout, results->timing.pair_seconds);
    printf(", \"pair_seconds_median\": ");
    print_number(stdout, results->timing.pair_seconds_median);
    printf(", \"pair_seconds_each\": [");
    for (int index = 0; index < results->timing.kept; ++index) {
        printf("%s", index ? ", " : "");
        print_number(stdout, results->timing.pair_seconds_each[index]);
    }
    printf("], \"fft_seconds\": null, \"redistribute_seconds\": null, \"gflops\": ");
    print_number(stdout, gflops);
    printf(", \"work_bytes\": %llu, \"roundtrip_error\": ", results->work_bytes);
    print_number(stdout, results->roundtrip_error);
    printf(", \"tolerance\": ");
    print_number(stdout, results->tolerance);
    printf(", \"check_passed\": %s, \"mpi_library\": ", passed ? "true" : "false");
    print_json_string(stdout, results->mpi_library);
    printf(", \"plan\": ");
    print_json_string(stdout, results->plan ? results->plan : "");
    printf(", \"backward_plan\": ");
    print_json_string(stdout, results->backward_plan ? results->backward_plan : "");
    printf(", \"plan_seconds\": ");
    print_number(stdout, results->plan_seconds);
    printf("}\n");
}

/* ---- main -------------------------------------------------------------------- */

static int run(const options_t *options, int rank, results_t *results)
{
    peer_t peer;
    if (peer_wisdom(options, rank, 1) != 0)
        return EXIT_FAILED;
    if (peer_create(options, &peer) != 0) {
        if (rank == 0)
            fprintf(stderr, "fftw-mpi-bench: planning or allocation failed\n");
        peer_free(options, &peer);
        return EXIT_FAILED;
    }
    double *copy = malloc((size_t)(peer.input_reals > 0 ? peer.input_reals : 1) * sizeof *copy);
    int failed = copy == NULL, any_failed;
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (any_failed) {
        free(copy);
        peer_free(options, &peer);
        return EXIT_FAILED;
    }
    /* Planning may overwrite the arrays, so the input is filled after it. */
    fill_input(options, &peer, copy);
    run_pair(options, &peer);
    results->roundtrip_error = roundtrip_error(options, &peer, copy);
    double epsilon = options->precision == PRECISION_FLOAT ? FLT_EPSILON : DBL_EPSILON;
    results->tolerance = 8.0 * epsilon * log2(fmax(total_elements(options), 2.0));
    free(copy);

    int status = time_pairs(options, &peer, &results->timing) ? EXIT_FAILED : EXIT_OK;
    unsigned long long bytes = (unsigned long long)peer.alloc_complex * 2 * 2 *
                               real_size(options->precision);
    MPI_Allreduce(&bytes, &results->work_bytes, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX,
                  MPI_COMM_WORLD);
    if (rank == 0) {
        results->plan = describe(options->precision, peer.forward);
        results->backward_plan = describe(options->precision, peer.backward);
    }
    results->plan_seconds = peer.plan_seconds;
    peer_free(options, &peer);
    if (peer_wisdom(options, rank, 0) != 0)
        status = EXIT_FAILED;
    if (status == EXIT_OK && !(results->roundtrip_error <= results->tolerance))
        status = EXIT_FAILED;
    return status;
}

int main(int argc, char **argv)
{
    int provided; /* FUNNELED: --threads runs FFTW's threads beside MPI */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    options_t options;
    int status = parse_options(argc, argv, rank, &options);
    if (status != 0) {
        if (status < 0 && rank == 0)
            print_usage(stdout);
        MPI_Finalize();
        return status < 0 ? EXIT_OK : status;
    }
    results_t results;
    memset(&results, 0, sizeof results);
    MPI_Comm_size(MPI_COMM_WORLD, &results.ranks);
    int length;
    MPI_Get_library_version(results.mpi_library, &length);
    char *newline = strchr(results.mpi_library, '\n');
    if (newline)
        *newline = '\0';

    if (options.layout == LAYOUT_SERIAL && results.ranks != 1) {
        if (rank == 0)
            fprintf(stderr, "fftw-mpi-bench: --layout serial runs on 1 rank\n");
        MPI_Finalize();
        return EXIT_USAGE;
    }
    peer_init(options.precision, options.threads);
    status = run(&options, rank, &results);
    if (rank == 0 && results.timing.pair_seconds > 0.0)
        report(&options, &results);
    if (rank == 0 && status != EXIT_OK && results.timing.pair_seconds > 0.0)
        fprintf(stderr, "fftw-mpi-bench: round-trip error %.3e exceeds %.3e\n",
                results.roundtrip_error, results.tolerance);
    free(results.plan);
    free(results.backward_plan);
    peer_cleanup(options.precision);
    MPI_Finalize();
    return status;
}
