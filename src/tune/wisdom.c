/*
 * wisdom.c -- the wisdom table, its text form, and its files.
 *
 * The text form, one choice per line after a header:
 *
 *   distfft-wisdom 1
 *   mpi="Open MPI v4.1.4, ..." ranks=4 shape=64x64x64 kinds=c2c,c2c,c2c
 *       precision=double batch=1 grid=auto placement=row node-size=0
 *       -> grid=2x2 methods=alltoallw,alltoallv,alltoallv,alltoallw
 *
 * (one line; wrapped here). Some plans' keys go on: " threads=N",
 * " padded=...", " memory=cuda" (a device plan), " complex-data", in that
 * order. A batch run field by field ends its choice
 * with " overlap=on", " overlap=fields" or " overlap=progress"; no
 * overlap word means off. A progress line is used only by a process with
 * MPI_THREAD_MULTIPLE (plan_tuning.c; otherwise the plan is tuned).
 * Blank lines and lines starting with '#' are ignored. Import checks
 * every line before it stores any: a corrupted text is refused whole, and
 * the table is left as it was.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../plan/algebra.h"
#include "../types.h"
#include "wisdom.h"

#define HEADER "distfft-wisdom 1"
#define ARROW " -> "
#define MAX_TEXT_BYTES (16 << 20)
/* Room for any choice the parser accepts: 16 grid extents of 10 digits,
 * 64 method names of under 64 characters (parse_choice's limit), the
 * overlap word. Export once wrote choices into a key-sized buffer and cut
 * the longest ones, which its own import then refused (found by
 * tests/fuzz/fuzz_wisdom.c). */
#define CHOICE_SIZE (32 + DISTFFT_MAX_DIMS * 12 + WISDOM_MAX_EXCHANGES * 64)

typedef struct {
    char *key;
    wisdom_choice choice;
} entry;

static entry *table;
static int table_count, table_capacity;

/* ---- keys ----------------------------------------------------------------- */

/* The first line of the MPI library's banner, quotes and controls replaced. */
static void mpi_library(char *text, size_t size)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int length = 0;
    if (MPI_Get_library_version(version, &length) != MPI_SUCCESS) version[0] = '\0'; /* unknown */
    version[MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
    version[strcspn(version, "\r\n")] = '\0';
    size_t end = strlen(version);
    while (end > 0 && version[end - 1] == ' ') version[--end] = '\0';
    for (char *c = version; *c; c++)
        if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) *c = '_';
    snprintf(text, size, "%s", version);
}

static void append(char *text, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *text, size_t size, const char *format, ...)
{
    size_t used = strlen(text);
    if (used + 1 >= size) return;
    va_list args;
    va_start(args, format);
    vsnprintf(text + used, size - used, format, args);
    va_end(args);
}

void wisdom_key(int ranks, int ndims, const int64_t *shape,
                distfft_precision precision, const distfft_options *options,
                char *key, size_t size)
{
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    mpi_library(library, sizeof library);
    key[0] = '\0';
    append(key, size, "mpi=\"%s\" ranks=%d shape=", library, ranks);
    for (int i = 0; i < ndims; i++) append(key, size, i ? "x%lld" : "%lld", (long long)shape[i]);
    append(key, size, " kinds=");
    for (int i = 0; i < ndims; i++) append(key, size, i ? ",%s" : "%s", distfft_kind_name(options->kinds[i]));
    append(key, size, " precision=%s batch=%lld grid=", distfft_precision_name(precision),
           (long long)options->batch);
    if (options->grid_ndims == 0) append(key, size, "auto");
    for (int i = 0; i < options->grid_ndims; i++) append(key, size, i ? "x%d" : "%d", options->grid_dims[i]);
    append(key, size, " placement=%s node-size=%d", distfft_placement_name(options->placement),
           options->node_size);
    /* Threads change the timings (keys of one-thread plans are as before). */
    if (options->threads > 1) append(key, size, " threads=%d", options->threads);
    /* Padding changes every exchange's shape (a method that fits the
     * unpadded blocks may not fit these); keys of unpadded plans are as
     * before. */
    bool padded = false;
    for (int i = 0; i < ndims; i++) padded |= options->padding[i] != 1.0;
    if (padded) {
        append(key, size, " padded=");
        for (int i = 0; i < ndims; i++)
            append(key, size, i ? "x%lld" : "%lld", (long long)algebra_padded_length(shape[i], options->padding[i]));
    }
    /* A device plan's exchanges take other methods, at other speeds; keys
     * of host plans are as before. */
    if (options->memory != DISTFFT_MEMORY_HOST) append(key, size, " memory=%s", distfft_memory_name(options->memory));
    if (options->complex_data) append(key, size, " complex-data");
}

/* ---- the table ------------------------------------------------------------- */

int wisdom_lookup(const char *key, wisdom_choice *choice)
{
    for (int i = 0; i < table_count; i++)
        if (strcmp(table[i].key, key) == 0) {
            *choice = table[i].choice;
            return 1;
        }
    return 0;
}

int wisdom_store(const char *key, const wisdom_choice *choice)
{
    for (int i = 0; i < table_count; i++)
        if (strcmp(table[i].key, key) == 0) {
            table[i].choice = *choice;
            return DISTFFT_SUCCESS;
        }
    if (table_count == table_capacity) {
        int capacity = table_capacity ? 2 * table_capacity : 16;
        entry *grown = realloc(table, (size_t)capacity * sizeof *grown);
        if (!grown) return error_fail(DISTFFT_ERR_MEMORY, "wisdom table");
        table = grown;
        table_capacity = capacity;
    }
    char *copy = strdup(key);
    if (!copy) return error_fail(DISTFFT_ERR_MEMORY, "wisdom table");
    table[table_count++] = (entry){copy, *choice};
    return DISTFFT_SUCCESS;
}

void distfft_wisdom_forget(void)
{
    for (int i = 0; i < table_count; i++) free(table[i].key);
    free(table);
    table = NULL;
    table_count = table_capacity = 0;
}

/* ---- text ------------------------------------------------------------------ */

static void format_choice(const wisdom_choice *choice, char *text, size_t size)
{
    text[0] = '\0';
    append(text, size, "grid=");
    for (int i = 0; i < choice->grid_ndims; i++) append(text, size, i ? "x%d" : "%d", choice->grid_dims[i]);
    append(text, size, " methods=");
    for (int e = 0; e < choice->exchanges; e++)
        append(text, size, e ? ",%s" : "%s", distfft_method_name(choice->methods[e]));
    if (choice->overlap != DISTFFT_OVERLAP_OFF)
        append(text, size, " overlap=%s", distfft_overlap_name(choice->overlap));
}

char *distfft_wisdom_export(void)
{
    error_clear();
    size_t size = sizeof HEADER + 1;
    char choice[CHOICE_SIZE];
    for (int i = 0; i < table_count; i++) size += strlen(table[i].key) + sizeof ARROW + sizeof choice + 1;
    char *text = malloc(size);
    if (!text) {
        error_fail(DISTFFT_ERR_MEMORY, "distfft_wisdom_export: %zu bytes", size);
        return NULL;
    }
    snprintf(text, size, "%s\n", HEADER);
    for (int i = 0; i < table_count; i++) {
        format_choice(&table[i].choice, choice, sizeof choice);
        append(text, size, "%s%s%s\n", table[i].key, ARROW, choice);
    }
    return text;
}

/* A positive int at *p, advancing p; -1 if there is none. */
static int parse_positive(const char **p)
{
    char *end;
    errno = 0;
    long value = strtol(*p, &end, 10);
    if (end == *p || errno || value < 1 || value > 1 << 30 || **p == '+' || **p == '-') return -1;
    *p = end;
    return (int)value;
}

static int parse_choice(const char *text, wisdom_choice *choice)
{
    memset(choice, 0, sizeof *choice);
    const char *p = text;
    if (strncmp(p, "grid=", 5) != 0) return 0;
    p += 5;
    do {
        if (choice->grid_ndims == DISTFFT_MAX_DIMS) return 0;
        int dim = parse_positive(&p);
        if (dim < 0) return 0;
        choice->grid_dims[choice->grid_ndims++] = dim;
    } while (*p == 'x' && p++);
    if (strncmp(p, " methods=", 9) != 0) return 0;
    p += 9;
    while (*p && *p != ' ') {
        char name[64];
        size_t length = strcspn(p, ", ");
        if (length == 0 || length >= sizeof name || choice->exchanges == WISDOM_MAX_EXCHANGES) return 0;
        memcpy(name, p, length);
        name[length] = '\0';
        distfft_method method;
        if (distfft_method_from_name(name, &method) != DISTFFT_SUCCESS || method == DISTFFT_METHOD_AUTO)
            return 0;
        choice->methods[choice->exchanges++] = method;
        p += length;
        if (*p == ',' && (!*++p || *p == ' ')) return 0;
    }
    choice->overlap = DISTFFT_OVERLAP_OFF; /* unless named (older lines never are) */
    if (strncmp(p, " overlap=", 9) == 0) {
        p += 9;
        if (distfft_overlap_from_name(p, &choice->overlap) != DISTFFT_SUCCESS ||
            choice->overlap == DISTFFT_OVERLAP_AUTO)
            return 0;
        p += strlen(p);
    }
    return *p == '\0';
}

/* The key's fields, in order: mpi="...", then these, each name=value. */
static int parse_key(const char *key)
{
    static const char *const fields[] = {"ranks", "shape", "kinds", "precision", "batch",
                                         "grid", "placement", "node-size"};
    if (strncmp(key, "mpi=\"", 5) != 0) return 0;
    const char *p = strchr(key + 5, '"');
    if (!p) return 0;
    p++;
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        size_t length = strlen(fields[f]);
        if (*p != ' ' || strncmp(p + 1, fields[f], length) != 0 || p[1 + length] != '=') return 0;
        p += 2 + length;
        size_t value = strcspn(p, " ");
        if (value == 0) return 0;
        p += value;
    }
    /* Then what wisdom_key adds for some plans only, in its order (keys of
     * threaded, padded and complex-data plans were once refused here, so
     * their own export did not import). */
    static const char *const optional[] = {" threads=", " padded=", " memory="};
    for (size_t f = 0; f < sizeof optional / sizeof optional[0]; f++) {
        size_t length = strlen(optional[f]);
        if (strncmp(p, optional[f], length) != 0) continue;
        p += length;
        size_t value = strcspn(p, " ");
        if (value == 0) return 0;
        p += value;
    }
    if (strncmp(p, " complex-data", 13) == 0) p += 13;
    return *p == '\0';
}

int distfft_wisdom_import(const char *text)
{
    error_clear();
    if (!text) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_wisdom_import: text is NULL");
    char *copy = strdup(text);
    if (!copy) return error_fail(DISTFFT_ERR_MEMORY, "distfft_wisdom_import: copy of the text");
    int rc = DISTFFT_SUCCESS, line_number = 0, lines = 0, header = 0;
    char **keys = NULL;
    wisdom_choice *choices = NULL;
    size_t capacity = 1;
    for (const char *c = copy; *c; c++) capacity += *c == '\n';
    keys = malloc(capacity * sizeof *keys);
    choices = malloc(capacity * sizeof *choices);
    if (!keys || !choices) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "distfft_wisdom_import: line table");
        goto done;
    }
    for (char *line = copy, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        line_number++;
        size_t end = strlen(line);
        if (end && line[end - 1] == '\r') line[--end] = '\0';
        if (!header) {
            if (strcmp(line, HEADER) != 0) {
                rc = error_fail(DISTFFT_ERR_ARGUMENT, "distfft_wisdom_import: line 1 is not \"%s\": "
                                "not distfft wisdom, or another version of it", HEADER);
                goto done;
            }
            header = 1;
            continue;
        }
        if (end == 0 || line[0] == '#') continue;
        char *arrow = strstr(line, ARROW);
        if (!arrow || (*arrow = '\0', !parse_key(line)) ||
            !parse_choice(arrow + strlen(ARROW), &choices[lines])) {
            rc = error_fail(DISTFFT_ERR_ARGUMENT, "distfft_wisdom_import: line %d is corrupted "
                            "(expected KEY -> grid=... methods=... [overlap=...])", line_number);
            goto done;
        }
        keys[lines++] = line;
    }
    if (!header) {
        rc = error_fail(DISTFFT_ERR_ARGUMENT, "distfft_wisdom_import: empty text, no \"%s\" header", HEADER);
        goto done;
    }
    for (int i = 0; i < lines && rc == DISTFFT_SUCCESS; i++) rc = wisdom_store(keys[i], &choices[i]);
done:
    free(keys);
    free(choices);
    free(copy);
    return rc;
}

/* ---- files ----------------------------------------------------------------- */

/* Our own duplicate of the caller's communicator, returning errors, and
 * this rank's rank in it; *pending: a failure of those local calls, on
 * some ranks only, for the caller's first agreement. */
static int duplicate(MPI_Comm comm, MPI_Comm *work, int *rank, int *pending)
{
    int rc = CHECK_MPI(MPI_Comm_dup(comm, work));
    if (rc != DISTFFT_SUCCESS) return rc;
    *pending = CHECK_MPI(MPI_Comm_set_errhandler(*work, MPI_ERRORS_RETURN));
    if (*pending == DISTFFT_SUCCESS) *pending = CHECK_MPI(MPI_Comm_rank(*work, rank));
    return rc;
}

int distfft_wisdom_export_file(MPI_Comm comm, const char *path)
{
    error_clear();
    if (comm == MPI_COMM_NULL)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_wisdom_export_file: comm is MPI_COMM_NULL");
    MPI_Comm work = MPI_COMM_NULL;
    int rank = -1, local = DISTFFT_SUCCESS, rc = duplicate(comm, &work, &rank, &local);
    if (rc != DISTFFT_SUCCESS) return rc;
    if (local == DISTFFT_SUCCESS && !path) local = error_fail(DISTFFT_ERR_ARGUMENT, "distfft_wisdom_export_file: path is NULL");
    else if (local == DISTFFT_SUCCESS && rank == 0) {
        char *text = distfft_wisdom_export();
        FILE *file = text ? fopen(path, "w") : NULL;
        if (!text) local = DISTFFT_ERR_MEMORY;
        else if (!file || fputs(text, file) == EOF || fclose(file) != 0)
            local = error_fail(DISTFFT_ERR_ARGUMENT, "distfft_wisdom_export_file: cannot write '%s': %s",
                               path, strerror(errno));
        free(text);
    }
    rc = error_agree(work, local);
    KEEP_MPI(MPI_Comm_free(&work));
    return rc;
}

static int read_file(const char *path, char **text)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_wisdom_import_file: cannot open '%s': %s",
                          path, strerror(errno));
    char *buffer = malloc(MAX_TEXT_BYTES + 1);
    size_t length = buffer ? fread(buffer, 1, MAX_TEXT_BYTES + 1, file) : 0;
    int failed = ferror(file);
    fclose(file);
    if (!buffer) return error_fail(DISTFFT_ERR_MEMORY, "distfft_wisdom_import_file: buffer");
    if (failed || length > MAX_TEXT_BYTES || memchr(buffer, '\0', length)) {
        free(buffer);
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_wisdom_import_file: '%s' is %s", path,
                          failed ? "unreadable" : "not a wisdom text (binary or over 16 MiB)");
    }
    buffer[length] = '\0';
    *text = buffer;
    return DISTFFT_SUCCESS;
}

int distfft_wisdom_import_file(MPI_Comm comm, const char *path)
{
    error_clear();
    if (comm == MPI_COMM_NULL)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_wisdom_import_file: comm is MPI_COMM_NULL");
    MPI_Comm work = MPI_COMM_NULL;
    int rank = -1, local = DISTFFT_SUCCESS, rc = duplicate(comm, &work, &rank, &local);
    if (rc != DISTFFT_SUCCESS) return rc;
    char *text = NULL;
    if (local == DISTFFT_SUCCESS)
        local = !path ? error_fail(DISTFFT_ERR_ARGUMENT, "distfft_wisdom_import_file: path is NULL")
                      : rank == 0 ? read_file(path, &text) : DISTFFT_SUCCESS;
    TRY(error_agree(work, local));
    int length = rank == 0 ? (int)strlen(text) : 0;
    TRY_MPI(MPI_Bcast(&length, 1, MPI_INT, 0, work));
    if (rank != 0) text = malloc((size_t)length + 1);
    TRY(error_agree(work, text ? DISTFFT_SUCCESS
                               : error_fail(DISTFFT_ERR_MEMORY, "distfft_wisdom_import_file: buffer")));
    TRY_MPI(MPI_Bcast(text, length, MPI_CHAR, 0, work));
    text[length] = '\0';
    /* Every rank parses the same text, so every rank agrees already; the
     * agreement guards against a memory failure on one rank. */
    rc = error_agree(work, distfft_wisdom_import(text));
fail:
    free(text);
    KEEP_MPI(MPI_Comm_free(&work));
    return rc;
}
