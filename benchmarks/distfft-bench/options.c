/*
 * options.c -- the command line of distfft-bench, driven by one table.
 *
 * Each row of option_table is one option: its name, the value it takes
 * (NULL: a flag), the parser that applies it, the field a generic parser
 * writes, the library vocabulary it takes, its default and its help. The
 * usage text, whether an option takes a value, the dispatch and the
 * defaults are all read from the table: a new option is one row (and one
 * parser, where no generic one fits). Lists of names -- methods, kinds,
 * precisions, norms, rigors, placements -- are asked of the library, so a
 * new communication method shows up here with no edit.
 *
 * Values come as the next argument ("--shape 8x8") or after '='
 * ("--shape=8x8"); the last occurrence wins. Checks that need the rank
 * count or the library (grid product, grid rank versus array rank, which
 * kinds may be combined, batch >= 1) are left to distfft_plan_create, which
 * fails on every rank together.
 */
#include "options.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kinds.h"
#include "option_text.h"

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))
#define STRING(x) #x
#define EXPANDED_STRING(x) STRING(x)

/* Largest element count we accept: the bytes of one complex double copy of
 * the global array must still fit in int64_t. */
#define MAX_GLOBAL_ELEMENTS (INT64_MAX / 16)

/* The usage text: option names in a column of this width, help wrapped to
 * lines of at most USAGE_WIDTH characters. */
#define USAGE_COLUMN 24
#define USAGE_WIDTH 79

typedef struct option_row option_row;

/* What a parser works on: the options and the caller's message buffer. */
typedef struct {
    bench_options *options;
    char *message;
    size_t message_size;
} parse_state;

typedef int (*option_parser)(const option_row *row, const char *value,
                             parse_state *state);

struct option_row {
    const char *name;      /* "--shape"; NULL: a heading of the usage text */
    const char *value;     /* the value as the usage names it; NULL: a flag */
    option_parser parse;   /* NULL: answered before the dispatch (--help) */
    size_t field;          /* offsetof the field a generic parser writes */
    bench_name_at names;   /* the library's names it takes, or NULL */
    const char *fallback;  /* the default, parsed like a given value; or NULL */
    const char *help;      /* a word "@" stands for the names: a | b | c */
};

#define FIELD(name) offsetof(bench_options, name)

#define fail(state, ...) \
    bench_fail((state)->message, (state)->message_size, __VA_ARGS__)

/* ---- the library's vocabularies, index by index ------------------------ */

/* The distributed precisions: long double is the serial API's only (a
 * plan refuses it, and the library's message says so). */
static const char *precision_at(int index)
{
    if (index == DISTFFT_LONG_DOUBLE) return NULL;
    return distfft_precision_name((distfft_precision)index);
}

static const char *norm_at(int index)
{
    return distfft_norm_name((distfft_norm)index);
}

static const char *overlap_at(int index)
{
    return distfft_overlap_name((distfft_overlap)(index - 1)); /* auto is -1 */
}

static const char *rigor_at(int index)
{
    return distfft_rigor_name((distfft_rigor)index);
}

static const char *placement_at(int index)
{
    return distfft_placement_name((distfft_placement)index);
}

static const char *memory_at(int index)
{
    return distfft_memory_name((distfft_memory)index);
}

/* The concrete methods, then auto. */
static const char *method_at(int index)
{
    int count = distfft_method_count();
    if (index < count)
        return distfft_method_name((distfft_method)index);
    return index == count ? distfft_method_name(DISTFFT_METHOD_AUTO) : NULL;
}

/* ---- generic parsers: they write the row's field ----------------------- */

static void *field_of(const option_row *row, parse_state *state)
{
    return (char *)state->options + row->field;
}

static int parse_flag(const option_row *row, const char *value,
                      parse_state *state)
{
    (void)value;
    *(int *)field_of(row, state) = 1;
    return BENCH_OPTIONS_OK;
}

static int parse_int_from(const option_row *row, const char *value,
                          parse_state *state, int64_t minimum)
{
    int64_t number;
    if (bench_parse_integer(value, strlen(value), minimum, INT_MAX, &number) != 0)
        return fail(state, "%s '%s' is not an integer from %lld to %d",
                    row->name, value, (long long)minimum, INT_MAX);
    *(int *)field_of(row, state) = (int)number;
    return BENCH_OPTIONS_OK;
}

static int parse_positive(const option_row *row, const char *value,
                          parse_state *state)
{
    return parse_int_from(row, value, state, 1);
}

static int parse_non_negative(const option_row *row, const char *value,
                              parse_state *state)
{
    return parse_int_from(row, value, state, 0);
}

/* Kept as given; --axes is checked against the shape at the end. */
static int parse_text(const option_row *row, const char *value,
                      parse_state *state)
{
    *(const char **)field_of(row, state) = value;
    return BENCH_OPTIONS_OK;
}

/* A FILE or PREFIX: anything but empty. */
static int parse_path(const option_row *row, const char *value,
                      parse_state *state)
{
    if (value[0] == '\0')
        return fail(state, "%s needs a non-empty %s", row->name, row->value);
    return parse_text(row, value, state);
}

/* ---- library names: `status` is what distfft_X_from_name said ---------- */

static int chosen(const option_row *row, const char *value, parse_state *state,
                  int status)
{
    if (status == DISTFFT_SUCCESS)
        return BENCH_OPTIONS_OK;
    char known[512];
    bench_join_names(row->names, known, sizeof known);
    return fail(state, "%s '%s' is not one of: %s", row->name, value, known);
}

static int parse_precision(const option_row *row, const char *value,
                           parse_state *state)
{
    return chosen(row, value, state,
                  distfft_precision_from_name(value, &state->options->precision));
}

static int parse_norm(const option_row *row, const char *value,
                      parse_state *state)
{
    return chosen(row, value, state,
                  distfft_norm_from_name(value, &state->options->norm));
}

static int parse_overlap(const option_row *row, const char *value,
                         parse_state *state)
{
    return chosen(row, value, state,
                  distfft_overlap_from_name(value, &state->options->overlap));
}

static int parse_rigor(const option_row *row, const char *value,
                       parse_state *state)
{
    return chosen(row, value, state,
                  distfft_rigor_from_name(value, &state->options->rigor));
}

static int parse_placement(const option_row *row, const char *value,
                           parse_state *state)
{
    return chosen(row, value, state,
                  distfft_placement_from_name(value, &state->options->placement));
}

static int parse_memory(const option_row *row, const char *value,
                        parse_state *state)
{
    return chosen(row, value, state,
                  distfft_memory_from_name(value, &state->options->memory));
}

static int parse_method(const option_row *row, const char *value,
                        parse_state *state)
{
    return chosen(row, value, state,
                  distfft_method_from_name(value, &state->options->method));
}

/* --methods: "all" (every concrete method, then auto), or a comma-separated
 * list of distinct method names. */
static int parse_methods(const option_row *row, const char *value,
                         parse_state *state)
{
    bench_options *options = state->options;
    int count = 0;
    if (strcmp(value, "all") == 0) {
        for (int m = 0; m < distfft_method_count() && count < BENCH_MAX_METHODS - 1; m++)
            options->methods[count++] = (distfft_method)m;
        options->methods[count++] = DISTFFT_METHOD_AUTO;
        options->method_count = count;
        return BENCH_OPTIONS_OK;
    }
    for (const char *next = value;; next += strcspn(next, ",") + 1) {
        char name[64];
        size_t length = strcspn(next, ",");
        if (length == 0 || length >= sizeof name || count >= BENCH_MAX_METHODS)
            return fail(state, "--methods '%s' is malformed: expected all or a "
                        "comma-separated list of distinct method names", value);
        memcpy(name, next, length);
        name[length] = '\0';
        distfft_method method;
        int status = chosen(row, name, state, distfft_method_from_name(name, &method));
        if (status != BENCH_OPTIONS_OK)
            return status;
        for (int i = 0; i < count; i++)
            if (options->methods[i] == method)
                return fail(state, "--methods '%s' names %s twice", value, name);
        options->methods[count++] = method;
        if (next[length] == '\0')
            break;
    }
    options->method_count = count;
    return BENCH_OPTIONS_OK;
}

/* ---- the problem: shape, grid, kinds, batch ----------------------------- */

static int parse_shape(const option_row *row, const char *value,
                       parse_state *state)
{
    (void)row;
    int64_t extents[DISTFFT_MAX_DIMS + 1];
    int count = bench_parse_extents(value, DISTFFT_MAX_DIMS + 1, 1, INT64_MAX, extents);
    if (count < 0)
        return fail(state, "--shape '%s' is malformed: expected N0xN1[x...] with "
                    "every extent a positive integer", value);
    if (count < 2 || count > DISTFFT_MAX_DIMS)
        return fail(state, "--shape '%s' has %d axes: need 2 to %d", value,
                    count, DISTFFT_MAX_DIMS);
    int64_t elements = 1;
    for (int axis = 0; axis < count; ++axis) {
        if (extents[axis] > MAX_GLOBAL_ELEMENTS / elements)
            return fail(state, "--shape '%s' is too large (more than %lld elements)",
                        value, (long long)MAX_GLOBAL_ELEMENTS);
        elements *= extents[axis];
        state->options->shape[axis] = extents[axis];
    }
    state->options->ndims = count;
    return BENCH_OPTIONS_OK;
}

static int parse_grid(const option_row *row, const char *value,
                      parse_state *state)
{
    (void)row;
    bench_options *options = state->options;
    static const char *const named[] = {"auto", "slab", "pencil"};
    memset(options->grid_dims, 0, sizeof options->grid_dims);
    for (size_t ndims = 0; ndims < COUNT_OF(named); ++ndims)
        if (strcmp(value, named[ndims]) == 0) {
            options->grid_ndims = (int)ndims; /* 0 = auto, 1 slab, 2 pencil */
            return BENCH_OPTIONS_OK;
        }
    int64_t extents[DISTFFT_MAX_DIMS];
    int count = bench_parse_extents(value, DISTFFT_MAX_DIMS - 1, 0, INT_MAX, extents);
    if (count < 0)
        return fail(state, "--grid '%s' is malformed: expected auto, slab, pencil "
                    "or AxB[xC...] with at most %d non-negative integer extents",
                    value, DISTFFT_MAX_DIMS - 1);
    options->grid_ndims = count;
    for (int direction = 0; direction < count; ++direction)
        options->grid_dims[direction] = (int)extents[direction];
    return BENCH_OPTIONS_OK;
}

/* --kind: the syntax and the names now; bench_kinds_resolve applies it. */
static int parse_kind(const option_row *row, const char *value,
                      parse_state *state)
{
    (void)row;
    int status = bench_kinds_check(value, state->message, state->message_size);
    if (status == BENCH_OPTIONS_OK)
        state->options->kind = value;
    return status;
}

/* 0 is let through: the library's verdict on it is what we report. */
static int parse_batch(const option_row *row, const char *value,
                       parse_state *state)
{
    (void)row;
    if (bench_parse_integer(value, strlen(value), 0, INT64_MAX,
                            &state->options->batch) != 0)
        return fail(state, "--batch '%s' is not a non-negative integer", value);
    return BENCH_OPTIONS_OK;
}

/* ---- the table ----------------------------------------------------------- */

static const option_row option_table[] = {
    {NULL, NULL, NULL, 0, NULL, NULL, "Problem:"},
    {"--shape", "N0xN1[x...]", parse_shape, 0, NULL, "64x64x64",
     "global array shape, 2 to " EXPANDED_STRING(DISTFFT_MAX_DIMS) " axes"},
    {"--precision", "P", parse_precision, 0, precision_at, "double", "@"},
    {"--kind", "K", parse_kind, 0, bench_kind_at, "c2c",
     "transform per axis: one kind for every axis, or a comma-separated list "
     "with one kind per axis, of @; 'r2c' alone is numpy's rfftn: r2c on the "
     "last transformed axis, c2c on the others"},
    {"--axes", "A0,A1,...", parse_text, FIELD(axes), NULL, NULL,
     "transform only these axes (the others get none)"},
    {"--batch", "N", parse_batch, 0, NULL, "1", "fields transformed together"},
    {"--norm", "M", parse_norm, 0, norm_at, "backward",
     "@ (none: FFTW's convention, no scaling at all)"},
    {"--overlap", "O", parse_overlap, 0, overlap_at, "auto",
     "with --batch N > 1: @; on pipelines the fields (field k's exchange "
     "in flight while field k-1's FFTs run), fields runs each field through "
     "the whole transform in turn (one field's work memory), progress is on "
     "with a helper thread testing the exchanges in flight (MPI_THREAD_MULTIPLE, "
     "which it implies), auto measures them (progress only with "
     "--thread-multiple)"},
    {"--thread-multiple", NULL, parse_flag, FIELD(thread_multiple), NULL, NULL,
     "initialise MPI with MPI_THREAD_MULTIPLE rather than FUNNELED (lets "
     "--overlap auto consider progress)"},
    {"--destroy-input", NULL, parse_flag, FIELD(destroy_input), NULL, NULL,
     "let each transform overwrite its input (options.destroy_input; "
     "FFTW's own default for c2r): one rank's r2c backward is then one "
     "fused c2r plan; --check refills the input first"},
    {"--threads", "T", parse_non_negative, FIELD(threads), NULL, "1",
     "threads per rank (FFTW's threaded plans and OpenMP in distfft's own "
     "passes); compare P x T layouts of the same cores with 'mpiexec -n P "
     "--map-by slot:PE=T distfft-bench --threads T' (Open MPI binds a rank "
     "to one core otherwise)"},
    {NULL, NULL, NULL, 0, NULL, NULL, "Decomposition and method:"},
    {"--grid", "G", parse_grid, 0, NULL, "auto",
     "auto | slab | pencil | AxB[xC...]; explicit extents must multiply to "
     "RANKS, and a 0 extent is chosen by MPI_Dims_create"},
    {"--method", "M", parse_method, 0, method_at, "auto",
     "redistribution method: @; auto measures every exchange at plan time "
     "(the grid too) and keeps the fastest"},
    {"--methods", "all|M,M,...", parse_methods, 0, method_at, NULL,
     "run the same configuration with each method in turn (all: every "
     "method, auto last) and print a table (fastest marked *), or with "
     "--json one line per method"},
    {"--placement", "P", parse_placement, 0, placement_at, "row",
     "ranks on the grid: @"},
    {"--memory", "M", parse_memory, 0, memory_at, "host",
     "where the plan's arrays live: @ (cuda: the CUDA backend, refused "
     "on every rank where it cannot serve plans)"},
    {"--node-size", "K", parse_non_negative, FIELD(node_size), NULL, "0",
     "with node placement: pretend nodes of K ranks (0: find nodes with "
     "MPI_Comm_split_type)"},
    {"--wisdom-in", "FILE", parse_path, FIELD(wisdom_in), NULL, NULL,
     "import wisdom before planning (auto skips tuning)"},
    {"--wisdom-out", "FILE", parse_path, FIELD(wisdom_out), NULL, NULL,
     "export the wisdom after planning"},
    {"--fftw-wisdom-in", "FILE", parse_path, FIELD(fftw_wisdom_in), NULL, NULL,
     "import FFTW's wisdom of the precision on every rank before planning "
     "(the plans of distfft's FFT steps then skip FFTW's measuring)"},
    {"--fftw-wisdom-out", "FILE", parse_path, FIELD(fftw_wisdom_out), NULL, NULL,
     "after planning, every rank's FFTW wisdom merged on rank 0, which "
     "writes it"},
    {"--rigor", "R", parse_rigor, 0, rigor_at, "measure", "FFTW planning: @"},
    {"--tune-budget", "B", parse_positive, FIELD(tune_budget), NULL, NULL,
     "with auto and a cost model (--model, or DISTFFT_MODEL): the model "
     "ranks every grid x method and only the B >= 1 best are timed; "
     "B = 1 keeps the model's choice untimed "
     "(without it: every candidate, as without a model)"},
    {NULL, NULL, NULL, 0, NULL, NULL, "Timing:"},
    {"--inner", "N", parse_positive, FIELD(inner), NULL, "3",
     "forward+backward pairs per timed repetition"},
    {"--outer", "N", parse_positive, FIELD(outer), NULL, "50",
     "timed repetitions; the fastest is reported"},
    {NULL, NULL, NULL, 0, NULL, NULL, "Cost model:"},
    {"--calibrate", "FILE", parse_path, FIELD(calibrate), NULL, NULL,
     "measure the cost model on these ranks (FFT rates at the --rigor, "
     "memcpy, messages inside and between nodes; nodes as --node-size), "
     "write it to FILE and exit; under SMPI set DISTFFT_MODEL_PLATFORM to "
     "name the platform in the file"},
    {"--model", "FILE", parse_path, FIELD(model), NULL, NULL,
     "import the cost model FILE: predicted_pair_seconds and per-step "
     "predicted_seconds in --json, a predicted column and measured/predicted "
     "in the step table; auto uses it with --tune-budget"},
    {"--model-force", NULL, parse_flag, FIELD(model_force), NULL, NULL,
     "accept a --model calibrated with another MPI library"},
    {"--predict-only", NULL, parse_flag, FIELD(predict_only), NULL, NULL,
     "with --model: plan and predict every step, time no transform (pair "
     "times are null; method auto still measures its candidates while "
     "planning): the model's figure where running is too costly, e.g. "
     "thousands of simulated ranks"},
    {NULL, NULL, NULL, 0, NULL, NULL, "Checks and output:"},
    {"--check", NULL, parse_flag, FIELD(check), NULL, NULL,
     "report round-trip and serial-FFTW errors (the serial reference applies "
     "the kinds axis by axis); exit 1 if either exceeds 8 * eps * log2(N); "
     "refused under SMPI with DISTFFT_SMPI_FOLD or DISTFFT_SMPI_SAMPLE on "
     "(folded or sampled results are garbage), as is --save"},
    {"--save", "PREFIX", parse_path, FIELD(save_prefix), NULL, NULL,
     "write the global input and forward output to PREFIX.input.npy and "
     "PREFIX.output.npy (on rank 0; with --batch N > 1 the batch axis comes "
     "first)"},
    {"--json", NULL, parse_flag, FIELD(json), NULL, NULL,
     "print one JSON object on one line"},
    {"--print-plan", "V", parse_non_negative, FIELD(print_plan), NULL, "0",
     "print each plan as a nested tree on stderr (rank 0's view, "
     "distfft_plan_describe_verbose): 1 shows every exchange's inner phases "
     "and the backward steps, 2 also FFTW's plans"},
    {"--verbose", NULL, parse_flag, FIELD(verbose), NULL, NULL,
     "say on stderr (rank 0) what plan-time tuning measures, as it goes; the "
     "default without --json when rank 0's stdout is a terminal (Open MPI's "
     "mpiexec gives ranks one even when its own output is redirected)"},
    {"--quiet", NULL, parse_flag, FIELD(quiet), NULL, NULL,
     "no tuning progress, even on a terminal (wins over --verbose)"},
    {"--list-methods", NULL, parse_flag, FIELD(list_methods), NULL, NULL,
     "print the library's concrete redistribution methods (what --methods all "
     "runs, less auto), one name per line and nothing else, then exit"},
    {"--help", NULL, NULL, 0, NULL, NULL, "print this text (also -h)"},
};

/* ---- usage ---------------------------------------------------------------- */

/* The row's help with "@" replaced by its names and the default added. */
static void expand_help(const option_row *row, char *buffer, size_t size)
{
    const char *at = strchr(row->help, '@');
    char names[512] = "";
    if (at != NULL && row->names != NULL)
        bench_join_names(row->names, names, sizeof names);
    int length = at ? (int)(at - row->help) : (int)strlen(row->help);
    int used = snprintf(buffer, size, "%.*s%s%s", length, row->help,
                        at ? names : "", at ? at + 1 : "");
    if (row->fallback != NULL && used >= 0 && (size_t)used < size)
        snprintf(buffer + used, size - (size_t)used, "%s(default %s)",
                 used > 0 ? " " : "", row->fallback);
}

/* Words of `text` from column `column` on, wrapped at USAGE_WIDTH with
 * continuation lines indented to USAGE_COLUMN. */
static void print_wrapped(FILE *stream, const char *text, int column)
{
    while (*text != '\0') {
        int length = (int)strcspn(text, " ");
        if (column > USAGE_COLUMN && column + 1 + length > USAGE_WIDTH) {
            fprintf(stream, "\n%*s", USAGE_COLUMN, "");
            column = USAGE_COLUMN;
        } else if (column > USAGE_COLUMN) {
            fputc(' ', stream);
            ++column;
        }
        fprintf(stream, "%.*s", length, text);
        column += length;
        text += length;
        text += strspn(text, " ");
    }
    fputc('\n', stream);
}

static void print_option(FILE *stream, const option_row *row)
{
    int column = fprintf(stream, "  %s%s%s", row->name, row->value ? " " : "",
                         row->value ? row->value : "");
    if (column >= USAGE_COLUMN) {
        fputc('\n', stream);
        column = 0;
    }
    fprintf(stream, "%*s", USAGE_COLUMN - column, "");
    char help[1024];
    expand_help(row, help, sizeof help);
    print_wrapped(stream, help, USAGE_COLUMN);
}

void bench_options_print_usage(FILE *stream, const char *program)
{
    fprintf(stream, "Usage: mpiexec -n RANKS %s [options]\n\n"
                    "Time forward+backward pairs of a distributed FFT "
                    "(distfft %s).\n\n", program, DISTFFT_VERSION);
    for (size_t index = 0; index < COUNT_OF(option_table); ++index) {
        if (option_table[index].name == NULL)
            fprintf(stream, "%s\n", option_table[index].help);
        else
            print_option(stream, &option_table[index]);
    }
    fprintf(stream, "\nExit status: 0 success, 1 library error or failed "
                    "check, 2 bad usage.\n");
}

void bench_options_print_methods(FILE *stream)
{
    for (int m = 0; m < distfft_method_count(); ++m)
        fprintf(stream, "%s\n", distfft_method_name((distfft_method)m));
}

/* ---- parsing -------------------------------------------------------------- */

static const option_row *find_option(const char *name, size_t length)
{
    for (size_t index = 0; index < COUNT_OF(option_table); ++index) {
        const char *candidate = option_table[index].name;
        if (candidate != NULL && strlen(candidate) == length &&
            strncmp(candidate, name, length) == 0)
            return &option_table[index];
    }
    return NULL;
}

/* Apply argv[*index], "--name", "--name=value" or "--name value" (then
 * *index moves past the value). */
static int apply_argument(int argc, char **argv, int *index, parse_state *state)
{
    const char *argument = argv[*index];
    if (strncmp(argument, "--", 2) != 0)
        return fail(state, "unexpected argument '%s' (options start with --)",
                    argument);
    const char *equals = strchr(argument, '=');
    size_t length = equals ? (size_t)(equals - argument) : strlen(argument);
    const option_row *row = find_option(argument, length);
    if (row == NULL)
        return fail(state, "unknown option '%.*s'", (int)length, argument);
    const char *value = equals ? equals + 1 : NULL;
    if (row->value == NULL && value != NULL)
        return fail(state, "option %s takes no value (got '%s')", row->name,
                    argument);
    if (row->value != NULL && value == NULL) {
        if (*index + 1 >= argc)
            return fail(state, "option %s needs a value", row->name);
        value = argv[++*index];
    }
    return row->parse ? row->parse(row, value, state) : BENCH_OPTIONS_OK;
}

/* Zero, then every row's default through its own parser. */
static void set_defaults(parse_state *state)
{
    memset(state->options, 0, sizeof *state->options);
    for (size_t index = 0; index < COUNT_OF(option_table); ++index) {
        const option_row *row = &option_table[index];
        if (row->fallback != NULL)
            row->parse(row, row->fallback, state); /* the defaults parse */
    }
}

int bench_options_parse(int argc, char **argv, bench_options *options,
                        char *message, size_t message_size)
{
    parse_state state = {options, message, message_size};
    set_defaults(&state);
    if (message != NULL && message_size > 0)
        message[0] = '\0';
    /* --help wins over everything else, even a bad option beside it. */
    for (int index = 1; index < argc; ++index)
        if (strcmp(argv[index], "--help") == 0 || strcmp(argv[index], "-h") == 0)
            return BENCH_OPTIONS_HELP;
    for (int index = 1; index < argc; ++index) {
        int status = apply_argument(argc, argv, &index, &state);
        if (status != BENCH_OPTIONS_OK)
            return status;
    }
    if (options->predict_only && options->model == NULL)
        return fail(&state, "--predict-only needs --model FILE");
    if (options->predict_only && (options->check || options->save_prefix != NULL))
        return fail(&state, "--predict-only runs no transform: it cannot --check or --save");
    return bench_kinds_resolve(options, message, message_size);
}

/* The library's rule for its SMPI switches (src/platform_smpi.c reads them
 * with atoi: a number above 0 is on). */
static int simulation_switch_on(const char *value)
{
    return value != NULL && atoi(value) > 0;
}

int bench_options_check_simulation(const bench_options *options,
                                   const char *fold, const char *sample,
                                   char *message, size_t message_size)
{
    const char *wanted = options->check ? "--check"
                         : options->save_prefix != NULL ? "--save" : NULL;
    if (wanted == NULL)
        return BENCH_OPTIONS_OK;
    if (simulation_switch_on(fold))
        return bench_fail(message, message_size,
                          "%s needs the transforms' results, but "
                          "DISTFFT_SMPI_FOLD=%.20s folds memory (every "
                          "simulated rank's arrays share the same pages): "
                          "they are garbage, for timing only. Run %s without "
                          "folding (no smpi.py --fold, DISTFFT_SMPI_FOLD unset)",
                          wanted, fold, wanted);
    if (simulation_switch_on(sample))
        return bench_fail(message, message_size,
                          "%s needs the transforms' results, but "
                          "DISTFFT_SMPI_SAMPLE=%.20s samples the computation "
                          "(local steps are charged, not run): they are "
                          "garbage, for timing only. Run %s without sampling "
                          "(no smpi.py --sample, DISTFFT_SMPI_SAMPLE unset)",
                          wanted, sample, wanted);
    return BENCH_OPTIONS_OK;
}
