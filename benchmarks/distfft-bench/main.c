/*
 * main.c -- distfft-bench, the benchmark and self-check driver of distfft.
 *
 *   mpiexec -n 4 distfft-bench --shape 64x64x64 --grid pencil --check --json
 *
 * One run: plan a transform of the requested shape and kinds over
 * MPI_COMM_WORLD, fill a deterministic input of the plan's input type (one
 * block per field of the batch), time forward+backward pairs (timing.c),
 * then optionally check the round trip (check.c) and a serial reference
 * (reference.c) and save the global arrays as .npy files (npy.c), and print
 * one report (report.c) on rank 0.
 *
 * The one thing to know: every decision that changes which collective calls
 * a rank makes next is taken from numbers every rank holds (argv, reduced
 * or broadcast values), so a failure on one rank never leaves the others
 * waiting in a collective. Exit status: 0 ok, 1 library error or failed
 * check, 2 bad usage -- the same on every rank.
 */
#define _POSIX_C_SOURCE 200809L /* sysconf */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "check.h"
#include "device.h"
#include "distfft.h"
#include "npy.h"
#include "options.h"
#include "reference.h"
#include "report.h"
#include "steps.h"
#include "timing.h"

enum { EXIT_STATUS_OK = 0, EXIT_STATUS_FAILED = 1, EXIT_STATUS_USAGE = 2 };
/* Internal only: a method of a --methods list that cannot serve this
 * shape (DISTFFT_ERR_UNSUPPORTED, e.g. vector on unequal blocks); it is
 * reported as not applicable and skipped, never an exit status. */
enum { NOT_APPLICABLE = -1 };

/* The plan and this rank's arrays. Blocks are per field; the arrays hold
 * `batch` of them, one after the other. */
typedef struct {
    distfft_plan plan;
    int64_t batch;
    distfft_type input_type, output_type;
    size_t input_element_size, output_element_size;
    int64_t global_output_shape[DISTFFT_MAX_DIMS];
    int64_t input_shape[DISTFFT_MAX_DIMS], input_start[DISTFFT_MAX_DIMS];
    int64_t output_shape[DISTFFT_MAX_DIMS], output_start[DISTFFT_MAX_DIMS];
    int64_t input_count, output_count; /* elements of one field's block */
    void *input;     /* local input blocks */
    void *output;    /* local output blocks */
    void *roundtrip; /* backward(forward(input)), input blocks */
    void *scratch;   /* --destroy-input with --check/--save: what a checked
                        transform reads (a copy), so input and output stay */
    /* A device plan's arrays (--memory cuda; NULL for a host plan): the
     * plan runs on these, the host arrays above are filled and checked,
     * and copies move between them. Each holds distfft_plan_local_size. */
    void *device_input, *device_output, *device_roundtrip;
    size_t device_bytes;
    double plan_seconds; /* distfft_plan_create, tuning included, slowest rank */
} bench_arrays;

/* The global arrays gathered on rank 0 (NULL elsewhere), all fields. */
typedef struct {
    int64_t input_total, output_total; /* elements of one field */
    void *input;
    void *output;
} bench_global;

static int is_root(MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    return rank == 0;
}

/* Nonzero on every rank if `local_flag` is nonzero on any. */
static int any_rank(MPI_Comm comm, int local_flag)
{
    int any;
    MPI_Allreduce(&local_flag, &any, 1, MPI_INT, MPI_LOR, comm);
    return any;
}

/* Rank 0's value of `value`, on every rank. */
static int from_root(MPI_Comm comm, int value)
{
    MPI_Bcast(&value, 1, MPI_INT, 0, comm);
    return value;
}

static void report_library_error(MPI_Comm comm, const char *what, int code)
{
    if (!is_root(comm))
        return;
    const char *message = distfft_last_error();
    fprintf(stderr, "distfft-bench: %s failed: %s\n", what,
            message && message[0] ? message : distfft_error_string(code));
}

static int64_t element_count(int ndims, const int64_t *shape)
{
    int64_t count = 1;
    for (int axis = 0; axis < ndims; ++axis)
        count *= shape[axis];
    return count;
}

/* An empty block still gets one element, so no pointer is ever NULL. */
static void *allocate_elements(int64_t count, size_t element_size)
{
    return distfft_malloc((size_t)(count > 0 ? count : 1) * element_size);
}

/* The deterministic input of every field (again after timing with
 * --destroy-input, which may have overwritten it). */
static void fill_input(const bench_options *options, bench_arrays *arrays)
{
    int64_t field_bytes =
        arrays->input_count * (int64_t)arrays->input_element_size;
    for (int64_t field = 0; field < arrays->batch; ++field)
        bench_fill_input(arrays->input_type, options->ndims, options->shape,
                         arrays->input_shape, arrays->input_start, field,
                         (char *)arrays->input + field * field_bytes);
}

/* The host input copied to the device plan's input (a host plan: nothing).
 * 0, or -1 on this rank. */
static int upload_input(bench_arrays *arrays)
{
    if (!arrays->device_input) return 0;
    return bench_device_copy(arrays->device_input, arrays->input,
                             (size_t)(arrays->batch * arrays->input_count) * arrays->input_element_size);
}

/* Device arrays for a device plan, NULL pointers for a host plan. 0, or
 * -1 on this rank. */
static int allocate_device(const bench_options *options, bench_arrays *arrays)
{
    if (options->memory != DISTFFT_MEMORY_CUDA) return 0;
    int64_t count = distfft_plan_local_size(arrays->plan);
    arrays->device_bytes = (size_t)(count > 0 ? count : 1) * arrays->output_element_size;
    arrays->device_input = bench_device_alloc(arrays->device_bytes);
    arrays->device_output = bench_device_alloc(arrays->device_bytes);
    arrays->device_roundtrip = bench_device_alloc(arrays->device_bytes);
    return arrays->device_input && arrays->device_output && arrays->device_roundtrip ? 0 : -1;
}

/* One transform from the host block `source` into the host block
 * `target`: directly for a host plan; for a device plan through its
 * device arrays (copied up, run, waited for, copied back). A failed copy
 * is DISTFFT_ERR_MEMORY on every rank, its reason on stderr. Collective. */
static int execute_blocks(MPI_Comm comm, bench_arrays *arrays, void *source, void *target, int direction)
{
    if (!arrays->device_input) return distfft_plan_execute(arrays->plan, source, target, direction);
    int forward = direction == DISTFFT_FORWARD;
    void *in = forward ? arrays->device_input : arrays->device_output;
    void *out = forward ? arrays->device_output : arrays->device_roundtrip;
    size_t in_bytes = (size_t)(arrays->batch * arrays->input_count) * arrays->input_element_size;
    size_t out_bytes = (size_t)(arrays->batch * arrays->output_count) * arrays->output_element_size;
    int failed = bench_device_copy(in, source, forward ? in_bytes : out_bytes) != 0;
    int status = distfft_plan_execute(arrays->plan, in, out, direction);
    if (status == DISTFFT_SUCCESS)
        failed |= bench_device_synchronize() != 0 || bench_device_copy(target, out, forward ? out_bytes : in_bytes) != 0;
    return status == DISTFFT_SUCCESS && any_rank(comm, failed) ? DISTFFT_ERR_MEMORY : status;
}

static void free_arrays(bench_arrays *arrays)
{
    bench_device_free(arrays->device_input);
    bench_device_free(arrays->device_output);
    bench_device_free(arrays->device_roundtrip);
    distfft_free(arrays->input);
    distfft_free(arrays->output);
    distfft_free(arrays->roundtrip);
    distfft_free(arrays->scratch);
    distfft_plan_destroy(&arrays->plan);
}

/* Plan and allocate. Returns 0, or an exit status after reporting. */
static int create_arrays(MPI_Comm comm, const bench_options *options,
                         distfft_method method, bench_arrays *arrays)
{
    memset(arrays, 0, sizeof *arrays);
    distfft_options plan_options;
    distfft_options_init(&plan_options);
    plan_options.grid_ndims = options->grid_ndims;
    memcpy(plan_options.grid_dims, options->grid_dims,
           sizeof plan_options.grid_dims);
    plan_options.method = method;
    plan_options.placement = options->placement;
    plan_options.node_size = options->node_size;
    plan_options.norm = options->norm;
    plan_options.rigor = options->rigor;
    memcpy(plan_options.kinds, options->kinds, sizeof plan_options.kinds);
    plan_options.batch = options->batch;
    plan_options.verbose = options->verbose && !options->quiet;
    plan_options.threads = options->threads;
    plan_options.overlap = options->overlap;
    plan_options.tune_budget = options->tune_budget;
    plan_options.destroy_input = options->destroy_input;
    plan_options.memory = options->memory;

    MPI_Barrier(comm);
    double plan_start = MPI_Wtime();
    int status = distfft_plan_create(comm, options->ndims, options->shape,
                                     options->precision, &plan_options,
                                     &arrays->plan);
    double plan_seconds = MPI_Wtime() - plan_start;
    MPI_Allreduce(&plan_seconds, &arrays->plan_seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (status == DISTFFT_ERR_UNSUPPORTED && options->method_count) {
        if (is_root(comm))
            fprintf(stderr, "distfft-bench: %s not applicable here: %s\n",
                    distfft_method_name(method), distfft_last_error());
        return NOT_APPLICABLE;
    }
    if (status != DISTFFT_SUCCESS) {
        report_library_error(comm, "distfft_plan_create", status);
        return EXIT_STATUS_FAILED;
    }
    arrays->batch = options->batch;
    distfft_plan_types(arrays->plan, &arrays->input_type, &arrays->output_type);
    distfft_plan_output_shape(arrays->plan, arrays->global_output_shape);
    arrays->input_element_size = distfft_type_size(arrays->input_type);
    arrays->output_element_size = distfft_type_size(arrays->output_type);
    distfft_plan_input_block(arrays->plan, arrays->input_shape,
                             arrays->input_start);
    distfft_plan_output_block(arrays->plan, arrays->output_shape,
                              arrays->output_start);
    arrays->input_count = element_count(options->ndims, arrays->input_shape);
    arrays->output_count = element_count(options->ndims, arrays->output_shape);
    arrays->input = allocate_elements(arrays->batch * arrays->input_count,
                                      arrays->input_element_size);
    arrays->output = allocate_elements(arrays->batch * arrays->output_count,
                                       arrays->output_element_size);
    arrays->roundtrip = allocate_elements(arrays->batch * arrays->input_count,
                                          arrays->input_element_size);
    int failed = !arrays->input || !arrays->output || !arrays->roundtrip || allocate_device(options, arrays) != 0;
    if (options->destroy_input && (options->check || options->save_prefix != NULL)) {
        int64_t in = arrays->input_count * (int64_t)arrays->input_element_size;
        int64_t out = arrays->output_count * (int64_t)arrays->output_element_size;
        arrays->scratch = allocate_elements(arrays->batch * (in > out ? in : out), 1);
        failed |= !arrays->scratch;
    }
    if (any_rank(comm, failed)) {
        if (is_root(comm))
            fprintf(stderr, "distfft-bench: cannot allocate the local arrays "
                            "on some rank\n");
        free_arrays(arrays);
        return EXIT_STATUS_FAILED;
    }
    if (!options->predict_only) fill_input(options, arrays);
    if (any_rank(comm, !options->predict_only && upload_input(arrays) != 0)) {
        if (is_root(comm))
            fprintf(stderr, "distfft-bench: cannot copy the input to the device on some rank\n");
        free_arrays(arrays);
        return EXIT_STATUS_FAILED;
    }
    return 0;
}


/* Whether rank 0 can hold three global copies of `total` elements in
 * complex double (gathered input and output of every field, and the serial
 * reference) within half its physical memory. Decided on rank 0, returned
 * on every rank. */
static int global_copies_fit(MPI_Comm comm, int64_t total)
{
    int fits = 0;
    if (is_root(comm)) {
        long pages = sysconf(_SC_PHYS_PAGES);
        long page_size = sysconf(_SC_PAGESIZE);
        double physical = (pages > 0 && page_size > 0)
                              ? (double)pages * (double)page_size : 0.0;
        fits = 3.0 * (double)total * 16.0 < 0.5 * physical;
    }
    return from_root(comm, fits);
}

/* Gather every field of one side of the plan (`local`, this rank's blocks
 * of `type`) into `global` on rank 0: one distfft_layout_gather on the
 * plan's layout of that side (the caller's layout, if it gave one). */
static int gather_side(const bench_arrays *arrays, int output, distfft_type type,
                       const void *local, void *global)
{
    distfft_layout layout = NULL;
    int status = output ? distfft_plan_output_layout(arrays->plan, &layout)
                        : distfft_plan_input_layout(arrays->plan, &layout);
    if (status == DISTFFT_SUCCESS)
        status = distfft_layout_gather(layout, type, arrays->batch, local, 0, global);
    int freed = distfft_layout_destroy(&layout);
    return status != DISTFFT_SUCCESS ? status : freed;
}

/* Gather input and output on rank 0. Returns 0, or -1 (on every rank) if
 * rank 0 could not allocate or the library failed (reported). */
static int gather_global(MPI_Comm comm, const bench_options *options,
                         const bench_arrays *arrays, bench_global *global)
{
    memset(global, 0, sizeof *global);
    global->input_total = element_count(options->ndims, options->shape);
    global->output_total =
        element_count(options->ndims, arrays->global_output_shape);
    int allocated = 1;
    if (is_root(comm)) {
        int64_t input_bytes = arrays->batch * global->input_total *
                              (int64_t)arrays->input_element_size;
        int64_t output_bytes = arrays->batch * global->output_total *
                               (int64_t)arrays->output_element_size;
        global->input = allocate_elements(input_bytes, 1);
        global->output = allocate_elements(output_bytes, 1);
        allocated = global->input != NULL && global->output != NULL;
        if (!allocated)
            fprintf(stderr, "distfft-bench: cannot allocate %lld bytes on "
                            "rank 0 to gather the global arrays\n",
                    (long long)(input_bytes + output_bytes));
    }
    int status = DISTFFT_ERR_MEMORY;
    if (from_root(comm, allocated)) {
        status = gather_side(arrays, 0, arrays->input_type, arrays->input, global->input);
        if (status == DISTFFT_SUCCESS)
            status = gather_side(arrays, 1, arrays->output_type, arrays->output,
                                 global->output);
        if (status != DISTFFT_SUCCESS)
            report_library_error(comm, "distfft_layout_gather", status);
    }
    if (status != DISTFFT_SUCCESS) {
        distfft_free(global->input);
        distfft_free(global->output);
        global->input = global->output = NULL;
        return -1;
    }
    return 0;
}

/* Write PREFIX.<name>.npy on the calling rank: `batch` fields of `shape`,
 * with a leading batch axis when batch > 1. Returns 0 or -1 (reported). */
static int save_array(const char *prefix, const char *name,
                      const bench_options *options, int64_t batch,
                      const int64_t *shape, distfft_type type, const void *data)
{
    int64_t file_shape[DISTFFT_MAX_DIMS + 1];
    int file_ndims = 0;
    if (batch > 1)
        file_shape[file_ndims++] = batch;
    for (int axis = 0; axis < options->ndims; ++axis)
        file_shape[file_ndims++] = shape[axis];
    size_t length = strlen(prefix) + strlen(name) + sizeof ".npy" + 1;
    char *path = malloc(length);
    if (path == NULL) {
        fprintf(stderr, "distfft-bench: --save: out of memory\n");
        return -1;
    }
    snprintf(path, length, "%s.%s.npy", prefix, name);
    int status = npy_write(path, type, file_ndims, file_shape, data);
    if (status != 0)
        fprintf(stderr, "distfft-bench: --save: cannot write '%s': %s\n", path,
                strerror(errno));
    free(path);
    return status;
}

/* Backward of the forward output in arrays->output, and the round-trip
 * error max|x - backward(forward(x))| / max|x|, max over ranks. */
static int measure_roundtrip(MPI_Comm comm, const bench_options *options,
                             bench_arrays *arrays, bench_results *results)
{
    void *source = arrays->output;
    if (arrays->scratch) /* the backward may overwrite what it reads */
        source = memcpy(arrays->scratch, arrays->output,
                        (size_t)(arrays->batch * arrays->output_count) * arrays->output_element_size);
    int status = execute_blocks(comm, arrays, source, arrays->roundtrip, DISTFFT_BACKWARD);
    if (status != DISTFFT_SUCCESS) {
        report_library_error(comm, "distfft_plan_execute (backward)", status);
        return EXIT_STATUS_FAILED;
    }
    int64_t count = arrays->batch * arrays->input_count;
    if (options->norm == DISTFFT_NORM_NONE) { /* backward(forward(x)) = N x */
        double n = 1.0;
        for (int axis = 0; axis < options->ndims; ++axis)
            n *= bench_logical_length(options->kinds[axis], options->shape[axis]);
        int reals = (int)(distfft_type_size(arrays->input_type) /
                          (options->precision == DISTFFT_FLOAT ? sizeof(float) : sizeof(double)));
        for (int64_t i = 0; i < count * reals; ++i) {
            if (options->precision == DISTFFT_FLOAT) ((float *)arrays->roundtrip)[i] /= (float)n;
            else ((double *)arrays->roundtrip)[i] /= n;
        }
    }
    double local[2] = {
        bench_max_difference(arrays->input_type, arrays->input,
                             arrays->roundtrip, count),
        bench_max_modulus(arrays->input_type, arrays->input, count)};
    double largest[2];
    MPI_Allreduce(local, largest, 2, MPI_DOUBLE, MPI_MAX, comm);
    results->checked = 1;
    results->roundtrip_error = largest[0] / largest[1];
    results->tolerance = bench_tolerance(
        options->precision, element_count(options->ndims, options->shape));
    return 0;
}

/* Gather input and forward output on rank 0; there, compare with the serial
 * reference (if `serial_wanted`) and save (if --save). The outcome is
 * broadcast so that every rank returns the same status. */
static int compare_and_save_global(MPI_Comm comm, const bench_options *options,
                                   const bench_arrays *arrays,
                                   int serial_wanted, bench_results *results)
{
    bench_global global;
    if (gather_global(comm, options, arrays, &global) != 0)
        return EXIT_STATUS_FAILED; /* reported */
    int has_serial = 0, saved = 1;
    double serial_error = 0.0;
    if (is_root(comm)) {
        if (serial_wanted)
            has_serial = bench_reference_error(
                             options->precision, options->norm, options->ndims,
                             options->shape, options->kinds, arrays->batch,
                             global.input, global.output, &serial_error) == 0;
        if (options->save_prefix != NULL)
            saved = save_array(options->save_prefix, "input", options,
                               arrays->batch, options->shape,
                               arrays->input_type, global.input) == 0 &&
                    save_array(options->save_prefix, "output", options,
                               arrays->batch, arrays->global_output_shape,
                               arrays->output_type, global.output) == 0;
    }
    distfft_free(global.input);
    distfft_free(global.output);
    results->has_serial_error = from_root(comm, has_serial);
    MPI_Bcast(&serial_error, 1, MPI_DOUBLE, 0, comm);
    results->serial_error = serial_error;
    return from_root(comm, saved) ? 0 : EXIT_STATUS_FAILED;
}

/* Whether the plan's element types and global output shape are the ones
 * the documentation gives for its kinds (reported on rank 0 if not). The
 * same on every rank: every rank holds the same plan description. */
static int plan_is_documented(MPI_Comm comm, const bench_options *options,
                              const bench_arrays *arrays)
{
    distfft_type input_type, output_type;
    int64_t output_shape[DISTFFT_MAX_DIMS];
    bench_reference_types(options->ndims, options->kinds, options->precision,
                          &input_type, &output_type);
    bench_reference_output_shape(options->ndims, options->shape,
                                 options->kinds, output_shape);
    int documented = input_type == arrays->input_type &&
                     output_type == arrays->output_type &&
                     memcmp(output_shape, arrays->global_output_shape,
                            (size_t)options->ndims * sizeof *output_shape) == 0;
    if (!documented && is_root(comm))
        fprintf(stderr, "distfft-bench: the plan's types (%s -> %s) or output "
                        "shape differ from the documented ones (%s -> %s)\n",
                distfft_type_name(arrays->input_type),
                distfft_type_name(arrays->output_type),
                distfft_type_name(input_type), distfft_type_name(output_type));
    return documented;
}

/* The pairs timed, then each step's time; a device plan runs on its device
 * arrays and is waited for before each clock stops. A device plan's step
 * times are the library's, from events on its stream (distfft_step.seconds);
 * its fft_seconds and redistribute_seconds are the host's time in the
 * calls, not the device's work (NaN), and its exchange steps get no host
 * memcpy floor (a host copy says nothing of a device step). */
static int time_and_collect(MPI_Comm comm, const bench_options *options, bench_arrays *arrays,
                            bench_results *results, bench_steps *steps)
{
    int device = arrays->device_input != NULL;
    void *input = device ? arrays->device_input : arrays->input;
    void *output = device ? arrays->device_output : arrays->output;
    void *roundtrip = device ? arrays->device_roundtrip : arrays->roundtrip;
    int status = bench_time_pairs(comm, arrays->plan, input, output, roundtrip, options->inner, options->outer,
                                  device, &results->timing);
    if (status == DISTFFT_SUCCESS)
        status = bench_steps_collect(comm, arrays->plan, input, output, roundtrip, options->inner, steps);
    if (device) {
        results->timing.fft_seconds = results->timing.redistribute_seconds = NAN;
        for (int s = 0; s < steps->count; s++) steps->steps[s].copy_seconds = NAN;
    }
    return status;
}

/* --check and --save: one more forward, then the round trip, the serial
 * reference (when rank 0 can hold the global arrays), the files, and the
 * verdict. Returns 0 or an exit status, the same on every rank. */
static int check_and_save(MPI_Comm comm, const bench_options *options,
                          bench_arrays *arrays, bench_results *results)
{
    void *source = arrays->input;
    if (arrays->scratch) /* the forward may overwrite what it reads */
        source = memcpy(arrays->scratch, arrays->input,
                        (size_t)(arrays->batch * arrays->input_count) * arrays->input_element_size);
    int status = execute_blocks(comm, arrays, source, arrays->output, DISTFFT_FORWARD);
    if (status != DISTFFT_SUCCESS) {
        report_library_error(comm, "distfft_plan_execute (forward)", status);
        return EXIT_STATUS_FAILED;
    }
    int exit_status = 0;
    if (options->check)
        exit_status = measure_roundtrip(comm, options, arrays, results);
    if (exit_status != 0)
        return exit_status;

    /* The serial reference reads the gathered arrays with the types and the
     * output shape the documentation gives; a plan that disagrees fails the
     * check without it. */
    int documented =
        !options->check || plan_is_documented(comm, options, arrays);
    int serial_wanted =
        options->check && documented &&
        global_copies_fit(comm, arrays->batch * element_count(options->ndims,
                                                              options->shape));
    if (serial_wanted || options->save_prefix != NULL)
        exit_status = compare_and_save_global(comm, options, arrays,
                                              serial_wanted, results);

    if (results->checked) {
        /* Written so that a NaN error fails. */
        results->passed =
            documented && results->roundtrip_error <= results->tolerance &&
            (!results->has_serial_error ||
             results->serial_error <= results->tolerance);
        if (!results->passed && exit_status == 0)
            exit_status = EXIT_STATUS_FAILED;
    }
    return exit_status;
}

/* First line of the MPI library's version banner. */
static void mpi_library_name(char *buffer, size_t size)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    version[length < MPI_MAX_LIBRARY_VERSION_STRING ? length
                                                     : MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
    version[strcspn(version, "\r\n")] = '\0';
    size_t end = strlen(version);
    while (end > 0 && (version[end - 1] == ' ' || version[end - 1] == '\t'))
        version[--end] = '\0';
    snprintf(buffer, size, "%s", version);
}

/* distfft_plan_describe_verbose into a malloc'd string (NULL if out of
 * memory); verbosity 0 is distfft_plan_describe's line. */
static char *describe_plan(const distfft_plan plan, int verbosity)
{
    int length = distfft_plan_describe_verbose(plan, verbosity, NULL, 0);
    if (length < 0)
        return NULL;
    char *text = malloc((size_t)length + 1);
    if (text != NULL)
        distfft_plan_describe_verbose(plan, verbosity, text, (size_t)length + 1);
    return text;
}

/* Plan, time, break down and check one method; fill *results (its plan
 * description malloc'd on rank 0, for the caller to free). Returns 0 or an
 * exit status, the same on every rank. */
static int run_method(MPI_Comm comm, const bench_options *options,
                      distfft_method method, bench_results *results,
                      bench_steps *steps)
{
    memset(results, 0, sizeof *results);
    bench_arrays arrays;
    int exit_status = create_arrays(comm, options, method, &arrays);
    if (exit_status != 0)
        return exit_status;

    results->method = method;
    MPI_Comm_size(comm, &results->ranks);
    distfft_plan_grid(arrays.plan, &results->grid_ndims, results->grid_dims);
    results->input_type = arrays.input_type;
    results->plan_seconds = arrays.plan_seconds;
    results->output_type = arrays.output_type;
    unsigned long long work_bytes = distfft_plan_work_bytes(arrays.plan);
    unsigned long long largest_work_bytes;
    MPI_Allreduce(&work_bytes, &largest_work_bytes, 1, MPI_UNSIGNED_LONG_LONG,
                  MPI_MAX, comm);
    results->work_bytes = (size_t)largest_work_bytes;

    int status = DISTFFT_SUCCESS;
    if (options->predict_only) { /* nothing runs: the model's figures alone */
        bench_steps_describe(comm, arrays.plan, steps);
        results->timing.pair_seconds = results->timing.pair_seconds_median = NAN;
        results->timing.fft_seconds = results->timing.redistribute_seconds = NAN;
    } else {
        status = time_and_collect(comm, options, &arrays, results, steps);
    }
    if (status == DISTFFT_SUCCESS && options->model != NULL)
        status = bench_steps_predict(arrays.plan, steps);
    if (status != DISTFFT_SUCCESS) {
        report_library_error(comm, "timing the transforms", status);
        free_arrays(&arrays);
        return EXIT_STATUS_FAILED;
    }
    results->steps = steps;

    if (options->check || options->save_prefix != NULL) {
        if (options->destroy_input) fill_input(options, &arrays); /* timing overwrote it */
        /* (a device plan's run copies the host input up again) */
        exit_status = check_and_save(comm, options, &arrays, results);
    }
    if (is_root(comm)) {
        results->plan_description = describe_plan(arrays.plan, 0);
        char *tree = options->print_plan > 0 ? describe_plan(arrays.plan, options->print_plan) : NULL;
        if (tree != NULL)
            fprintf(stderr, "%s\n", tree);
        free(tree);
    }
    free_arrays(&arrays);
    return exit_status;
}

static void report_failed_check(const bench_results *results)
{
    if (results->checked && !results->passed)
        fprintf(stderr,
                "distfft-bench: check FAILED (%s): roundtrip_error %.3e, "
                "serial_error %.3e, tolerance %.3e\n",
                distfft_method_name(results->method), results->roundtrip_error,
                results->has_serial_error ? results->serial_error : 0.0,
                results->tolerance);
}

/* Every method asked for, one after the other, then the report. */
static int run(MPI_Comm comm, const bench_options *options)
{
    int count = options->method_count ? options->method_count : 1;
    const distfft_method *methods = options->method_count ? options->methods : &options->method;
    bench_results results[BENCH_MAX_METHODS];
    static bench_steps steps[BENCH_MAX_METHODS];
    char mpi_library[MPI_MAX_LIBRARY_VERSION_STRING];
    mpi_library_name(mpi_library, sizeof mpi_library);

    int exit_status = 0, ran = 0;
    for (int m = 0; m < count; ++m) {
        int status = run_method(comm, options, methods[m], &results[ran], &steps[m]);
        if (status == NOT_APPLICABLE)
            continue; /* said on rank 0; every rank skips it alike */
        if (status == EXIT_STATUS_FAILED && results[ran].ranks == 0)
            return status; /* could not plan: reported on every rank */
        results[ran].mpi_library = mpi_library;
        if (!results[ran].plan_description)
            results[ran].plan_description = "";
        ++ran;
        if (status > exit_status)
            exit_status = status;
    }
    if (is_root(comm)) {
        for (int r = 0; r < ran; ++r) {
            if (options->json)
                bench_report_json(stdout, options, &results[r]);
            else if (!options->method_count)
                bench_report_text(stdout, options, &results[r]);
        }
        if (options->method_count && !options->json)
            bench_report_methods(stdout, options, results, ran);
        fflush(stdout);
        for (int r = 0; r < ran; ++r) {
            report_failed_check(&results[r]);
            if (results[r].plan_description[0])
                free((char *)results[r].plan_description);
        }
    }
    return exit_status;
}

/* --calibrate: measure the cost model and write it; --model: import it.
 * 0 or EXIT_STATUS_FAILED on every rank. */
static int model_file(MPI_Comm comm, const bench_options *options, int calibrate)
{
    const char *path = calibrate ? options->calibrate : options->model;
    if (path == NULL)
        return 0;
    int status = calibrate ? distfft_model_calibrate(comm, options->node_size, options->rigor, path)
                           : distfft_model_import_file(comm, path, options->model_force);
    if (status != DISTFFT_SUCCESS) {
        report_library_error(comm, calibrate ? "--calibrate" : "--model", status);
        return EXIT_STATUS_FAILED;
    }
    if (calibrate && is_root(comm))
        fprintf(stderr, "distfft-bench: cost model written to %s\n", path);
    return 0;
}

/* --wisdom-in before planning, --wisdom-out after: 0 or EXIT_STATUS_FAILED
 * on every rank. */
static int wisdom_file(MPI_Comm comm, const char *path, int import)
{
    if (path == NULL)
        return 0;
    int status = import ? distfft_wisdom_import_file(comm, path)
                        : distfft_wisdom_export_file(comm, path);
    if (status == DISTFFT_SUCCESS)
        return 0;
    report_library_error(comm, import ? "--wisdom-in" : "--wisdom-out", status);
    return EXIT_STATUS_FAILED;
}

/* --fftw-wisdom-out: rank 0 merges every rank's FFTW wisdom (the ranks'
 * blocks, and so their FFTW plans, may differ) and writes it. Rank 0's
 * distfft status, or DISTFFT_ERR_MEMORY on every rank. */
static int fftw_wisdom_gather(MPI_Comm comm, distfft_precision precision, const char *path)
{
    int ranks, rank;
    MPI_Comm_size(comm, &ranks);
    MPI_Comm_rank(comm, &rank);
    char *text = distfft_serial_wisdom_export(precision), *all = NULL;
    int length = text ? (int)strlen(text) + 1 : 0;
    int *lengths = rank == 0 ? calloc(2 * (size_t)ranks, sizeof *lengths) : NULL;
    int *offsets = lengths ? lengths + ranks : NULL;
    int status = DISTFFT_ERR_MEMORY;
    if (any_rank(comm, !text || (rank == 0 && !lengths)))
        goto done;
    MPI_Gather(&length, 1, MPI_INT, lengths, 1, MPI_INT, 0, comm);
    size_t total = 0;
    for (int other = 0; rank == 0 && other < ranks; ++other) {
        offsets[other] = (int)total;
        total += (size_t)lengths[other];
    }
    all = rank == 0 ? malloc(total) : NULL;
    if (any_rank(comm, rank == 0 && !all))
        goto done;
    MPI_Gatherv(text, length, MPI_CHAR, all, lengths, offsets, MPI_CHAR, 0, comm);
    status = DISTFFT_SUCCESS;
    for (int other = 1; rank == 0 && other < ranks && status == DISTFFT_SUCCESS; ++other)
        status = distfft_serial_wisdom_import(precision, all + offsets[other]);
    if (rank == 0 && status == DISTFFT_SUCCESS)
        status = distfft_serial_wisdom_export_file(precision, path);
done:
    free(all);
    free(lengths);
    free(text);
    return from_root(comm, status);
}

/* --fftw-wisdom-in before planning (every rank reads the file), or
 * --fftw-wisdom-out after: 0 or EXIT_STATUS_FAILED on every rank. */
static int fftw_wisdom_file(MPI_Comm comm, const bench_options *options, int import)
{
    const char *path = import ? options->fftw_wisdom_in : options->fftw_wisdom_out;
    if (path == NULL)
        return 0;
    int status = import ? distfft_serial_wisdom_import_file(options->precision, path)
                        : fftw_wisdom_gather(comm, options->precision, path);
    if (!any_rank(comm, status != DISTFFT_SUCCESS))
        return 0;
    if (is_root(comm))
        fprintf(stderr, "distfft-bench: %s '%s' failed on some rank (%s)\n",
                import ? "--fftw-wisdom-in" : "--fftw-wisdom-out", path,
                status != DISTFFT_SUCCESS ? distfft_error_string(status) : "rank 0 succeeded");
    return EXIT_STATUS_FAILED;
}

int main(int argc, char **argv)
{
    /* FUNNELED: --threads T > 1 runs FFTW and OpenMP threads beside MPI
     * (only this thread calls MPI). MULTIPLE for overlap progress's helper
     * thread, which calls MPI_Test: asked for by --thread-multiple or
     * --overlap progress, found in argv before MPI exists (the parser
     * checks them again after). */
    int provided, level = MPI_THREAD_FUNNELED;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--thread-multiple") == 0 || strcmp(argv[i], "--overlap=progress") == 0 ||
            (strcmp(argv[i], "--overlap") == 0 && i + 1 < argc && strcmp(argv[i + 1], "progress") == 0))
            level = MPI_THREAD_MULTIPLE;
    MPI_Init_thread(&argc, &argv, level, &provided);
    MPI_Comm comm = MPI_COMM_WORLD;

    bench_options options;
    char message[512];
    int exit_status;
    int parsed = bench_options_parse(argc, argv, &options, message, sizeof message);
    if (parsed == BENCH_OPTIONS_OK) {
        /* Under SMPI folded or sampled results cannot be checked or saved;
         * rank 0's environment decides (all ranks share it there). */
#ifdef DISTFFT_SMPI
        const char *fold = getenv("DISTFFT_SMPI_FOLD"), *sample = getenv("DISTFFT_SMPI_SAMPLE");
#else
        const char *fold = NULL, *sample = NULL; /* nothing is folded or sampled */
#endif
        parsed = from_root(comm, bench_options_check_simulation(&options, fold, sample, message,
                                                                sizeof message));
    }
    switch (parsed) {
    case BENCH_OPTIONS_HELP:
        if (is_root(comm))
            bench_options_print_usage(stdout, "distfft-bench");
        exit_status = EXIT_STATUS_OK;
        break;
    case BENCH_OPTIONS_BAD:
        if (is_root(comm))
            fprintf(stderr, "distfft-bench: %s\n"
                            "Run 'distfft-bench --help' for usage.\n",
                    message);
        exit_status = EXIT_STATUS_USAGE;
        break;
    default:
        if (options.list_methods) {
            if (is_root(comm))
                bench_options_print_methods(stdout);
            exit_status = EXIT_STATUS_OK;
            break;
        }
        /* Tuning progress by default on a terminal, never with --json; rank
         * 0 decides, as the library requires the same options everywhere. */
        if (!options.verbose && !options.quiet)
            options.verbose = !options.json && from_root(comm, isatty(STDOUT_FILENO));
        if (options.calibrate != NULL) { /* measure the model, nothing else */
            exit_status = model_file(comm, &options, 1);
            break;
        }
        exit_status = model_file(comm, &options, 0);
        if (exit_status == 0)
            exit_status = wisdom_file(comm, options.wisdom_in, 1);
        if (exit_status == 0)
            exit_status = fftw_wisdom_file(comm, &options, 1);
        if (exit_status == 0)
            exit_status = run(comm, &options);
        if (exit_status == 0)
            exit_status = wisdom_file(comm, options.wisdom_out, 0);
        if (exit_status == 0)
            exit_status = fftw_wisdom_file(comm, &options, 0);
        break;
    }
    MPI_Finalize();
    return exit_status;
}
