/*
 * fuzz_options.c -- libFuzzer harness of the option, kind and name
 * strings: distfft-bench's command-line parser (bench_options_parse,
 * benchmarks/distfft-bench/options.c and kinds.c: --shape, --grid, --kind,
 * --axes, --methods, ...) and, on every argument, each public
 * distfft_<vocabulary>_from_name of the library (src/vocabulary.c, the
 * method table in src/redist/redist.c), which the bench, wisdom lines and
 * the Python package all ask.
 *
 * The input is an argv: arguments separated by NUL bytes (a real argv can
 * hold any other byte). The parser is pure (no MPI, no output), so no
 * MPI_Init.
 *
 * Beyond "no crash": a name accepted by a vocabulary prints back to
 * itself, a refused one leaves the caller's value alone; a value (the
 * input's first four bytes) that has a name is found again by that name;
 * an accepted command line gives sane options (2 to 16 positive extents
 * whose product fits, named kinds, distinct named methods, ...) that,
 * printed back as a canonical command line and parsed again, are the same
 * options; a refused one has a message; --help wins.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "options.h"

#define MAX_ARGS 64
#define NAME_CHECKS 4

/* ---- the library's vocabularies --------------------------------------- */

typedef struct {
    const char *what;
    const char *(*name)(int value);
    int (*from_name)(const char *name, int *value);
} vocabulary;

#define VOCABULARY(prefix, type)                                                                  \
    static const char *prefix##_name(int value) { return distfft_##prefix##_name((type)value); }  \
    static int prefix##_from(const char *name, int *value)                                        \
    {                                                                                             \
        type typed = (type)*value;                                                                \
        int rc = distfft_##prefix##_from_name(name, &typed);                                      \
        *value = (int)typed;                                                                      \
        return rc;                                                                                \
    }
VOCABULARY(type, distfft_type)
VOCABULARY(precision, distfft_precision)
VOCABULARY(kind, distfft_kind)
VOCABULARY(norm, distfft_norm)
VOCABULARY(rigor, distfft_rigor)
VOCABULARY(overlap, distfft_overlap)
VOCABULARY(placement, distfft_placement)
VOCABULARY(halo_variant, distfft_halo_variant)
VOCABULARY(method, distfft_method)

static const vocabulary vocabularies[] = {
    {"type", type_name, type_from},
    {"precision", precision_name, precision_from},
    {"kind", kind_name, kind_from},
    {"norm", norm_name, norm_from},
    {"rigor", rigor_name, rigor_from},
    {"overlap", overlap_name, overlap_from},
    {"placement", placement_name, placement_from},
    {"halo variant", halo_variant_name, halo_variant_from},
    {"method", method_name, method_from},
};
#define VOCABULARIES ((int)(sizeof vocabularies / sizeof vocabularies[0]))

static void check_name(const char *text)
{
    for (int v = 0; v < VOCABULARIES; v++) {
        const int untouched = -12345;
        int value = untouched;
        int rc = vocabularies[v].from_name(text, &value);
        if (rc == DISTFFT_SUCCESS) {
            const char *back = vocabularies[v].name(value);
            FUZZ_CHECK(back && strcmp(back, text) == 0, "%s '%s' -> %d -> '%s'", vocabularies[v].what, text,
                       value, back ? back : "(null)");
        } else {
            FUZZ_CHECK(rc == DISTFFT_ERR_ARGUMENT && value == untouched, "%s '%s': code %d, value %d",
                       vocabularies[v].what, text, rc, value);
        }
    }
}

static void check_value(int value)
{
    for (int v = 0; v < VOCABULARIES; v++) {
        const char *name = vocabularies[v].name(value);
        if (!name) continue;
        int found = -12345;
        FUZZ_CHECK(vocabularies[v].from_name(name, &found) == DISTFFT_SUCCESS && found == value,
                   "%s %d -> '%s' -> %d", vocabularies[v].what, value, name, found);
    }
}

/* ---- the bench's command line ------------------------------------------ */

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The options as a canonical command line, into storage; returns argc. */
static int print_options(const bench_options *o, char storage[][512], char **argv)
{
    int argc = 0;
#define ARG(...) (snprintf(storage[argc], 512, __VA_ARGS__), argv[argc] = storage[argc], argc++)
    ARG("distfft-bench");
    ARG("--shape");
    storage[argc][0] = '\0';
    for (int i = 0; i < o->ndims; i++)
        snprintf(storage[argc] + strlen(storage[argc]), 512 - strlen(storage[argc]), "%s%lld", i ? "x" : "",
                 (long long)o->shape[i]);
    argv[argc] = storage[argc], argc++;
    ARG("--kind");
    storage[argc][0] = '\0';
    for (int i = 0; i < o->ndims; i++)
        snprintf(storage[argc] + strlen(storage[argc]), 512 - strlen(storage[argc]), "%s%s", i ? "," : "",
                 distfft_kind_name(o->kinds[i]));
    argv[argc] = storage[argc], argc++;
    ARG("--grid");
    if (o->grid_ndims == 0) {
        ARG("auto");
    } else {
        storage[argc][0] = '\0';
        for (int i = 0; i < o->grid_ndims; i++)
            snprintf(storage[argc] + strlen(storage[argc]), 512 - strlen(storage[argc]), "%s%d", i ? "x" : "",
                     o->grid_dims[i]);
        argv[argc] = storage[argc], argc++;
    }
    ARG("--precision=%s", distfft_precision_name(o->precision));
    ARG("--batch=%lld", (long long)o->batch);
    ARG("--norm=%s", distfft_norm_name(o->norm));
    ARG("--overlap=%s", distfft_overlap_name(o->overlap));
    ARG("--threads=%d", o->threads);
    ARG("--method=%s", distfft_method_name(o->method));
    if (o->method_count) {
        ARG("--methods");
        storage[argc][0] = '\0';
        for (int i = 0; i < o->method_count; i++)
            snprintf(storage[argc] + strlen(storage[argc]), 512 - strlen(storage[argc]), "%s%s", i ? "," : "",
                     distfft_method_name(o->methods[i]));
        argv[argc] = storage[argc], argc++;
    }
    ARG("--placement=%s", distfft_placement_name(o->placement));
    ARG("--node-size=%d", o->node_size);
    ARG("--rigor=%s", distfft_rigor_name(o->rigor));
    if (o->tune_budget) ARG("--tune-budget=%d", o->tune_budget);
    ARG("--inner=%d", o->inner);
    ARG("--outer=%d", o->outer);
    /* Paths: the original argument strings (any bytes but NUL). */
    static const char *const path_names[] = {"--wisdom-in", "--wisdom-out", "--fftw-wisdom-in",
                                             "--fftw-wisdom-out", "--calibrate", "--model", "--save"};
    const char *paths[] = {o->wisdom_in, o->wisdom_out, o->fftw_wisdom_in, o->fftw_wisdom_out,
                           o->calibrate, o->model, o->save_prefix};
    for (int i = 0; i < 7; i++)
        if (paths[i]) {
            ARG("%s", path_names[i]);
            argv[argc++] = (char *)paths[i];
        }
    static const char *const flag_names[] = {"--destroy-input", "--check", "--json", "--verbose", "--quiet",
                                             "--list-methods", "--model-force", "--predict-only"};
    const int flags[] = {o->destroy_input, o->check, o->json, o->verbose, o->quiet,
                         o->list_methods, o->model_force, o->predict_only};
    for (int i = 0; i < 8; i++)
        if (flags[i]) ARG("%s", flag_names[i]);
#undef ARG
    return argc;
}

static void check_same(const bench_options *a, const bench_options *b)
{
    FUZZ_CHECK(a->ndims == b->ndims && memcmp(a->shape, b->shape, (size_t)a->ndims * sizeof *a->shape) == 0,
               "shape");
    FUZZ_CHECK(memcmp(a->kinds, b->kinds, (size_t)a->ndims * sizeof *a->kinds) == 0, "kinds");
    FUZZ_CHECK(a->grid_ndims == b->grid_ndims &&
               memcmp(a->grid_dims, b->grid_dims, (size_t)a->grid_ndims * sizeof *a->grid_dims) == 0, "grid");
    FUZZ_CHECK(a->precision == b->precision && a->batch == b->batch && a->norm == b->norm &&
               a->overlap == b->overlap && a->threads == b->threads && a->method == b->method, "scalars");
    FUZZ_CHECK(a->method_count == b->method_count &&
               memcmp(a->methods, b->methods, (size_t)a->method_count * sizeof *a->methods) == 0, "methods");
    FUZZ_CHECK(a->placement == b->placement && a->node_size == b->node_size && a->rigor == b->rigor &&
               a->tune_budget == b->tune_budget && a->inner == b->inner && a->outer == b->outer, "more scalars");
    FUZZ_CHECK(same_text(a->wisdom_in, b->wisdom_in) && same_text(a->wisdom_out, b->wisdom_out) &&
               same_text(a->fftw_wisdom_in, b->fftw_wisdom_in) &&
               same_text(a->fftw_wisdom_out, b->fftw_wisdom_out) &&
               same_text(a->calibrate, b->calibrate) && same_text(a->model, b->model) &&
               same_text(a->save_prefix, b->save_prefix), "paths");
    FUZZ_CHECK(a->destroy_input == b->destroy_input && a->check == b->check && a->json == b->json &&
               a->verbose == b->verbose && a->quiet == b->quiet && a->list_methods == b->list_methods &&
               a->model_force == b->model_force && a->predict_only == b->predict_only, "flags");
}

static void check_sane(const bench_options *o)
{
    FUZZ_CHECK(o->ndims >= 2 && o->ndims <= DISTFFT_MAX_DIMS, "ndims %d", o->ndims);
    int64_t elements = 1;
    for (int i = 0; i < o->ndims; i++) {
        FUZZ_CHECK(o->shape[i] >= 1 && o->shape[i] <= INT64_MAX / 16 / elements, "shape[%d]", i);
        elements *= o->shape[i];
        FUZZ_CHECK(distfft_kind_name(o->kinds[i]) != NULL, "kinds[%d] = %d", i, (int)o->kinds[i]);
    }
    FUZZ_CHECK(o->grid_ndims >= 0 && o->grid_ndims < DISTFFT_MAX_DIMS, "grid_ndims %d", o->grid_ndims);
    for (int i = 0; i < o->grid_ndims; i++) FUZZ_CHECK(o->grid_dims[i] >= 0, "grid_dims[%d]", i);
    FUZZ_CHECK(distfft_precision_name(o->precision) && distfft_norm_name(o->norm) &&
               distfft_overlap_name(o->overlap) && distfft_rigor_name(o->rigor) &&
               distfft_placement_name(o->placement) && distfft_method_name(o->method), "an unnamed value");
    FUZZ_CHECK(o->method_count >= 0 && o->method_count <= BENCH_MAX_METHODS, "method_count %d", o->method_count);
    for (int i = 0; i < o->method_count; i++) {
        FUZZ_CHECK(distfft_method_name(o->methods[i]) != NULL, "methods[%d]", i);
        for (int j = 0; j < i; j++) FUZZ_CHECK(o->methods[i] != o->methods[j], "methods[%d] twice", i);
    }
    FUZZ_CHECK(o->batch >= 0 && o->threads >= 0 && o->node_size >= 0 && o->inner >= 1 && o->outer >= 1 &&
               o->tune_budget >= 0, "a negative count");
    FUZZ_CHECK(!o->predict_only || o->model, "--predict-only without --model");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= sizeof(int)) {
        int value;
        memcpy(&value, data, sizeof value);
        check_value(value);
    }
    char *copy = malloc(size + 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    char *argv[MAX_ARGS + 1];
    int argc = 0, help = 0;
    argv[argc++] = "distfft-bench";
    for (char *at = copy; at <= copy + size && argc < MAX_ARGS; at += strlen(at) + 1) {
        argv[argc++] = at;
        help |= strcmp(at, "--help") == 0 || strcmp(at, "-h") == 0;
        /* Names on the first few arguments only: each refused lookup
         * formats a message per vocabulary, and checking all 64 made the
         * harness several times slower for no new paths. */
        if (argc > NAME_CHECKS + 1) continue;
        check_name(at);
        const char *equals = strchr(at, '=');
        if (equals) check_name(equals + 1);
    }
    argv[argc] = NULL;

    bench_options options;
    char message[1024];
    int status = bench_options_parse(argc, argv, &options, message, sizeof message);
    FUZZ_CHECK(status == BENCH_OPTIONS_OK || status == BENCH_OPTIONS_HELP || status == BENCH_OPTIONS_BAD,
               "status %d", status);
    FUZZ_CHECK((status == BENCH_OPTIONS_HELP) == help, "--help given %d, status %d", help, status);
    if (status == BENCH_OPTIONS_BAD) FUZZ_CHECK(message[0] != '\0', "refused without a message");
    if (status == BENCH_OPTIONS_OK) {
        check_sane(&options);
        static char storage[MAX_ARGS][512];
        char *canonical[MAX_ARGS + 1];
        int count = print_options(&options, storage, canonical);
        canonical[count] = NULL;
        bench_options again;
        status = bench_options_parse(count, canonical, &again, message, sizeof message);
        FUZZ_CHECK(status == BENCH_OPTIONS_OK, "canonical command line refused: %s", message);
        check_same(&options, &again);
    }
    free(copy);
    return 0;
}
