/*
 * fuzz_environment.c -- libFuzzer harness of the environment variables
 * the library reads as numbers at run time: DISTFFT_MAX_MESSAGE (the
 * largest message, big_count_limit in src/big_count.c) and
 * DISTFFT_NODE_SIZE (pretended nodes of the node-aware methods,
 * src/redist/nodes.c, asked through node_label_is_shared). Each is read
 * again at every use, so the harness sets it and asks (putenv of a buffer
 * the harness owns and reuses: glibc's setenv keeps every value it was
 * ever given, which 10^6 inputs would grow into gigabytes).
 *
 * The input is the variable's value: its bytes up to the first NUL (an
 * environment string cannot hold one), any length.
 *
 * Beyond "no crash", each answer against a reference written here from
 * the documented rule, not from the library's code: an optional run of
 * blanks, an optional sign and decimal digits, nothing after them (what
 * strtol accepts in full); DISTFFT_MAX_MESSAGE then applies when in
 * 1..INT_MAX and is INT_MAX otherwise (unset or empty too);
 * DISTFFT_NODE_SIZE pretends nodes when in 1..2^30-1, and anything else
 * leaves the real nodes. Values far beyond any range (thousands of digits)
 * saturate, never wrap.
 *
 * The other variables are read once per plan creation on rank 0 and
 * broadcast (DISTFFT_VERBOSE, DISTFFT_MODEL, DISTFFT_MODEL_FORCE,
 * DISTFFT_CALIBRATE_QUICK, DISTFFT_MODEL_PLATFORM: inside MPI calls; the
 * cost-model file DISTFFT_MODEL names is fuzz_model's input) and are not
 * reached here.
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

/* NAME=text in the environment, until unsetenv(NAME). */
static void set_variable(const char *name, const char *text)
{
    static char *entry;
    static size_t capacity;
    size_t need = strlen(name) + 1 + strlen(text) + 1;
    if (need > capacity) {
        char *grown = realloc(entry, need);
        if (!grown) abort();
        entry = grown;
        capacity = need;
    }
    strcpy(entry, name);
    strcat(entry, "=");
    strcat(entry, text);
    putenv(entry);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t length = 0;
    while (length < size && data[length] != 0) length++;
    char *text = malloc(length + 1);
    if (!text) return 0;
    memcpy(text, data, length);
    text[length] = '\0';
    int64_t value = 0;
    int valid = reference_integer(text, &value);

    set_variable("DISTFFT_MAX_MESSAGE", text);
    int64_t limit = big_count_limit();
    int64_t want = valid && value >= 1 && value <= INT_MAX ? value : INT_MAX;
    FUZZ_CHECK(limit == want, "DISTFFT_MAX_MESSAGE=\"%s\": limit %lld, expected %lld", text, (long long)limit,
               (long long)want);
    unsetenv("DISTFFT_MAX_MESSAGE");
    FUZZ_CHECK(big_count_limit() == INT_MAX, "unset DISTFFT_MAX_MESSAGE: limit %lld",
               (long long)big_count_limit());

    redist_geometry geometry;
    memset(&geometry, 0, sizeof geometry); /* no node from a plan's options */
    set_variable("DISTFFT_NODE_SIZE", text);
    int pretended = valid && value >= 1 && value < ((int64_t)1 << 30);
    FUZZ_CHECK(node_label_is_shared(&geometry) == !pretended, "DISTFFT_NODE_SIZE=\"%s\": %s nodes, expected %s",
               text, node_label_is_shared(&geometry) ? "real" : "pretended", pretended ? "pretended" : "real");
    unsetenv("DISTFFT_NODE_SIZE");
    FUZZ_CHECK(node_label_is_shared(&geometry), "unset DISTFFT_NODE_SIZE: pretended nodes");
    free(text);
    return 0;
}
