/*
 * calibrate.c -- measuring the cost model (model.h) on the machine this
 * runs on, real or simulated (SimGrid's SMPI: MPI_Wtime is simulated time
 * there, so the numbers describe the simulated platform).
 *
 * Every measurement runs on every rank at once, as the transform does
 * (memory and network shared the same way), and keeps the slowest rank's
 * time, the fastest of a few runs:
 *   FFT rates      calibrate_fft.c: serial transforms per family and
 *                  precision, by block size (n^3 blocks) and by axis
 *                  length (16 to 1,024 points)
 *   memcpy         one copy of a large buffer
 *   intra-node     every rank exchanges with a partner on its node
 *                  (MPI_Sendrecv, both directions) at sizes from 8 bytes
 *                  to 16 MiB: the message table, the latency (8 bytes) and
 *                  the bandwidth (between the two largest)
 *   datatype       alltoallw's subarray types, a slab exchange between two
 *                  partners with the caches evicted first (as a plan finds
 *                  them), less the message table's time for its bytes:
 *                  chunks of 128 KiB to 8 MiB, and to 67 MB off SMPI (the
 *                  datatype engine's copies, the own chunk, memory beyond
 *                  the cache; 0 where they cost nothing)
 *   many at once   an MPI_Alltoall inside a node, and among the nodes'
 *                  first ranks, less one exchange: what each further
 *                  message in flight adds (when a level has 3 ranks)
 *   inter-node     one pair of ranks on two nodes alone (the link), then
 *                  every rank with its counterpart on the neighbouring
 *                  node (what the node can inject, shared by its ranks)
 * Where a level cannot be measured (one node; one rank per node) it takes
 * the other level's numbers and the file says so in a comment.
 *
 * MPI failures: a measurement makes the same collective calls on every
 * rank whatever fails (so none waits for another), keeps its first failure
 * (*rc, keep_mpi) and the caller agrees on it after each measurement; a
 * failed calibration writes no model.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../environment.h"
#include "../error.h"
#include "../node.h"
#include "../platform.h"
#include "../redist/nodes.h"
#include "calibrate.h"
#include "predict.h"

/* Runs per measurement, the fastest kept: on a shared machine noise only
 * ever slows a run down (timer.c), so the fastest of many is the machine's
 * own figure. Cheap measurements take more. */
static int RUNS = 6, CHEAP_RUNS = 12;
static int QUICK;

/* DISTFFT_CALIBRATE_QUICK=1 (rank 0's; a testing knob): FFT sizes up to
 * 32 and lengths up to 64 (calibrate_fft.c) and few runs -- seconds
 * instead of tens of seconds, rougher numbers. */
static int choose_effort(MPI_Comm comm)
{
    int rank = -1, quick = 0, rc = mpi_rank_size(comm, &rank, NULL);
    if (rank == 0) quick = calibrate_quick();
    KEEP_MPI(MPI_Bcast(&quick, 1, MPI_INT, 0, comm));
    RUNS = quick ? 2 : 6;
    CHEAP_RUNS = quick ? 3 : 12;
    QUICK = quick;
    return rc;
}

/* ---- copies --------------------------------------------------------------------- */

#define COPY_BYTES (32u << 20)

static double measure_memcpy(MPI_Comm comm, char *from, char *to, int *rc)
{
    memset(from, 1, COPY_BYTES);
    memset(to, 0, COPY_BYTES);
    double best = INFINITY;
    for (int run = 0; run < CHEAP_RUNS + 1; run++) {
        keep_mpi(rc, MPI_Barrier(comm), "MPI_Barrier");
        double start = MPI_Wtime();
        memcpy(to, from, COPY_BYTES);
        double seconds = calibration_slowest(comm, MPI_Wtime() - start, rc);
        if (run > 0 && seconds < best) best = seconds;
    }
    return best > 0 ? COPY_BYTES / best : 1e15; /* SMPI without simulated computation: free */
}

/* Evicting the caches before a timed exchange, as a plan's exchange finds
 * them: the FFT step before it streamed its whole block, and wrote the
 * exchange's input last. Not where ranks share one process (every rank's
 * memory is the host's, and a simulated network's time is not the
 * host's). */
typedef struct {
    char *buffer;
    size_t bytes;
} cache_flush;

/* A buffer of twice the last-level cache (sysconf's, else 64 MiB) shared
 * among the node's `members` ranks, 32 MiB to 1 GiB each; none where it
 * cannot be had (the runs go warm then). */
static cache_flush cache_flush_create(int members)
{
    cache_flush flush = {NULL, 0};
    if (platform_ranks_share_process()) return flush;
#if defined(_SC_LEVEL3_CACHE_SIZE)
    long cache = sysconf(_SC_LEVEL3_CACHE_SIZE);
    double bytes = 2.0 * (cache > 0 ? (double)cache : 64.0 * (1 << 20)) / (members > 0 ? members : 1);
    bytes = fmin(fmax(bytes, 32.0 * (1 << 20)), 1024.0 * (1 << 20));
    flush.buffer = malloc((size_t)bytes);
    if (flush.buffer) flush.bytes = (size_t)bytes;
#else
    (void)members;
#endif
    return flush;
}

static void cache_flush_run(const cache_flush *flush, char *input, size_t input_bytes, int run)
{
    if (!flush->buffer) return;
    memset(flush->buffer, run, flush->bytes);
    memset(input, run, input_bytes); /* the FFT's output: written last */
}

/* Seconds of the typed slab exchange on a pair, caches evicted before each
 * run (flush), fastest of CHEAP_RUNS, the slowest rank's (0 where this
 * rank has no pair). */
static double pair_time(MPI_Comm comm, MPI_Comm pair, const cache_flush *flush, char *from, void *to, int n,
                        MPI_Datatype *send_types, MPI_Datatype *receive_types, int *rc)
{
    int counts[2] = {1, 1}, displacements[2] = {0, 0};
    double best = INFINITY;
    for (int run = 0; run < CHEAP_RUNS + 1; run++) {
        if (pair != MPI_COMM_NULL) cache_flush_run(flush, from, (size_t)(n / 2) * n * n * 16, run);
        keep_mpi(rc, MPI_Barrier(comm), "MPI_Barrier");
        double start = MPI_Wtime();
        if (pair != MPI_COMM_NULL)
            keep_mpi(rc, MPI_Alltoallw(from, counts, displacements, send_types, to, counts, displacements,
                                       receive_types, pair), "MPI_Alltoallw");
        double seconds = calibration_slowest(comm, pair != MPI_COMM_NULL ? MPI_Wtime() - start : 0.0, rc);
        if (run > 0 && seconds < best) best = seconds;
    }
    return best;
}

/* The subarray types of the two partners' chunks in a slab exchange of
 * n/2 x n x n blocks (see measure_datatype), committed; MPI_DATATYPE_NULL
 * where not made. Local. */
static int slab_types(int n, MPI_Datatype *send, MPI_Datatype *receive)
{
    int rc = DISTFFT_SUCCESS, h = n / 2;
    MPI_Datatype complex_type = MPI_DATATYPE_NULL;
    send[0] = send[1] = receive[0] = receive[1] = MPI_DATATYPE_NULL;
    TRY_MPI(MPI_Type_contiguous(16, MPI_BYTE, &complex_type));
    TRY_MPI(MPI_Type_commit(&complex_type)); /* SMPI refuses an uncommitted old type */
    for (int p = 0; p < 2; p++) {
        int in_shape[3] = {h, n, n}, in_sub[3] = {h, n, h}, in_start[3] = {0, 0, p * h};
        int out_shape[3] = {n, n, h}, out_sub[3] = {h, n, h}, out_start[3] = {p * h, 0, 0};
        TRY_MPI(MPI_Type_create_subarray(3, in_shape, in_sub, in_start, MPI_ORDER_C, complex_type, &send[p]));
        TRY_MPI(MPI_Type_commit(&send[p]));
        TRY_MPI(MPI_Type_create_subarray(3, out_shape, out_sub, out_start, MPI_ORDER_C, complex_type,
                                         &receive[p]));
        TRY_MPI(MPI_Type_commit(&receive[p]));
    }
fail: /* the subarrays keep what they need of complex_type */
    if (complex_type != MPI_DATATYPE_NULL) KEEP_MPI(MPI_Type_free(&complex_type));
    return rc;
}

static int free_slab_types(MPI_Datatype *send, MPI_Datatype *receive)
{
    int rc = DISTFFT_SUCCESS;
    for (int p = 0; p < 2; p++) {
        if (send[p] != MPI_DATATYPE_NULL) KEEP_MPI(MPI_Type_free(&send[p]));
        if (receive[p] != MPI_DATATYPE_NULL) KEEP_MPI(MPI_Type_free(&receive[p]));
    }
    return rc;
}

/* ---- messages ------------------------------------------------------------------- */

static const int message_sizes[] = {8, 1024, 16384, 65536, 262144, 1 << 20, 4 << 20, 16 << 20};
#define MESSAGE_SIZES ((int)(sizeof message_sizes / sizeof message_sizes[0]))

/* Exchange with `partner` (MPI_PROC_NULL: sit it out) at every size: the
 * table of seconds (the slowest rank that has a partner, fastest of a few
 * runs), the latency (smallest size) and the bandwidth (between the two
 * largest). Collective. */
static void exchange_with(MPI_Comm comm, int partner, char *send, char *receive, model_rate *table,
                          double *latency, double *bandwidth, int *rc)
{
    table->count = 0;
    for (int s = 0; s < MESSAGE_SIZES; s++) {
        int bytes = message_sizes[s], runs = bytes >= (1 << 20) ? CHEAP_RUNS + 1 : 3 * CHEAP_RUNS;
        double best = INFINITY;
        for (int run = 0; run < runs; run++) {
            keep_mpi(rc, MPI_Barrier(comm), "MPI_Barrier");
            double start = MPI_Wtime();
            keep_mpi(rc, MPI_Sendrecv(send, bytes, MPI_BYTE, partner, 1, receive, bytes, MPI_BYTE, partner, 1,
                                      comm, MPI_STATUS_IGNORE), "MPI_Sendrecv");
            double seconds = calibration_slowest(comm, partner == MPI_PROC_NULL ? 0.0 : MPI_Wtime() - start, rc);
            if (run > 0) best = fmin(best, seconds);
        }
        /* Never faster than a smaller message (noise): keeps the table monotone. */
        if (table->count && best < table->seconds_per_unit[table->count - 1])
            best = table->seconds_per_unit[table->count - 1];
        table->elements[table->count] = bytes;
        table->seconds_per_unit[table->count++] = best > 0 ? best : 1e-9;
    }
    int n = table->count;
    *latency = table->seconds_per_unit[0];
    double dt = table->seconds_per_unit[n - 1] - table->seconds_per_unit[n - 2];
    double db = table->elements[n - 1] - table->elements[n - 2];
    *bandwidth = dt > 0 ? db / dt : table->elements[n - 1] / table->seconds_per_unit[n - 1];
}

typedef struct {
    int rank, size;
    int nodes, node;           /* how many, and this rank's (0-based, by lowest rank) */
    int member, members;       /* this rank's index on its node, and the node's ranks */
    int *first_rank_of;        /* [nodes][max members]: ranks by node and index, -1 none */
    int max_members, min_members;
} node_layout;

/* The nodes of comm (node.h's labels, redist/nodes.h's map: nodes numbered
 * by their lowest rank, a node's ranks in rank order) as a table of ranks
 * by node and index. Collective on comm; the same code on every rank. */
static int layout_create(MPI_Comm comm, int node_size, node_layout *layout)
{
    memset(layout, 0, sizeof *layout);
    node_map map = {0};
    int rc = DISTFFT_SUCCESS, label = 0;
    TRY(error_agree(comm, mpi_rank_size(comm, &layout->rank, &layout->size))); /* one rank may fail */
    TRY(error_agree(comm, node_label_find(comm, layout->rank, node_size, 0, &label)));
    TRY(node_map_create(comm, label, "calibration", &map));
    layout->nodes = map.nodes;
    layout->node = map.node_of[layout->rank];
    layout->min_members = layout->size;
    for (int n = 0; n < map.nodes; n++) {
        int count = map.first[n + 1] - map.first[n];
        if (count > layout->max_members) layout->max_members = count;
        if (count < layout->min_members) layout->min_members = count;
    }
    layout->first_rank_of = malloc((size_t)layout->nodes * layout->max_members * sizeof(int));
    TRY(error_agree(comm, layout->first_rank_of ? DISTFFT_SUCCESS
                                                : error_fail(DISTFFT_ERR_MEMORY, "calibration")));
    for (int n = 0; n < map.nodes; n++)
        for (int k = 0; k < layout->max_members; k++) {
            int at = map.first[n] + k;
            layout->first_rank_of[n * layout->max_members + k] = at < map.first[n + 1] ? map.members[at] : -1;
        }
    layout->members = map.first[layout->node + 1] - map.first[layout->node];
    layout->member = node_index_of(&map, layout->rank);
fail:
    node_map_free(&map);
    return rc;
}

static int rank_at(const node_layout *layout, int node, int member)
{
    if (node < 0 || node >= layout->nodes || member < 0 || member >= layout->max_members) return MPI_PROC_NULL;
    int r = layout->first_rank_of[node * layout->max_members + member];
    return r < 0 ? MPI_PROC_NULL : r;
}

static void measure_messages(MPI_Comm comm, const node_layout *layout, char *send, char *receive,
                             cost_model *model, int *intra_measured, int *inter_measured, int *rc)
{
    *intra_measured = layout->max_members > 1;
    *inter_measured = layout->nodes > 1;
    if (*intra_measured)
        exchange_with(comm, rank_at(layout, layout->node, layout->member ^ 1), send, receive,
                      &model->message[MODEL_INTRA], &model->latency_intra, &model->bandwidth_intra, rc);
    if (*inter_measured) {
        /* The link: rank 0 of node 0 and of node 1 alone. */
        int partner = layout->member == 0 && layout->node < 2 ? rank_at(layout, layout->node ^ 1, 0)
                                                              : MPI_PROC_NULL;
        exchange_with(comm, partner, send, receive, &model->message[MODEL_INTER], &model->latency_inter,
                      &model->bandwidth_inter, rc);
        /* Every rank with its counterpart on the neighbouring node: what
         * the node injects, shared by its ranks. */
        model_rate table;
        double latency, per_rank;
        exchange_with(comm, rank_at(layout, layout->node ^ 1, layout->member), send, receive, &table, &latency,
                      &per_rank, rc);
        model->injection_bandwidth = per_rank * layout->min_members;
    }
    if (!*intra_measured && !*inter_measured) /* one rank: messages to itself */
        exchange_with(MPI_COMM_SELF, 0, send, receive, &model->message[MODEL_INTRA], &model->latency_intra,
                      &model->bandwidth_intra, rc);
    else if (!*intra_measured) {
        model->latency_intra = model->latency_inter;
        model->bandwidth_intra = model->bandwidth_inter;
        model->message[MODEL_INTRA] = model->message[MODEL_INTER];
    }
    if (!*inter_measured) {
        model->latency_inter = model->latency_intra;
        model->bandwidth_inter = model->bandwidth_intra;
        model->message[MODEL_INTER] = model->message[MODEL_INTRA];
        model->injection_bandwidth = 0.0;
    }
}

/* What each further message in flight adds at a level: an MPI_Alltoall
 * among `group` (G >= 3 ranks; MPI_COMM_NULL: sit it out) less one
 * exchange of the same size, over G - 2 -- the slowest group's. Sizes
 * whose G chunks do not fit the buffers end the table. Collective on comm;
 * the table stays empty when no group has 3 ranks. The first failure. */
static int measure_more(MPI_Comm comm, MPI_Comm group, cost_model *model, int level, char *send,
                        char *receive)
{
    int members = 0, fewest = INT32_MAX, largest = 0, rc = DISTFFT_SUCCESS;
    model_rate *table = &model->more[level];
    table->count = 0;
    int local = group != MPI_COMM_NULL ? CHECK_MPI(MPI_Comm_size(group, &members)) : DISTFFT_SUCCESS;
    TRY(error_agree(comm, local)); /* failing on one rank only */
    int mine = group != MPI_COMM_NULL ? members : INT32_MAX;
    TRY_MPI(MPI_Allreduce(&mine, &fewest, 1, MPI_INT, MPI_MIN, comm));
    if (fewest < 3 || fewest == INT32_MAX) return rc;
    TRY_MPI(MPI_Allreduce(&members, &largest, 1, MPI_INT, MPI_MAX, comm));
    for (int s = 1; s < MESSAGE_SIZES - 2; s++) { /* 1 KiB .. 1 MiB */
        int bytes = message_sizes[s];
        if ((double)bytes * largest > COPY_BYTES) break;
        double best = INFINITY;
        for (int run = 0; run < RUNS + 1; run++) {
            KEEP_MPI(MPI_Barrier(comm));
            double start = MPI_Wtime();
            if (group != MPI_COMM_NULL) KEEP_MPI(MPI_Alltoall(send, bytes, MPI_BYTE, receive, bytes, MPI_BYTE, group));
            double seconds = calibration_slowest(comm, group != MPI_COMM_NULL ? MPI_Wtime() - start : 0.0, &rc);
            if (run > 0) best = fmin(best, seconds);
        }
        double extra = (best - model_message_seconds(model, level, bytes)) / (fewest - 2);
        if (table->count && extra < table->seconds_per_unit[table->count - 1])
            extra = table->seconds_per_unit[table->count - 1]; /* monotone despite noise */
        table->elements[table->count] = bytes;
        table->seconds_per_unit[table->count++] = extra > 1e-12 ? extra : 1e-12;
    }
fail:
    return rc;
}

static int measure_more_both(MPI_Comm comm, const node_layout *layout, cost_model *model, char *send,
                             char *receive, int intra, int inter)
{
    int rc = DISTFFT_SUCCESS;
    MPI_Comm node = MPI_COMM_NULL, leaders = MPI_COMM_NULL;
    /* Inside the node: all its ranks; between nodes: each node's first rank. */
    TRY_MPI(MPI_Comm_split(comm, layout->node, layout->rank, &node));
    TRY_MPI(MPI_Comm_split(comm, layout->member == 0 ? 0 : MPI_UNDEFINED, layout->rank, &leaders));
    if (intra) TRY(error_agree(comm, measure_more(comm, node, model, MODEL_INTRA, send, receive)));
    if (inter) TRY(error_agree(comm, measure_more(comm, leaders, model, MODEL_INTER, send, receive)));
    if (!intra) model->more[MODEL_INTRA] = model->more[MODEL_INTER];
    if (!inter) model->more[MODEL_INTER] = model->more[MODEL_INTRA];
fail:
    if (node != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(&node));
    if (leaders != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(&leaders));
    return rc;
}

/* What alltoallw's subarray datatypes cost beyond the wire: a slab
 * exchange between two partners (blocks of n/2 x n x n complex doubles,
 * axis 2 split among the two before, axis 0 after), caches evicted before
 * each run as in a plan, less one message of the chunk's bytes at the
 * partner's level (the message table, measured before) -- the datatype
 * engine's copies, this rank's own chunk and what memory, not cache, adds
 * -- into model->datatype keyed by the chunk's bytes (what one peer's
 * message carries); the largest's as datatype_bandwidth (0: no measurable
 * extra cost). n = 32 to 128 in the calibration's buffers, then, not under
 * SMPI, 192 and 256 (chunks of 28 and 67 MB, beyond a cache) in arrays of
 * their own (2 x 128 MiB, freed at once) where every rank can have them.
 * Collective; the first failure, agreed. */
static int measure_datatype(MPI_Comm comm, const node_layout *layout, int partner, char *from, char *to,
                            cost_model *model)
{
    static const int sizes[] = {32, 64, 96, 128, 192, 256};
    int rank, rc = DISTFFT_SUCCESS, count = 4;
    MPI_Comm pair = MPI_COMM_NULL;
    model_rate *table = &model->datatype;
    char *big_from = NULL, *big_to = NULL;
    cache_flush flush = cache_flush_create(layout->members);
    table->count = 0;
    model->datatype_bandwidth = 0.0;
    int level = partner == rank_at(layout, layout->node, layout->member ^ 1) ? MODEL_INTRA : MODEL_INTER;
    TRY_MPI(MPI_Comm_rank(comm, &rank));
    TRY_MPI(MPI_Comm_split(comm, partner == MPI_PROC_NULL ? MPI_UNDEFINED : (rank < partner ? rank : partner),
                           rank, &pair));
    if (!platform_ranks_share_process()) { /* the same answer on every rank */
        size_t big_bytes = (size_t)128 * 256 * 256 * 16;
        big_from = malloc(big_bytes);
        big_to = malloc(big_bytes);
        int mine = big_from && big_to, all = 0;
        TRY_MPI(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm)); /* all or none */
        if (all) count = 6;
    }
    for (int s = 0; s < count; s++) {
        int n = sizes[s], h = n / 2;
        MPI_Datatype send[2], receive[2];
        double typed = 0.0;
        rc = error_agree(comm, slab_types(n, send, receive));
        if (rc == DISTFFT_SUCCESS)
            typed = pair_time(comm, pair, &flush, s < 4 ? from : big_from, s < 4 ? to : big_to, n, send,
                              receive, &rc);
        KEEP(free_slab_types(send, receive));
        TRY(error_agree(comm, rc));
        double chunk = (double)h * n * h * 16;
        double wire = model_message_seconds(model, level, chunk);
        double extra = typed > wire * 1.1 ? typed - wire : 0.0; /* below: noise, not a cost */
        if (table->count && extra < table->seconds_per_unit[table->count - 1])
            extra = table->seconds_per_unit[table->count - 1];
        table->elements[table->count] = chunk;
        table->seconds_per_unit[table->count++] = extra > 1e-12 ? extra : 1e-12;
        if (s == count - 1 && extra > 0) model->datatype_bandwidth = 2 * chunk / extra;
    }
    if (model->datatype_bandwidth == 0.0) table->count = 0; /* free: no table */
fail:
    free(big_from);
    free(big_to);
    free(flush.buffer);
    if (pair != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(&pair));
    return rc;
}

bool calibrate_quick(void) { return environment_switch("DISTFFT_CALIBRATE_QUICK"); }

/* text as one line: control characters as spaces, blanks at both ends
 * dropped (what model_parse trims); returns its start */
static char *one_line(char *text)
{
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f) *c = ' ';
    size_t length = strlen(text);
    while (length > 0 && isspace((unsigned char)text[length - 1])) text[--length] = '\0';
    while (isspace((unsigned char)*text)) text++;
    return text;
}

void model_machine_describe(char *machine, size_t size, const char *mpi_library, int node_size,
                            const char *host)
{
    const char *value = getenv("DISTFFT_MODEL_PLATFORM");
    char platform[81] = "";
    if (value) snprintf(platform, sizeof platform, "%s", value); /* its first 80 bytes */
    const char *named = one_line(platform);
    int simulated = strstr(mpi_library, "SMPI") || strstr(mpi_library, "SimGrid");
    snprintf(machine, size, "%.120s; nodes of %d ranks; %s %.80s", mpi_library, node_size,
             simulated ? "SMPI platform" : "host",
             named[0] ? named : simulated ? "(set DISTFFT_MODEL_PLATFORM)" : host);
    char *line = one_line(machine);
    memmove(machine, line, strlen(line) + 1);
}

/* ---- the whole ------------------------------------------------------------------ */

static int write_model(MPI_Comm comm, const cost_model *model, const char *path, const char *note)
{
    int rank = -1, local = mpi_rank_size(comm, &rank, NULL);
    if (rank == 0) {
        char *text = model_format(model);
        FILE *file = text ? fopen(path, "w") : NULL;
        if (!text) local = error_fail(DISTFFT_ERR_MEMORY, "model text");
        else if (!file) local = error_fail(DISTFFT_ERR_ARGUMENT, "model file '%s' cannot be written", path);
        else {
            int bad = fputs(text, file) < 0 || (note[0] && fputs(note, file) < 0);
            if (fclose(file) != 0 || bad)
                local = error_fail(DISTFFT_ERR_ARGUMENT, "model file '%s': write failed", path);
        }
        free(text);
    }
    return error_agree(comm, local);
}

/* Ranks a calibration takes where they share one process. Its buffers
 * are one set for all of them (platform_scratch), but MPI packs every
 * message of a derived datatype into buffers of its own, and the datatype
 * measurement has all pairs in flight at once: about 16 MB per rank at
 * its largest chunks (0.63 GB at 32 ranks of 16 per node), 8 GB at this
 * count -- and, simulated, hours. Two nodes measure every figure but the
 * inter-node level's messages in flight (which needs 3 nodes). */
#define SHARED_PROCESS_RANKS_MOST 512

/* Refuse, on every rank (each knows the size), a calibration of more
 * ranks than SHARED_PROCESS_RANKS_MOST where ranks share one process.
 * Local. */
static int check_shared_process_ranks(MPI_Comm comm)
{
    int size = 0, rc = mpi_rank_size(comm, NULL, &size);
    if (rc != DISTFFT_SUCCESS || !platform_ranks_share_process() || size <= SHARED_PROCESS_RANKS_MOST) return rc;
    return error_fail(DISTFFT_ERR_UNSUPPORTED, "distfft_model_calibrate: %d ranks in one process: on this "
                      "platform (%s) a calibration takes at most %d (about 16 MB of memory per rank, and hours); "
                      "calibrate on two simulated nodes, e.g. smpi.py run KIND --ranks 32 --cores-per-node 16 "
                      "-- distfft-bench --calibrate FILE --node-size 16",
                      size, platform_name(), SHARED_PROCESS_RANKS_MOST);
}

int distfft_model_calibrate(MPI_Comm comm, int node_size, distfft_rigor rigor, const char *path)
{
    error_clear();
    if (comm == MPI_COMM_NULL)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_model_calibrate: comm is MPI_COMM_NULL");
    MPI_Comm work = MPI_COMM_NULL;
    if (MPI_Comm_dup(comm, &work) != MPI_SUCCESS)
        return error_fail(DISTFFT_ERR_MPI, "distfft_model_calibrate: MPI_Comm_dup failed");
    int rc = DISTFFT_SUCCESS, measured = DISTFFT_SUCCESS;
    node_layout layout = {0};
    char *from = NULL, *to = NULL;
    int local = CHECK_MPI(MPI_Comm_set_errhandler(work, MPI_ERRORS_RETURN)); /* one rank may fail */
    if (local == DISTFFT_SUCCESS)
        local = !path || !path[0] ? error_fail(DISTFFT_ERR_ARGUMENT, "distfft_model_calibrate: no path")
                : node_size < 0 ? error_fail(DISTFFT_ERR_ARGUMENT, "distfft_model_calibrate: node_size = %d "
                                             "must be >= 0 (0: find the nodes)", node_size)
                : rigor < DISTFFT_ESTIMATE || rigor > DISTFFT_EXHAUSTIVE
                    ? error_fail(DISTFFT_ERR_ARGUMENT, "distfft_model_calibrate: unknown rigor %d", (int)rigor)
                    : check_shared_process_ranks(work);
    TRY(error_agree(work, local));
    cost_model model;
    memset(&model, 0, sizeof model);
    TRY(error_agree(work, choose_effort(work)));
    TRY(layout_create(work, node_size, &layout));
    model.node_size = layout.max_members;
    model_mpi_library(model.mpi_library, sizeof model.mpi_library);
    char host[MPI_MAX_PROCESSOR_NAME] = "";
    int length = 0;
    if (MPI_Get_processor_name(host, &length) != MPI_SUCCESS) snprintf(host, sizeof host, "(unknown)");
    model_machine_describe(model.machine, sizeof model.machine, model.mpi_library, model.node_size, host);
    /* Scratch (platform_scratch): where ranks share a process, one pair for
     * all of them, so the calibration's memory does not grow with the ranks. */
    from = platform_scratch("calibration copy from", COPY_BYTES);
    to = platform_scratch("calibration copy to", COPY_BYTES);
    TRY(error_agree(work, from && to ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "calibration buffers")));
    model.memcpy_bandwidth = measure_memcpy(work, from, to, &measured);
    TRY(error_agree(work, measured));
    int partner = rank_at(&layout, layout.node, layout.member ^ 1); /* on the node, else the next node */
    if (partner == MPI_PROC_NULL) partner = rank_at(&layout, layout.node ^ 1, layout.member);
    int intra, inter;
    measure_messages(work, &layout, from, to, &model, &intra, &inter, &measured);
    TRY(error_agree(work, measured));
    TRY(error_agree(work, measure_datatype(work, &layout, partner, from, to, &model)));
    TRY(measure_more_both(work, &layout, &model, from, to, intra, inter));
    TRY(calibrate_ffts(work, rigor, QUICK, RUNS, layout.member, model.node_size, &model));
    char note[256];
    snprintf(note, sizeof note, "%s%s", intra ? "" : layout.size == 1 ? "# one rank: messages to itself\n"
                                                   : "# one rank per node: intra-node values are the inter-node ones\n",
             inter ? "" : "# one node: inter-node values are the intra-node ones, injection and bisection unknown\n");
    TRY(write_model(work, &model, path, note));
fail:
    platform_scratch_free(from);
    platform_scratch_free(to);
    free(layout.first_rank_of);
    KEEP_MPI(MPI_Comm_free(&work));
    return rc;
}
