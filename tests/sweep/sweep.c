/*
 * sweep.c -- the randomized sweep: many random plans, each checked against
 * an independent serial reference.
 *
 * Configuration `index` of seed `seed` is a pure function of (seed, index):
 * rank count (1-8), dimensionality (2-5), shape (1-40 per axis, primes
 * favoured, a few thousand elements at most so the direct-sum reference
 * stays cheap), per-axis kinds, precision, grid (automatic, or any
 * factorisation of the ranks, so some ranks may get no data), method,
 * batch, norm, destroy_input and node_size (0, or pretended nodes of 1-3
 * ranks, which the node-aware methods shm and hierarchical follow),
 * padding and in_place; then threads per rank (1-3), placement (row,
 * morton, node), overlap of batched plans, and caller layouts
 * (distfft_plan_create_layouts) one time in three: at the input, the
 * output or both, each a random tiling of the array by recursive
 * bisection (random rank split, axis and cut, in any rank order, so whole
 * groups of ranks may hold empty boxes) or slabs along a random axis
 * (distfft_layout_from_grid). Every rank draws the same configuration,
 * so one mpiexec runs many of them without communicating the draw.
 *
 * Most draws respect the rules of distfft.h; about one in ten draws the
 * kinds freely, and when that breaks a rule the plan must fail on every
 * rank with the documented code (DISTFFT_ERR_SHAPE for dct1/cheb on fewer
 * than 2 points, DISTFFT_ERR_ARGUMENT for the other kind rules). So must
 * an in-place plan with caller layouts, threads > 1 where MPI gives less
 * than MPI_THREAD_FUNNELED, and overlap progress where it gives less than
 * MPI_THREAD_MULTIPLE (DISTFFT_ERR_UNSUPPORTED; the sweep asks
 * MPI_Init_thread for MULTIPLE, so both run where MPI has them).
 *
 * The vector method applies only where every exchange has equal blocks: a
 * vector draw rounds the axes up to multiples of the ranks two times in
 * three (as far as the size bound allows), and where an exchange of the
 * configuration (asked of its alltoallw plan) still has unequal blocks, the
 * plan must fail with DISTFFT_ERR_UNSUPPORTED on every rank.
 *
 * A valid plan must: transform every field of the batch like the direct
 * sums of direct_reference.c (gathered on one rank from the plan's blocks,
 * the caller's boxes where it has layouts) within
 * 8 eps log2(N) of the largest output; keep its input unless destroy_input;
 * give backward(forward(x)) = x within the same bound; write nothing past
 * its output blocks; and its local_size must hold both blocks.
 *
 *   sweep [--seed S] [--count N] [--first I] [--ranks-filter world|any|P]
 *         [--index I] [--verbose]
 *
 * --ranks-filter world (default) runs the configurations among
 * first..first+count-1 drawn with exactly as many ranks as the run has;
 * `any` runs every one that fits, on the first r ranks; P, those drawn with
 * P ranks. --index I replays configuration I alone (what a failure prints).
 * DISTFFT_SWEEP_LONG=N in the environment sets the default count to N
 * (5000 if not a number). Exit status 0 when every configuration passed.
 */
#include <complex.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "direct_reference.h"
#include "test_support.h"

#ifndef SWEEP_MPIEXEC
#define SWEEP_MPIEXEC "mpiexec"
#endif
#ifndef SWEEP_MPIEXEC_FLAGS
#define SWEEP_MPIEXEC_FLAGS ""
#endif

enum { MAX_RANKS = 8, MAX_AXES = 5, MAX_ELEMENTS = 3000 };

/* ---- drawing ---------------------------------------------------------------- */

typedef struct {
    uint64_t state;
} rng;

/* splitmix64: small, good enough, and the same everywhere. */
static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in lo..hi. */
static int rng_int(rng *r, int lo, int hi)
{
    return lo + (int)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

static rng rng_for(uint64_t seed, int64_t index)
{
    rng r = {seed * 0x2545f4914f6cdd1dull + (uint64_t)index};
    rng_next(&r);
    return r;
}

typedef struct {
    int ranks, ndims;
    int64_t shape[MAX_AXES];
    distfft_kind kinds[MAX_AXES];
    distfft_precision precision;
    distfft_method method;
    int grid_ndims, grid_dims[MAX_AXES];
    int64_t batch;
    distfft_norm norm;
    int destroy_input;
    distfft_rigor rigor;
    int node_size;
    double padding[MAX_AXES];     /* options.padding (1: none) */
    int64_t padded[MAX_AXES];     /* the physical lengths it gives */
    int in_place;                 /* options.in_place */
    int threads;                  /* options.threads (1-3) */
    distfft_placement placement;  /* options.placement */
    distfft_overlap overlap;      /* options.overlap */
    /* Caller layouts (distfft_plan_create_layouts) of the input (physical,
     * padded shape) and output (spectral shape): per end LAYOUT_OWN (none
     * given: the plan's own), LAYOUT_BOXES (random tiling) or LAYOUT_SLABS
     * (distfft_layout_from_grid, slabs along slab_axis). */
    int layout[2];
    int slab_axis[2];
    int64_t box_start[2][MAX_RANKS][MAX_AXES], box_shape[2][MAX_RANKS][MAX_AXES];
} config;

enum { LAYOUT_OWN, LAYOUT_BOXES, LAYOUT_SLABS };
enum { END_IN, END_OUT };

static const int primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

static distfft_kind any_r2r(rng *r)
{
    return (distfft_kind)rng_int(r, DISTFFT_DCT1, DISTFFT_CHEB);
}

static void draw_shape(rng *r, config *c)
{
    for (int a = 0; a < c->ndims; a++)
        c->shape[a] = rng_int(r, 0, 2) == 0 ? primes[rng_int(r, 0, COUNT_OF(primes) - 1)]
                                            : rng_int(r, 1, 40);
    /* Shrink the longest axis until the array is small enough. */
    for (;;) {
        int64_t total = c->batch;
        int longest = 0;
        for (int a = 0; a < c->ndims; a++) {
            total *= c->shape[a];
            if (c->shape[a] > c->shape[longest]) longest = a;
        }
        if (total <= MAX_ELEMENTS) break;
        c->shape[longest] = rng_int(r, 1, (int)(c->shape[longest] / 2));
    }
}

/* Kinds: mostly one of three valid families, sometimes anything at all. */
static void draw_kinds(rng *r, config *c)
{
    int family = rng_int(r, 0, 9);
    int last = -1;
    for (int a = 0; a < c->ndims; a++) {
        int none = rng_int(r, 0, 4) == 0;
        distfft_kind kind;
        if (family == 0) kind = (distfft_kind)rng_int(r, DISTFFT_C2C, DISTFFT_NONE);
        else if (none) kind = DISTFFT_NONE;
        else if (family <= 3) kind = DISTFFT_C2C;                 /* complex */
        else if (family <= 6) kind = rng_int(r, 0, 1) ? DISTFFT_C2C : any_r2r(r); /* r2c */
        else kind = any_r2r(r);                                    /* all real */
        if (family != 0 && (kind == DISTFFT_DCT1 || kind == DISTFFT_CHEB) && c->shape[a] < 2)
            kind = DISTFFT_DST1;
        c->kinds[a] = kind;
        if (kind != DISTFFT_NONE) last = a;
    }
    if (family == 0) return;
    if (family >= 4 && family <= 6) {
        /* r2c on any transformed axis: the last one half the time */
        if (last < 0) last = c->ndims - 1;
        int axis = last;
        if (rng_int(r, 0, 1))
            do axis = rng_int(r, 0, last); while (c->kinds[axis] == DISTFFT_NONE && axis != last);
        c->kinds[axis] = DISTFFT_R2C;
    } else if (last < 0) {
        c->kinds[0] = family <= 3 ? DISTFFT_C2C : DISTFFT_DST2;
    }
}

/* A grid: automatic, or r directions with the ranks' prime factors dealt
 * out at random (an entry 0 now and then: MPI_Dims_create fills it). */
static void draw_grid(rng *r, config *c)
{
    if (rng_int(r, 0, 3) == 0) {
        c->grid_ndims = 0;
        return;
    }
    c->grid_ndims = rng_int(r, 1, c->ndims - 1);
    for (int d = 0; d < c->grid_ndims; d++) c->grid_dims[d] = 1;
    int rest = c->ranks;
    for (int p = 2; rest > 1; p++)
        while (rest % p == 0) {
            c->grid_dims[rng_int(r, 0, c->grid_ndims - 1)] *= p;
            rest /= p;
        }
    if (c->grid_ndims > 1 && rng_int(r, 0, 4) == 0)
        c->grid_dims[rng_int(r, 0, c->grid_ndims - 1)] = 0;
}

/* The vector method needs equal blocks: round axes up to multiples of the
 * ranks (so of every grid extent) while the array stays small enough. */
static void make_divisible(config *c)
{
    for (int a = 0; a < c->ndims; a++) {
        int64_t rounded = (c->shape[a] + c->ranks - 1) / c->ranks * c->ranks;
        int64_t total = c->batch * rounded;
        for (int b = 0; b < c->ndims; b++)
            if (b != a) total *= c->shape[b];
        if (total <= MAX_ELEMENTS) c->shape[a] = rounded;
    }
}

/* Drawn last, so the earlier fields of every configuration stay what they
 * were: in place one time in four; padding one time in three, on some
 * transformed axes (and, rarely, an untransformed one: a documented error),
 * unless it makes the array too large. */
static void draw_spectral(rng *r, config *c)
{
    static const double factors[] = {1.5, 4.0 / 3.0, 2.0, 1.25};
    c->in_place = rng_int(r, 0, 3) == 0;
    int pad = rng_int(r, 0, 2) == 0;
    int64_t total = c->batch;
    for (int a = 0; a < c->ndims; a++) {
        c->padding[a] = 1.0;
        if (pad && (c->kinds[a] != DISTFFT_NONE || rng_int(r, 0, 9) == 0) && rng_int(r, 0, 1))
            c->padding[a] = factors[rng_int(r, 0, COUNT_OF(factors) - 1)];
        c->padded[a] = (int64_t)floor(c->padding[a] * (double)c->shape[a]);
        total *= c->padded[a];
    }
    if (total > 2 * MAX_ELEMENTS)
        for (int a = 0; a < c->ndims; a++) c->padding[a] = 1.0, c->padded[a] = c->shape[a];
}

/* The global shape of the plan's output (spectral): the r2c axis (the last
 * one, when the kinds break the rules) has n/2+1 points. */
static void output_shape(const config *c, int64_t *shape)
{
    int r2c = -1;
    for (int a = 0; a < c->ndims; a++) {
        shape[a] = c->shape[a];
        if (c->kinds[a] == DISTFFT_R2C) r2c = a;
    }
    if (r2c >= 0) shape[r2c] = c->shape[r2c] / 2 + 1;
}

/* A random tiling of (start, shape) by ranks perm[lo..hi-1]: recursive
 * bisection at a random rank split, axis and cut (proportional, or
 * anywhere from 0 to n: then whole groups may hold empty boxes). */
static void split_boxes(rng *r, config *c, int end, const int64_t *start,
                        const int64_t *shape, int lo, int hi, const int *perm)
{
    if (hi - lo == 1) {
        memcpy(c->box_start[end][perm[lo]], start, sizeof c->box_start[end][0]);
        memcpy(c->box_shape[end][perm[lo]], shape, sizeof c->box_shape[end][0]);
        return;
    }
    int mid = rng_int(r, lo + 1, hi - 1), axis = rng_int(r, 0, c->ndims - 1);
    int64_t n = shape[axis];
    int64_t cut = rng_int(r, 0, 2) == 0 ? rng_int(r, 0, (int)n) : n * (mid - lo) / (hi - lo);
    int64_t start2[MAX_AXES], shape1[MAX_AXES], shape2[MAX_AXES];
    memcpy(start2, start, sizeof start2);
    memcpy(shape1, shape, sizeof shape1);
    memcpy(shape2, shape, sizeof shape2);
    shape1[axis] = cut;
    shape2[axis] = n - cut;
    start2[axis] += cut;
    split_boxes(r, c, end, start, shape1, lo, mid, perm);
    split_boxes(r, c, end, start2, shape2, mid, hi, perm);
}

static void draw_layout(rng *r, config *c, int end)
{
    c->layout[end] = rng_int(r, 0, 3) == 0 ? LAYOUT_SLABS : LAYOUT_BOXES;
    c->slab_axis[end] = rng_int(r, 0, c->ndims - 1);
    int64_t global[MAX_AXES], zero[MAX_AXES] = {0};
    if (end == END_IN) memcpy(global, c->padded, sizeof global);
    else output_shape(c, global);
    int perm[MAX_RANKS];
    for (int k = 0; k < c->ranks; k++) perm[k] = k;
    for (int k = c->ranks - 1; k > 0; k--) { /* boxes in any rank order */
        int j = rng_int(r, 0, k), t = perm[k];
        perm[k] = perm[j];
        perm[j] = t;
    }
    split_boxes(r, c, end, zero, global, 0, c->ranks, perm);
}

/* Drawn after everything else (so the earlier fields of a configuration
 * stay what they were): threads 1-3 (one time in three more than one),
 * placement, overlap of batched plans, and caller layouts one time in
 * three -- at either end or both; with in_place only one time in ten such
 * draws (the plan must then refuse them). */
static void draw_extras(rng *r, config *c)
{
    c->threads = rng_int(r, 0, 2) == 0 ? rng_int(r, 2, 3) : 1;
    c->placement = (distfft_placement)rng_int(r, DISTFFT_PLACEMENT_ROW, DISTFFT_PLACEMENT_NODE);
    c->overlap = (distfft_overlap)rng_int(r, DISTFFT_OVERLAP_AUTO, DISTFFT_OVERLAP_PROGRESS);
    if (rng_int(r, 0, 2) != 0) return;
    int ends = rng_int(r, 1, 3); /* bit 0: input, bit 1: output */
    if (c->in_place && rng_int(r, 0, 9) != 0) return;
    for (int end = END_IN; end <= END_OUT; end++)
        if (ends >> end & 1) draw_layout(r, c, end);
}

static void draw_config(uint64_t seed, int64_t index, config *c)
{
    rng r = rng_for(seed, index);
    memset(c, 0, sizeof *c);
    c->ranks = rng_int(&r, 1, MAX_RANKS);
    c->ndims = rng_int(&r, 2, MAX_AXES);
    c->batch = rng_int(&r, 0, 3) == 0 ? rng_int(&r, 2, 3) : 1;
    draw_shape(&r, c);
    draw_kinds(&r, c);
    draw_grid(&r, c);
    c->precision = rng_int(&r, 0, 1) ? DISTFFT_FLOAT : DISTFFT_DOUBLE;
    /* Methods as the library lists them (ids 0..count-1), then auto: a new
     * method is swept without touching this file. */
    int method = rng_int(&r, 0, distfft_method_count());
    c->method = method == distfft_method_count() ? DISTFFT_METHOD_AUTO : (distfft_method)method;
    if (c->method != DISTFFT_METHOD_AUTO && !test_method_serves_host(c->method)) /* the sweep's arrays are the host's */
        c->method = DISTFFT_METHOD_AUTO;
    c->norm = (distfft_norm)rng_int(&r, DISTFFT_NORM_BACKWARD, DISTFFT_NORM_FORWARD);
    c->destroy_input = rng_int(&r, 0, 2) == 0;
    /* auto measures only when FFTW measures too. */
    c->rigor = c->method == DISTFFT_METHOD_AUTO && rng_int(&r, 0, 1) ? DISTFFT_MEASURE
                                                                    : DISTFFT_ESTIMATE;
    if (c->method == DISTFFT_METHOD_VECTOR && rng_int(&r, 0, 2) != 0)
        make_divisible(c);
    c->node_size = rng_int(&r, 0, 3);
    draw_spectral(&r, c);
    if (c->method == DISTFFT_METHOD_VECTOR) /* its applicability is judged unpadded */
        for (int a = 0; a < c->ndims; a++) c->padding[a] = 1.0, c->padded[a] = c->shape[a];
    draw_extras(&r, c);
}

static int has_layouts(const config *c)
{
    return c->layout[END_IN] != LAYOUT_OWN || c->layout[END_OUT] != LAYOUT_OWN;
}

static void describe(const config *c, char *text, size_t size)
{
    char shape[64], kinds[128] = "", grid[64] = "auto";
    test_shape_string(c->ndims, c->shape, shape, sizeof shape);
    for (int a = 0; a < c->ndims; a++) {
        strcat(kinds, a ? "," : "");
        strcat(kinds, distfft_kind_name(c->kinds[a]));
    }
    if (c->grid_ndims > 0) {
        int used = 0;
        for (int d = 0; d < c->grid_ndims; d++)
            used += snprintf(grid + used, sizeof grid - used, d ? "x%d" : "%d", c->grid_dims[d]);
    }
    snprintf(text, size, "ranks=%d shape=%s kinds=%s %s grid=%s method=%s batch=%lld "
             "norm=%d destroy_input=%d rigor=%d node_size=%d in_place=%d", c->ranks, shape, kinds,
             c->precision == DISTFFT_FLOAT ? "float" : "double", grid,
             distfft_method_name(c->method), (long long)c->batch, (int)c->norm,
             c->destroy_input, (int)c->rigor, c->node_size, c->in_place);
    snprintf(text + strlen(text), size - strlen(text),  " threads=%d placement=%s overlap=%s",
             c->threads, distfft_placement_name(c->placement), distfft_overlap_name(c->overlap));
    if (c->padded[0] == 0) return;
    char padded[64];
    test_shape_string(c->ndims, c->padded, padded, sizeof padded);
    if (strcmp(padded, shape) != 0)
        snprintf(text + strlen(text), size - strlen(text), " padded=%s", padded);
    /* Caller layouts: each rank's box as numpy slices, in rank order. */
    for (int end = END_IN; end <= END_OUT; end++) {
        const char *name = end == END_IN ? "layout_in" : "layout_out";
        if (c->layout[end] == LAYOUT_SLABS)
            snprintf(text + strlen(text), size - strlen(text), " %s=slabs(axis %d)", name,
                     c->slab_axis[end]);
        if (c->layout[end] != LAYOUT_BOXES) continue;
        snprintf(text + strlen(text), size - strlen(text), " %s=", name);
        for (int k = 0; k < c->ranks; k++)
            for (int a = 0; a < c->ndims; a++)
                snprintf(text + strlen(text), size - strlen(text), "%s%lld:%lld%s",
                         a ? "" : "[", (long long)c->box_start[end][k][a],
                         (long long)(c->box_start[end][k][a] + c->box_shape[end][k][a]),
                         a + 1 < c->ndims ? "," : "]");
    }
}

/* ---- the rules, restated independently of the library -------------------- */

/* The thread level MPI gave this process (MPI_Init_thread). */
static int thread_level = MPI_THREAD_SINGLE;

/* Bit set of the codes the plan may fail with (1 << code); 0 if valid. */
static unsigned expected_failures(const config *c)
{
    unsigned codes = 0;
    int r2c_count = 0, transformed = 0;
    for (int a = 0; a < c->ndims; a++) {
        distfft_kind kind = c->kinds[a];
        if (kind == DISTFFT_NONE) continue;
        transformed++;
        if (kind == DISTFFT_R2C) r2c_count++;
        if ((kind == DISTFFT_DCT1 || kind == DISTFFT_CHEB) && c->shape[a] < 2)
            codes |= 1u << DISTFFT_ERR_SHAPE;
    }
    /* (Real-to-real kinds on complex data are valid since the spectral
     * issue; padding is not, on an untransformed axis.) */
    for (int a = 0; a < c->ndims; a++)
        if (c->kinds[a] == DISTFFT_NONE && c->padded[a] != c->shape[a])
            codes |= 1u << DISTFFT_ERR_ARGUMENT;
    if (!transformed || r2c_count > 1) /* r2c on any one transformed axis */
        codes |= 1u << DISTFFT_ERR_ARGUMENT;
    /* Threads need MPI_THREAD_FUNNELED; an in-place plan takes no layouts. */
    if (c->threads > 1 && thread_level < MPI_THREAD_FUNNELED)
        codes |= 1u << DISTFFT_ERR_UNSUPPORTED;
    /* overlap progress (a helper thread calling MPI_Test) needs MULTIPLE. */
    if (c->overlap == DISTFFT_OVERLAP_PROGRESS && thread_level < MPI_THREAD_MULTIPLE)
        codes |= 1u << DISTFFT_ERR_UNSUPPORTED;
    if (c->in_place && has_layouts(c))
        codes |= 1u << DISTFFT_ERR_UNSUPPORTED;
    return codes;
}

/* ---- running one configuration -------------------------------------------- */

typedef struct {
    MPI_Comm comm;
    int rank;
    int ok;              /* this rank's verdict so far */
    int refused;         /* the plan was invalid (or vector inapplicable) */
    char why[512];       /* the first failure seen on this rank */
} verdict;

static void expect(verdict *v, int ok, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void expect(verdict *v, int ok, const char *format, ...)
{
    if (ok) return;
    if (v->ok) {
        va_list args;
        va_start(args, format);
        vsnprintf(v->why, sizeof v->why, format, args);
        va_end(args);
    }
    v->ok = 0;
}

/* Field `field` of a batched local block, gathered as double complex on
 * rank 0 of comm (NULL elsewhere). */
static double complex *gather_field(MPI_Comm comm, distfft_type type, int ndims,
                                    const int64_t *global_shape,
                                    const int64_t *local_shape, const int64_t *start,
                                    const void *local, int64_t field, int *rc)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    size_t element = distfft_type_size(type);
    int64_t count = test_product(ndims, local_shape), total = test_product(ndims, global_shape);
    const char *base = count ? (const char *)local + field * count * (int64_t)element : NULL;
    void *global = rank == 0 ? malloc((size_t)total * element + 1) : NULL;
    *rc = test_gather(comm, type, ndims, global_shape, local_shape, start, base, 0, global);
    double complex *values = NULL;
    if (rank == 0) {
        values = malloc((size_t)total * sizeof *values + 1);
        for (int64_t i = 0; i < total; i++) values[i] = test_element(type, global, i);
        free(global);
    }
    return values;
}

/* Relative error of the forward output of every field against the direct
 * sums; on every rank. */
static double forward_error(verdict *v, const config *c, distfft_type in_type,
                            distfft_type out_type, const int64_t *in_shape,
                            const int64_t *in_start, const void *input,
                            const int64_t *out_global, const int64_t *out_shape,
                            const int64_t *out_start, const void *output)
{
    double worst = 0.0;
    for (int64_t field = 0; field < c->batch; field++) {
        int rc_in, rc_out;
        double complex *x = gather_field(v->comm, in_type, c->ndims, c->padded, in_shape,
                                         in_start, input, field, &rc_in);
        double complex *y = gather_field(v->comm, out_type, c->ndims, out_global, out_shape,
                                         out_start, output, field, &rc_out);
        expect(v, rc_in == DISTFFT_SUCCESS && rc_out == DISTFFT_SUCCESS,
               "gathering field %lld failed", (long long)field);
        if (v->rank == 0) {
            double complex *expected = direct_forward(c->ndims, c->padded, c->kinds, c->norm, x);
            if (memcmp(c->padded, c->shape, c->ndims * sizeof *c->shape) != 0) {
                double complex *full = expected;
                expected = direct_truncate(c->ndims, c->shape, c->padded, c->kinds, full);
                free(full);
            }
            int64_t total = test_product(c->ndims, out_global);
            double error = test_max_abs_diff(total, y, expected) /
                           fmax(test_max_abs(total, expected), 1e-300);
            if (!(error <= worst)) worst = error; /* NaN sticks */
            free(expected);
        }
        free(x);
        free(y);
    }
    MPI_Bcast(&worst, 1, MPI_DOUBLE, 0, v->comm);
    return worst;
}

/* Does the vector method apply to every exchange of this configuration?
 * Asked of the alltoallw plan of the same configuration: each exchange's
 * group size must divide both exchanged axes as they are at that step (the
 * r2c axis has n/2+1 points once the r2c transform has run). */
static int plan_with(MPI_Comm comm, const config *c, const distfft_options *options,
                     distfft_layout *layouts, distfft_plan *plan)
{
    if (!has_layouts(c))
        return distfft_plan_create(comm, c->ndims, c->shape, c->precision, options, plan);
    return distfft_plan_create_layouts(comm, c->ndims, c->shape, c->precision, options,
                                       layouts[END_IN], layouts[END_OUT], plan);
}

/* The reshapes at the ends to and from caller layouts (grid direction -1)
 * run alltoallw under the vector method: only the grid's exchanges count. */
static int vector_applies(MPI_Comm comm, const config *c, const distfft_options *options,
                          distfft_layout *layouts)
{
    distfft_options o = *options;
    o.method = DISTFFT_METHOD_ALLTOALLW;
    o.rigor = DISTFFT_ESTIMATE;
    distfft_plan plan = NULL;
    if (plan_with(comm, c, &o, layouts, &plan) != DISTFFT_SUCCESS)
        return 1; /* the vector plan must then fail alike: not our question */
    int64_t length[MAX_AXES];
    memcpy(length, c->shape, sizeof length);
    int applies = 1, steps = distfft_plan_step_count(plan, DISTFFT_FORWARD);
    for (int k = 0; k < steps; k++) {
        distfft_step step;
        distfft_plan_step(plan, DISTFFT_FORWARD, k, &step);
        if (strncmp(step.description, "fft r2c", 7) == 0)
            for (int a = 0; a < c->ndims; a++)
                if (c->kinds[a] == DISTFFT_R2C) length[a] = c->shape[a] / 2 + 1;
        if (step.is_redistribution && step.grid_direction >= 0 &&
            (length[step.axis_in] % step.group_size || length[step.axis_out] % step.group_size))
            applies = 0;
    }
    distfft_plan_destroy(&plan);
    return applies;
}

/* max |a - b| over `count` elements of `type`, and max |b|, over all ranks. */
static void compare(verdict *v, distfft_type type, int64_t count, const void *a, const void *b,
                    double *both)
{
    both[0] = both[1] = 0.0;
    for (int64_t i = 0; i < count; i++) {
        double d = cabs(test_element(type, a, i) - test_element(type, b, i));
        if (!(d <= both[0])) both[0] = d;
        both[1] = fmax(both[1], cabs(test_element(type, b, i)));
    }
    MPI_Allreduce(MPI_IN_PLACE, both, 2, MPI_DOUBLE, MPI_MAX, v->comm);
}

static int is_padded(const config *c)
{
    return memcmp(c->padded, c->shape, c->ndims * sizeof *c->shape) != 0;
}

/* The round trip: backward(forward(x)) == x, or for padded plans (which
 * drop the modes beyond N) forward(backward(y)) == y. */
static void check_round_trip(verdict *v, const config *c, distfft_plan plan, void *input,
                             void *output, void *back, const void *saved, double tolerance)
{
    distfft_type in_type, out_type;
    int64_t in_shape[MAX_AXES], out_shape[MAX_AXES];
    distfft_plan_types(plan, &in_type, &out_type);
    distfft_plan_input_block(plan, in_shape, NULL);
    distfft_plan_output_block(plan, out_shape, NULL);
    int64_t in_count = c->batch * test_product(c->ndims, in_shape);
    int64_t out_count = c->batch * test_product(c->ndims, out_shape);
    size_t in_bytes = (size_t)in_count * distfft_type_size(in_type);
    size_t out_bytes = (size_t)out_count * distfft_type_size(out_type);
    void *first = malloc(out_bytes + 1);
    memcpy(first, output, out_bytes);
    void *from = out_bytes || c->in_place ? output : NULL, *to = in_bytes || c->in_place ? back : NULL;
    int rc = distfft_plan_execute(plan, from, to, DISTFFT_BACKWARD);
    expect(v, rc == DISTFFT_SUCCESS, "backward failed: %s", distfft_last_error());
    if (!c->in_place)
        expect(v, test_guard_intact(back, in_bytes, 0xC3), "backward wrote past its output");
    double both[2];
    if (is_padded(c)) {
        rc = distfft_plan_execute(plan, to, from, DISTFFT_FORWARD);
        expect(v, rc == DISTFFT_SUCCESS, "forward failed: %s", distfft_last_error());
        compare(v, out_type, out_count, output, first, both);
        expect(v, both[0] <= tolerance * both[1], "forward(backward(y)) differs from y by "
               "%.3e > %.3e", both[0] / both[1], tolerance);
    } else {
        compare(v, in_type, in_count, back, saved, both);
        expect(v, both[0] <= tolerance * both[1], "backward(forward(x)) differs from x by "
               "%.3e > %.3e", both[0] / both[1], tolerance);
    }
    (void)input;
    free(first);
}

/* The caller layouts the configuration draws (NULL at an end without). */
static void make_layouts(verdict *v, const config *c, distfft_layout *layouts)
{
    for (int end = END_IN; end <= END_OUT; end++) {
        layouts[end] = NULL;
        int64_t global[MAX_AXES];
        if (end == END_IN) memcpy(global, c->padded, sizeof global);
        else output_shape(c, global);
        int rc = DISTFFT_SUCCESS;
        if (c->layout[end] == LAYOUT_BOXES) {
            rc = distfft_layout_from_box(v->comm, c->ndims, global, c->box_start[end][v->rank],
                                         c->box_shape[end][v->rank], &layouts[end]);
        } else if (c->layout[end] == LAYOUT_SLABS) {
            int dims[1] = {c->ranks}, by[MAX_AXES];
            for (int a = 0; a < c->ndims; a++) by[a] = a == c->slab_axis[end] ? 0 : -1;
            rc = distfft_layout_from_grid(v->comm, c->ndims, global, 1, dims, by, &layouts[end]);
        }
        expect(v, rc == DISTFFT_SUCCESS, "making the caller's %s layout failed: %s",
               end == END_IN ? "input" : "output", distfft_last_error());
    }
}

/* Create the plan; NULL when it (rightly or wrongly) failed. */
static distfft_plan create(verdict *v, const config *c)
{
    distfft_options options;
    distfft_options_init(&options);
    options.grid_ndims = c->grid_ndims;
    memcpy(options.grid_dims, c->grid_dims, sizeof c->grid_dims);
    memcpy(options.kinds, c->kinds, sizeof c->kinds);
    options.method = c->method;
    options.norm = c->norm;
    options.rigor = c->rigor;
    options.batch = c->batch;
    options.destroy_input = c->destroy_input;
    options.node_size = c->node_size;
    options.in_place = c->in_place;
    options.threads = c->threads;
    options.placement = c->placement;
    options.overlap = c->overlap;
    for (int a = 0; a < c->ndims; a++) options.padding[a] = c->padding[a];

    distfft_layout layouts[2];
    make_layouts(v, c, layouts);
    unsigned failures = expected_failures(c);
    int refused = !failures && c->method == DISTFFT_METHOD_VECTOR &&
                  !vector_applies(v->comm, c, &options, layouts);
    distfft_plan plan = NULL;
    int rc = plan_with(v->comm, c, &options, layouts, &plan);
    for (int end = END_IN; end <= END_OUT; end++) /* the plan keeps its own copies */
        expect(v, distfft_layout_destroy(&layouts[end]) == DISTFFT_SUCCESS, "layout_destroy failed");
    int codes[2] = {rc, -rc};
    MPI_Allreduce(MPI_IN_PLACE, codes, 2, MPI_INT, MPI_MAX, v->comm);
    expect(v, codes[0] == -codes[1], "ranks returned different codes from create");
    if (refused) failures = 1u << DISTFFT_ERR_UNSUPPORTED;
    v->refused = failures != 0;
    if (failures) {
        expect(v, rc != DISTFFT_SUCCESS && (failures >> rc & 1u) && plan == NULL,
               "create returned %d (%s), expected the documented error", rc,
               distfft_error_string(rc));
        if (plan) distfft_plan_destroy(&plan);
        return NULL;
    }
    expect(v, rc == DISTFFT_SUCCESS, "create failed: %s", distfft_last_error());
    if (codes[0] != DISTFFT_SUCCESS || codes[1] != DISTFFT_SUCCESS) {
        if (plan) distfft_plan_destroy(&plan);
        return NULL;
    }
    return plan;
}

static void run_config(verdict *v, const config *c)
{
    distfft_plan plan = create(v, c);
    if (!plan) return;
    distfft_type in_type, out_type;
    int64_t in_shape[MAX_AXES], in_start[MAX_AXES], out_shape[MAX_AXES], out_start[MAX_AXES],
        out_global[MAX_AXES];
    distfft_plan_types(plan, &in_type, &out_type);
    distfft_plan_input_block(plan, in_shape, in_start);
    distfft_plan_output_block(plan, out_shape, out_start);
    distfft_plan_output_shape(plan, out_global);
    size_t in_bytes = (size_t)(c->batch * test_product(c->ndims, in_shape)) * distfft_type_size(in_type);
    size_t out_bytes = (size_t)(c->batch * test_product(c->ndims, out_shape)) * distfft_type_size(out_type);
    size_t local_bytes = (size_t)distfft_plan_local_size(plan) * distfft_type_size(out_type);
    expect(v, local_bytes >= in_bytes && local_bytes >= out_bytes, "local_size (%zu bytes) below a "
           "block (input %zu, output %zu bytes)", local_bytes, in_bytes, out_bytes);
    void *input, *output, *back, *saved = malloc(in_bytes + 1);
    if (c->in_place) {
        input = output = back = test_guarded_alloc(local_bytes, 0x5A);
    } else {
        input = test_guarded_alloc(in_bytes, 0xA5);
        output = test_guarded_alloc(out_bytes, 0x5A);
        back = test_guarded_alloc(in_bytes, 0xC3);
    }
    test_fill(in_type, c->ndims, c->padded, in_shape, in_start, c->batch, 0, input);
    memcpy(saved, input, in_bytes);

    int rc = distfft_plan_execute(plan, in_bytes || c->in_place ? input : NULL,
                                  out_bytes || c->in_place ? output : NULL, DISTFFT_FORWARD);
    expect(v, rc == DISTFFT_SUCCESS, "forward failed: %s", distfft_last_error());
    expect(v, c->in_place || c->destroy_input || memcmp(saved, input, in_bytes) == 0,
           "forward changed its input without destroy_input");
    expect(v, test_guard_intact(output, c->in_place ? local_bytes : out_bytes, 0x5A),
           "forward wrote past its output");

    double tolerance = test_tolerance(c->precision, test_product(c->ndims, c->padded));
    double error = forward_error(v, c, in_type, out_type, in_shape, in_start, saved,
                                 out_global, out_shape, out_start, output);
    expect(v, error <= tolerance, "forward differs from the direct sums by %.3e > %.3e",
           error, tolerance);
    check_round_trip(v, c, plan, input, output, back, saved, tolerance);

    if (c->in_place) {
        distfft_free(input);
    } else {
        distfft_free(input);
        distfft_free(output);
        distfft_free(back);
    }
    free(saved);
    rc = distfft_plan_destroy(&plan);
    expect(v, rc == DISTFFT_SUCCESS && plan == NULL, "destroy failed");
}

/* ---- driver ------------------------------------------------------------------ */

typedef struct {
    uint64_t seed;
    int64_t first, count, index;
    int filter; /* -1: any that fits, 0: the run's size, else exactly this */
    int verbose;
} arguments;

static int parse(int argc, char **argv, arguments *a)
{
    const char *long_count = getenv("DISTFFT_SWEEP_LONG");
    *a = (arguments){.seed = 1, .first = 0, .count = 200, .index = -1, .filter = 0};
    if (long_count && *long_count) {
        a->count = strtoll(long_count, NULL, 10);
        if (a->count <= 0) a->count = 5000;
    }
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--verbose") == 0) { a->verbose = 1; continue; }
        if (!value) return -1;
        if (strcmp(argv[i], "--seed") == 0) a->seed = strtoull(value, NULL, 10);
        else if (strcmp(argv[i], "--count") == 0) a->count = strtoll(value, NULL, 10);
        else if (strcmp(argv[i], "--first") == 0) a->first = strtoll(value, NULL, 10);
        else if (strcmp(argv[i], "--index") == 0) a->index = strtoll(value, NULL, 10);
        else if (strcmp(argv[i], "--ranks-filter") == 0)
            a->filter = strcmp(value, "any") == 0 ? -1 : strcmp(value, "world") == 0 ? 0 : atoi(value);
        else return -1;
        i++;
    }
    if (a->index >= 0) {
        a->first = a->index;
        a->count = 1;
        a->filter = -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    /* FUNNELED: what threads > 1 needs (the plans refuse them below it). */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &thread_level);
    int world_rank, world_size;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    arguments a;
    if (parse(argc, argv, &a) != 0) {
        if (world_rank == 0)
            fprintf(stderr, "usage: sweep [--seed S] [--count N] [--first I] "
                    "[--ranks-filter world|any|P] [--index I] [--verbose]\n");
        MPI_Finalize();
        return 2;
    }
    int wanted = a.filter == 0 ? world_size : a.filter;
    int64_t ran = 0, rejected = 0, failed = 0;
    for (int64_t index = a.first; index < a.first + a.count; index++) {
        config c;
        draw_config(a.seed, index, &c);
        if (a.index >= 0 && c.ranks > world_size) {
            if (world_rank == 0)
                printf("sweep: configuration %lld needs %d ranks, this run has %d\n",
                       (long long)index, c.ranks, world_size);
            failed++;
        }
        if (c.ranks > world_size || (a.filter >= 0 && c.ranks != wanted)) continue;
        verdict v = {.comm = MPI_COMM_WORLD, .ok = 1};
        int member = world_rank < c.ranks;
        if (c.ranks != world_size)
            MPI_Comm_split(MPI_COMM_WORLD, member ? 0 : MPI_UNDEFINED, world_rank, &v.comm);
        char text[2048];
        describe(&c, text, sizeof text);
        if (member) {
            MPI_Comm_rank(v.comm, &v.rank);
            if (a.verbose && v.rank == 0) printf("sweep: %lld %s\n", (long long)index, text);
            run_config(&v, &c);
            /* The first failing rank tells why; everyone learns the verdict. */
            struct { int failed, rank; } mine = {!v.ok, v.rank}, first;
            MPI_Allreduce(&mine, &first, 1, MPI_2INT, MPI_MAXLOC, v.comm);
            if (first.failed && v.rank == first.rank)
                printf("sweep: FAIL seed=%llu index=%lld (rank %d: %s)\n  %s\n"
                       "  reproduce: %s -n %d %s %s --seed %llu --index %lld\n",
                       (unsigned long long)a.seed, (long long)index, v.rank, v.why, text,
                       SWEEP_MPIEXEC, c.ranks, SWEEP_MPIEXEC_FLAGS, argv[0],
                       (unsigned long long)a.seed, (long long)index);
            ran++;
            rejected += v.refused;
            failed += first.failed;
            if (v.comm != MPI_COMM_WORLD) MPI_Comm_free(&v.comm);
        }
        fflush(stdout);
    }
    int64_t totals[3] = {ran, rejected, failed};
    MPI_Allreduce(MPI_IN_PLACE, totals, 3, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (world_rank == 0)
        printf("sweep: seed %llu, configurations %lld..%lld on %d ranks: %lld run "
               "(%lld invalid or vector on unequal blocks, rejected as documented), "
               "%lld failed\n",
               (unsigned long long)a.seed, (long long)a.first,
               (long long)(a.first + a.count - 1), world_size, (long long)totals[0],
               (long long)totals[1], (long long)totals[2]);
    MPI_Finalize();
    return totals[2] ? 1 : 0;
}
