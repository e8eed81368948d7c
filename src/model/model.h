/*
 * model.h -- the per-step cost model: what a step of a plan should cost
 * on a machine described by a few measured numbers.
 *
 *   model.c       the numbers and their text file  } pure: no MPI, no FFTW;
 *   model_cost.c  the arithmetic                   } tests/unit/test_cost_model.c
 *   topology.c    which peers of a plan's exchanges share a node, and the
 *                 messages crossing the network's levels (predict.h)
 *   predict.c     predictions of a plan's steps, the process's model
 *                 (predict.h)
 *   calibrate.c   measuring the numbers on the machine it runs on (its
 *                 FFT rates: calibrate_fft.c; calibrate.h)
 *
 * An FFT step costs units * rate, units = elements * sum(log2 n) over its
 * transformed axes and rate the measured seconds per unit of its family
 * (c2c, r2c/c2r, r2r) and precision: by axis length where the model has
 * per-length rates (each axis at the rate of its own length), else
 * interpolated in log(block elements) between calibrated block sizes.
 * An exchange costs, per rank and per level -- peers inside this rank's node (intra) and outside it (inter,
 * where the node's injection bandwidth is shared by the node's ranks, all
 * sending at once since every group of the grid exchanges at the same
 * time) -- one message of its chunk size as measured (latency + bytes /
 * bandwidth where no table is given) plus what each further message in
 * flight adds, bounded below by the machine's bisection when one is
 * given; plus the local copies the method makes (pack/unpack at the
 * memcpy bandwidth; the datatype methods' copies inside MPI at the
 * measured extra cost of a strided type). Methods whose messages are all
 * in flight together (alltoallw, alltoallv, vector, the isend family)
 * overlap the two levels; the pairwise sendrecv adds its rounds up;
 * hierarchical sends the node's inter-node bytes through its leader in one
 * message per node pair. Above the node, where the model knows the
 * network's levels (a Dragonfly's routers and groups), every level's
 * links bound the exchange below: the messages that cross the busiest
 * link between two of its units, for the actual placement of every
 * group's members, at the link's bandwidth.
 */
#ifndef DISTFFT_MODEL_MODEL_H
#define DISTFFT_MODEL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "distfft.h"

#define MODEL_MAX_RATES 8
#define MODEL_MACHINE_SIZE 256
#define MODEL_MAX_LEVELS 4
#define MODEL_LEVEL_NAME 16

/* The FFT families with a rate of their own. */
typedef enum { MODEL_C2C, MODEL_R2C, MODEL_R2R, MODEL_FAMILIES } model_family;

/* Seconds per unit (elements * log2 n) measured at a few block sizes
 * (elements of the local block), increasing sizes. count 0: not measured. */
typedef struct {
    int count;
    double elements[MODEL_MAX_RATES];
    double seconds_per_unit[MODEL_MAX_RATES];
} model_rate;

/* A level of the network above the node (a Dragonfly's router, chassis
 * and group; a fat tree's leaf switch): units of `size` consecutive units
 * of the level below (nodes for the first level; nodes numbered by their
 * lowest rank, as a scheduler fills a machine), their links to each other
 * written by hand from the network's specification, as the bisection is. */
typedef struct {
    char name[MODEL_LEVEL_NAME];  /* for people: "router", "group" */
    int size;                     /* units of the level below per unit (>= 1) */
    double pair_bandwidth;        /* bytes/s each way between two units of one
                                   * parent (the next level's unit; 0: no limit) */
    double out_bandwidth;         /* bytes/s out of one unit, to all others (0: no limit) */
} model_level;

typedef struct {
    char machine[MODEL_MACHINE_SIZE];     /* where it was calibrated, for people */
    char mpi_library[MODEL_MACHINE_SIZE]; /* first line of the MPI banner: the machine kind */
    int node_size;                        /* ranks per node at calibration */
    double latency_intra, bandwidth_intra; /* s per message; bytes/s per rank, all ranks busy */
    double latency_inter, bandwidth_inter; /* the same between nodes: one pair alone (the link) */
    double injection_bandwidth;           /* bytes/s out of one node, all its ranks (0: the link's) */
    double bisection_bandwidth;           /* bytes/s across the machine's bisection (0: no limit) */
    double memcpy_bandwidth;              /* bytes/s per rank, all ranks copying */
    double datatype_bandwidth;            /* bytes/s of a strided MPI datatype's extra copy (0: free) */
    /* A step transforming several axes in one FFTW plan runs at this
     * fraction of the per-axis rate (optional in the file; default 1). */
    double fft_multi_axis_factor;
    /* The same for r2c and c2r steps (their real axis among several):
     * optional, c2c's when absent. */
    double fft_multi_axis_factor_r2c;
    model_rate fft[MODEL_FAMILIES][2];    /* [family][precision] */
    /* Optional: seconds per unit by the transformed axis' length n (the
     * elements field holds n), measured on blocks of MODEL_LENGTH_BLOCK
     * elements shaped as a plan's steps are (the axis contiguous, and
     * strided with the batch contiguous). Where given, an FFT step costs
     * the sum over its axes of elements * log2 n * rate(n) (an r2c step's
     * halved axis at the r2c rate on its real elements, its other axes at
     * the c2c rate on the complex ones), instead of one rate by block size. */
    model_rate fft_length[MODEL_FAMILIES][2];
    /* Optional: measured seconds of one exchange of B bytes each way
     * between a pair (intra: every pair of the node busy; inter: one pair
     * alone), as a table BYTES:SECONDS (the elements field holds bytes);
     * where given it replaces latency + bytes / bandwidth for one message
     * (message sizes the protocols, eager or rendezvous, or SMPI's
     * size-dependent factors treat differently). count 0: not given. */
    model_rate message[2];                /* [MODEL_INTRA / MODEL_INTER] */
    /* Optional: what each further message of B bytes adds when a rank has
     * many in flight at once (an MPI_Alltoall among G >= 3 ranks of the
     * level, less one exchange, over G - 2); where not given, B bytes at
     * the level's bandwidth. */
    model_rate more[2];
    /* Optional: alltoallw's subarray types' extra seconds over one
     * message of the same bytes (the message table), for a pair
     * exchanging chunks of B bytes (a slab exchange, caches evicted first),
     * by chunk size -- an MPI library may pack large non-contiguous
     * messages far slower than small ones, and memory beyond the cache is
     * slower still. Where given it replaces datatype_bandwidth. */
    model_rate datatype;
    /* Optional: FFT speed with only A ranks of a node computing at once,
     * against all node_size ranks, as the factor on a step's seconds
     * (elements holds A, seconds_per_unit the factor; at node_size it is 1).
     * The rates above are measured with every rank of the node busy, so
     * they share its memory bandwidth; a plan with fewer ranks on the node
     * gets more of it. Interpolated in log A; where not given, 1. */
    model_rate fft_active;
    /* Optional: per family (double precision), the per-length rate measured
     * again on blocks of E elements larger than MODEL_LENGTH_BLOCK (the
     * same shapes; 2 M and, outside SMPI, 8 M), over the rate at
     * MODEL_LENGTH_BLOCK: a step on a block
     * that streams from memory instead of staying in a core's cache
     * (elements holds E, seconds_per_unit the factor; keys fft_c2c_block,
     * fft_r2c_block, fft_r2r_block). Where given it replaces the
     * rate-by-size ratio (model_fft_block_factor). */
    model_rate fft_block[MODEL_FAMILIES];
    /* Optional: the multi-axis factors again by the step's block of E
     * elements -- [0] c2c (and r2r), [1] r2c and c2r -- measured on blocks
     * of 64^3, 128^3 and 128 x 256 x 256 elements (outside SMPI): a plan of
     * several axes streams a large block once per pass where the per-axis
     * rates, with their block factors, stream it once per axis (on a 2-core
     * host 0.72 at 64^3, 0.95 at 128^3, 0.6 at 8 M). Interpolated in log E,
     * the nearest beyond; where given it replaces the scalars (keys
     * fft_multi_axis_c2c, fft_multi_axis_r2c). */
    model_rate fft_multi_axis[2];
    /* Optional (key network_levels): the network above the node, lowest
     * level first; levels 0: nodes on a network without contention but
     * the bisection. */
    int levels;
    model_level level[MODEL_MAX_LEVELS];
} cost_model;

/* The block (elements) the per-length FFT rates are measured on. */
#define MODEL_LENGTH_BLOCK 262144

enum { MODEL_INTRA = 0, MODEL_INTER = 1 };
/* The optional tables, in the file's key order: message_intra,
 * message_inter, message_more_intra, message_more_inter, datatype_extra,
 * fft_active, fft_c2c_block, fft_r2c_block, fft_r2r_block,
 * fft_multi_axis_c2c, fft_multi_axis_r2c. */
#define MODEL_TABLES 11
model_rate *model_table(cost_model *model, int table);

/* Parse a model text ("distfft-model 1", then `key = value` lines; a line
 * starting with '#' is a comment). Refuses, with a message in `message` naming the line,
 * a text without the header, an unknown or repeated key, a malformed or
 * out-of-range number, or a missing required key. Returns 0 or -1. */
int model_parse(const char *text, cost_model *model, char *message, size_t message_size);

/* The model as text (malloc'd; NULL if out of memory). */
char *model_format(const cost_model *model);

/* calibrate.c's readings of the environment (local; read at every call):
 * DISTFFT_CALIBRATE_QUICK, a switch (environment.h): fewer, smaller
 * measurements. */
bool calibrate_quick(void);

/* The `machine` line of a calibrated model: "<mpi_library, 120 bytes at
 * most>; nodes of <node_size> ranks; host <host>", or under SMPI
 * "...; SMPI platform <name>", the name from DISTFFT_MODEL_PLATFORM: its
 * first 80 bytes, control characters written as spaces (the line stays one
 * line of the model file), blanks at both ends dropped; when nothing is
 * left or it is unset, the host name (SMPI: a reminder to set it). The
 * whole line is cleaned alike, so the file reads back the same line. */
void model_machine_describe(char *machine, size_t size, const char *mpi_library, int node_size,
                            const char *host);

/* Seconds per unit of a family and precision at a block of `elements`:
 * interpolated in log(elements) between calibrated sizes, the nearest one
 * beyond them. A family not measured falls back to c2c of the same
 * precision (r2c: half the c2c rate per unit of real elements), a
 * precision not measured to the other (float: 0.6 of double, double: 1/0.6
 * of float). 0 if nothing is measured. */
double model_fft_rate(const cost_model *model, model_family family, distfft_precision precision,
                      double elements);

/* Seconds per unit at axis length n from the per-length table
 * (fft_length), interpolated in log n, the nearest length beyond the
 * table; with the same fallbacks as model_fft_rate. 0 where no per-length
 * table applies (then the rate by block size is used). */
double model_fft_length_rate(const cost_model *model, model_family family, distfft_precision precision,
                             double n);

/* The factor on a per-length FFT step's seconds for a block of `elements`
 * beyond the MODEL_LENGTH_BLOCK the per-length rates are measured on (1 up
 * to it): from model->fft_block where measured (the family's own, else
 * c2c's; interpolated in log elements from 1 at MODEL_LENGTH_BLOCK, its
 * last factor beyond); else the rate by block size there over the rate by
 * block size at MODEL_LENGTH_BLOCK (model_fft_rate, its fallbacks). Never
 * below 1. The per-length rates come from a block that stays in a core's
 * cache; a plan's larger blocks stream from memory, slower. The
 * rate-by-size ratio is the fallback only: it mixes in the n^3 blocks'
 * outer axis at a power-of-two stride, which prices such steps too slow. */
double model_fft_block_factor(const cost_model *model, model_family family, distfft_precision precision,
                              double elements);

/* The ranks of a node an fft_active table measures (into counts, room for
 * MODEL_MAX_RATES): 1, s, s^2, ... below node_size, then node_size, with
 * s the smallest power of two that fits them in the table (2 up to nodes
 * of 128 ranks, then 4, ...). Returns how many; 0 for node_size < 2. */
int model_active_counts(int node_size, int *counts);

/* The factor on an FFT step's seconds with `ranks_per_node` ranks of the
 * plan on the node (model->fft_active; 1 where not given). */
double model_fft_active_factor(const cost_model *model, int ranks_per_node);

/* The factor on a step of several axes of `family` on a block of
 * `elements`: model->fft_multi_axis where given, else the scalar
 * fft_multi_axis_factor(_r2c). */
double model_fft_multi_axis_factor(const cost_model *model, model_family family, double elements);

/* Seconds of one FFT step by the per-length rates: over its naxes axes
 * (axes[], lengths shape[axes[i]]), elements * log2 n * rate(n) each; an
 * r2c/c2r step's halved axis (the last listed) at the r2c rate on its
 * `elements` (real), its other axes at the c2c rate on the complex
 * elements (n/2+1 along the halved axis); each axis times its family's
 * model_fft_block_factor at the elements it transforms (the per-length
 * rates' block stays in cache, a plan's larger ones stream: an r2c step's
 * c2c axes as c2c's, its contiguous real axis as r2c's). -1 where no
 * per-length table applies. The multi-axis factor is the caller's. */
double model_fft_axes_seconds(const cost_model *model, model_family family, distfft_precision precision,
                              int naxes, const int *axes, const int64_t *shape, double elements);

/* One exchange as one rank sees it. */
typedef struct {
    distfft_method method;
    int group_size;        /* M: ranks of the exchange's group */
    int peers_on_node;     /* other members of the group on this rank's node */
    int nodes_in_group;    /* nodes the group spans */
    int ranks_per_node;    /* ranks of the plan on this rank's node */
    int plan_ranks;        /* ranks of the whole plan */
    int plan_nodes;        /* nodes of the whole plan */
    double in_bytes;       /* this rank's block before and after */
    double out_bytes;
    /* Per network level (model->level[]), all groups of the grid
     * exchanging at once: the messages on the busiest link between two
     * units of the level that this rank's messages cross, and the messages
     * leaving this rank's unit. Each bounds the exchange below by its
     * bytes at the level's bandwidth. */
    int level_pair_messages[MODEL_MAX_LEVELS];
    int level_out_messages[MODEL_MAX_LEVELS];
    /* The whole array's bytes, all ranks: a shared link carries many
     * ranks' chunks, priced at their mean (uneven blocks differ by up to
     * one plane); 0: at this rank's own chunk. */
    double plan_bytes;
} model_exchange;

/* Seconds of one message of `bytes` at a level (MODEL_INTRA/INTER): the
 * message table interpolated linearly in bytes (beyond its last size, the
 * rest at the level's bandwidth), else latency + bytes / bandwidth. */
double model_message_seconds(const cost_model *model, int level, double bytes);

/* Predicted seconds of one execution of an exchange on this rank: per
 * level with n peers and chunks of b bytes, all in flight together
 * (alltoallw, alltoallv, vector, isend): message(b) + (n - 1) b /
 * bandwidth, the levels overlapping; one pair at a time (sendrecv): n
 * message(b), the levels adding up; plus the method's local copies. */
double model_exchange_seconds(const cost_model *model, const model_exchange *exchange);

/* Predicted seconds of a serial FFT step: `units` (elements * sum of log2
 * n over the transformed axes) on a block of `elements`. */
double model_fft_seconds(const cost_model *model, model_family family, distfft_precision precision,
                         double units, double elements);

/* Predicted seconds of one pass over `bytes` (read and write: weights,
 * scaling), at the memcpy bandwidth. */
double model_pass_seconds(const cost_model *model, double bytes);

#endif
