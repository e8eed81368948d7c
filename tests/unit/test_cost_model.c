/*
 * test_cost_model.c -- the cost model's text file and arithmetic
 * (src/model/model.c) on their own, without MPI: parse and format round
 * trip, refusals naming the line, FFT rates interpolated and their
 * fallbacks, and each exchange formula against numbers worked by hand;
 * the network's levels above the node counted for real placements
 * (model_topology_compute, rank 0's part of the topology, needs no MPI)
 * and the FFT rates by axis length; which steps take a plan's
 * normalisation (plan_step_folds) and the sweep the ranking of candidates
 * prices where none does (model_sweep_seconds); the topology group by
 * group against the definition, and at 131,072 ranks.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/predict.h"

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("test_cost_model: FAIL %s\n", what);
        failures++;
    }
}

/* Does `model` format to a text that parses back to the same model? */
static int round_trips(const cost_model *model)
{
    char message[256], *text = model_format(model);
    cost_model again;
    int same = text && model_parse(text, &again, message, sizeof message) == 0 &&
               memcmp(model, &again, sizeof again) == 0;
    free(text);
    return same;
}

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b);
}

static const char *const valid =
    "distfft-model 1\n"
    "# a comment line\n"
    "machine = Test MPI 1.0; nodes of 2 ranks; host test # not a comment here\n"
    "mpi_library = Test MPI 1.0\n"
    "node_size = 2\n"
    "latency_intra = 1e-6\n"
    "bandwidth_intra = 5e9\n"
    "latency_inter = 2e-6\n"
    "bandwidth_inter = 1e9\n"
    "injection_bandwidth = 2e9\n"
    "bisection_bandwidth = 0\n"
    "memcpy_bandwidth = 4e9\n"
    "datatype_bandwidth = 0\n"
    "fft_c2c_double = 4096:1e-9 262144:2e-9\n";

static void test_parse(cost_model *model)
{
    char message[256];
    check(model_parse(valid, model, message, sizeof message) == 0, "a valid model parses");
    check(strcmp(model->machine, "Test MPI 1.0; nodes of 2 ranks; host test # not a comment here") == 0,
          "machine kept whole");
    check(model->node_size == 2 && model->bandwidth_inter == 1e9 && model->injection_bandwidth == 2e9,
          "numbers read");
    check(model->fft[MODEL_C2C][0].count == 2 && model->fft[MODEL_R2C][0].count == 0, "rates read");
    check(model->fft_multi_axis_factor == 1.0, "fft_multi_axis_factor optional, 1 when absent");
    check(model->fft_multi_axis_factor_r2c == 1.0, "fft_multi_axis_factor_r2c optional, c2c's when absent");
    {
        char with_c2c[1024];
        cost_model factors;
        snprintf(with_c2c, sizeof with_c2c, "%sfft_multi_axis_factor = 0.6\n", valid);
        check(model_parse(with_c2c, &factors, message, sizeof message) == 0 &&
                  factors.fft_multi_axis_factor_r2c == 0.6,
              "fft_multi_axis_factor_r2c absent: c2c's (0.6)");
        strcat(with_c2c, "fft_multi_axis_factor_r2c = 0.9\n");
        check(model_parse(with_c2c, &factors, message, sizeof message) == 0 &&
                  factors.fft_multi_axis_factor_r2c == 0.9 && factors.fft_multi_axis_factor == 0.6,
              "fft_multi_axis_factor_r2c read");
    }
    check(round_trips(model), "format then parse gives the same model");
    cost_model again;
    char *text;
    /* Sizes that are not whole numbers format to a text that parses: they
     * were rounded, so 1.2 and 1.4 came back as 1 and 1, not increasing
     * (found by tests/fuzz/fuzz_model.c). */
    char fractional[1024];
    snprintf(fractional, sizeof fractional, "%s", valid);
    strcpy(strstr(fractional, "fft_c2c_double = "), "fft_c2c_double = 1.2:1e-9 1.4:2e-9 2.5e3:3e-9\n");
    check(model_parse(fractional, &again, message, sizeof message) == 0, "fractional sizes parse");
    text = model_format(&again);
    cost_model third;
    check(text && model_parse(text, &third, message, sizeof message) == 0 &&
              memcmp(third.fft[MODEL_C2C][0].elements, again.fft[MODEL_C2C][0].elements,
                     sizeof third.fft[MODEL_C2C][0].elements) == 0,
          "fractional sizes format and parse back exactly");
    free(text);

    static const struct { const char *text, *expected; } bad[] = {
        {"", "no 'distfft-model 1' header"},
        {"distfft-model 2\n", "line 1: not a distfft model"},
        {"distfft-model 1\n\nnode_size = 0\n", "line 3: node_size"},
        {"distfft-model 1\nmemcpy_bandwidth = 0\n", "line 2: memcpy_bandwidth = 0 must be > 0"},
        {"distfft-model 1\nlatency_inter = -1e-6\n", "must be >= 0"},
        {"distfft-model 1\nlatency_inter = 1e-6x\n", "is not a number"},
        {"distfft-model 1\nfft_c2c_double = 4096\n", "ELEMENTS:SECONDS"},
        {"distfft-model 1\nfft_c2c_double = 4096:0\n", "ELEMENTS:SECONDS"},
        {"distfft-model 1\nfft_c2c_half = 4096:1e-9\n", "unknown key 'fft_c2c_half'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cost_model scratch;
        int status = model_parse(bad[i].text, &scratch, message, sizeof message);
        char what[512];
        snprintf(what, sizeof what, "refused with '%s' (got '%s')", bad[i].expected, message);
        check(status == -1 && strstr(message, bad[i].expected) != NULL, what);
    }
    /* Every required key: drop one line at a time. */
    for (const char *line = strchr(valid, '\n') + 1; *line; line = strchr(line, '\n') + 1) {
        size_t length = strcspn(line, "\n");
        if (line[0] == '#' || strncmp(line, "fft_", 4) == 0) continue;
        char text2[2048];
        snprintf(text2, sizeof text2, "%.*s%s", (int)(line - valid), valid, line + length + 1);
        cost_model scratch;
        char what[160];
        snprintf(what, sizeof what, "missing '%.*s' refused", (int)strcspn(line, " "), line);
        check(model_parse(text2, &scratch, message, sizeof message) == -1 && strstr(message, "is missing"),
              what);
    }
}

static void test_rates(const cost_model *model)
{
    check(near(model_fft_rate(model, MODEL_C2C, DISTFFT_DOUBLE, 4096), 1e-9), "rate at the first size");
    check(near(model_fft_rate(model, MODEL_C2C, DISTFFT_DOUBLE, 100), 1e-9), "rate below: the first size's");
    check(near(model_fft_rate(model, MODEL_C2C, DISTFFT_DOUBLE, 1e9), 2e-9), "rate beyond: the last size's");
    check(near(model_fft_rate(model, MODEL_C2C, DISTFFT_DOUBLE, 32768), 1.5e-9),
          "rate interpolated in log(elements)");
    check(near(model_fft_rate(model, MODEL_C2C, DISTFFT_FLOAT, 4096), 0.6e-9), "float falls back to double");
    check(near(model_fft_rate(model, MODEL_R2C, DISTFFT_DOUBLE, 4096), 0.5e-9), "r2c falls back to c2c / 2");
    check(near(model_fft_rate(model, MODEL_R2R, DISTFFT_DOUBLE, 4096), 1e-9), "r2r falls back to c2c");
    check(near(model_fft_seconds(model, MODEL_C2C, DISTFFT_DOUBLE, 4096 * 12.0, 4096), 4096 * 12.0 * 1e-9),
          "FFT seconds: units times rate");
    check(near(model_pass_seconds(model, 4e6), 2e-3), "a pass reads and writes at memcpy speed");
}

/* FFT speed by active ranks per node: 1 where not given; else the factor
 * interpolated in log(ranks), the nearest one beyond the table; written
 * and read back; a table that is not RANKS:FACTOR refused by name. */
static void test_active(cost_model *model)
{
    check(model_fft_active_factor(model, 4) == 1.0, "no fft_active: factor 1");
    model->fft_active = (model_rate){.count = 3, .elements = {1, 4, 16}, .seconds_per_unit = {0.5, 0.7, 1}};
    check(near(model_fft_active_factor(model, 1), 0.5), "one rank of the node: its own factor");
    check(near(model_fft_active_factor(model, 2), 0.6), "2 ranks: halfway in log(ranks) between 1 and 4");
    check(near(model_fft_active_factor(model, 16), 1.0), "the whole node: 1");
    check(near(model_fft_active_factor(model, 64), 1.0), "beyond the node: the last factor");
    check(model_fft_active_factor(model, 0) == 1.0, "no ranks known: 1");
    char *text = model_format(model), message[256];
    cost_model again;
    check(text && strstr(text, "fft_active = 1:0.5 4:0.7 16:1\n") != NULL, "fft_active written");
    check(text && model_parse(text, &again, message, sizeof message) == 0 && again.fft_active.count == 3 &&
              again.fft_active.seconds_per_unit[1] == 0.7,
          "fft_active read back");
    if (text) {
        char *bad = malloc(strlen(text) + 64);
        sprintf(bad, "%sfft_active = 4:0.5 2:1\n", text);
        char *first = strstr(bad, "fft_active = 1:");
        memcpy(first, "# ", 2); /* the valid line out of the way */
        check(model_parse(bad, &again, message, sizeof message) == -1 && strstr(message, "RANKS:FACTOR") &&
                  strstr(message, "ranks increasing"),
              "fft_active with ranks decreasing refused with its own wording");
        free(bad);
    }
    free(text);
    model->fft_active.count = 0;
}

/* Blocks beyond the per-length rates' MODEL_LENGTH_BLOCK: the rate by
 * block size there over the one at MODEL_LENGTH_BLOCK where that is > 1. */
static void test_block(cost_model *model)
{
    cost_model saved = *model;
    model->fft[MODEL_C2C][0] = (model_rate){.count = 2, .elements = {MODEL_LENGTH_BLOCK, 8.0 * MODEL_LENGTH_BLOCK},
                                            .seconds_per_unit = {1e-9, 1.6e-9}};
    check(model_fft_block_factor(model, MODEL_C2C, DISTFFT_DOUBLE, MODEL_LENGTH_BLOCK) == 1.0,
          "block factor 1 at the per-length block");
    check(model_fft_block_factor(model, MODEL_C2C, DISTFFT_DOUBLE, 1000) == 1.0, "block factor 1 below it");
    check(near(model_fft_block_factor(model, MODEL_C2C, DISTFFT_DOUBLE, 2.0 * MODEL_LENGTH_BLOCK), 1.2),
          "block factor interpolated in log(elements)");
    check(near(model_fft_block_factor(model, MODEL_C2C, DISTFFT_DOUBLE, 64.0 * MODEL_LENGTH_BLOCK), 1.6),
          "block factor beyond the table: its last rate's");
    check(near(model_fft_block_factor(model, MODEL_C2C, DISTFFT_FLOAT, 2.0 * MODEL_LENGTH_BLOCK), 1.2),
          "block factor of a precision not measured: the other's");
    model->fft[MODEL_C2C][0].seconds_per_unit[1] = 0.8e-9;
    check(model_fft_block_factor(model, MODEL_C2C, DISTFFT_DOUBLE, 8.0 * MODEL_LENGTH_BLOCK) == 1.0,
          "block factor never below 1 (larger blocks no faster than the per-length rates say)");
    /* Measured (fft_c2c_block, ...): it replaces the rate-by-size ratio;
     * from 1 at the per-length block, in log elements; a family without its
     * own takes c2c's; never below 1. */
    char text[1024], message[256];
    snprintf(text, sizeof text, "%sfft_c2c_block = %d:1.5\nfft_r2r_block = %d:0.9\n", valid,
             8 * MODEL_LENGTH_BLOCK, 8 * MODEL_LENGTH_BLOCK);
    cost_model measured;
    check(model_parse(text, &measured, message, sizeof message) == 0 && measured.fft_block[MODEL_C2C].count == 1,
          "fft_c2c_block parses");
    check(round_trips(&measured), "fft_*_block written and read back the same");
    measured.fft[MODEL_C2C][0] = model->fft[MODEL_C2C][0]; /* a rate-by-size ratio that would say 1 */
    check(measured.fft_block[MODEL_C2C].count &&
              model_fft_block_factor(&measured, MODEL_C2C, DISTFFT_DOUBLE, MODEL_LENGTH_BLOCK) == 1.0 &&
              near(model_fft_block_factor(&measured, MODEL_C2C, DISTFFT_DOUBLE, 8.0 * MODEL_LENGTH_BLOCK), 1.5) &&
              near(model_fft_block_factor(&measured, MODEL_C2C, DISTFFT_DOUBLE, 4.0 * MODEL_LENGTH_BLOCK),
                   1.0 + 0.5 * 2.0 / 3.0) &&
              near(model_fft_block_factor(&measured, MODEL_C2C, DISTFFT_DOUBLE, 64.0 * MODEL_LENGTH_BLOCK), 1.5),
          "measured block factor: 1 at the per-length block, log-interpolated, its last beyond");
    check(near(model_fft_block_factor(&measured, MODEL_R2C, DISTFFT_DOUBLE, 8.0 * MODEL_LENGTH_BLOCK), 1.5),
          "a family without its own block table takes c2c's");
    check(model_fft_block_factor(&measured, MODEL_R2R, DISTFFT_DOUBLE, 8.0 * MODEL_LENGTH_BLOCK) == 1.0,
          "a measured block factor below 1 counts as 1");
    /* two points (2 M and 8 M elements, as calibrated outside SMPI): between
     * them interpolated in log elements, the last beyond */
    snprintf(text, sizeof text, "%sfft_c2c_block = %d:1.5 %d:2\n", valid, 8 * MODEL_LENGTH_BLOCK,
             32 * MODEL_LENGTH_BLOCK);
    check(model_parse(text, &measured, message, sizeof message) == 0 && measured.fft_block[MODEL_C2C].count == 2 &&
              round_trips(&measured) &&
              near(model_fft_block_factor(&measured, MODEL_C2C, DISTFFT_DOUBLE, 16.0 * MODEL_LENGTH_BLOCK), 1.75) &&
              near(model_fft_block_factor(&measured, MODEL_C2C, DISTFFT_DOUBLE, 64.0 * MODEL_LENGTH_BLOCK), 2.0),
          "two block-factor points: log-interpolated between, the last beyond");
    snprintf(text, sizeof text, "%sfft_c2c_block = 2097152:0\n", valid);
    check(model_parse(text, &measured, message, sizeof message) != 0 &&
              strstr(message, "ELEMENTS:FACTOR") != NULL,
          "a block factor of 0 refused, naming the form");
    /* The multi-axis factors by block size: the table where given (r2c
     * its own; c2c's for c2c and r2r), log-interpolated, the nearest
     * point beyond either end; the scalars without a table. */
    snprintf(text, sizeof text,
             "%sfft_multi_axis_factor = 0.5\nfft_multi_axis_factor_r2c = 0.6\n"
             "fft_multi_axis_c2c = 262144:0.7 2097152:1 8388608:0.6\n",
             valid);
    check(model_parse(text, &measured, message, sizeof message) == 0 &&
              measured.fft_multi_axis[0].count == 3 && measured.fft_multi_axis[1].count == 0 &&
              round_trips(&measured),
          "fft_multi_axis_c2c parses and round-trips");
    check(near(model_fft_multi_axis_factor(&measured, MODEL_C2C, 1000.0), 0.7) &&
              near(model_fft_multi_axis_factor(&measured, MODEL_C2C, 262144.0 * 2.0), 0.8) &&
              near(model_fft_multi_axis_factor(&measured, MODEL_C2C, 4194304.0), 0.8) &&
              near(model_fft_multi_axis_factor(&measured, MODEL_C2C, 1e9), 0.6) &&
              near(model_fft_multi_axis_factor(&measured, MODEL_R2R, 2097152.0), 1.0),
          "multi-axis factor by block: log-interpolated, the nearest beyond, c2c's for r2r");
    check(near(model_fft_multi_axis_factor(&measured, MODEL_R2C, 2097152.0), 0.6),
          "multi-axis factor without a table: the scalar");
    *model = saved;
}

/* The ranks an fft_active table measures: powers of two and the node's
 * own, thinned (powers of 4, ...) where they would not fit the table. */
static void test_active_counts(void)
{
    static const struct {
        int node, count, counts[MODEL_MAX_RATES];
    } cases[] = {
        {1, 0, {0}},
        {3, 3, {1, 2, 3}},
        {16, 5, {1, 2, 4, 8, 16}},
        {64, 7, {1, 2, 4, 8, 16, 32, 64}},
        {128, 8, {1, 2, 4, 8, 16, 32, 64, 128}},
        {256, 5, {1, 4, 16, 64, 256}},
        {1000, 6, {1, 4, 16, 64, 256, 1000}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int counts[MODEL_MAX_RATES] = {0};
        int n = model_active_counts(cases[c].node, counts);
        int same = n == cases[c].count;
        for (int i = 0; same && i < n; i++) same = counts[i] == cases[c].counts[i];
        char what[96];
        snprintf(what, sizeof what, "fft_active's ranks on a node of %d (%d of them)", cases[c].node, n);
        check(same, what);
    }
}

/* Worked by hand: 4 ranks in the group, 1 peer on this node, 2 off it;
 * 4 MB in and out, so 1 MB per peer. Inter-node bandwidth per rank
 * min(1e9, 2e9 / 2 ranks per node) = 1e9. One message: 1e-6 + 1e6 / 5e9 =
 * 2.01e-4 inside the node, 2e-6 + 1e6 / 1e9 = 1.002e-3 between nodes. */
static void test_exchanges(cost_model *model)
{
    model_exchange x = {.method = 1 /* alltoallv */, .group_size = 4, .peers_on_node = 1, .nodes_in_group = 3,
                        .ranks_per_node = 2, .plan_ranks = 8, .plan_nodes = 4, .in_bytes = 4e6, .out_bytes = 4e6};
    double copies = 9e6 / 4e9; /* pack, unpack and the own chunk */
    /* all in flight: max(2.01e-4, 1.002e-3 + 1e6 / 1e9) */
    check(near(model_exchange_seconds(model, &x), 2.002e-3 + copies), "alltoallv");
    x.method = 6; /* sendrecv: the rounds add up */
    check(near(model_exchange_seconds(model, &x), 2.01e-4 + 2 * 1.002e-3 + copies), "sendrecv");
    x.method = 0; /* alltoallw: no copies of ours; datatype_bandwidth 0 is free */
    check(near(model_exchange_seconds(model, &x), 2.002e-3), "alltoallw, free datatypes");
    model->datatype_bandwidth = 8e9;
    check(near(model_exchange_seconds(model, &x), 2.002e-3 + 8e6 / 8e9), "alltoallw, datatype copies");
    model->datatype_bandwidth = 0;
    x.method = 1;
    x.ranks_per_node = 4; /* injection 2e9 shared by 4: 0.5e9 each, 1e-3 more per message */
    check(near(model_exchange_seconds(model, &x), 1.002e-3 + 1e-3 + 2e-3 + copies), "injection shared by the node");
    x.ranks_per_node = 2;
    model->bisection_bandwidth = 1e9; /* half of 8 ranks x 2 MB off-node cross: 8e-3 */
    check(near(model_exchange_seconds(model, &x), 2e-6 + 8e-3), "bisection bound");
    model->bisection_bandwidth = 0;
    x.group_size = 1;
    check(near(model_exchange_seconds(model, &x), 1e-3), "a group of one copies");
    x.group_size = 4;
    for (int m = 0; m < 10; m++) {
        x.method = m;
        double seconds = model_exchange_seconds(model, &x);
        char what[64];
        snprintf(what, sizeof what, "method %d predicted positive and finite", m);
        check(isfinite(seconds) && seconds > 0, what);
    }
    /* hierarchical gathers the exchange group's members on the node, not
     * every rank of the node: with one member per node (a pencil's second
     * exchange across nodes) the node's size changes nothing. */
    model_exchange spread = {.method = 9 /* hierarchical */, .group_size = 4, .peers_on_node = 0,
                             .nodes_in_group = 4, .ranks_per_node = 2, .plan_ranks = 16, .plan_nodes = 8,
                             .in_bytes = 4e6, .out_bytes = 4e6};
    double few = model_exchange_seconds(model, &spread);
    spread.ranks_per_node = 16;
    check(near(model_exchange_seconds(model, &spread), few), "hierarchical: the group's members on the node");
    /* A measured message table replaces latency + bytes / bandwidth. */
    model->message[MODEL_INTER] = (model_rate){.count = 2, .elements = {1000, 1e6}, .seconds_per_unit = {1e-5, 1e-3}};
    check(near(model_message_seconds(model, MODEL_INTER, 500), 1e-5), "table: below its first size");
    check(near(model_message_seconds(model, MODEL_INTER, 500500), 5.05e-4), "table: interpolated in bytes");
    check(near(model_message_seconds(model, MODEL_INTER, 2e6), 2e-3), "table: beyond, at the bandwidth");
    check(near(model_message_seconds(model, MODEL_INTRA, 1e6), 2.01e-4), "no table: latency + bytes / bandwidth");
    char *text = model_format(model), message[256];
    cost_model again;
    check(text && model_parse(text, &again, message, sizeof message) == 0 && again.message[MODEL_INTER].count == 2 &&
              again.message[MODEL_INTER].seconds_per_unit[1] == 1e-3,
          "the message table written and read back");
    free(text);
}

/* The campaign's placement points (docs/guide/scale.md): 256 ranks on a
 * 16 x 16 pencil grid, nodes of 16 ranks, on a Dragonfly of 4 nodes per
 * router. Row-major keeps each row (direction 1) in a node, each column
 * (direction 0) over all 16 nodes; Morton order puts a 4 x 4 block of the
 * grid on a node and an 8 x 8 block on a router, so every row and column
 * spans two routers: each of a router's 64 ranks sends 8 messages to the
 * router beside it, 512 on one link where row-major puts 16 x 4 x 4 = 256.
 * The model without levels priced Morton's exchanges as node-injection
 * bound (faster than row-major's columns); SMPI took 2.16 times the
 * prediction (121 ms against 56), row-major 0.92. */
static void morton_pairs(int *pairs, int morton)
{
    for (int r = 0; r < 256; r++) {
        int i = 0, j = 0;
        for (int bit = 0; bit < 4; bit++) { /* j from the even bits, i from the odd */
            j |= ((r >> (2 * bit)) & 1) << bit;
            i |= ((r >> (2 * bit + 1)) & 1) << bit;
        }
        pairs[2 * r] = morton ? i * 16 + j : r;
        pairs[2 * r + 1] = r / 16 * 16; /* the node's label: its lowest rank */
    }
}

static void test_levels(void)
{
    char message[256];
    cost_model model;
    static const char *const text =
        "distfft-model 1\nmachine = m\nmpi_library = SMPI\nnode_size = 16\nlatency_intra = 8e-7\n"
        "bandwidth_intra = 9.2e9\nlatency_inter = 9.3e-6\nbandwidth_inter = 4.69e9\n"
        "injection_bandwidth = 4.7e9\nbisection_bandwidth = 0\nmemcpy_bandwidth = 7.9e9\n"
        "datatype_bandwidth = 0\nfft_c2c_double = 4096:1e-9\nnetwork_levels = router:4:4.69e9:0\n";
    check(model_parse(text, &model, message, sizeof message) == 0, "a model with network_levels parses");
    check(model.levels == 1 && model.level[0].size == 4 && model.level[0].pair_bandwidth == 4.69e9 &&
              strcmp(model.level[0].name, "router") == 0,
          "network_levels read");
    check(round_trips(&model), "network_levels written and read back the same");
    static const char *const bad[] = {"router:4:1e9", "router:0:1e9:0", "router:4:-1:0", "rou ter:4:1e9:0",
                                      "a:1:0:0 b:1:0:0 c:1:0:0 d:1:0:0 e:1:0:0", "r:4:1e9:0:5", "r:2.5:1e9:0"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char broken[1024];
        cost_model again;
        snprintf(broken, sizeof broken, "%.*snetwork_levels = %s\n",
                 (int)(strstr(text, "network_levels") - text), text, bad[i]);
        char what[128];
        snprintf(what, sizeof what, "network_levels = %s refused", bad[i]);
        check(model_parse(broken, &again, message, sizeof message) == -1 && strstr(message, "network_levels"),
              what);
    }

    int pairs[512], dims[2] = {16, 16};
    model_topology row[256], morton[256];
    morton_pairs(pairs, 0);
    check(model_topology_compute(&model, 256, pairs, 2, dims, row) == 0, "row-major topology");
    morton_pairs(pairs, 1);
    check(model_topology_compute(&model, 256, pairs, 2, dims, morton) == 0, "Morton topology");
    int counts_right = 1;
    for (int r = 0; r < 256; r++)
        counts_right &= row[r].level_pair[1][0] == 0 && row[r].level_pair[0][0] == 256 &&
                        morton[r].level_pair[0][0] == 512 && morton[r].level_pair[1][0] == 512 &&
                        row[r].level_out[0][0] == 64 * 12 && morton[r].level_out[1][0] == 64 * 8 &&
                        morton[r].peers_on_node[1] == 3 && row[r].peers_on_node[1] == 15;
    check(counts_right, "messages on the busiest router link: row-major 0 and 256, Morton 512 and 512");

    /* The campaign's 512^3 r2c exchange 1->0: 4,177,920 bytes per rank. */
    model_exchange x = {.method = 0 /* alltoallw */, .group_size = 16, .ranks_per_node = 16,
                        .plan_ranks = 256, .plan_nodes = 16, .in_bytes = 4177920, .out_bytes = 4177920};
    double chunk = 4177920 / 16.0;
    x.peers_on_node = row[0].peers_on_node[0];
    x.nodes_in_group = row[0].nodes_in_group[0];
    x.level_pair_messages[0] = row[0].level_pair[0][0];
    double row_seconds = model_exchange_seconds(&model, &x);
    x.peers_on_node = morton[0].peers_on_node[1];
    x.nodes_in_group = morton[0].nodes_in_group[1];
    x.level_pair_messages[0] = 0;
    double unleveled = model_exchange_seconds(&model, &x); /* the old model: no level counted */
    x.level_pair_messages[0] = morton[0].level_pair[1][0];
    double morton_seconds = model_exchange_seconds(&model, &x);
    check(near(morton_seconds, 9.3e-6 + 512 * chunk / 4.69e9), "Morton: the router link's 512 messages");
    check(near(row_seconds, 9.3e-6 + 256 * chunk / 4.69e9), "row-major columns: the router link's 256");
    check(unleveled < 0.5 * morton_seconds, "without levels Morton looks injection-bound (the 2.16 miss)");
    x.plan_bytes = 256 * 4177920.0 * 1.01; /* others' blocks 1 % larger: the link carries their mean */
    check(near(model_exchange_seconds(&model, &x), 9.3e-6 + 512 * 1.01 * chunk / 4.69e9),
          "a shared link's messages at the mean chunk of the whole array");
    x.plan_bytes = 0;
    check(morton_seconds > 1.9 * row_seconds && morton_seconds < 2.1 * row_seconds,
          "Morton's exchange twice row-major's columns (SMPI: 28.6 ms against 14.6)");

    /* A second level: groups of 2 routers. Morton's rows stay in a group
     * (routers 0,1 and 2,3): the router link carries them as before; its
     * columns cross between groups -- 16 columns x 8 x 8 on the group link,
     * none on a router link (routers 0 and 2 are in different groups). */
    model.levels = 2;
    model.level[1] = (model_level){.name = "group", .size = 2, .pair_bandwidth = 9.38e9};
    check(model_topology_compute(&model, 256, pairs, 2, dims, morton) == 0, "two levels");
    check(morton[0].level_pair[1][0] == 512 && morton[0].level_pair[1][1] == 0 &&
              morton[0].level_pair[0][0] == 0 && morton[0].level_pair[0][1] == 1024 &&
              morton[200].level_out[0][1] == 1024,
          "two levels: a link is counted at the lowest level joining its units");
}

/* The topology by the definition, rank by rank (O(P x group) and more):
 * the reference model_topology_compute must agree with. */
static void naive_topology(const cost_model *model, int size, const int *pairs, int grid_ndims, const int *dims,
                           model_topology *each)
{
    int *rank_at = malloc((size_t)size * sizeof *rank_at), *node = malloc((size_t)size * sizeof *node);
    int nodes = 0;
    for (int r = 0; r < size; r++) rank_at[pairs[2 * r]] = r;
    for (int r = 0; r < size; r++) { /* nodes numbered by their lowest rank, in rank order */
        node[r] = -1;
        for (int q = 0; q < r && node[r] < 0; q++)
            if (pairs[2 * q + 1] == pairs[2 * r + 1]) node[r] = node[q];
        if (node[r] < 0) node[r] = nodes++;
    }
    for (int r = 0; r < size; r++) {
        memset(&each[r], 0, sizeof each[r]);
        each[r].plan_ranks = size;
        each[r].plan_nodes = nodes;
        for (int q = 0; q < size; q++) each[r].ranks_per_node += node[q] == node[r];
    }
    /* grid coordinates of an index; members of r's group in d */
    for (int d = 0; d < grid_ndims; d++) {
        int stride = 1;
        for (int e = d + 1; e < grid_ndims; e++) stride *= dims[e];
        for (int r = 0; r < size; r++) {
            int index = pairs[2 * r], coord = index / stride % dims[d], base = index - coord * stride;
            int seen_nodes[64], distinct = 0;
            each[r].group_size[d] = dims[d];
            for (int k = 0; k < dims[d]; k++) {
                int q = rank_at[base + k * stride], fresh = 1;
                if (q != r && node[q] == node[r]) each[r].peers_on_node[d]++;
                for (int i = 0; i < distinct; i++) fresh &= seen_nodes[i] != node[q];
                if (fresh) seen_nodes[distinct++] = node[q];
            }
            each[r].nodes_in_group[d] = distinct;
        }
        long long span = 1;
        for (int l = 0; l < model->levels; l++) {
            span *= model->level[l].size;
            int units = 0;
            for (int r = 0; r < size; r++) units = node[r] / span + 1 > units ? (int)(node[r] / span) + 1 : units;
            if (units < 2) continue;
            for (int r = 0; r < size; r++) {
                int u = (int)(node[r] / span);
                int index = pairs[2 * r], coord = index / stride % dims[d], base = index - coord * stride;
                int parent = l + 1 < model->levels ? u / model->level[l + 1].size : 0, out = 0, busiest = 0;
                for (int s = 0; s < size; s++) /* out: every message leaving r's unit */
                    if (node[s] / span == u) {
                        int si = pairs[2 * s], sb = si - si / stride % dims[d] * stride;
                        for (int k = 0; k < dims[d]; k++) out += node[rank_at[sb + k * stride]] / span != u;
                    }
                for (int k = 0; k < dims[d]; k++) { /* the units r's group reaches under the same parent */
                    int v = (int)(node[rank_at[base + k * stride]] / span);
                    if (v == u || (l + 1 < model->levels ? v / model->level[l + 1].size : 0) != parent) continue;
                    int to_v = 0; /* messages from unit u to unit v, all groups */
                    for (int s = 0; s < size; s++)
                        if (node[s] / span == u) {
                            int si = pairs[2 * s], sb = si - si / stride % dims[d] * stride;
                            for (int j = 0; j < dims[d]; j++) to_v += node[rank_at[sb + j * stride]] / span == v;
                        }
                    busiest = to_v > busiest ? to_v : busiest;
                }
                each[r].level_out[d][l] = out;
                each[r].level_pair[d][l] = busiest;
            }
        }
    }
    free(rank_at);
    free(node);
}

/* What scale found: rank 0 worked out every rank's topology member by
 * member (O(P x group x log group) per candidate grid): 3.2 s of a
 * 16,384-rank plan's 4.0 s with tune_budget 1 (docs/guide/scale.md). Now
 * group by group, O(P) and the units each group spans squared. Checked
 * against the definition on random grids, placements, nodes and levels,
 * and run once at 131,072 ranks on an 8 x 16,384 pencil (the old way:
 * over a minute here, beyond this test's 30 s timeout; now a fraction of a
 * second). */
static void test_topology_by_groups(void)
{
    unsigned seed = 12345;
#define NEXT(n) ((int)((seed = seed * 1103515245u + 12345u) >> 16) % (n))
    int same = 1;
    for (int trial = 0; trial < 400; trial++) {
        int ndims = 1 + NEXT(3), dims[3], size = 1;
        for (int d = 0; d < ndims; d++) size *= dims[d] = 1 + NEXT(6);
        int cores = 1 + NEXT(5), scattered = NEXT(2), nodes = (size + cores - 1) / cores;
        cost_model model;
        memset(&model, 0, sizeof model);
        model.levels = NEXT(3);
        for (int l = 0; l < model.levels; l++) model.level[l].size = 1 + NEXT(3);
        int *pairs = malloc(2 * (size_t)size * sizeof *pairs);
        for (int r = 0; r < size; r++) pairs[2 * r] = r;
        for (int r = size - 1; r > 0 && NEXT(2); r--) { /* a placement: the grid indices shuffled */
            int q = NEXT(r + 1), t = pairs[2 * r];
            pairs[2 * r] = pairs[2 * q];
            pairs[2 * q] = t;
        }
        for (int r = 0; r < size; r++) { /* node labels: the node's lowest rank */
            int n = scattered ? r % nodes : r / cores;
            pairs[2 * r + 1] = scattered ? n : n * cores;
        }
        model_topology *fast = calloc((size_t)size, sizeof *fast), *slow = calloc((size_t)size, sizeof *slow);
        same &= model_topology_compute(&model, size, pairs, ndims, dims, fast) == 0;
        naive_topology(&model, size, pairs, ndims, dims, slow);
        same &= memcmp(fast, slow, (size_t)size * sizeof *fast) == 0;
        free(pairs);
        free(fast);
        free(slow);
    }
#undef NEXT
    check(same, "topology group by group = the definition, on 400 random grids, placements and levels");

    int size = 131072, dims[2] = {8, 16384};
    cost_model model;
    memset(&model, 0, sizeof model);
    model.levels = 1; /* leaf switches of 16 nodes of 16 ranks: 256 ranks each */
    model.level[0] = (model_level){.name = "leaf", .size = 16, .out_bandwidth = 3.5e11};
    int *pairs = malloc(2 * (size_t)size * sizeof *pairs);
    model_topology *each = malloc((size_t)size * sizeof *each);
    for (int r = 0; r < size; r++) {
        pairs[2 * r] = r;
        pairs[2 * r + 1] = r / 16 * 16;
    }
    int ok = pairs && each && model_topology_compute(&model, size, pairs, 2, dims, each) == 0;
    /* direction 1: rows of 16,384 consecutive ranks (1,024 nodes, 64
     * units of 256 ranks each, which send 256 x 256 to each other unit of
     * the row); direction 0: columns of 8 on 8 nodes and 8 units */
    for (int r = 0; ok && r < size; r += 4099)
        ok = each[r].group_size[1] == 16384 && each[r].peers_on_node[1] == 15 &&
             each[r].nodes_in_group[1] == 1024 && each[r].peers_on_node[0] == 0 &&
             each[r].nodes_in_group[0] == 8 && each[r].level_out[1][0] == 256 * (16384 - 256) &&
             each[r].level_pair[1][0] == 256 * 256 && each[r].level_out[0][0] == 256 * 7 &&
             each[r].level_pair[0][0] == 256;
    check(ok, "131,072 ranks on an 8 x 16,384 pencil: every rank's topology");
    free(pairs);
    free(each);
}

/* Rates by axis length: an FFT step is the sum of its axes' passes. */
static void test_length_rates(void)
{
    char message[256];
    cost_model model;
    char text[1024];
    snprintf(text, sizeof text, "%s%s", valid,
             "fft_c2c_double_length = 16:1e-9 256:2e-9 512:3e-9\nfft_r2c_double_length = 512:1.5e-9\n");
    check(model_parse(text, &model, message, sizeof message) == 0, "per-length rates parse");
    check(model.fft_length[MODEL_C2C][0].count == 3 && model.fft_length[MODEL_C2C][0].elements[2] == 512,
          "per-length rates read");
    check(round_trips(&model), "per-length rates written and read back the same");
    check(near(model_fft_length_rate(&model, MODEL_C2C, DISTFFT_DOUBLE, 64), 1.5e-9),
          "length rate interpolated in log n");
    check(near(model_fft_length_rate(&model, MODEL_C2C, DISTFFT_DOUBLE, 4096), 3e-9), "length rate beyond");
    check(near(model_fft_length_rate(&model, MODEL_C2C, DISTFFT_FLOAT, 512), 0.6 * 3e-9), "float from double");
    check(near(model_fft_length_rate(&model, MODEL_R2R, DISTFFT_DOUBLE, 512), 3e-9), "r2r from c2c");
    /* A slab's first step of 512^3 r2c on 64 ranks: 8 x 512 x 512 real,
     * r2c along axis 2 (the r2c rate on the real elements), c2c along
     * axis 1 on 8 x 512 x 257 complex ones. */
    int axes[2] = {1, 2};
    int64_t shape[3] = {8, 512, 512};
    double real = 8.0 * 512 * 512;
    check(near(model_fft_axes_seconds(&model, MODEL_R2C, DISTFFT_DOUBLE, 2, axes, shape, real),
               real * 9 * 1.5e-9 + 8.0 * 512 * 257 * 9 * 3e-9),
          "an r2c step: the halved axis at the r2c rate, the other at c2c's on complex elements");
    int one[1] = {0};
    int64_t pencil[3] = {512, 32, 17};
    check(near(model_fft_axes_seconds(&model, MODEL_C2C, DISTFFT_DOUBLE, 1, one, pencil, 512.0 * 32 * 17),
               512.0 * 32 * 17 * 9 * 3e-9),
          "a c2c step: the rate of its axis' length, not of its block's size");
    cost_model plain;
    model_parse(valid, &plain, message, sizeof message);
    check(model_fft_axes_seconds(&plain, MODEL_C2C, DISTFFT_DOUBLE, 1, one, pencil, 512.0 * 32 * 17) < 0,
          "no per-length rates: the rate by block size applies");
}

/* The one folding rule (plan_step_folds) and the candidate's sweep priced
 * by it: alltoallw's exchange takes no factor, alltoallv's a power of two
 * only, weights and a fused c2r's copy any; where none takes it, a pass
 * over the last step's output (2 x bytes at memcpy_bandwidth). */
static void test_sweep(const cost_model *model)
{
    step_spec steps[3];
    memset(steps, 0, sizeof steps);
    steps[0].kind = STEP_FFT;
    steps[0].fft.family = SERIAL_C2C;
    steps[0].fft.naxes = 2;
    steps[1].kind = STEP_EXCHANGE;
    steps[2] = steps[0];
    for (int s = 0; s < 3; s++) {
        steps[s].in_type = steps[s].out_type = DISTFFT_COMPLEX_DOUBLE;
        steps[s].in_count = steps[s].out_count = 1000;
    }
    steps[2].out_count = 500;
    const double exact = 1.0 / 64, inexact = 1.0 / 60;
    check(!plan_step_folds(&steps[1], DISTFFT_METHOD_ALLTOALLW, exact), "alltoallw's exchange takes no factor");
    check(!plan_step_folds(&steps[1], DISTFFT_METHOD_VECTOR, exact), "vector's exchange takes no factor");
    check(plan_step_folds(&steps[1], DISTFFT_METHOD_ALLTOALLV, exact), "alltoallv's unpack takes 1/64");
    check(plan_step_folds(&steps[1], DISTFFT_METHOD_SENDRECV, exact), "sendrecv's unpack takes 1/64");
    check(!plan_step_folds(&steps[1], DISTFFT_METHOD_ALLTOALLV, inexact), "alltoallv's unpack refuses 1/60");
    check(!plan_step_folds(&steps[0], DISTFFT_METHOD_AUTO, exact), "a c2c step takes no factor");
    double sweep = 2.0 * 500 * 16 / model->memcpy_bandwidth;
    check(near(model_sweep_seconds(model, steps, 3, DISTFFT_METHOD_ALLTOALLW, exact), sweep),
          "alltoallw: a sweep over the last output");
    check(model_sweep_seconds(model, steps, 3, DISTFFT_METHOD_ALLTOALLV, exact) == 0.0,
          "alltoallv, 1/64: folded, no sweep");
    check(near(model_sweep_seconds(model, steps, 3, DISTFFT_METHOD_ALLTOALLV, inexact), sweep),
          "alltoallv, 1/60: a sweep");
    check(model_sweep_seconds(model, steps, 3, DISTFFT_METHOD_ALLTOALLW, 1.0) == 0.0, "factor 1: no sweep");
    steps[0].kind = STEP_WEIGHTS;
    check(plan_step_folds(&steps[0], DISTFFT_METHOD_AUTO, inexact) &&
          model_sweep_seconds(model, steps, 3, DISTFFT_METHOD_ALLTOALLW, inexact) == 0.0,
          "weights take any factor: no sweep");
    steps[0].kind = STEP_FFT;
    steps[0].fft.family = SERIAL_C2R;
    steps[0].fft.preserve_input = true;
    check(plan_step_folds(&steps[0], DISTFFT_METHOD_AUTO, inexact), "a fused c2r's copy takes any factor");
    steps[0].fft.naxes = 1;
    check(!plan_step_folds(&steps[0], DISTFFT_METHOD_AUTO, inexact), "a one-axis c2r makes no copy");
}

int main(void)
{
    cost_model model;
    test_parse(&model);
    test_rates(&model);
    test_active(&model);
    test_block(&model);
    test_active_counts();
    test_exchanges(&model);
    test_levels();
    test_topology_by_groups();
    test_length_rates();
    test_sweep(&model);
    if (failures) return 1;
    printf("test_cost_model: all passed\n");
    return 0;
}
