/*
 * fuzz_environment.c -- libFuzzer harness of every environment variable
 * the library reads (docs/guide/tuning.md, "Environment variables"), each through the small
 * function that reads it, with the input as its value:
 *   DISTFFT_MAX_MESSAGE      big_count_limit (src/big_count.c)
 *   DISTFFT_NODE_SIZE        node_label_is_shared (src/redist/nodes.c)
 *   DISTFFT_VERBOSE          progress_init (src/tune/progress.c)
 *   DISTFFT_CALIBRATE_QUICK  calibrate_quick (src/model/calibrate.c)
 *   DISTFFT_MODEL,           model_environment (src/model/predict.c): what
 *   DISTFFT_MODEL_FORCE      model_for_tuning's rank 0 imports
 *   DISTFFT_MODEL_PLATFORM   model_machine_describe (src/model/calibrate.c):
 *                            the `machine` line of a calibrated model
 * None of these needs MPI: the collective callers read them on rank 0 and
 * broadcast what they read. DISTFFT_MODEL is fuzzed as the path string it
 * is; the bytes of the file it names are fuzz_model's input.
 *
 * Each variable is set with putenv of a buffer the harness owns and reuses
 * (glibc's setenv keeps every value it was ever given, which 10^6 inputs
 * would grow into gigabytes). The input is the value: its bytes up to the
 * first NUL (an environment string cannot hold one), any length.
 *
 * Beyond "no crash", each answer against a reference written here from
 * the documented rule, not from the library's code:
 *   - an integer is a whole decimal integer: optional blanks, an optional
 *     sign, decimal digits, nothing after them. DISTFFT_MAX_MESSAGE
 *     applies when in 1..INT_MAX, else INT_MAX (unset or empty too);
 *     DISTFFT_NODE_SIZE pretends nodes when in 1..2^30-1, else the real
 *     nodes. Values far beyond any range (thousands of digits) saturate,
 *     never wrap;
 *   - a switch (DISTFFT_VERBOSE, _CALIBRATE_QUICK, _MODEL_FORCE) is on
 *     when the value is such an integer, of any size, other than 0 -- so
 *     "4294967296" is on (an int would wrap it to 0) and "1abc" off;
 *   - DISTFFT_MODEL is taken whole and unchanged when shorter than the
 *     buffer, refused (an error, never cut or ignored) when not;
 *   - DISTFFT_MODEL_PLATFORM: its first 80 bytes, control characters as
 *     spaces, blanks at both ends dropped, the host name when nothing is
 *     left; and the machine line it makes survives the model file's text
 *     form (model_format, model_parse) unchanged.
 */
#define _XOPEN_SOURCE 700 /* putenv */

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "big_count.h"
#include "fuzz_check.h"
#include "redist/nodes.h"
#include "model/model.h"
#include "model/predict.h"
#include "tune/progress.h"

/* The value as a whole-string decimal integer, saturated to +-2^62; 0 if
 * the string is not one. */
static int reference_integer(const char *text, int64_t *value)
{
    const int64_t cap = (int64_t)1 << 62;
    const char *p = text;
    while (isspace((unsigned char)*p)) p++;
    int negative = *p == '-';
    if (*p == '-' || *p == '+') p++;
    if (!isdigit((unsigned char)*p)) return 0;
    int64_t v = 0;
    for (; isdigit((unsigned char)*p); p++)
        v = v > cap / 10 ? cap : v * 10 + (*p - '0');
    if (*p != '\0') return 0;
    *value = negative ? -v : v;
    return 1;
}

/* The platform name the documented rule makes of text (out: 81 bytes). */
static void reference_platform(const char *text, char *out)
{
    size_t n = 0;
    for (; text[n] && n < 80; n++) {
        unsigned char c = (unsigned char)text[n];
        out[n] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
    }
    while (n > 0 && out[n - 1] == ' ') n--;
    out[n] = '\0';
    size_t blanks = strspn(out, " ");
    memmove(out, out + blanks, n - blanks + 1);
}

/* One reusable environment entry per variable: NAME=text until unset. */
typedef struct {
    char *entry;
    size_t capacity;
} variable;

static void set_variable(variable *v, const char *name, const char *text)
{
    size_t need = strlen(name) + 1 + strlen(text) + 1;
    if (need > v->capacity) {
        char *grown = realloc(v->entry, need);
        if (!grown) abort();
        v->entry = grown;
        v->capacity = need;
    }
    strcpy(v->entry, name);
    strcat(v->entry, "=");
    strcat(v->entry, text);
    putenv(v->entry);
}

static void check_numbers(variable *v, const char *text, int valid, int64_t value)
{
    set_variable(v, "DISTFFT_MAX_MESSAGE", text);
    int64_t limit = big_count_limit();
    int64_t want = valid && value >= 1 && value <= INT_MAX ? value : INT_MAX;
    FUZZ_CHECK(limit == want, "DISTFFT_MAX_MESSAGE=\"%s\": limit %lld, expected %lld", text, (long long)limit,
               (long long)want);
    unsetenv("DISTFFT_MAX_MESSAGE");
    FUZZ_CHECK(big_count_limit() == INT_MAX, "unset DISTFFT_MAX_MESSAGE: limit %lld",
               (long long)big_count_limit());

    redist_geometry geometry;
    memset(&geometry, 0, sizeof geometry); /* no node from a plan's options */
    set_variable(v, "DISTFFT_NODE_SIZE", text);
    int pretended = valid && value >= 1 && value < ((int64_t)1 << 30);
    FUZZ_CHECK(node_label_is_shared(&geometry) == !pretended, "DISTFFT_NODE_SIZE=\"%s\": %s nodes, expected %s",
               text, node_label_is_shared(&geometry) ? "real" : "pretended", pretended ? "pretended" : "real");
    unsetenv("DISTFFT_NODE_SIZE");
    FUZZ_CHECK(node_label_is_shared(&geometry), "unset DISTFFT_NODE_SIZE: pretended nodes");
}

static void check_switches(variable *v, const char *text, int on)
{
    tune_progress progress;
    set_variable(v, "DISTFFT_VERBOSE", text);
    progress_init(&progress, 0, 0);
    FUZZ_CHECK(progress.enabled == on, "DISTFFT_VERBOSE=\"%s\": progress %s on rank 0", text,
               progress.enabled ? "on" : "off");
    progress_init(&progress, 1, 0);
    FUZZ_CHECK(!progress.enabled, "DISTFFT_VERBOSE=\"%s\": progress on rank 1", text);
    unsetenv("DISTFFT_VERBOSE");
    progress_init(&progress, 0, 0);
    FUZZ_CHECK(!progress.enabled, "unset DISTFFT_VERBOSE: progress on");
    progress_init(&progress, 0, 1);
    FUZZ_CHECK(progress.enabled, "options.verbose: progress off");

    set_variable(v, "DISTFFT_CALIBRATE_QUICK", text);
    FUZZ_CHECK(calibrate_quick() == on, "DISTFFT_CALIBRATE_QUICK=\"%s\": %s", text, on ? "off" : "on");
    unsetenv("DISTFFT_CALIBRATE_QUICK");
    FUZZ_CHECK(!calibrate_quick(), "unset DISTFFT_CALIBRATE_QUICK: on");

    char path[64];
    int force = -1;
    set_variable(v, "DISTFFT_MODEL_FORCE", text);
    int rc = model_environment(path, sizeof path, &force);
    FUZZ_CHECK(rc == DISTFFT_SUCCESS && path[0] == '\0' && force == on,
               "DISTFFT_MODEL_FORCE=\"%s\" (DISTFFT_MODEL unset): rc %d, path \"%s\", force %d", text, rc, path,
               force);
    unsetenv("DISTFFT_MODEL_FORCE");
    rc = model_environment(path, sizeof path, &force);
    FUZZ_CHECK(rc == DISTFFT_SUCCESS && force == 0, "unset DISTFFT_MODEL_FORCE: rc %d, force %d", rc, force);
}

/* DISTFFT_MODEL, into model_for_tuning's buffer and into a small one. */
static void check_model_path(variable *v, const char *text)
{
    static char path[4096];
    static const size_t sizes[2] = {sizeof path, 16};
    size_t length = strlen(text);
    set_variable(v, "DISTFFT_MODEL", text);
    for (int i = 0; i < 2; i++) {
        int force = -1;
        int rc = model_environment(path, sizes[i], &force);
        if (length < sizes[i])
            FUZZ_CHECK(rc == DISTFFT_SUCCESS && strcmp(path, text) == 0,
                       "DISTFFT_MODEL of %zu bytes (buffer %zu): rc %d, path of %zu bytes", length, sizes[i], rc,
                       strlen(path));
        else
            FUZZ_CHECK(rc == DISTFFT_ERR_ARGUMENT && path[0] == '\0',
                       "DISTFFT_MODEL of %zu bytes (buffer %zu): rc %d, path of %zu bytes, not refused", length,
                       sizes[i], rc, strlen(path));
        FUZZ_CHECK(force == 0, "DISTFFT_MODEL_FORCE unset: force %d", force);
    }
    unsetenv("DISTFFT_MODEL");
    int force = -1;
    FUZZ_CHECK(model_environment(path, sizeof path, &force) == DISTFFT_SUCCESS && path[0] == '\0',
               "unset DISTFFT_MODEL: path \"%s\"", path);
}

/* A model whose machine line is the one under test. */
static const char minimal_model[] = "distfft-model 1\nmachine = m\nmpi_library = m\nnode_size = 2\n"
                                    "latency_intra = 0\nbandwidth_intra = 1\nlatency_inter = 0\n"
                                    "bandwidth_inter = 1\ninjection_bandwidth = 0\nbisection_bandwidth = 0\n"
                                    "memcpy_bandwidth = 1\ndatatype_bandwidth = 0\nfft_c2c_double = 8:1e-9\n";

static void check_machine_round_trip(const char *text, const char *machine)
{
    cost_model model, again;
    char message[256] = "";
    FUZZ_CHECK(model_parse(minimal_model, &model, message, sizeof message) == 0, "minimal model: %s", message);
    FUZZ_CHECK(strlen(machine) < sizeof model.machine, "machine line of %zu bytes", strlen(machine));
    strcpy(model.machine, machine);
    char *formatted = model_format(&model);
    FUZZ_CHECK(formatted != NULL, "model_format failed");
    FUZZ_CHECK(model_parse(formatted, &again, message, sizeof message) == 0,
               "DISTFFT_MODEL_PLATFORM=\"%s\": the calibrated model's text is refused: %s", text, message);
    FUZZ_CHECK(strcmp(again.machine, machine) == 0,
               "DISTFFT_MODEL_PLATFORM=\"%s\": machine \"%s\" reads back as \"%s\"", text, machine, again.machine);
    free(formatted);
}

static void check_platform(variable *v, const char *text)
{
    char name[81], want[MODEL_MACHINE_SIZE], machine[MODEL_MACHINE_SIZE];
    reference_platform(text, name);
    set_variable(v, "DISTFFT_MODEL_PLATFORM", text);
    model_machine_describe(machine, sizeof machine, "Open MPI v4.1.4", 2, "build-box");
    snprintf(want, sizeof want, "Open MPI v4.1.4; nodes of 2 ranks; host %s", name[0] ? name : "build-box");
    FUZZ_CHECK(strcmp(machine, want) == 0, "DISTFFT_MODEL_PLATFORM=\"%s\": machine \"%s\", expected \"%s\"", text,
               machine, want);
    check_machine_round_trip(text, machine);
    model_machine_describe(machine, sizeof machine, "SimGrid SMPI 3.32", 4, "build-box");
    snprintf(want, sizeof want, "SimGrid SMPI 3.32; nodes of 4 ranks; SMPI platform %s",
             name[0] ? name : "(set DISTFFT_MODEL_PLATFORM)");
    FUZZ_CHECK(strcmp(machine, want) == 0, "DISTFFT_MODEL_PLATFORM=\"%s\" (SMPI): machine \"%s\", expected \"%s\"",
               text, machine, want);
    check_machine_round_trip(text, machine);
    unsetenv("DISTFFT_MODEL_PLATFORM");
    model_machine_describe(machine, sizeof machine, "Open MPI v4.1.4", 2, "build-box");
    FUZZ_CHECK(strcmp(machine, "Open MPI v4.1.4; nodes of 2 ranks; host build-box") == 0,
               "unset DISTFFT_MODEL_PLATFORM: machine \"%s\"", machine);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static variable entry;
    size_t length = 0;
    while (length < size && data[length] != 0) length++;
    char *text = malloc(length + 1);
    if (!text) return 0;
    memcpy(text, data, length);
    text[length] = '\0';
    int64_t value = 0;
    int valid = reference_integer(text, &value);
    check_numbers(&entry, text, valid, value);
    check_switches(&entry, text, valid && value != 0);
    check_model_path(&entry, text);
    check_platform(&entry, text);
    free(text);
    return 0;
}
