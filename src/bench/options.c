/*
 * options.c -- parse the command line of distfft-bench.
 *
 * Options take their value either as the next argument ("--shape 8x8") or
 * after '=' ("--shape=8x8"); the last occurrence wins. Numbers are plain
 * decimal digits (no sign, no spaces), so "64x-1" or " 8" are rejected rather
 * than read as something else. Checks that need the rank count or the
 * library (grid product, grid rank versus array rank, which kinds may be
 * combined, batch >= 1) are left to distfft_plan_create, which fails on
 * every rank together.
 */
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const precision_names[] = {"double", "float"};
static const char *const rigor_names[] = {"estimate", "measure", "patient",
                                          "exhaustive"};
static const char *const norm_names[] = {"backward", "ortho", "forward"};
static const char *const type_names[] = {"complex_double", "complex_float",
                                         "real_double", "real_float"};

#define COUNT_OF(array) ((int)(sizeof(array) / sizeof((array)[0])))

/* Largest element count we accept: the bytes of one complex double copy of
 * the global array must still fit in int64_t. */
#define MAX_GLOBAL_ELEMENTS (INT64_MAX / 16)

const char *bench_precision_name(distfft_precision precision)
{
    int index = (int)precision;
    return index >= 0 && index < COUNT_OF(precision_names)
               ? precision_names[index] : "unknown";
}

const char *bench_rigor_name(distfft_rigor rigor)
{
    int index = (int)rigor;
    return index >= 0 && index < COUNT_OF(rigor_names) ? rigor_names[index]
                                                        : "unknown";
}

const char *bench_norm_name(distfft_norm norm)
{
    int index = (int)norm;
    return index >= 0 && index < COUNT_OF(norm_names) ? norm_names[index]
                                                       : "unknown";
}

const char *bench_type_name(distfft_type type)
{
    int index = (int)type;
    return index >= 0 && index < COUNT_OF(type_names) ? type_names[index]
                                                       : "unknown";
}

void bench_options_print_usage(FILE *stream, const char *program)
{
    fprintf(stream,
        "Usage: mpiexec -n RANKS %s [options]\n"
        "\n"
        "Time forward+backward pairs of a distributed FFT (distfft %s).\n"
        "\n"
        "Problem:\n"
        "  --shape N0xN1[x...]   global array shape, 2 to %d axes (default 64x64x64)\n"
        "  --precision P         double | float (default double)\n"
        "  --kind K              transform per axis: one kind for every axis, or a\n"
        "                        comma-separated list with one kind per axis, of\n"
        "                        c2c | r2c | dct1..dct4 | dst1..dst4 | cheb | none\n"
        "                        (default c2c); 'r2c' alone is numpy's rfftn: r2c on\n"
        "                        the last transformed axis, c2c on the others\n"
        "  --axes A0,A1,...      transform only these axes (the others get none)\n"
        "  --batch N             fields transformed together (default 1)\n"
        "  --norm M              backward | ortho | forward (default backward)\n"
        "Decomposition and method:\n"
        "  --grid G              auto | slab | pencil | AxB[xC...] (default auto);\n"
        "                        explicit extents must multiply to RANKS, and a 0\n"
        "                        extent is chosen by MPI_Dims_create\n"
        "  --method M            redistribution method: alltoallw | alltoallv |\n"
        "                        isend-waitall | isend-waitsome | isend-waitall-blocked\n"
        "                        | isend-waitsome-blocked | sendrecv | auto (default:\n"
        "                        measured per exchange at plan time, grid too)\n"
        "  --methods all|M,M,... run the same configuration with each method in turn\n"
        "                        and print a table (fastest marked *), or with\n"
        "                        --json one line per method\n"
        "  --placement P         ranks on the grid: row | morton | node (default row)\n"
        "  --node-size K         with node placement: pretend nodes of K ranks\n"
        "                        (default 0: find nodes with MPI_Comm_split_type)\n"
        "  --wisdom-in FILE      import wisdom before planning (auto skips tuning)\n"
        "  --wisdom-out FILE     export the wisdom after planning\n"
        "  --rigor R             estimate | measure | patient | exhaustive\n"
        "                        (FFTW planning; default measure)\n"
        "Timing:\n"
        "  --inner N             forward+backward pairs per timed repetition (default 3)\n"
        "  --outer N             timed repetitions; the fastest is reported (default 50)\n"
        "Checks and output:\n"
        "  --check               report round-trip and serial-FFTW errors (the serial\n"
        "                        reference applies the kinds axis by axis); exit 1 if\n"
        "                        either exceeds 8 * eps * log2(N)\n"
        "  --save PREFIX         write the global input and forward output to\n"
        "                        PREFIX.input.npy and PREFIX.output.npy (on rank 0;\n"
        "                        with --batch N > 1 the batch axis comes first)\n"
        "  --json                print one JSON object on one line\n"
        "  --help                print this text\n"
        "\n"
        "Exit status: 0 success, 1 library error or failed check, 2 bad usage.\n",
        program, DISTFFT_VERSION, DISTFFT_MAX_DIMS);
}

/* Write a formatted message into the caller's buffer; always returns
 * BENCH_OPTIONS_BAD so callers can `return fail(...)`. */
static int fail(char *message, size_t message_size, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    if (message != NULL && message_size > 0)
        vsnprintf(message, message_size, format, arguments);
    va_end(arguments);
    return BENCH_OPTIONS_BAD;
}

/* Parse the decimal digits in [text, text+length) into *value, which must lie
 * in [minimum, maximum]. Returns 0 on success, -1 otherwise. */
static int parse_integer(const char *text, size_t length, int64_t minimum,
                         int64_t maximum, int64_t *value)
{
    if (length == 0)
        return -1;
    int64_t result = 0;
    for (size_t position = 0; position < length; ++position) {
        char digit = text[position];
        if (digit < '0' || digit > '9')
            return -1;
        if (result > (INT64_MAX - (digit - '0')) / 10)
            return -1;
        result = result * 10 + (digit - '0');
    }
    if (result < minimum || result > maximum)
        return -1;
    *value = result;
    return 0;
}

/* Split "AxBxC" into at most max_count integers in [minimum, maximum].
 * Returns the count, or -1 if the text is malformed or has too many parts. */
static int parse_extents(const char *text, int max_count, int64_t minimum,
                         int64_t maximum, int64_t *extents)
{
    int count = 0;
    const char *piece = text;
    for (;;) {
        const char *separator = strchr(piece, 'x');
        size_t length = separator ? (size_t)(separator - piece) : strlen(piece);
        if (count == max_count)
            return -1;
        if (parse_integer(piece, length, minimum, maximum, &extents[count]) != 0)
            return -1;
        ++count;
        if (separator == NULL)
            return count;
        piece = separator + 1;
    }
}

/* Index of `name` in `names`, or -1. */
static int find_name(const char *name, const char *const *names, int count)
{
    for (int index = 0; index < count; ++index)
        if (strcmp(name, names[index]) == 0)
            return index;
    return -1;
}

/* "a | b | c" listing of names, for messages. */
static void join_names(const char *const *names, int count, char *buffer,
                       size_t size)
{
    buffer[0] = '\0';
    for (int index = 0; index < count; ++index) {
        size_t used = strlen(buffer);
        snprintf(buffer + used, size - used, "%s%s", index ? " | " : "",
                 names[index]);
    }
}

static int parse_shape(const char *text, bench_options *options, char *message,
                       size_t message_size)
{
    int64_t extents[DISTFFT_MAX_DIMS + 1];
    int count = parse_extents(text, DISTFFT_MAX_DIMS + 1, 1, INT64_MAX, extents);
    if (count < 0)
        return fail(message, message_size,
                    "--shape '%s' is malformed: expected N0xN1[x...] with "
                    "every extent a positive integer",
                    text);
    if (count < 2 || count > DISTFFT_MAX_DIMS)
        return fail(message, message_size,
                    "--shape '%s' has %d axes: need 2 to %d", text, count,
                    DISTFFT_MAX_DIMS);
    int64_t elements = 1;
    for (int axis = 0; axis < count; ++axis) {
        if (extents[axis] > MAX_GLOBAL_ELEMENTS / elements)
            return fail(message, message_size,
                        "--shape '%s' is too large (more than %lld elements)",
                        text, (long long)MAX_GLOBAL_ELEMENTS);
        elements *= extents[axis];
        options->shape[axis] = extents[axis];
    }
    options->ndims = count;
    return BENCH_OPTIONS_OK;
}

static int parse_grid(const char *text, bench_options *options, char *message,
                      size_t message_size)
{
    memset(options->grid_dims, 0, sizeof options->grid_dims);
    if (strcmp(text, "auto") == 0) {
        options->grid_ndims = 0;
        return BENCH_OPTIONS_OK;
    }
    if (strcmp(text, "slab") == 0) {
        options->grid_ndims = 1;
        return BENCH_OPTIONS_OK;
    }
    if (strcmp(text, "pencil") == 0) {
        options->grid_ndims = 2;
        return BENCH_OPTIONS_OK;
    }
    int64_t extents[DISTFFT_MAX_DIMS];
    int count = parse_extents(text, DISTFFT_MAX_DIMS - 1, 0, INT_MAX, extents);
    if (count < 0)
        return fail(message, message_size,
                    "--grid '%s' is malformed: expected auto, slab, pencil or "
                    "AxB[xC...] with at most %d non-negative integer extents",
                    text, DISTFFT_MAX_DIMS - 1);
    options->grid_ndims = count;
    for (int direction = 0; direction < count; ++direction)
        options->grid_dims[direction] = (int)extents[direction];
    return BENCH_OPTIONS_OK;
}

static int parse_choice(const char *option, const char *text,
                        const char *const *names, int count, int *choice,
                        char *message, size_t message_size)
{
    int index = find_name(text, names, count);
    if (index < 0) {
        char known[128];
        join_names(names, count, known, sizeof known);
        return fail(message, message_size, "%s '%s' is not one of: %s",
                    option, text, known);
    }
    *choice = index;
    return BENCH_OPTIONS_OK;
}

static int parse_method(const char *text, bench_options *options,
                        char *message, size_t message_size)
{
    distfft_method method;
    if (distfft_method_from_name(text, &method) == DISTFFT_SUCCESS) {
        options->method = method;
        return BENCH_OPTIONS_OK;
    }
    const char *known[DISTFFT_MAX_DIMS];
    int count = 0;
    while (count < DISTFFT_MAX_DIMS &&
           distfft_method_name((distfft_method)count) != NULL) {
        known[count] = distfft_method_name((distfft_method)count);
        ++count;
    }
    char listing[256];
    join_names(known, count, listing, sizeof listing);
    return fail(message, message_size, "--method '%s' is not one of: %s",
                text, listing);
}

/* --methods: "all", or a comma-separated list of method names. */
static int parse_methods(const char *text, bench_options *options,
                         char *message, size_t message_size)
{
    int count = 0;
    if (strcmp(text, "all") == 0) {
        for (int m = 0; m < distfft_method_count() && count < BENCH_MAX_METHODS - 1; m++)
            options->methods[count++] = (distfft_method)m;
        options->methods[count++] = DISTFFT_METHOD_AUTO;
        options->method_count = count;
        return BENCH_OPTIONS_OK;
    }
    const char *next = text;
    while (1) {
        char name[64];
        size_t length = strcspn(next, ",");
        if (length == 0 || length >= sizeof name || count >= BENCH_MAX_METHODS)
            return fail(message, message_size, "--methods '%s' is malformed: expected all or "
                        "a comma-separated list of distinct method names", text);
        memcpy(name, next, length);
        name[length] = '\0';
        int status = parse_method(name, options, message, message_size);
        if (status != BENCH_OPTIONS_OK)
            return status;
        for (int i = 0; i < count; i++)
            if (options->methods[i] == options->method)
                return fail(message, message_size, "--methods '%s' names %s twice", text, name);
        options->methods[count++] = options->method;
        if (next[length] == '\0')
            break;
        next += length + 1;
    }
    options->method_count = count;
    return BENCH_OPTIONS_OK;
}

/* Split a comma-separated list into at most `max_count` pieces of at most
 * piece_size-1 characters. Returns the count, or -1 (too many, too long, or
 * an empty piece). */
static int split_list(const char *text, int max_count, char pieces[][16],
                      size_t piece_size)
{
    int count = 0;
    const char *piece = text;
    for (;;) {
        const char *separator = strchr(piece, ',');
        size_t length = separator ? (size_t)(separator - piece) : strlen(piece);
        if (count == max_count || length == 0 || length >= piece_size)
            return -1;
        memcpy(pieces[count], piece, length);
        pieces[count][length] = '\0';
        ++count;
        if (separator == NULL)
            return count;
        piece = separator + 1;
    }
}

/* "c2c | r2c | dct1 | ..." from the library's own names. */
static void list_kinds(char *buffer, size_t size)
{
    const char *known[DISTFFT_MAX_DIMS];
    int count = 0;
    while (count < DISTFFT_MAX_DIMS &&
           distfft_kind_name((distfft_kind)count) != NULL) {
        known[count] = distfft_kind_name((distfft_kind)count);
        ++count;
    }
    join_names(known, count, buffer, size);
}

/* --kind: the syntax and the names only; resolve_kinds applies it. */
static int parse_kind(const char *text, bench_options *options, char *message,
                      size_t message_size)
{
    char pieces[DISTFFT_MAX_DIMS][16];
    int count = split_list(text, DISTFFT_MAX_DIMS, pieces, sizeof pieces[0]);
    char known[256];
    list_kinds(known, sizeof known);
    if (count < 0)
        return fail(message, message_size,
                    "--kind '%s' is malformed: expected one kind or a "
                    "comma-separated list of at most %d kinds, each one of: %s",
                    text, DISTFFT_MAX_DIMS, known);
    for (int index = 0; index < count; ++index) {
        distfft_kind kind;
        if (distfft_kind_from_name(pieces[index], &kind) != DISTFFT_SUCCESS)
            return fail(message, message_size,
                        "--kind '%s': '%s' is not one of: %s", text,
                        pieces[index], known);
    }
    options->kind = text;
    return BENCH_OPTIONS_OK;
}

/* Turn --kind and --axes into options->kinds[0..ndims-1], now that the
 * shape is known:
 *   one kind K      K on every transformed axis; but "r2c" means r2c on the
 *                   last transformed axis and c2c on the others (rfftn);
 *   ndims kinds     one per axis, as given;
 *   --axes A,B,...  the transformed axes; the others get none (a per-axis
 *                   list must then say none exactly there). */
static int resolve_kinds(bench_options *options, char *message,
                         size_t message_size)
{
    int ndims = options->ndims;
    int transformed[DISTFFT_MAX_DIMS];
    for (int axis = 0; axis < ndims; ++axis)
        transformed[axis] = options->axes == NULL;
    if (options->axes != NULL) {
        char pieces[DISTFFT_MAX_DIMS][16];
        int count = split_list(options->axes, ndims, pieces, sizeof pieces[0]);
        for (int index = 0; index < count; ++index) {
            int64_t axis;
            if (parse_integer(pieces[index], strlen(pieces[index]), 0,
                              ndims - 1, &axis) != 0 ||
                transformed[axis])
                count = -1;
            else
                transformed[axis] = 1;
        }
        if (count < 0)
            return fail(message, message_size,
                        "--axes '%s' is malformed: expected distinct axes from "
                        "0 to %d, separated by commas",
                        options->axes, ndims - 1);
    }

    char pieces[DISTFFT_MAX_DIMS][16];
    int count = split_list(options->kind, DISTFFT_MAX_DIMS, pieces,
                           sizeof pieces[0]);
    distfft_kind given[DISTFFT_MAX_DIMS];
    for (int index = 0; index < count; ++index)
        distfft_kind_from_name(pieces[index], &given[index]); /* checked */
    if (count == 1) {
        int last = -1;
        for (int axis = 0; axis < ndims; ++axis)
            if (transformed[axis])
                last = axis;
        for (int axis = 0; axis < ndims; ++axis) {
            distfft_kind kind = given[0];
            if (kind == DISTFFT_R2C && axis != last)
                kind = DISTFFT_C2C;
            options->kinds[axis] = transformed[axis] ? kind : DISTFFT_NONE;
        }
        return BENCH_OPTIONS_OK;
    }
    if (count != ndims)
        return fail(message, message_size,
                    "--kind '%s' has %d kinds but --shape has %d axes: give one "
                    "kind, or one per axis",
                    options->kind, count, ndims);
    for (int axis = 0; axis < ndims; ++axis) {
        if (options->axes != NULL &&
            (given[axis] == DISTFFT_NONE) == transformed[axis])
            return fail(message, message_size,
                        "--kind '%s' gives axis %d the kind %s, but --axes '%s' "
                        "%s: a per-axis --kind must say none exactly on the "
                        "axes that --axes leaves out",
                        options->kind, axis, pieces[axis], options->axes,
                        transformed[axis] ? "transforms that axis"
                                          : "leaves that axis out");
        options->kinds[axis] = given[axis];
    }
    return BENCH_OPTIONS_OK;
}

static int parse_count(const char *option, const char *text, int *count,
                       char *message, size_t message_size)
{
    int64_t value;
    if (parse_integer(text, strlen(text), 1, INT_MAX, &value) != 0)
        return fail(message, message_size,
                    "%s '%s' is not an integer from 1 to %d", option, text,
                    INT_MAX);
    *count = (int)value;
    return BENCH_OPTIONS_OK;
}

/* Apply one option that takes a value. */
static int apply_valued_option(const char *name, const char *value,
                               bench_options *options, char *message,
                               size_t message_size)
{
    int choice;
    int status;
    if (strcmp(name, "--shape") == 0)
        return parse_shape(value, options, message, message_size);
    if (strcmp(name, "--grid") == 0)
        return parse_grid(value, options, message, message_size);
    if (strcmp(name, "--method") == 0)
        return parse_method(value, options, message, message_size);
    if (strcmp(name, "--methods") == 0)
        return parse_methods(value, options, message, message_size);
    if (strcmp(name, "--placement") == 0) {
        if (distfft_placement_from_name(value, &options->placement) != DISTFFT_SUCCESS)
            return fail(message, message_size, "--placement '%s' is not one of: row, morton, node", value);
        return BENCH_OPTIONS_OK;
    }
    if (strcmp(name, "--node-size") == 0) {
        int64_t size;
        if (parse_integer(value, strlen(value), 0, INT_MAX, &size) != 0)
            return fail(message, message_size, "--node-size '%s' is not an integer from 0 to %d",
                        value, INT_MAX);
        options->node_size = (int)size;
        return BENCH_OPTIONS_OK;
    }
    if (strcmp(name, "--wisdom-in") == 0 || strcmp(name, "--wisdom-out") == 0) {
        if (value[0] == '\0')
            return fail(message, message_size, "%s needs a non-empty FILE", name);
        if (strcmp(name, "--wisdom-in") == 0)
            options->wisdom_in = value;
        else
            options->wisdom_out = value;
        return BENCH_OPTIONS_OK;
    }
    if (strcmp(name, "--inner") == 0)
        return parse_count(name, value, &options->inner, message, message_size);
    if (strcmp(name, "--outer") == 0)
        return parse_count(name, value, &options->outer, message, message_size);
    if (strcmp(name, "--kind") == 0)
        return parse_kind(value, options, message, message_size);
    if (strcmp(name, "--axes") == 0) {
        options->axes = value; /* checked against the shape in resolve_kinds */
        return BENCH_OPTIONS_OK;
    }
    if (strcmp(name, "--batch") == 0) {
        /* 0 is let through: the library's verdict on it is what we report. */
        if (parse_integer(value, strlen(value), 0, INT64_MAX, &options->batch) != 0)
            return fail(message, message_size,
                        "--batch '%s' is not a non-negative integer", value);
        return BENCH_OPTIONS_OK;
    }
    if (strcmp(name, "--save") == 0) {
        if (value[0] == '\0')
            return fail(message, message_size, "--save needs a non-empty PREFIX");
        options->save_prefix = value;
        return BENCH_OPTIONS_OK;
    }
    if (strcmp(name, "--precision") == 0) {
        status = parse_choice(name, value, precision_names,
                              COUNT_OF(precision_names), &choice, message,
                              message_size);
        if (status == BENCH_OPTIONS_OK)
            options->precision = (distfft_precision)choice;
        return status;
    }
    if (strcmp(name, "--rigor") == 0) {
        status = parse_choice(name, value, rigor_names, COUNT_OF(rigor_names),
                              &choice, message, message_size);
        if (status == BENCH_OPTIONS_OK)
            options->rigor = (distfft_rigor)choice;
        return status;
    }
    if (strcmp(name, "--norm") == 0) {
        status = parse_choice(name, value, norm_names, COUNT_OF(norm_names),
                              &choice, message, message_size);
        if (status == BENCH_OPTIONS_OK)
            options->norm = (distfft_norm)choice;
        return status;
    }
    return fail(message, message_size, "unknown option '%s'", name);
}

static int is_valued_option(const char *name)
{
    static const char *const valued[] = {
        "--shape", "--grid", "--precision", "--kind", "--axes", "--batch",
        "--method", "--rigor", "--norm", "--inner", "--outer", "--save",
        "--methods", "--placement", "--node-size", "--wisdom-in", "--wisdom-out"};
    return find_name(name, valued, COUNT_OF(valued)) >= 0;
}

static void set_defaults(bench_options *options)
{
    memset(options, 0, sizeof *options);
    options->ndims = 3;
    options->shape[0] = options->shape[1] = options->shape[2] = 64;
    options->grid_ndims = 0;
    options->precision = DISTFFT_DOUBLE;
    options->kind = "c2c";
    options->axes = NULL;
    options->batch = 1;
    options->method = DISTFFT_METHOD_AUTO;
    options->placement = DISTFFT_PLACEMENT_ROW;
    options->rigor = DISTFFT_MEASURE;
    options->norm = DISTFFT_NORM_BACKWARD;
    options->inner = 3;
    options->outer = 50;
    options->save_prefix = NULL;
}

int bench_options_parse(int argc, char **argv, bench_options *options,
                        char *message, size_t message_size)
{
    if (message != NULL && message_size > 0)
        message[0] = '\0';
    set_defaults(options);
    /* --help wins over everything else, even a bad option beside it. */
    for (int index = 1; index < argc; ++index)
        if (strcmp(argv[index], "--help") == 0 || strcmp(argv[index], "-h") == 0)
            return BENCH_OPTIONS_HELP;
    for (int index = 1; index < argc; ++index) {
        const char *argument = argv[index];
        if (strcmp(argument, "--check") == 0) {
            options->check = 1;
            continue;
        }
        if (strcmp(argument, "--json") == 0) {
            options->json = 1;
            continue;
        }
        if (strncmp(argument, "--", 2) != 0)
            return fail(message, message_size,
                        "unexpected argument '%s' (options start with --)",
                        argument);

        /* "--name=value" or "--name value" */
        char name[64];
        const char *value;
        const char *equals = strchr(argument, '=');
        if (equals != NULL) {
            size_t length = (size_t)(equals - argument);
            if (length >= sizeof name)
                return fail(message, message_size, "unknown option '%s'",
                            argument);
            memcpy(name, argument, length);
            name[length] = '\0';
            value = equals + 1;
        } else {
            if (strlen(argument) >= sizeof name)
                return fail(message, message_size, "unknown option '%s'",
                            argument);
            strcpy(name, argument);
            value = NULL;
        }
        if (!is_valued_option(name)) {
            if (strcmp(name, "--check") == 0 || strcmp(name, "--json") == 0 ||
                strcmp(name, "--help") == 0)
                return fail(message, message_size,
                            "option %s takes no value (got '%s')", name,
                            argument);
            return fail(message, message_size, "unknown option '%s'", name);
        }
        if (value == NULL) {
            if (index + 1 >= argc)
                return fail(message, message_size, "option %s needs a value",
                            name);
            value = argv[++index];
        }
        int status = apply_valued_option(name, value, options, message,
                                         message_size);
        if (status != BENCH_OPTIONS_OK)
            return status;
    }
    return resolve_kinds(options, message, message_size);
}
