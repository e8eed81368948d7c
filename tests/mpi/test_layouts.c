/*
 * test_layouts.c -- layouts as values (issue 22): made from boxes, from a
 * grid and an alignment, and from a plan's sides; reshapes between any two
 * of them; plans whose input and output are in the caller's layouts; the
 * gather, scatter, array-file and halo calls from layouts; and the bad
 * input catalogue (overlap, gap, outside, dimensionality, communicators).
 *
 * Layouts used, on any number of ranks:
 *   bricks     a 3-D grid of MPI_Dims_create extents over all three axes
 *              (2x2x2 on 8 ranks) -- from boxes and from the grid alike;
 *   irregular  recursive bisection with uneven cuts (no grid: cut
 *              positions differ between the halves), the last rank of 4+
 *              holding an empty box;
 *   slabs      a 1-D grid along axis 0.
 * Inputs are exact functions of the global index, so a reshape (a
 * permutation) must reproduce them exactly; transforms are compared with
 * FFTW's serial DFT of the gathered array.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

static int rank, size;

/* ---- boxes ------------------------------------------------------------------ */

/* Recursive bisection of (start, shape) over ranks lo..hi-1, cutting axis
 * depth % ndims unevenly; this rank's box into (my_start, my_shape). */
static void bisect(int ndims, const int64_t *start, const int64_t *shape, int lo, int hi, int depth,
                   int64_t *my_start, int64_t *my_shape)
{
    if (hi - lo == 1) {
        if (rank == lo) {
            memcpy(my_start, start, ndims * sizeof(int64_t));
            memcpy(my_shape, shape, ndims * sizeof(int64_t));
        }
        return;
    }
    int mid = lo + (hi - lo) / 2, axis = depth % ndims;
    int64_t n = shape[axis];
    int64_t cut = n * (mid - lo) / (hi - lo) + (depth % 2 ? 1 : -1);
    if (cut < 0) cut = 0;
    if (cut > n) cut = n;
    int64_t s2[DISTFFT_MAX_DIMS], n1[DISTFFT_MAX_DIMS], n2[DISTFFT_MAX_DIMS];
    memcpy(s2, start, ndims * sizeof(int64_t));
    memcpy(n1, shape, ndims * sizeof(int64_t));
    memcpy(n2, shape, ndims * sizeof(int64_t));
    n1[axis] = cut;
    n2[axis] = n - cut;
    s2[axis] = start[axis] + cut;
    bisect(ndims, start, n1, lo, mid, depth + 1, my_start, my_shape);
    bisect(ndims, s2, n2, mid, hi, depth + 3, my_start, my_shape);
}

static int irregular(int ndims, const int64_t *global, distfft_layout *layout)
{
    int64_t start[DISTFFT_MAX_DIMS] = {0}, shape[DISTFFT_MAX_DIMS] = {0}, zero[DISTFFT_MAX_DIMS] = {0};
    int ranks = size >= 4 ? size - 1 : size; /* the last of 4+ ranks: an empty box */
    if (rank < ranks) bisect(ndims, zero, global, 0, ranks, 0, start, shape);
    return distfft_layout_from_box(MPI_COMM_WORLD, ndims, global, start, shape, layout);
}

/* Bricks: a 3-D grid over axes 0..2, from boxes (Alg. 1 blocks). */
static int bricks(const int64_t *global, distfft_layout *layout, int *dims)
{
    dims[0] = dims[1] = dims[2] = 0;
    MPI_Dims_create(size, 3, dims);
    int coords[3] = {rank / (dims[1] * dims[2]), rank / dims[2] % dims[1], rank % dims[2]};
    int64_t start[3], shape[3];
    for (int a = 0; a < 3; a++) distfft_decompose(global[a], dims[a], coords[a], &shape[a], &start[a]);
    return distfft_layout_from_box(MPI_COMM_WORLD, 3, global, start, shape, layout);
}

static void *alloc_box(const distfft_layout layout, distfft_type type, int64_t batch)
{
    int64_t count = distfft_layout_count(layout, distfft_layout_rank(layout)) * batch;
    return distfft_malloc((size_t)(count > 0 ? count : 1) * distfft_type_size(type));
}

static void fill(const distfft_layout layout, distfft_type type, int64_t batch, void *buffer)
{
    int ndims = distfft_layout_ndims(layout);
    int64_t global[DISTFFT_MAX_DIMS], start[DISTFFT_MAX_DIMS], shape[DISTFFT_MAX_DIMS];
    distfft_layout_global_shape(layout, global);
    distfft_layout_box(layout, distfft_layout_rank(layout), start, shape);
    test_fill(type, ndims, global, shape, start, batch, 1, buffer);
}

static int64_t check(const distfft_layout layout, distfft_type type, int64_t batch, const void *buffer)
{
    int ndims = distfft_layout_ndims(layout);
    int64_t global[DISTFFT_MAX_DIMS], start[DISTFFT_MAX_DIMS], shape[DISTFFT_MAX_DIMS];
    distfft_layout_global_shape(layout, global);
    distfft_layout_box(layout, distfft_layout_rank(layout), start, shape);
    char detail[256];
    return test_check_exact(type, ndims, global, shape, start, batch, buffer, detail, sizeof detail);
}

/* ---- cases ------------------------------------------------------------------- */

static void test_values(test_suite *suite)
{
    int64_t global[3] = {6, 5, 4};
    int dims[3];
    distfft_layout from_boxes = NULL, from_grid = NULL, slabs = NULL;
    test_case(suite, bricks(global, &from_boxes, dims) == DISTFFT_SUCCESS, "bricks from boxes");
    int by[3] = {0, 1, 2};
    test_case(suite, distfft_layout_from_grid(MPI_COMM_WORLD, 3, global, 3, dims, by, &from_grid) == 0,
              "bricks from grid");
    test_case(suite, distfft_layout_equal(from_boxes, from_grid), "bricks from boxes == from grid");
    int slab_dims[1] = {size}, slab_by[3] = {0, -1, -1};
    test_case(suite, distfft_layout_from_grid(MPI_COMM_WORLD, 3, global, 1, slab_dims, slab_by, &slabs) == 0,
              "slabs from grid");
    test_case(suite, dims[1] * dims[2] == 1 || !distfft_layout_equal(slabs, from_boxes), "slabs != bricks");
    int64_t total = 0;
    for (int r = 0; r < size; r++) total += distfft_layout_count(from_boxes, r);
    test_case(suite, total == 120 && distfft_layout_size(from_boxes) == size &&
                         distfft_layout_rank(from_boxes) == rank && distfft_layout_ndims(from_boxes) == 3,
              "queries: counts add up, size, rank, ndims");
    char text[4096];
    int length = distfft_layout_describe(from_boxes, text, sizeof text);
    test_case(suite, length > 0 && strncmp(text, "(layout 6x5x4 ranks=", 20) == 0, "describe: %s", text);
    distfft_layout_destroy(&from_boxes);
    distfft_layout_destroy(&from_grid);
    distfft_layout_destroy(&slabs);
    test_case(suite, from_boxes == NULL && from_grid == NULL, "destroy clears the handle");
}

/* Reshape a -> b and back, exact, for a type, batch and method. */
static void reshape_round(test_suite *suite, const char *name, distfft_layout a, distfft_layout b,
                          distfft_type type, int64_t batch, distfft_method method)
{
    distfft_reshape_options options;
    distfft_reshape_options_init(&options);
    options.method = method;
    distfft_reshape reshape = NULL;
    int rc = distfft_reshape_create(a, b, type, batch, &options, &reshape);
    void *x = alloc_box(a, type, batch), *y = alloc_box(b, type, batch), *z = alloc_box(a, type, batch);
    fill(a, type, batch, x);
    int ok = rc == DISTFFT_SUCCESS && distfft_reshape_execute(reshape, x, y, DISTFFT_FORWARD) == DISTFFT_SUCCESS &&
             check(b, type, batch, y) == 0 && distfft_reshape_execute(reshape, y, z, DISTFFT_BACKWARD) == DISTFFT_SUCCESS &&
             check(a, type, batch, z) == 0 && check(a, type, batch, x) == 0;
    if (!ok && rc) test_detail(suite, "%s", distfft_last_error());
    test_case(suite, ok, "reshape %s %s batch=%lld %s", name, distfft_type_name(type), (long long)batch,
              distfft_method_name(method));
    distfft_reshape_destroy(&reshape);
    distfft_free(x);
    distfft_free(y);
    distfft_free(z);
}

/* Every row of the method table between boxes: the rows that apply round
 * trip exactly; the others -- vector, shm and hierarchical, which exchange
 * aligned pencils of a grid, and staged and nccl, which move device memory -- are
 * refused with DISTFFT_ERR_UNSUPPORTED on every rank, naming the method,
 * before any message. */
static void reshape_every_method(test_suite *suite, distfft_layout a, distfft_layout b)
{
    for (int m = 0; m < distfft_method_count(); m++) {
        distfft_method method = (distfft_method)m;
        distfft_reshape_options options;
        distfft_reshape_options_init(&options);
        options.method = method;
        distfft_reshape reshape = NULL;
        int rc = distfft_reshape_create(a, b, DISTFFT_COMPLEX_DOUBLE, 2, &options, &reshape);
        int pencils_only = method == DISTFFT_METHOD_VECTOR || method == DISTFFT_METHOD_SHM ||
                           method == DISTFFT_METHOD_HIERARCHICAL || !test_method_serves_host(method);
        if (rc == DISTFFT_SUCCESS) {
            distfft_reshape_destroy(&reshape);
            test_case(suite, test_all(MPI_COMM_WORLD, !pencils_only), "reshape with %s: made on every rank%s",
                      distfft_method_name(method), pencils_only ? ", but it does not apply here" : "");
            if (!pencils_only) reshape_round(suite, "bricks->irregular", a, b, DISTFFT_COMPLEX_DOUBLE, 2, method);
            continue;
        }
        int refused = rc == DISTFFT_ERR_UNSUPPORTED && reshape == NULL &&
                      strstr(distfft_last_error(), distfft_method_name(method)) != NULL;
        if (!refused) test_detail(suite, "%s: %s", distfft_error_string(rc), distfft_last_error());
        test_case(suite, test_all(MPI_COMM_WORLD, refused && pencils_only), "reshape with %s: refused on every rank",
                  distfft_method_name(method));
    }
}

static void test_reshapes(test_suite *suite)
{
    int64_t global[3] = {7, 6, 5};
    int dims[3], slab_dims[1] = {size}, slab_by[3] = {-1, 0, -1};
    distfft_layout brick = NULL, odd = NULL, slab = NULL;
    bricks(global, &brick, dims);
    irregular(3, global, &odd);
    distfft_layout_from_grid(MPI_COMM_WORLD, 3, global, 1, slab_dims, slab_by, &slab);
    distfft_method methods[] = {DISTFFT_METHOD_ALLTOALLW, DISTFFT_METHOD_ALLTOALLV, DISTFFT_METHOD_ISEND_WAITALL,
                                DISTFFT_METHOD_AUTO};
    for (int m = 0; m < 4; m++) {
        reshape_round(suite, "bricks->irregular", brick, odd, DISTFFT_COMPLEX_DOUBLE, 1, methods[m]);
        reshape_round(suite, "slabs->bricks", slab, brick, DISTFFT_COMPLEX_DOUBLE, 2, methods[m]);
        reshape_round(suite, "irregular->slabs", odd, slab, DISTFFT_REAL_FLOAT, 3, methods[m]);
    }
    reshape_every_method(suite, brick, odd);
    reshape_round(suite, "bricks->bricks", brick, brick, DISTFFT_REAL_DOUBLE, 2, DISTFFT_METHOD_ALLTOALLW);
    /* 5-D, boxes of the user's choice */
    int64_t five[5] = {3, 4, 2, 5, 3};
    int five_dims[1] = {size}, five_by[5] = {-1, -1, -1, 0, -1};
    distfft_layout odd5 = NULL, pencil5 = NULL;
    irregular(5, five, &odd5);
    distfft_layout_from_grid(MPI_COMM_WORLD, 5, five, 1, five_dims, five_by, &pencil5);
    reshape_round(suite, "5-D irregular->slabs", odd5, pencil5, DISTFFT_COMPLEX_FLOAT, 2, DISTFFT_METHOD_AUTO);
    /* 1-D and 16-D */
    int64_t one[1] = {11}, sixteen[16];
    for (int a = 0; a < 16; a++) sixteen[a] = a % 5 == 0 ? 3 : 1;
    distfft_layout one_a = NULL, one_b = NULL, sixteen_a = NULL, sixteen_b = NULL;
    int one_dims[1] = {size}, one_by[1] = {0}, sixteen_by[16];
    for (int a = 0; a < 16; a++) sixteen_by[a] = a == 15 ? 0 : -1;
    irregular(1, one, &one_a);
    distfft_layout_from_grid(MPI_COMM_WORLD, 1, one, 1, one_dims, one_by, &one_b);
    irregular(16, sixteen, &sixteen_a);
    distfft_layout_from_grid(MPI_COMM_WORLD, 16, sixteen, 1, one_dims, sixteen_by, &sixteen_b);
    reshape_round(suite, "1-D", one_a, one_b, DISTFFT_COMPLEX_DOUBLE, 1, DISTFFT_METHOD_ALLTOALLW);
    reshape_round(suite, "16-D", sixteen_a, sixteen_b, DISTFFT_COMPLEX_DOUBLE, 1, DISTFFT_METHOD_ALLTOALLW);
    reshape_round(suite, "5-D alltoallv", pencil5, odd5, DISTFFT_REAL_DOUBLE, 3, DISTFFT_METHOD_ALLTOALLV);
    distfft_layout all[] = {brick, odd, slab, odd5, pencil5, one_a, one_b, sixteen_a, sixteen_b};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) distfft_layout_destroy(&all[i]);
}

/* A c2c plan of `batch` fields with the input in layout a and the output
 * in layout b, run as `overlap` says, against FFTW on each gathered field;
 * backward returns the input. */
static void plan_case(test_suite *suite, const char *name, int ndims, const int64_t *global, distfft_layout a,
                      distfft_layout b, int64_t batch, distfft_overlap overlap)
{
    distfft_options options;
    distfft_options_init(&options);
    options.rigor = DISTFFT_ESTIMATE;
    options.batch = batch;
    options.overlap = overlap;
    distfft_plan plan = NULL, plain = NULL;
    int rc = distfft_plan_create_layouts(MPI_COMM_WORLD, ndims, global, DISTFFT_DOUBLE, &options, a, b, &plan);
    if (rc) test_detail(suite, "%s", distfft_last_error());
    test_case(suite, rc == DISTFFT_SUCCESS, "plan %s: created", name);
    if (rc) return;
    distfft_plan_create(MPI_COMM_WORLD, ndims, global, DISTFFT_DOUBLE, &options, &plain);
    int64_t in_shape[DISTFFT_MAX_DIMS], in_start[DISTFFT_MAX_DIMS], box_start[DISTFFT_MAX_DIMS],
        box_shape[DISTFFT_MAX_DIMS];
    distfft_plan_input_block(plan, in_shape, in_start);
    distfft_layout_box(a, rank, box_start, box_shape);
    test_case(suite, !memcmp(in_shape, box_shape, ndims * 8) && !memcmp(in_start, box_start, ndims * 8),
              "plan %s: input block is the caller's box", name);
    char text[2048];
    distfft_plan_describe(plan, text, sizeof text);
    int own = distfft_plan_step_count(plain, DISTFFT_FORWARD), with = distfft_plan_step_count(plan, DISTFFT_FORWARD);
    distfft_step first;
    distfft_plan_step(plan, DISTFFT_FORWARD, 0, &first);
    int reshape_in = strstr(text, "(reshape in ") != NULL, reshape_out = strstr(text, "(reshape out ") != NULL;
    int counted = 0;
    distfft_step last;
    for (int i = 0; i < with; i++) {
        distfft_step info;
        distfft_plan_step(plan, DISTFFT_FORWARD, i, &info);
        counted += !strncmp(info.description, "reshape", 7) && info.is_redistribution && info.grid_direction == -1;
    }
    distfft_plan_step(plan, DISTFFT_FORWARD, with - 1, &last);
    test_case(suite, counted == reshape_in + reshape_out &&
                         (!reshape_in || !strncmp(first.description, "reshape in", 10)) &&
                         (!reshape_out || !strncmp(last.description, "reshape out", 11)) &&
                         (!reshape_in || !reshape_out || with >= own + 2),
              "plan %s: reshape steps described, counted: %s", name, text);
    (void)own;
    test_case(suite, (overlap == DISTFFT_OVERLAP_OFF) == (strstr(text, " overlap=") == NULL),
              "plan %s: run field by field where asked: %s", name, text);
    distfft_layout out_layout = NULL;
    distfft_plan_output_layout(plan, &out_layout);
    test_case(suite, distfft_layout_equal(out_layout, b), "plan %s: output layout is the caller's", name);
    distfft_layout_destroy(&out_layout);
    void *x = alloc_box(a, DISTFFT_COMPLEX_DOUBLE, batch), *y = alloc_box(b, DISTFFT_COMPLEX_DOUBLE, batch),
         *z = alloc_box(a, DISTFFT_COMPLEX_DOUBLE, batch);
    test_fill(DISTFFT_COMPLEX_DOUBLE, ndims, global, box_shape, box_start, batch, 0, x);
    rc = distfft_plan_execute(plan, x, y, DISTFFT_FORWARD);
    if (rc == 0) rc = distfft_plan_execute(plan, y, z, DISTFFT_BACKWARD);
    int64_t n = test_product(ndims, global);
    double complex *gx = NULL, *gy = NULL, *gz = NULL;
    void *raw[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3 && rank == 0; i++) raw[i] = malloc((size_t)(n * batch) * 16);
    distfft_layout_gather(a, DISTFFT_COMPLEX_DOUBLE, batch, x, 0, raw[0]);
    distfft_layout_gather(b, DISTFFT_COMPLEX_DOUBLE, batch, y, 0, raw[1]);
    distfft_layout_gather(a, DISTFFT_COMPLEX_DOUBLE, batch, z, 0, raw[2]);
    int ok = rc == DISTFFT_SUCCESS;
    for (int64_t f = 0; f < batch && rank == 0; f++) {
        gx = (double complex *)raw[0] + f * n, gy = (double complex *)raw[1] + f * n;
        gz = (double complex *)raw[2] + f * n;
        double complex *reference = malloc((size_t)n * 16);
        test_reference_dft(ndims, global, -1, gx, reference);
        double error = test_max_abs_diff(n, reference, gy) / test_max_abs(n, reference);
        double back = test_max_abs_diff(n, gx, gz) / test_max_abs(n, gx);
        ok = ok && error < test_tolerance(DISTFFT_DOUBLE, n) && back < test_tolerance(DISTFFT_DOUBLE, n);
        if (!ok) test_detail(suite, "%s field %lld: forward error %g, round trip %g", name, (long long)f, error, back);
        free(reference);
    }
    test_case(suite, ok, "plan %s batch=%lld overlap=%s: forward = FFTW on each gathered field, backward returns",
              name, (long long)batch, distfft_overlap_name(overlap));
    for (int i = 0; i < 3; i++) free(raw[i]);
    distfft_free(x);
    distfft_free(y);
    distfft_free(z);
    distfft_plan_destroy(&plan);
    distfft_plan_destroy(&plain);
}

static void test_plans(test_suite *suite)
{
    int64_t global[3] = {8, 6, 4};
    int dims[3];
    distfft_layout brick = NULL, odd = NULL;
    bricks(global, &brick, dims);
    irregular(3, global, &odd);
    plan_case(suite, "bricks->bricks", 3, global, brick, brick, 1, DISTFFT_OVERLAP_OFF);
    plan_case(suite, "bricks->irregular", 3, global, brick, odd, 1, DISTFFT_OVERLAP_OFF);
    /* Field by field (every own block a multiple of 8 elements: 64-byte
     * fields): the reshapes at the ends move every field at once. */
    int64_t cube[3] = {8, 8, 8};
    distfft_layout brick8 = NULL, odd8 = NULL;
    bricks(cube, &brick8, dims);
    irregular(3, cube, &odd8);
    plan_case(suite, "irregular->bricks", 3, cube, odd8, brick8, 3, DISTFFT_OVERLAP_ON);
    plan_case(suite, "bricks->irregular", 3, cube, brick8, odd8, 2, DISTFFT_OVERLAP_FIELDS);
    plan_case(suite, "irregular->irregular", 3, cube, odd8, odd8, 3, DISTFFT_OVERLAP_OFF);
    distfft_layout_destroy(&brick8);
    distfft_layout_destroy(&odd8);
    int64_t five[5] = {3, 4, 2, 5, 3};
    distfft_layout odd5 = NULL, other5 = NULL;
    irregular(5, five, &odd5);
    int five_dims[1] = {size}, five_by[5] = {-1, 0, -1, -1, -1};
    distfft_layout_from_grid(MPI_COMM_WORLD, 5, five, 1, five_dims, five_by, &other5);
    plan_case(suite, "5-D irregular->slabs", 5, five, odd5, other5, 1, DISTFFT_OVERLAP_OFF);
    distfft_layout_destroy(&brick);
    distfft_layout_destroy(&odd);
    distfft_layout_destroy(&odd5);
    distfft_layout_destroy(&other5);
    /* Pencils of a 2-D grid: the plan takes that grid, no reshape at the input. */
    int pencil_dims[2] = {0, 0}, pencil_by[3] = {0, 1, -1};
    MPI_Dims_create(size, 2, pencil_dims);
    distfft_layout pencils = NULL;
    distfft_layout_from_grid(MPI_COMM_WORLD, 3, global, 2, pencil_dims, pencil_by, &pencils);
    distfft_options options;
    distfft_options_init(&options);
    options.rigor = DISTFFT_ESTIMATE;
    distfft_plan plan = NULL;
    int rc = distfft_plan_create_layouts(MPI_COMM_WORLD, 3, global, DISTFFT_DOUBLE, &options, pencils, NULL, &plan);
    char text[1024] = "";
    distfft_plan_describe(plan, text, sizeof text);
    test_case(suite, rc == 0 && !strstr(text, "(reshape"), "plan on pencils: the grid is chosen to need no reshape: %s",
              text);
    distfft_plan_destroy(&plan);
    distfft_layout_destroy(&pencils);
}

/* Scatter, gather, array files and a halo, all from layouts. */
static void test_calls(test_suite *suite)
{
    int64_t global[3] = {5, 6, 7};
    int dims[3];
    distfft_layout brick = NULL, odd = NULL;
    bricks(global, &brick, dims);
    irregular(3, global, &odd);
    distfft_type type = DISTFFT_REAL_DOUBLE;
    int64_t n = 210, batch = 2;
    double *whole = NULL;
    if (rank == 0) {
        whole = malloc((size_t)(n * batch) * sizeof *whole);
        test_fill(type, 3, global, global, (int64_t[3]){0, 0, 0}, batch, 1, whole);
    }
    void *mine = alloc_box(odd, type, batch), *again = alloc_box(brick, type, batch);
    int rc = distfft_layout_scatter(odd, type, batch, whole, 0, mine);
    test_case(suite, rc == 0 && check(odd, type, batch, mine) == 0, "scatter from a layout");
    double *back = rank == 0 ? calloc((size_t)(n * batch), sizeof *back) : NULL;
    rc = distfft_layout_gather(odd, type, batch, mine, 0, back);
    test_case(suite, rc == 0 && (rank || !memcmp(back, whole, (size_t)(n * batch) * 8)), "gather from a layout");
    char path[64];
    int stamp = (int)getpid();
    MPI_Bcast(&stamp, 1, MPI_INT, 0, MPI_COMM_WORLD);
    snprintf(path, sizeof path, "test_layouts_%d_%d.npy", size, stamp);
    rc = distfft_layout_array_write(odd, path, type, batch, mine);
    if (rc == 0) rc = distfft_layout_array_read(brick, path, type, batch, again);
    test_case(suite, rc == 0 && check(brick, type, batch, again) == 0,
              "array file written from irregular boxes, read into bricks");
    if (rank == 0) remove(path);
    distfft_halo halo = NULL;
    int64_t widths[3] = {1, 1, 1};
    int periodic[3] = {1, 1, 1};
    rc = distfft_layout_halo_create(brick, type, widths, NULL, periodic, 1, DISTFFT_HALO_DATATYPES, &halo);
    int64_t padded_shape[3], padded_start[3];
    int64_t padded = distfft_halo_padded_block(halo, padded_shape, padded_start);
    double *array = calloc((size_t)(padded > 0 ? padded : 1), sizeof *array);
    if (rc == 0) rc = distfft_halo_pad(halo, again, array);
    if (rc == 0) rc = distfft_halo_execute(halo, array);
    int ok = rc == 0;
    for (int64_t i = 0; ok && i < padded; i++) { /* every padded entry: the owner's value, wrapped */
        int64_t rest = i, linear = 0, index[3];
        for (int a = 2; a >= 0; a--) {
            index[a] = rest % padded_shape[a] + padded_start[a];
            rest /= padded_shape[a];
        }
        for (int a = 0; a < 3; a++) linear = linear * global[a] + (index[a] + global[a]) % global[a];
        ok = array[i] == creal(test_exact_value(0, linear));
    }
    test_case(suite, ok, "halo from a brick layout: every ghost holds its owner's value");
    distfft_halo_destroy(&halo);
    free(array);
    free(whole);
    free(back);
    distfft_free(mine);
    distfft_free(again);
    distfft_layout_destroy(&brick);
    distfft_layout_destroy(&odd);
}

/* Every object describes itself in one line; on 2 ranks, the header's
 * examples byte for byte. */
static void test_descriptions(test_suite *suite)
{
    char text[256];
    int64_t in_shape[2] = {0, 8}, out_shape[2] = {8, 0};
    distfft_decompose(8, size, rank, &in_shape[0], NULL);
    distfft_decompose(8, size, rank, &out_shape[1], NULL);
    distfft_redist redist = NULL;
    int rc = distfft_redist_create(MPI_COMM_WORLD, DISTFFT_COMPLEX_DOUBLE, 2, in_shape, 1, out_shape, 0, 1,
                                   DISTFFT_METHOD_ALLTOALLW, &redist);
    int length = rc ? -1 : distfft_redist_describe(redist, text, sizeof text);
    int ok = length == (int)strlen(text) && strncmp(text, "(redist alltoallw 1->0 ", 23) == 0;
    if (size == 2) ok = ok && strcmp(text, "(redist alltoallw 1->0 4x8 to 8x4 complex-double ranks=2 sends 256 "
                                           "bytes)") == 0;
    if (!ok) test_detail(suite, "redist: %s", text);
    test_case(suite, test_all(MPI_COMM_WORLD, ok && distfft_redist_describe(NULL, text, sizeof text) == -1),
              "distfft_redist_describe");
    distfft_redist_destroy(&redist);
    int64_t global[2] = {10, 8}, start[2] = {0, 0}, shape[2] = {0, 8};
    distfft_decompose(10, size, rank, &shape[0], &start[0]);
    const int64_t widths[2] = {1, 1};
    const int periodic[2] = {1, 1};
    distfft_layout slabs = NULL;
    distfft_halo halo = NULL;
    rc = distfft_layout_from_box(MPI_COMM_WORLD, 2, global, start, shape, &slabs);
    if (!rc) rc = distfft_layout_halo_create(slabs, DISTFFT_REAL_DOUBLE, widths, NULL, periodic, 1,
                                              DISTFFT_HALO_DATATYPES, &halo);
    length = rc ? -1 : distfft_halo_describe(halo, text, sizeof text);
    ok = length == (int)strlen(text) && strncmp(text, "(halo datatypes 10x8 real-double widths=1:1p,1:1p ", 50) == 0;
    if (size == 2) ok = ok && strcmp(text, "(halo datatypes 10x8 real-double widths=1:1p,1:1p sends 1 message 128 "
                                           "bytes)") == 0;
    if (!ok) test_detail(suite, "halo: %s", text);
    test_case(suite, test_all(MPI_COMM_WORLD, ok && distfft_halo_describe(NULL, text, sizeof text) == -1),
              "distfft_halo_describe");
    distfft_halo_destroy(&halo);
    distfft_layout_destroy(&slabs);
}

/* The layout calls check their buffers and root: the same error on
 * every rank. */
static void test_layout_buffers(test_suite *suite)
{
    int64_t global[2] = {3, 4};
    const distfft_type type = DISTFFT_REAL_DOUBLE;
    double whole[12], mine[12], back[12];
    for (int i = 0; i < 12; i++) whole[i] = rank == 0 ? i + 0.5 : -1.0, mine[i] = 0, back[i] = -2.0;
    int rc, ok;
    distfft_layout layout = NULL;
    int64_t start[2] = {0, 0}, shape[2] = {0, 4};
    distfft_decompose(3, size, rank, &shape[0], &start[0]);
    distfft_layout_from_box(MPI_COMM_WORLD, 2, global, start, shape, &layout);
    int empty = shape[0] == 0;
    rc = distfft_layout_gather(layout, type, 1, rank == 0 && !empty ? NULL : mine, 0, back);
    ok = rank == 0 && !empty ? rc == DISTFFT_ERR_ARGUMENT : 1;
    int codes[2] = {rc, -rc};
    MPI_Allreduce(MPI_IN_PLACE, codes, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    test_case(suite, test_all(MPI_COMM_WORLD, ok) && codes[0] == -codes[1],
              "distfft_layout_gather: a NULL block on rank 0, the same code on every rank");
    rc = distfft_layout_scatter(layout, type, 1, whole, size, mine);
    test_case(suite, test_all(MPI_COMM_WORLD, rc == DISTFFT_ERR_ARGUMENT), "distfft_layout_scatter: root out of range");
    distfft_reshape reshape = NULL;
    rc = distfft_reshape_create(layout, layout, type, 1, NULL, &reshape);
    if (rc == DISTFFT_SUCCESS) rc = distfft_reshape_execute(reshape, mine, back, rank == 0 ? 2 : DISTFFT_FORWARD);
    test_case(suite, test_all(MPI_COMM_WORLD, rc == DISTFFT_ERR_ARGUMENT && strstr(distfft_last_error(), "direction")),
              "distfft_reshape_execute: direction 2 on rank 0, the same error on every rank");
    distfft_reshape_destroy(&reshape);
    distfft_layout_destroy(&layout);
}

/* A bad layout: the same code and message on every rank, no handle. */
static void expect_error(test_suite *suite, const char *name, int rc, int code, distfft_layout layout,
                         const char *needle)
{
    uint64_t hash = test_hash_string(distfft_last_error()), low = hash, high = hash;
    MPI_Allreduce(&hash, &low, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&hash, &high, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    int same = low == high || code == DISTFFT_ERR_MISMATCH; /* mismatches say what this rank has */
    int ok = test_all(MPI_COMM_WORLD, rc == code) && layout == NULL && same && strstr(distfft_last_error(), needle);
    if (!ok) test_detail(suite, "%s: rc %d, message %s", name, rc, distfft_last_error());
    test_case(suite, ok, "bad input: %s (same error on every rank)", name);
}

static void test_bad_input(test_suite *suite)
{
    int64_t global[2] = {4, 6}, start[2], shape[2];
    distfft_layout layout = NULL;
    /* overlap: every rank claims rows rank..rank+1 of a (size+1)-row array */
    int64_t tall[2] = {size + 1, 6};
    start[0] = rank, start[1] = 0, shape[0] = 2, shape[1] = 6;
    int rc = distfft_layout_from_box(MPI_COMM_WORLD, 2, tall, start, shape, &layout);
    if (size > 1) expect_error(suite, "overlap", rc, DISTFFT_ERR_SHAPE, layout, "the boxes of rank 0 [0:2,0:6] and rank 1");
    distfft_layout_destroy(&layout);
    /* gap: every rank one row of a (size+1)-row array */
    shape[0] = 1;
    rc = distfft_layout_from_box(MPI_COMM_WORLD, 2, tall, start, shape, &layout);
    expect_error(suite, "gap", rc, DISTFFT_ERR_SHAPE, layout, "element (");
    /* outside: the last rank's box beyond axis 1 */
    distfft_decompose(4, size, rank, &shape[0], &start[0]);
    start[1] = rank == size - 1 ? 1 : 0, shape[1] = 6;
    rc = distfft_layout_from_box(MPI_COMM_WORLD, 2, global, start, shape, &layout);
    expect_error(suite, "outside", rc, DISTFFT_ERR_SHAPE, layout, "is not inside the global array");
    test_case(suite, test_message_names_rank(distfft_last_error(), size - 1) || size == 1 ||
                         strstr(distfft_last_error(), "rank"),
              "outside: the message names the offending rank");
    /* dimensionality differs */
    start[1] = 0;
    int64_t three[3] = {4, 6, 1}, start3[3] = {start[0], 0, 0}, shape3[3] = {shape[0], 6, 1};
    rc = rank == 0 ? distfft_layout_from_box(MPI_COMM_WORLD, 3, three, start3, shape3, &layout)
                   : distfft_layout_from_box(MPI_COMM_WORLD, 2, global, start, shape, &layout);
    if (size > 1) expect_error(suite, "ndims differs", rc, DISTFFT_ERR_MISMATCH, layout, "ndims");
    distfft_layout_destroy(&layout);
    /* different communicators: the same boxes on ranks in reverse order */
    MPI_Comm reversed;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
    distfft_layout a = NULL, b = NULL;
    distfft_layout_from_box(MPI_COMM_WORLD, 2, global, start, shape, &a);
    int64_t rstart[2], rshape[2] = {0, 6};
    distfft_decompose(4, size, size - 1 - rank, &rshape[0], &rstart[0]);
    rstart[1] = 0;
    distfft_layout_from_box(reversed, 2, global, rstart, rshape, &b);
    distfft_reshape reshape = NULL;
    rc = distfft_reshape_create(a, b, DISTFFT_COMPLEX_DOUBLE, 1, NULL, &reshape);
    if (size > 1)
        expect_error(suite, "different communicators", rc, DISTFFT_ERR_MISMATCH, (distfft_layout)reshape,
                     "different communicators");
    distfft_reshape_destroy(&reshape);
    /* a plan given a layout on other ranks */
    distfft_plan other_plan = NULL;
    int64_t same_shape[2] = {4, 6};
    rc = distfft_plan_create_layouts(MPI_COMM_WORLD, 2, same_shape, DISTFFT_DOUBLE, NULL, NULL, b, &other_plan);
    if (size > 1)
        expect_error(suite, "plan layout on another communicator", rc, DISTFFT_ERR_MISMATCH,
                     (distfft_layout)other_plan, "another communicator");
    distfft_plan_destroy(&other_plan);
    /* a plan given a layout of another shape */
    distfft_plan plan = NULL;
    int64_t plan_shape[2] = {4, 5};
    rc = distfft_plan_create_layouts(MPI_COMM_WORLD, 2, plan_shape, DISTFFT_DOUBLE, NULL, a, NULL, &plan);
    expect_error(suite, "plan layout of another shape", rc, DISTFFT_ERR_SHAPE, (distfft_layout)plan, "layout_in");
    distfft_layout_destroy(&a);
    distfft_layout_destroy(&b);
    MPI_Comm_free(&reversed);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_suite suite;
    test_suite_init(&suite, "test_layouts", MPI_COMM_WORLD);
    test_values(&suite);
    test_reshapes(&suite);
    test_plans(&suite);
    test_calls(&suite);
    test_layout_buffers(&suite);
    test_descriptions(&suite);
    test_bad_input(&suite);
    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
