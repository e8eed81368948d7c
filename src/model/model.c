/*
 * model.c -- the cost model's numbers and its text file (model.h; the
 * arithmetic is model_cost.c). Pure: no MPI, no FFTW.
 *
 * The file is text so people can read, diff and edit it (a bisection
 * bandwidth cannot be measured on one node: it is written by hand from the
 * network's specification):
 *
 *   distfft-model 1
 *   machine = Open MPI v4.1.4 ...; nodes of 2 ranks; host build-box
 *   mpi_library = Open MPI v4.1.4 ...
 *   node_size = 2
 *   latency_intra = 4.2e-07
 *   ...
 *   fft_c2c_double = 32768:1.9e-09 262144:2.1e-09 2097152:2.6e-09
 *
 *   fft_c2c_double_length = 16:1.1e-09 64:1.3e-09 512:1.6e-09
 *   network_levels = router:4:4.69e+09:0 group:16:9.38e+09:0
 *
 * Every key but the fft_* rates, the message tables and network_levels
 * is required; at least one FFT rate by block size too (fft_c2c_double).
 */
#define _POSIX_C_SOURCE 200809L

#include "model.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const family_names[MODEL_FAMILIES] = {"c2c", "r2c", "r2r"};
static const char *const precision_names[2] = {"double", "float"};

/* The scalar keys: name, offset of the double (or -1 for the int/strings),
 * smallest allowed value, whether it must be > minimum. */
typedef struct {
    const char *name;
    size_t offset;
    double minimum;
    int strictly;   /* value > minimum (else >=) */
    int optional;   /* may be absent (then 1, or the value of row same_as) */
    int same_as;    /* an earlier row whose value an absent optional one takes; -1: none */
} scalar_key;

#define AT(field) offsetof(cost_model, field)
static const scalar_key scalar_keys[] = {
    {"latency_intra", AT(latency_intra), 0.0, 0, 0, -1},
    {"bandwidth_intra", AT(bandwidth_intra), 0.0, 1, 0, -1},
    {"latency_inter", AT(latency_inter), 0.0, 0, 0, -1},
    {"bandwidth_inter", AT(bandwidth_inter), 0.0, 1, 0, -1},
    {"injection_bandwidth", AT(injection_bandwidth), 0.0, 0, 0, -1},
    {"bisection_bandwidth", AT(bisection_bandwidth), 0.0, 0, 0, -1},
    {"memcpy_bandwidth", AT(memcpy_bandwidth), 0.0, 1, 0, -1},
    {"datatype_bandwidth", AT(datatype_bandwidth), 0.0, 0, 0, -1},
    {"fft_multi_axis_factor", AT(fft_multi_axis_factor), 0.0, 1, 1, -1},
    {"fft_multi_axis_factor_r2c", AT(fft_multi_axis_factor_r2c), 0.0, 1, 1, 8}, /* absent: c2c's */
};
#define SCALARS ((int)(sizeof scalar_keys / sizeof scalar_keys[0]))
/* Keys: the scalars, then machine, mpi_library, node_size, then the rates. */
enum { KEY_MACHINE = SCALARS, KEY_MPI, KEY_NODE_SIZE, KEY_MESSAGE, KEY_RATES = KEY_MESSAGE + MODEL_TABLES };
#define KEY_LENGTHS (KEY_RATES + MODEL_FAMILIES * 2) /* the per-length FFT rates */
#define KEY_LEVELS (KEY_LENGTHS + MODEL_FAMILIES * 2)
#define KEY_COUNT (KEY_LEVELS + 1)
/* Optional keys: the message tables, the FFT rates, the network's levels. */
#define KEY_OPTIONAL(key) ((key) >= KEY_MESSAGE)
static const char *const table_names[MODEL_TABLES] = {
    "message_intra", "message_inter", "message_more_intra", "message_more_inter", "datatype_extra",
    "fft_active", "fft_c2c_block", "fft_r2c_block", "fft_r2r_block", "fft_multi_axis_c2c", "fft_multi_axis_r2c"};
/* What a table's pairs are, for the error message: the message tables'
 * bytes and seconds, fft_active's ranks, the fft_*_block and
 * fft_multi_axis_* tables' elements. */
static const char *table_form(int table)
{
    return table < 5    ? "BYTES:SECONDS (bytes increasing, seconds > 0)"
           : table == 5 ? "RANKS:FACTOR (ranks increasing, factors > 0)"
                        : "ELEMENTS:FACTOR (elements increasing, factors > 0)";
}

model_rate *model_table(cost_model *model, int table)
{
    return table < 2   ? &model->message[table]
           : table < 4 ? &model->more[table - 2]
           : table < 5 ? &model->datatype
           : table < 6 ? &model->fft_active
           : table < 9 ? &model->fft_block[table - 6]
                       : &model->fft_multi_axis[table - 9];
}

static int failed(char *message, size_t size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static int failed(char *message, size_t size, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    if (message && size) vsnprintf(message, size, format, args);
    va_end(args);
    return -1;
}

static void key_name(int key, char *name, size_t size)
{
    if (key < SCALARS) snprintf(name, size, "%s", scalar_keys[key].name);
    else if (key == KEY_MACHINE) snprintf(name, size, "machine");
    else if (key == KEY_MPI) snprintf(name, size, "mpi_library");
    else if (key == KEY_NODE_SIZE) snprintf(name, size, "node_size");
    else if (key < KEY_RATES) snprintf(name, size, "%s", table_names[key - KEY_MESSAGE]);
    else if (key < KEY_LENGTHS)
        snprintf(name, size, "fft_%s_%s", family_names[(key - KEY_RATES) / 2],
                 precision_names[(key - KEY_RATES) % 2]);
    else if (key < KEY_LEVELS)
        snprintf(name, size, "fft_%s_%s_length", family_names[(key - KEY_LENGTHS) / 2],
                 precision_names[(key - KEY_LENGTHS) % 2]);
    else
        snprintf(name, size, "network_levels");
}

static int find_key(const char *name, size_t length)
{
    for (int key = 0; key < KEY_COUNT; key++) {
        char known[64];
        key_name(key, known, sizeof known);
        if (strlen(known) == length && strncmp(known, name, length) == 0) return key;
    }
    return -1;
}

/* A whole finite number, nothing after it. */
static int parse_number(const char *text, double *value)
{
    char *end;
    errno = 0;
    *value = strtod(text, &end);
    return end != text && *end == '\0' && errno == 0 && isfinite(*value) ? 0 : -1;
}

/* "E:S E:S ...": block elements (increasing, >= 1) and seconds per unit (> 0). */
static int parse_rate(char *value, model_rate *rate)
{
    rate->count = 0;
    for (char *save = NULL, *item = strtok_r(value, " \t", &save); item;
         item = strtok_r(NULL, " \t", &save)) {
        char *colon = strchr(item, ':');
        double elements, seconds;
        if (!colon || rate->count == MODEL_MAX_RATES) return -1;
        *colon = '\0';
        if (parse_number(item, &elements) || parse_number(colon + 1, &seconds) || elements < 1 ||
            !(seconds > 0) || (rate->count && elements <= rate->elements[rate->count - 1]))
            return -1;
        rate->elements[rate->count] = elements;
        rate->seconds_per_unit[rate->count++] = seconds;
    }
    return rate->count ? 0 : -1;
}

/* "NAME:SIZE:PAIR:OUT ...": up to MODEL_MAX_LEVELS levels, lowest first;
 * a name of 1 to 15 letters, digits, '-' or '_', a whole size >= 1, two
 * bandwidths >= 0. */
static int parse_levels(char *value, cost_model *model)
{
    model->levels = 0;
    for (char *save = NULL, *item = strtok_r(value, " \t", &save); item;
         item = strtok_r(NULL, " \t", &save)) {
        char *fields[4] = {item, NULL, NULL, NULL};
        for (int f = 1; f < 4; f++) {
            fields[f] = strchr(fields[f - 1], ':');
            if (!fields[f]) return -1;
            *fields[f]++ = '\0';
        }
        if (model->levels == MODEL_MAX_LEVELS || strchr(fields[3], ':')) return -1;
        size_t length = strlen(fields[0]);
        if (length < 1 || length >= MODEL_LEVEL_NAME) return -1;
        for (const char *c = fields[0]; *c; c++)
            if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_') return -1;
        double size, pair, out;
        if (parse_number(fields[1], &size) || parse_number(fields[2], &pair) || parse_number(fields[3], &out) ||
            size < 1 || size > 1 << 20 || size != floor(size) || pair < 0 || out < 0)
            return -1;
        model_level *level = &model->level[model->levels++];
        memcpy(level->name, fields[0], length + 1);
        level->size = (int)size;
        level->pair_bandwidth = pair;
        level->out_bandwidth = out;
    }
    return model->levels ? 0 : -1;
}

static char *trim(char *text)
{
    while (isspace((unsigned char)*text)) text++;
    size_t end = strlen(text);
    while (end && isspace((unsigned char)text[end - 1])) text[--end] = '\0';
    return text;
}

/* Apply `key = value` of line `number`. */
static int apply(cost_model *model, int key, char *value, int number, char *message, size_t size)
{
    char name[64];
    key_name(key, name, sizeof name);
    if (key == KEY_MACHINE || key == KEY_MPI) {
        char *target = key == KEY_MACHINE ? model->machine : model->mpi_library;
        if (!*value || strlen(value) >= MODEL_MACHINE_SIZE)
            return failed(message, size, "line %d: %s must be 1 to %d characters", number, name,
                          MODEL_MACHINE_SIZE - 1);
        strcpy(target, value);
        return 0;
    }
    if (key >= KEY_MESSAGE && key < KEY_RATES) {
        if (parse_rate(value, model_table(model, key - KEY_MESSAGE)))
            return failed(message, size, "line %d: %s must be up to %d pairs %s", number, name,
                          MODEL_MAX_RATES, table_form(key - KEY_MESSAGE));
        return 0;
    }
    if (key >= KEY_RATES && key < KEY_LENGTHS) {
        if (parse_rate(value, &model->fft[(key - KEY_RATES) / 2][(key - KEY_RATES) % 2]))
            return failed(message, size, "line %d: %s must be up to %d pairs ELEMENTS:SECONDS "
                          "(elements increasing, seconds per unit > 0)", number, name, MODEL_MAX_RATES);
        return 0;
    }
    if (key >= KEY_LENGTHS && key < KEY_LEVELS) {
        if (parse_rate(value, &model->fft_length[(key - KEY_LENGTHS) / 2][(key - KEY_LENGTHS) % 2]))
            return failed(message, size, "line %d: %s must be up to %d pairs LENGTH:SECONDS "
                          "(lengths increasing, seconds per unit > 0)", number, name, MODEL_MAX_RATES);
        return 0;
    }
    if (key == KEY_LEVELS) {
        if (parse_levels(value, model))
            return failed(message, size, "line %d: network_levels must be 1 to %d levels NAME:SIZE:PAIR:OUT "
                          "(a name of up to %d letters, digits, '-' or '_'; a whole size >= 1; bandwidths "
                          ">= 0)", number, MODEL_MAX_LEVELS, MODEL_LEVEL_NAME - 1);
        return 0;
    }
    double number_value;
    if (parse_number(value, &number_value))
        return failed(message, size, "line %d: %s = '%s' is not a number", number, name, value);
    if (key == KEY_NODE_SIZE) {
        if (number_value < 1 || number_value > 1 << 20 || number_value != floor(number_value))
            return failed(message, size, "line %d: node_size = '%s' must be a whole number >= 1",
                          number, value);
        model->node_size = (int)number_value;
        return 0;
    }
    const scalar_key *row = &scalar_keys[key];
    if (row->strictly ? !(number_value > row->minimum) : !(number_value >= row->minimum))
        return failed(message, size, "line %d: %s = %s must be %s 0", number, name, value,
                      row->strictly ? ">" : ">=");
    *(double *)((char *)model + row->offset) = number_value;
    return 0;
}

int model_parse(const char *text, cost_model *model, char *message, size_t size)
{
    memset(model, 0, sizeof *model);
    char *copy = strdup(text ? text : "");
    if (!copy) return failed(message, size, "out of memory");
    int seen[KEY_COUNT] = {0}, status = 0, number = 0, header = 0;
    for (char *line = copy, *next; line && !status; line = next) {
        next = strchr(line, '\n'); /* not strtok: empty lines count */
        if (next) *next++ = '\0';
        number++;
        line = trim(line);
        if (!*line || *line == '#') continue; /* '#' starts a comment line (banners may hold one) */
        if (!header) {
            header = 1;
            if (strcmp(line, "distfft-model 1") != 0)
                status = failed(message, size, "line %d: not a distfft model (expected the header "
                                "'distfft-model 1', got '%.40s')", number, line);
            continue;
        }
        char *equals = strchr(line, '=');
        if (!equals) {
            status = failed(message, size, "line %d: expected 'key = value', got '%.40s'", number, line);
            break;
        }
        *equals = '\0';
        char *name = trim(line), *value = trim(equals + 1);
        int key = find_key(name, strlen(name));
        if (key < 0)
            status = failed(message, size, "line %d: unknown key '%.40s'", number, name);
        else if (seen[key]++)
            status = failed(message, size, "line %d: key '%s' given twice", number, name);
        else
            status = apply(model, key, value, number, message, size);
    }
    free(copy);
    if (status) return status;
    if (!header) return failed(message, size, "empty: not a distfft model (no 'distfft-model 1' header)");
    int rates = 0;
    for (int key = 0; key < KEY_COUNT; key++) {
        if (KEY_OPTIONAL(key)) {
            rates += key >= KEY_RATES && key < KEY_LENGTHS && seen[key]; /* per-length ones add to these */
            continue;
        }
        if (!seen[key] && key < SCALARS && scalar_keys[key].optional) {
            int from = scalar_keys[key].same_as; /* an earlier row: already set */
            *(double *)((char *)model + scalar_keys[key].offset) =
                from >= 0 ? *(const double *)((const char *)model + scalar_keys[from].offset) : 1.0;
            continue;
        }
        if (!seen[key]) {
            char name[64];
            key_name(key, name, sizeof name);
            return failed(message, size, "key '%s' is missing", name);
        }
    }
    if (!rates) return failed(message, size, "no FFT rate (fft_c2c_double = ELEMENTS:SECONDS ...)");
    return 0;
}

/* Append to a growing text. */
typedef struct {
    char *data;
    size_t length, capacity;
    int failed;
} buffer;

static void add(buffer *b, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void add(buffer *b, const char *format, ...)
{
    for (;;) {
        if (b->failed) return;
        va_list args;
        va_start(args, format);
        size_t room = b->capacity - b->length;
        int n = vsnprintf(b->data ? b->data + b->length : NULL, b->data ? room : 0, format, args);
        va_end(args);
        if (n < 0) {
            b->failed = 1;
            return;
        }
        if (b->data && (size_t)n < room) {
            b->length += (size_t)n;
            return;
        }
        size_t capacity = 2 * (b->capacity + (size_t)n + 256);
        char *data = realloc(b->data, capacity);
        if (!data) {
            b->failed = 1;
            return;
        }
        b->data = data;
        b->capacity = capacity;
    }
}

char *model_format(const cost_model *model)
{
    buffer b = {0};
    add(&b, "distfft-model 1\n");
    add(&b, "# Bandwidths in bytes/s, latencies in s, FFT rates in s per unit (block\n"
            "# elements * log2 n per transformed axis) at ELEMENTS of the local block.\n");
    add(&b, "machine = %s\nmpi_library = %s\nnode_size = %d\n", model->machine, model->mpi_library,
        model->node_size);
    for (int key = 0; key < SCALARS; key++)
        add(&b, "%s = %.6g\n", scalar_keys[key].name,
            *(const double *)((const char *)model + scalar_keys[key].offset));
    for (int t = 0; t < MODEL_TABLES; t++) {
        const model_rate *table = model_table((cost_model *)model, t);
        if (!table->count) continue;
        add(&b, "%s =", table_names[t]);
        /* Sizes exactly (%.17g: whole sizes print as before): rounded, a
         * hand-written 1.2:x 1.4:y came back as 1:x 1:y, which parse
         * refuses as not increasing (found by tests/fuzz/fuzz_model.c). */
        for (int i = 0; i < table->count; i++)
            add(&b, " %.17g:%.6g", table->elements[i], table->seconds_per_unit[i]);
        add(&b, "\n");
    }
    for (int by_length = 0; by_length < 2; by_length++)
        for (int family = 0; family < MODEL_FAMILIES; family++)
            for (int precision = 0; precision < 2; precision++) {
                const model_rate *rate = by_length ? &model->fft_length[family][precision]
                                                   : &model->fft[family][precision];
                if (!rate->count) continue;
                add(&b, "fft_%s_%s%s =", family_names[family], precision_names[precision],
                    by_length ? "_length" : "");
                for (int i = 0; i < rate->count; i++) /* (sizes exactly, as above) */
                    add(&b, " %.17g:%.6g", rate->elements[i], rate->seconds_per_unit[i]);
                add(&b, "\n");
            }
    if (model->levels) {
        add(&b, "network_levels =");
        for (int l = 0; l < model->levels; l++) /* exactly: hand-written figures read back the same */
            add(&b, " %s:%d:%.17g:%.17g", model->level[l].name, model->level[l].size,
                model->level[l].pair_bandwidth, model->level[l].out_bandwidth);
        add(&b, "\n");
    }
    if (b.failed) {
        free(b.data);
        return NULL;
    }
    return b.data;
}
