/*
 * test_halo.c -- the halo (ghost-cell) exchange against the gathered
 * global array.
 *
 * For each case (1-D to 4-D arrays, grids of every dimensionality up to
 * the array's, primes, uneven and empty blocks, widths beyond a
 * neighbour's block and beyond the whole axis, periodic and open axes,
 * asymmetric and zero widths), every element type and batch 1 and 3: the
 * owned blocks are filled with exact values of the global index, the
 * ghosts with a sentinel; after execute (twice) every padded entry must
 * equal the gathered global array at its global index -- wrapped along
 * periodic axes -- and entries beyond an open boundary must still hold the
 * sentinel. Both variants (datatypes, pack) must give bit-identical arrays.
 * A plan's input block goes through the same check. Then bad input: every
 * rank must return the same error, leave the handle NULL and write nothing.
 * --quick (busy-polling MPIs, oversubscribed): one type per case, rotating.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

enum { SENTINEL = 0x5A, MAXD = 4 };

static int quick, rotation;

typedef struct {
    int ndims;
    int64_t shape[MAXD];
    int grid_ndims; /* axes 0..r-1 distributed over grid directions 0..r-1 */
    int64_t low[MAXD], high[MAXD];
    int periodic[MAXD];
} halo_case;

static const halo_case cases[] = {
    {1, {17}, 1, {2}, {3}, {1}},
    {1, {5}, 1, {4}, {7}, {1}},             /* wider than the axis: wraps */
    {1, {6}, 1, {2}, {1}, {0}},
    {2, {13, 7}, 1, {1, 1}, {1, 1}, {1, 1}},
    {2, {11, 6}, 2, {2, 1}, {1, 3}, {1, 0}},
    {2, {3, 4}, 2, {2, 0}, {3, 2}, {1, 1}}, /* empty blocks, wide halos */
    {3, {9, 7, 5}, 1, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
    {3, {9, 7, 5}, 2, {1, 2, 0}, {2, 1, 1}, {0, 1, 1}},
    {3, {6, 5, 4}, 3, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
    {3, {3, 2, 5}, 2, {3, 3, 1}, {2, 2, 1}, {1, 0, 1}},
    {4, {5, 4, 3, 6}, 2, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 0, 1, 0}},
    {4, {4, 3, 2, 5}, 4, {1, 1, 1, 1}, {1, 2, 1, 1}, {1, 1, 1, 1}},
};

static const distfft_type types[] = {DISTFFT_COMPLEX_DOUBLE, DISTFFT_COMPLEX_FLOAT,
                                     DISTFFT_REAL_DOUBLE, DISTFFT_REAL_FLOAT};

/* One exchange to check: the case, its element type and batch, and this
 * rank's block. */
typedef struct {
    const halo_case *hc;
    distfft_type type;
    int64_t batch;
    int64_t local[MAXD], start[MAXD];
    char label[160];
} setup;

/* This rank's block on an r-dimensional grid of the world. */
static int block_on_grid(const halo_case *hc, setup *s)
{
    distfft_grid grid = NULL;
    if (distfft_grid_create(MPI_COMM_WORLD, hc->grid_ndims, NULL, &grid) != DISTFFT_SUCCESS)
        return 0;
    int dims[MAXD], coords[MAXD];
    distfft_grid_dims(grid, dims);
    distfft_grid_coords(grid, coords);
    for (int i = 0; i < hc->ndims; i++) {
        s->local[i] = hc->shape[i];
        s->start[i] = 0;
        if (i < hc->grid_ndims)
            distfft_decompose(hc->shape[i], dims[i], coords[i], &s->local[i], &s->start[i]);
    }
    distfft_grid_destroy(&grid);
    return 1;
}

/* The global array (all fields) on every rank: each rank's interior,
 * unpadded and gathered field by field to rank 0, then broadcast. */
static void *gathered_global(const setup *s, distfft_halo halo, const void *padded)
{
    const halo_case *hc = s->hc;
    size_t element = distfft_type_size(s->type);
    int64_t field_local = test_product(hc->ndims, s->local);
    int64_t field_global = test_product(hc->ndims, hc->shape);
    size_t global_bytes = (size_t)(s->batch * field_global) * element;
    char *block = malloc((size_t)(s->batch * field_local) * element + 1);
    char *global = malloc(global_bytes + 1);
    distfft_halo_unpad(halo, padded, block);
    for (int64_t f = 0; f < s->batch; f++)
        test_gather(MPI_COMM_WORLD, s->type, hc->ndims, hc->shape, s->local, s->start,
                       block + (size_t)(f * field_local) * element, 0,
                       global + (size_t)(f * field_global) * element);
    MPI_Bcast(global, (int)global_bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    free(block);
    return global;
}

/* Global linear index of a padded entry, or -1 beyond an open boundary. */
static int64_t global_index(const halo_case *hc, const int64_t *padded_shape,
                            const int64_t *padded_start, int64_t linear)
{
    int64_t g = 0, weight = 1;
    for (int i = hc->ndims - 1; i >= 0; i--) {
        int64_t index = padded_start[i] + linear % padded_shape[i], n = hc->shape[i];
        linear /= padded_shape[i];
        if (hc->periodic[i]) index = ((index % n) + n) % n;
        else if (index < 0 || index >= n) return -1;
        g += index * weight;
        weight *= n;
    }
    return g;
}

/* Every padded entry against the global array; returns the bad count. */
static int64_t check_padded(test_suite *suite, const setup *s, distfft_halo halo,
                            const char *padded, const char *global)
{
    int64_t padded_shape[MAXD], padded_start[MAXD];
    int64_t total = distfft_halo_padded_block(halo, padded_shape, padded_start);
    int64_t per_field = total / s->batch, bad = 0;
    int64_t field_global = test_product(s->hc->ndims, s->hc->shape);
    size_t element = distfft_type_size(s->type);
    static const char sentinel[16] = {SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL,
                                      SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL,
                                      SENTINEL, SENTINEL, SENTINEL, SENTINEL, SENTINEL,
                                      SENTINEL};
    for (int64_t k = 0; k < total; k++) {
        int64_t g = global_index(s->hc, padded_shape, padded_start, k % per_field);
        const char *want = g < 0 ? sentinel
                                 : global + (size_t)((k / per_field) * field_global + g) * element;
        if (memcmp(padded + (size_t)k * element, want, element) == 0) continue;
        if (bad++ == 0)
            test_detail(suite, "%s: padded entry %lld (field %lld) %s", s->label,
                        (long long)(k % per_field), (long long)(k / per_field),
                        g < 0 ? "beyond an open boundary was written" : "differs");
    }
    return bad;
}

/* Create, fill, execute twice, check; returns the padded array (or NULL
 * after a failure, which is reported). */
static char *exchange(test_suite *suite, const setup *s, distfft_halo_variant variant,
                      int64_t *bytes)
{
    const halo_case *hc = s->hc;
    distfft_halo halo = NULL;
    int rc = test_halo_create(MPI_COMM_WORLD, s->type, hc->ndims, hc->shape, s->local,
                                 s->start, hc->low, hc->high, hc->periodic, s->batch,
                                 variant, &halo);
    if (rc != DISTFFT_SUCCESS) {
        test_detail(suite, "%s: create: %s", s->label, distfft_last_error());
        return NULL;
    }
    size_t element = distfft_type_size(s->type);
    *bytes = distfft_halo_padded_block(halo, NULL, NULL) * (int64_t)element;
    char *padded = test_guarded_alloc((size_t)*bytes, SENTINEL);
    char *block = malloc((size_t)(s->batch * test_product(hc->ndims, s->local)) * element + 1);
    test_fill(s->type, hc->ndims, hc->shape, s->local, s->start, s->batch, 1, block);
    distfft_halo_pad(halo, block, padded);
    free(block);
    int ok = 1;
    for (int k = 0; k < 2 && ok; k++)
        ok = distfft_halo_execute(halo, *bytes ? padded : NULL) == DISTFFT_SUCCESS;
    if (!ok) test_detail(suite, "%s: execute: %s", s->label, distfft_last_error());
    char *global = gathered_global(s, halo, padded);
    ok = ok && check_padded(suite, s, halo, padded, global) == 0 &&
         test_guard_intact(padded, (size_t)*bytes, SENTINEL);
    free(global);
    distfft_halo_destroy(&halo);
    if (!ok) {
        distfft_free(padded);
        return NULL;
    }
    return padded;
}

static void run_setup(test_suite *suite, setup *s)
{
    int64_t bytes[2] = {0, 0};
    char *result[2];
    char base[sizeof s->label];
    snprintf(base, sizeof base, "%s", s->label);
    for (int v = 0; v < 2; v++) {
        snprintf(s->label, sizeof s->label, "%.140s %s", base,
                 distfft_halo_variant_name((distfft_halo_variant)v));
        result[v] = exchange(suite, s, (distfft_halo_variant)v, &bytes[v]);
        test_case(suite, result[v] != NULL, "%s", s->label);
    }
    int same = result[0] && result[1] && bytes[0] == bytes[1] &&
               memcmp(result[0], result[1], (size_t)bytes[0]) == 0;
    test_case(suite, same, "%s: datatypes and pack bit-identical", base);
    distfft_free(result[0]);
    distfft_free(result[1]);
}

static void run_case(test_suite *suite, const halo_case *hc)
{
    setup s = {.hc = hc};
    if (!block_on_grid(hc, &s)) {
        test_case(suite, 0, "grid r=%d", hc->grid_ndims);
        return;
    }
    char shape[64];
    test_shape_string(hc->ndims, hc->shape, shape, sizeof shape);
    int pick = rotation++ % 8; /* --quick: this one combination */
    for (int t = 0; t < 4; t++)
        for (int64_t batch = 1; batch <= 3; batch += 2) {
            if (quick && pick != t * 2 + (batch == 3)) continue;
            s.type = types[t];
            s.batch = batch;
            snprintf(s.label, sizeof s.label, "%s r=%d %s batch=%lld", shape,
                     hc->grid_ndims, distfft_type_name(types[t]), (long long)batch);
            run_setup(suite, &s);
        }
}

/* A plan's input block, handed to the halo as the plan reports it. */
static void run_plan_block(test_suite *suite, int grid_ndims)
{
    static const halo_case hc = {3, {12, 10, 7}, 0, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
    distfft_options options;
    distfft_options_init(&options);
    options.grid_ndims = grid_ndims;
    options.rigor = DISTFFT_ESTIMATE;
    options.method = DISTFFT_METHOD_ALLTOALLW;
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(MPI_COMM_WORLD, 3, hc.shape, DISTFFT_DOUBLE, &options, &plan);
    test_case(suite, rc == DISTFFT_SUCCESS, "plan r=%d for its input block", grid_ndims);
    if (rc != DISTFFT_SUCCESS) return;
    setup s = {.hc = &hc, .type = DISTFFT_COMPLEX_DOUBLE, .batch = 1};
    distfft_plan_input_block(plan, s.local, s.start);
    distfft_plan_destroy(&plan);
    snprintf(s.label, sizeof s.label, "plan input block 12x10x7 r=%d", grid_ndims);
    run_setup(suite, &s);
}

void halo_bad_input(test_suite *suite); /* test_halo_errors.c */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite suite;
    test_suite_init(&suite, "test_halo", MPI_COMM_WORLD);
    for (int i = 1; i < argc; i++) quick |= strcmp(argv[i], "--quick") == 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) run_case(&suite, &cases[k]);
    run_plan_block(&suite, 1);
    run_plan_block(&suite, 2);
    halo_bad_input(&suite);
    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
