/*
 * model_cost.c -- the cost model's arithmetic (model.h): FFT steps by
 * their rates, by block size or by axis length; exchanges by level (on
 * the node, off it, and the network's levels above it) and method. Pure:
 * no MPI, no FFTW; the numbers come from model.c's file or calibrate.c.
 */
#include <math.h>
#include <stdint.h>

#include "model.h"

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

/* A family's rate in one precision from one of the model's tables (per
 * element: model->fft, per axis length: model->fft_length), falling back
 * to the other precision. */
static double table_rate(const model_rate (*table)[2], model_family family, int precision, double x)
{
    const model_rate *own = &table[family][precision], *other = &table[family][!precision];
    if (own->count) return interpolate(own, x);
    if (other->count)
        return interpolate(other, x) * (precision == DISTFFT_FLOAT ? FLOAT_OVER_DOUBLE
                                                                   : 1.0 / FLOAT_OVER_DOUBLE);
    return 0.0;
}

/* The rate of `family` from `table`; r2c/c2r without one of their own are
 * priced from c2c's. */
static double rate_of(const model_rate (*table)[2], model_family family, distfft_precision precision,
                      double x)
{
    int p = precision == DISTFFT_FLOAT ? 1 : 0;
    double rate = table_rate(table, family, p, x);
    if (rate > 0 || family == MODEL_C2C) return rate;
    /* r2c on n real points is about half of c2c's work on n complex ones */
    rate = table_rate(table, MODEL_C2C, p, x);
    return family == MODEL_R2C ? 0.5 * rate : rate;
}

double model_fft_rate(const cost_model *model, model_family family, distfft_precision precision,
                      double elements)
{
    return rate_of(model->fft, family, precision, elements);
}

double model_fft_length_rate(const cost_model *model, model_family family, distfft_precision precision,
                             double n)
{
    return rate_of(model->fft_length, family, precision, n);
}

double model_fft_axes_seconds(const cost_model *model, model_family family, distfft_precision precision,
                              int naxes, const int *axes, const int64_t *shape, double elements)
{
    if (!(model_fft_length_rate(model, MODEL_C2C, precision, 2.0) > 0)) return -1.0; /* no table */
    int halved = family == MODEL_R2C && naxes > 0 ? axes[naxes - 1] : -1;
    double complex_elements = elements;
    if (halved >= 0 && shape[halved] > 0)
        complex_elements = elements / (double)shape[halved] * (double)(shape[halved] / 2 + 1);
    double seconds = 0.0;
    for (int i = 0; i < naxes; i++) {
        double n = (double)shape[axes[i]];
        if (n <= 1) continue; /* a length-1 transform: a copy at most */
        int real_axis = axes[i] == halved;
        model_family own = real_axis || family != MODEL_R2C ? family : MODEL_C2C;
        double rate = model_fft_length_rate(model, own, precision, n);
        if (!(rate > 0)) return -1.0;
        double block = real_axis || halved < 0 ? elements : complex_elements;
        /* by its own family's block factor: an r2c step's c2c axes stream
         * like c2c's, its real axis (contiguous) like r2c's */
        seconds += block * log2(n) * rate * model_fft_block_factor(model, own, precision, block);
    }
    return seconds;
}

double model_fft_block_factor(const cost_model *model, model_family family, distfft_precision precision,
                              double elements)
{
    if (!(elements > MODEL_LENGTH_BLOCK)) return 1.0;
    const model_rate *measured = model->fft_block[family].count ? &model->fft_block[family]
                                                                : &model->fft_block[MODEL_C2C];
    if (measured->count) {
        double from = MODEL_LENGTH_BLOCK, factor = 1.0;
        for (int i = 0; i < measured->count; i++) {
            double to = measured->elements[i], next = measured->seconds_per_unit[i];
            if (to <= from) continue; /* a point at or below the per-length block: nothing to span */
            if (elements <= to) {
                factor += log(elements / from) / log(to / from) * (next - factor);
                return factor > 1.0 ? factor : 1.0;
            }
            from = to, factor = next;
        }
        return factor > 1.0 ? factor : 1.0;
    }
    double block = model_fft_rate(model, family, precision, elements),
           calibrated = model_fft_rate(model, family, precision, MODEL_LENGTH_BLOCK);
    return block > calibrated && calibrated > 0 ? block / calibrated : 1.0;
}

int model_active_counts(int node_size, int *counts)
{
    if (node_size < 2) return 0;
    for (int step = 2;; step *= 2) {
        int n = 0;
        for (long active = 1; active < node_size && n < MODEL_MAX_RATES; active *= step) counts[n++] = (int)active;
        if (n < MODEL_MAX_RATES) { /* room for the node's own */
            counts[n++] = node_size;
            return n;
        }
    }
}

double model_fft_active_factor(const cost_model *model, int ranks_per_node)
{
    return model->fft_active.count && ranks_per_node > 0 ? interpolate(&model->fft_active, ranks_per_node) : 1.0;
}

double model_fft_multi_axis_factor(const cost_model *model, model_family family, double elements)
{
    int r2c = family == MODEL_R2C;
    const model_rate *table = &model->fft_multi_axis[r2c];
    if (table->count) return interpolate(table, elements);
    return r2c ? model->fft_multi_axis_factor_r2c : model->fft_multi_axis_factor;
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

/* The network's levels above the node: every group exchanges at once,
 * and the messages that share a link between two units of a level (a
 * Dragonfly's router-to-router link, a group's global link) cross it at
 * its bandwidth shared among them -- the slowest of this rank's messages
 * waits for all of them. Latency is the inter-node one. 0 without levels. */
static double network_floor(const cost_model *m, const model_exchange *x, double chunk)
{
    double floor_seconds = 0.0, start = model_message_seconds(m, MODEL_INTER, 0.0);
    if (x->plan_bytes > 0 && x->plan_ranks > 0) chunk = x->plan_bytes / ((double)x->plan_ranks * x->group_size);
    for (int l = 0; l < m->levels; l++) {
        const model_level *level = &m->level[l];
        if (level->pair_bandwidth > 0 && x->level_pair_messages[l] > 0)
            floor_seconds = fmax(floor_seconds, start + x->level_pair_messages[l] * chunk / level->pair_bandwidth);
        if (level->out_bandwidth > 0 && x->level_out_messages[l] > 0)
            floor_seconds = fmax(floor_seconds, start + x->level_out_messages[l] * chunk / level->out_bandwidth);
    }
    return floor_seconds;
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
    case M_SHM: /* two node barriers; a plan's node chunks put straight into the peers'
                 * outputs (one copy), the others packed and unpacked */
        wire = (intra ? 2 * model_message_seconds(m, MODEL_INTRA, 0.0) : 0.0) + all_in_flight(&outside);
        copies = intra * chunk + 2 * inter * chunk;
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
    return fmax(seconds, network_floor(m, x, chunk));
}
