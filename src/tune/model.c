/*
 * model.c -- the cost model's numbers, its text file and its arithmetic
 * (model.h). Pure: no MPI, no FFTW.
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
 * Every key but the fft_* rates is required; at least one rate too.
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
    int optional;   /* may be absent (then 1) */
} scalar_key;

#define AT(field) offsetof(cost_model, field)
static const scalar_key scalar_keys[] = {
    {"latency_intra", AT(latency_intra), 0.0, 0, 0},
    {"bandwidth_intra", AT(bandwidth_intra), 0.0, 1, 0},
    {"latency_inter", AT(latency_inter), 0.0, 0, 0},
    {"bandwidth_inter", AT(bandwidth_inter), 0.0, 1, 0},
    {"injection_bandwidth", AT(injection_bandwidth), 0.0, 0, 0},
    {"bisection_bandwidth", AT(bisection_bandwidth), 0.0, 0, 0},
    {"memcpy_bandwidth", AT(memcpy_bandwidth), 0.0, 1, 0},
    {"datatype_bandwidth", AT(datatype_bandwidth), 0.0, 0, 0},
    {"fft_multi_axis_factor", AT(fft_multi_axis_factor), 0.0, 1, 1},
};
#define SCALARS ((int)(sizeof scalar_keys / sizeof scalar_keys[0]))
/* Keys: the scalars, then machine, mpi_library, node_size, then the rates. */
enum { KEY_MACHINE = SCALARS, KEY_MPI, KEY_NODE_SIZE, KEY_MESSAGE, KEY_RATES = KEY_MESSAGE + MODEL_TABLES };
#define KEY_COUNT (KEY_RATES + MODEL_FAMILIES * 2)
/* Optional keys: the message tables and the FFT rates. */
#define KEY_OPTIONAL(key) ((key) >= KEY_MESSAGE)
static const char *const table_names[MODEL_TABLES] = {"message_intra", "message_inter", "message_more_intra",
                                                      "message_more_inter", "datatype_extra"};

model_rate *model_table(cost_model *model, int table)
{
    return table < 2 ? &model->message[table] : table < 4 ? &model->more[table - 2] : &model->datatype;
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
    else
        snprintf(name, size, "fft_%s_%s", family_names[(key - KEY_RATES) / 2],
                 precision_names[(key - KEY_RATES) % 2]);
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
            return failed(message, size, "line %d: %s must be up to %d pairs BYTES:SECONDS "
                          "(bytes increasing, seconds > 0)", number, name, MODEL_MAX_RATES);
        return 0;
    }
    if (key >= KEY_RATES) {
        if (parse_rate(value, &model->fft[(key - KEY_RATES) / 2][(key - KEY_RATES) % 2]))
            return failed(message, size, "line %d: %s must be up to %d pairs ELEMENTS:SECONDS "
                          "(elements increasing, seconds per unit > 0)", number, name, MODEL_MAX_RATES);
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
            rates += key >= KEY_RATES && seen[key];
            continue;
        }
        if (!seen[key] && key < SCALARS && scalar_keys[key].optional) {
            *(double *)((char *)model + scalar_keys[key].offset) = 1.0;
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
    for (int family = 0; family < MODEL_FAMILIES; family++)
        for (int precision = 0; precision < 2; precision++) {
            const model_rate *rate = &model->fft[family][precision];
            if (!rate->count) continue;
            add(&b, "fft_%s_%s =", family_names[family], precision_names[precision]);
            for (int i = 0; i < rate->count; i++) /* (sizes exactly, as above) */
                add(&b, " %.17g:%.6g", rate->elements[i], rate->seconds_per_unit[i]);
            add(&b, "\n");
        }
    if (b.failed) {
        free(b.data);
        return NULL;
    }
    return b.data;
}

/* ---- arithmetic ------------------------------------------------------------ */

static double interpolate(const model_rate *rate, double elements)
{
    if (elements <= rate->elements[0]) return rate->seconds_per_unit[0];
    for (int i = 1; i < rate->count; i++)
        if (elements <= rate->elements[i]) {
            double t = log(elements / rate->elements[i - 1]) / log(rate->elements[i] / rate->elements[i - 1]);
            return rate->seconds_per_unit[i - 1] + t * (rate->seconds_per_unit[i] - rate->seconds_per_unit[i - 1]);
        }
    return rate->seconds_per_unit[rate->count - 1];
}

#define FLOAT_OVER_DOUBLE 0.6

/* The rate of a family in one precision, falling back to the other precision. */
static double family_rate(const cost_model *model, model_family family, int precision, double elements)
{
    const model_rate *own = &model->fft[family][precision], *other = &model->fft[family][!precision];
    if (own->count) return interpolate(own, elements);
    if (other->count)
        return interpolate(other, elements) * (precision == DISTFFT_FLOAT ? FLOAT_OVER_DOUBLE
                                                                          : 1.0 / FLOAT_OVER_DOUBLE);
    return 0.0;
}

double model_fft_rate(const cost_model *model, model_family family, distfft_precision precision,
                      double elements)
{
    int p = precision == DISTFFT_FLOAT ? 1 : 0;
    double rate = family_rate(model, family, p, elements);
    if (rate > 0 || family == MODEL_C2C) return rate;
    /* r2c on n real points is about half of c2c's work on n complex ones */
    rate = family_rate(model, MODEL_C2C, p, elements);
    return family == MODEL_R2C ? 0.5 * rate : rate;
}

double model_fft_seconds(const cost_model *model, model_family family, distfft_precision precision,
                         double units, double elements)
{
    return units > 0 ? units * model_fft_rate(model, family, precision, elements) : 0.0;
}

double model_pass_seconds(const cost_model *model, double bytes)
{
    return 2.0 * bytes / model->memcpy_bandwidth;
}

/* Concrete method ids (methods.def rows, which only ever append). */
enum {
    M_ALLTOALLW = 0, M_ALLTOALLV, M_ISEND_WAITALL, M_ISEND_WAITSOME, M_ISEND_WAITALL_BLOCKED,
    M_ISEND_WAITSOME_BLOCKED, M_SENDRECV, M_VECTOR, M_SHM, M_HIERARCHICAL
};

double model_message_seconds(const cost_model *m, int level, double bytes)
{
    const model_rate *table = &m->message[level];
    double bandwidth = level == MODEL_INTRA ? m->bandwidth_intra : m->bandwidth_inter;
    if (!table->count)
        return (level == MODEL_INTRA ? m->latency_intra : m->latency_inter) + bytes / bandwidth;
    const double *b = table->elements, *t = table->seconds_per_unit;
    int last = table->count - 1;
    if (bytes <= b[0]) return t[0];
    for (int i = 1; i <= last; i++)
        if (bytes <= b[i]) return t[i - 1] + (bytes - b[i - 1]) / (b[i] - b[i - 1]) * (t[i] - t[i - 1]);
    return t[last] + (bytes - b[last]) / bandwidth;
}

/* What each further message in flight adds at a level. */
static double further_message(const cost_model *m, int level, double bytes, double bandwidth)
{
    const model_rate *table = &m->more[level];
    double own = level == MODEL_INTRA ? m->bandwidth_intra : m->bandwidth_inter;
    double slower = bytes * (1.0 / bandwidth - 1.0 / own); /* a shared injection */
    if (!table->count) return bytes / bandwidth;
    const double *b = table->elements, *t = table->seconds_per_unit;
    int last = table->count - 1;
    if (bytes <= b[0]) return t[0] * (b[0] > 0 ? bytes / b[0] : 1.0) + slower;
    for (int i = 1; i <= last; i++)
        if (bytes <= b[i]) return t[i - 1] + (bytes - b[i - 1]) / (b[i] - b[i - 1]) * (t[i] - t[i - 1]) + slower;
    return t[last] + (bytes - b[last]) / own + slower;
}

/* The datatype engine's extra cost of an exchange: per chunk (the peers'
 * and its own) half the table's pair exchange at the chunk's size, else
 * the bytes (in and out) at datatype_bandwidth; 0 when neither is known. */
static double datatype_seconds(const cost_model *m, int peers, double chunk, double bytes)
{
    const model_rate *table = &m->datatype;
    if (!table->count) return m->datatype_bandwidth > 0 ? bytes / m->datatype_bandwidth : 0.0;
    const double *b = table->elements, *t = table->seconds_per_unit;
    int last = table->count - 1;
    double one;
    if (chunk <= b[0]) one = t[0] * chunk / b[0];
    else if (chunk >= b[last]) one = t[last] * chunk / b[last];
    else {
        int i = 1;
        while (chunk > b[i]) i++;
        one = t[i - 1] + (chunk - b[i - 1]) / (b[i] - b[i - 1]) * (t[i] - t[i - 1]);
    }
    return (peers + 1) * one / 2.0; /* measured on a pair: two chunks (its own and the peer's) */
}

/* One level's messages: n peers, chunks of b bytes, at `bandwidth` per
 * rank (below the level's own when the node's injection is shared). */
typedef struct {
    const cost_model *model;
    int level, peers;
    double chunk, bandwidth;
} level_messages;

/* The first message as measured (plus what a shared injection slows it),
 * the others' bytes behind it on the same link. */
static double all_in_flight(const level_messages *l)
{
    if (l->peers <= 0) return 0.0;
    double own = l->level == MODEL_INTRA ? l->model->bandwidth_intra : l->model->bandwidth_inter;
    double slower = l->chunk * (1.0 / l->bandwidth - 1.0 / own);
    return model_message_seconds(l->model, l->level, l->chunk) + slower +
           (l->peers - 1) * further_message(l->model, l->level, l->chunk, l->bandwidth);
}

static double one_at_a_time(const level_messages *l)
{
    if (l->peers <= 0) return 0.0;
    double own = l->level == MODEL_INTRA ? l->model->bandwidth_intra : l->model->bandwidth_inter;
    double slower = l->chunk * (1.0 / l->bandwidth - 1.0 / own);
    return l->peers * (model_message_seconds(l->model, l->level, l->chunk) + slower);
}

double model_exchange_seconds(const cost_model *m, const model_exchange *x)
{
    int peers = x->group_size - 1;
    if (peers <= 0) return x->in_bytes / m->memcpy_bandwidth; /* a local copy */
    int intra = x->peers_on_node < peers ? x->peers_on_node : peers, inter = peers - intra;
    double chunk = x->in_bytes / x->group_size;   /* bytes per peer */
    double own = chunk;                           /* this rank's own chunk, copied */
    /* Inter-node bandwidth per rank: the link, or the node's injection
     * shared by its ranks, all of which are exchanging at once. */
    double inter_bw = m->bandwidth_inter;
    if (m->injection_bandwidth > 0 && x->ranks_per_node > 0 &&
        m->injection_bandwidth / x->ranks_per_node < inter_bw)
        inter_bw = m->injection_bandwidth / x->ranks_per_node;
    level_messages inside = {m, MODEL_INTRA, intra, chunk, m->bandwidth_intra};
    level_messages outside = {m, MODEL_INTER, inter, chunk, inter_bw};
    double wire, copies = 0.0, datatype = 0.0; /* copies: bytes this rank copies itself */
    switch ((int)x->method) {
    case M_SENDRECV: /* one pair at a time: the rounds add up */
        wire = one_at_a_time(&inside) + one_at_a_time(&outside);
        copies = x->in_bytes + x->out_bytes;
        break;
    case M_SHM: /* the node's chunks through a shared window: copies and two node barriers */
        wire = (intra ? 2 * model_message_seconds(m, MODEL_INTRA, 0.0) : 0.0) + all_in_flight(&outside);
        copies = x->in_bytes + x->out_bytes;
        break;
    case M_HIERARCHICAL: {
        /* The leader's time: its node's inter-node bytes gathered from the
         * members and scattered back (intra), sent in one message per
         * other node at the link's bandwidth (only leaders inject), and
         * copied twice more. */
        int per_node = intra + 1; /* the group's members on this node, this rank among them */
        int other_nodes = x->nodes_in_group > 1 ? x->nodes_in_group - 1 : 0;
        double inter_bytes = inter * chunk, node_inter = per_node * inter_bytes;
        level_messages members = {m, MODEL_INTRA, inter ? per_node - 1 : 0, inter_bytes, m->bandwidth_intra};
        level_messages leaders = {m, MODEL_INTER, inter ? other_nodes : 0,
                                  other_nodes ? node_inter / other_nodes : 0.0, m->bandwidth_inter};
        wire = all_in_flight(&inside) + 2 * all_in_flight(&members) + all_in_flight(&leaders);
        copies = x->in_bytes + x->out_bytes + (inter ? 2 * node_inter : 0.0);
        break;
    }
    case M_ALLTOALLW:
    case M_VECTOR: /* datatypes: MPI's engine copies, at its own extra cost */
        wire = fmax(all_in_flight(&inside), all_in_flight(&outside));
        datatype = datatype_seconds(m, peers, chunk, x->in_bytes + x->out_bytes);
        own = 0.0;
        break;
    default: /* alltoallv and the isend family: pack, all in flight, unpack */
        wire = fmax(all_in_flight(&inside), all_in_flight(&outside));
        copies = x->in_bytes + x->out_bytes;
        break;
    }
    double seconds = wire + (copies + own) / m->memcpy_bandwidth + datatype;
    /* The bisection: of the bytes every rank sends off its node, about half
     * cross any bisection of the machine (uniform all-to-all traffic). */
    if (m->bisection_bandwidth > 0 && x->plan_nodes > 1) {
        double crossing = 0.5 * inter * chunk * x->plan_ranks;
        double floor_seconds = model_message_seconds(m, MODEL_INTER, 0.0) + crossing / m->bisection_bandwidth;
        if (floor_seconds > seconds) seconds = floor_seconds;
    }
    return seconds;
}
