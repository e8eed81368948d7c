/*
 * test_bad_input.c -- the bad-input catalogue, second half (test_errors.c
 * has the first: NULL/zero/negative arguments, grids that do not fit, NULL
 * and misaligned buffers, in == out). Here: transform kinds, huge sizes,
 * every plan option that must match across ranks, plans and
 * redistributions used after destroy, partly overlapping buffers, real
 * (r2c) plans, and gather/scatter arguments.
 *
 * Each case checks, on every rank: the call failed with an allowed code,
 * the same code everywhere; distfft_last_error() names the bad argument
 * (a given substring) and a rank (the one bad rank, verbatim on every rank,
 * when only one rank is wrong); the out-handle is NULL; the caller's
 * buffers are unchanged. Run under a CTest timeout: a hang fails.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define CODE(c) (1u << (c))

static test_suite suite;
static int P, me, bad_rank;

static char not_a_handle;
#define GARBAGE ((void *)&not_a_handle)

/* One failed call: allowed codes, the text the message must contain, the
 * one bad rank (-1: all ranks or a disagreement), this rank's extra verdict
 * (handles NULL, buffers untouched). */
static void expect_failure(int rc, unsigned allowed, const char *text,
                           int who, int local_ok, const char *name)
{
    const char *message = distfft_last_error();
    int ok = local_ok;
    if (rc <= 0 || rc > 31 || !(allowed & CODE(rc))) {
        test_detail(&suite, "%s: got code %d (%s): %s", name, rc,
                    distfft_error_string(rc), message);
        ok = 0;
    }
    if (text && !strstr(message, text)) {
        test_detail(&suite, "%s: message does not name \"%s\": \"%s\"", name,
                    text, message);
        ok = 0;
    }
    if (who >= 0 ? !test_message_names_rank(message, who)
                 : !strstr(message, "rank")) {
        test_detail(&suite, "%s: message does not name rank %d: \"%s\"",
                    name, who, message);
        ok = 0;
    }
    uint64_t hash = test_hash_string(message) >> 1;
    int64_t mine[4] = {rc, -(int64_t)rc, (int64_t)hash, -(int64_t)hash};
    int64_t all[4];
    MPI_Allreduce(mine, all, 4, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (all[0] != -all[1]) {
        test_detail(&suite, "%s: codes differ between ranks", name);
        ok = 0;
    }
    if (who >= 0 && all[2] != -all[3]) {
        test_detail(&suite, "%s: messages differ between ranks", name);
        ok = 0;
    }
    test_case(&suite, ok, "%s", name);
}

/* ---- plan_create ------------------------------------------------------------ */

static void plan_fails(int ndims, const int64_t *shape,
                       distfft_precision precision, const distfft_options *o,
                       unsigned allowed, const char *text, int who,
                       const char *name)
{
    distfft_options copy = *o;
    distfft_plan plan = GARBAGE;
    int rc = distfft_plan_create(MPI_COMM_WORLD, ndims, shape, precision, o,
                                 &plan);
    int ok = plan == NULL && memcmp(&copy, o, sizeof copy) == 0;
    if (!ok)
        test_detail(&suite, "%s: handle not NULL or options modified", name);
    expect_failure(rc, allowed, text, who, ok, name);
    if (test_all(MPI_COMM_WORLD, rc == DISTFFT_SUCCESS && plan != GARBAGE))
        distfft_plan_destroy(&plan);
}

static void test_plan_create(void)
{
    const int64_t shape[3] = {8, 6, 5};
    const unsigned arg = CODE(DISTFFT_ERR_ARGUMENT);
    const unsigned mismatch = CODE(DISTFFT_ERR_MISMATCH);
    const unsigned shape_code = CODE(DISTFFT_ERR_SHAPE);
    const int last = me == P - 1;
    const int b = me == bad_rank;
    distfft_options o;

#define FRESH() distfft_options_init(&o)
    FRESH();
    o.kinds[1] = (distfft_kind)42;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg, "kinds[1]", -1,
               "plan_create: unknown kind");
    FRESH();
    o.kinds[1] = o.kinds[2] = DISTFFT_R2C;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg, "r2c", -1,
               "plan_create: r2c on two axes");
    FRESH();
    o.kinds[0] = DISTFFT_R2C; /* r2c may be on any axis, but not with complex data */
    o.complex_data = 1;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg, "axis 0 is r2c", -1,
               "plan_create: complex_data with r2c on axis 0");
    FRESH();
    o.kinds[0] = o.kinds[1] = o.kinds[2] = DISTFFT_NONE;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg, "nothing to transform", -1,
               "plan_create: every axis kind none");
    FRESH();
    const int64_t thin[3] = {8, 1, 5};
    o.kinds[0] = o.kinds[2] = DISTFFT_DCT2;
    o.kinds[1] = DISTFFT_DCT1;
    plan_fails(3, thin, DISTFFT_DOUBLE, &o, shape_code, "at least 2 points",
               -1, "plan_create: dct1 on an axis of 1 point");
    FRESH();
    o.kinds[2] = DISTFFT_R2C;
    o.complex_data = 1;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg, "complex_data is set", -1,
               "plan_create: complex_data with an r2c axis");
    FRESH();
    o.padding[1] = 0.5;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg, "padding[1] = 0.5", -1,
               "plan_create: padding below 1");
    FRESH();
    o.padding[0] = 0.0 / 0.0;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg, "must be a number >= 1", -1,
               "plan_create: padding NaN");
    FRESH();
    o.kinds[0] = DISTFFT_NONE;
    o.padding[0] = 1.5;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg, "whose kind is none", -1,
               "plan_create: padding an untransformed axis");
    FRESH();
    const int64_t huge[3] = {INT64_C(1) << 40, INT64_C(1) << 40, 8};
    plan_fails(3, huge, DISTFFT_DOUBLE, &o,
               shape_code | CODE(DISTFFT_ERR_UNSUPPORTED), "2^", -1,
               "plan_create: 2^83 elements");
    const int64_t max[3] = {INT64_MAX, INT64_MAX, INT64_MAX};
    plan_fails(3, max, DISTFFT_DOUBLE, &o,
               shape_code | CODE(DISTFFT_ERR_UNSUPPORTED), NULL, -1,
               "plan_create: INT64_MAX extents");
    FRESH();
    o.batch = INT64_MAX / 2;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o,
               shape_code | CODE(DISTFFT_ERR_UNSUPPORTED) | arg, NULL, -1,
               "plan_create: batch INT64_MAX/2");
    FRESH();
    o.batch = 0;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg, "batch", -1,
               "plan_create: batch 0");
    FRESH();
    o.batch = b ? -1 : 1;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg | mismatch, "batch",
               bad_rank, "plan_create: negative batch on one rank");
    FRESH();
    if (b) o.kinds[2] = (distfft_kind)-1;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg | mismatch, "kinds[2]",
               bad_rank, "plan_create: unknown kind on one rank");
    FRESH();
    if (b) o.method = (distfft_method)77;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg | mismatch, "method",
               bad_rank, "plan_create: unknown method on one rank");
    FRESH();
    o.grid_ndims = 2;
    o.grid_dims[0] = o.grid_dims[1] = 1;
    if (P > 1)
        plan_fails(3, shape, DISTFFT_DOUBLE, &o, CODE(DISTFFT_ERR_GRID),
                   "grid", -1, "plan_create: grid 1x1 on several ranks");
    FRESH();
    o.grid_ndims = 2;
    const int64_t flat[2] = {8, 6};
    plan_fails(2, flat, DISTFFT_DOUBLE, &o,
               CODE(DISTFFT_ERR_GRID) | arg, "grid_ndims", -1,
               "plan_create: 2-D grid for a 2-D array");

    if (P > 1) {
        /* Valid on every rank, but different on the last one. */
        struct {
            const char *field, *name;
        } differs[] = {
            {"method", "plan_create: method differs on the last rank"},
            {"batch", "plan_create: batch differs on the last rank"},
            {"kinds[", "plan_create: kinds differ on the last rank"},
            {"destroy_input",
             "plan_create: destroy_input differs on the last rank"},
            {"rigor", "plan_create: rigor differs on the last rank"},
            {"grid_ndims", "plan_create: grid_ndims differs on the last rank"},
        };
        for (int k = 0; k < 6; k++) {
            FRESH();
            if (last) {
                switch (k) {
                case 0: o.method = DISTFFT_METHOD_SENDRECV; break;
                case 1: o.batch = 2; break;
                case 2: o.kinds[2] = DISTFFT_R2C; break;
                case 3: o.destroy_input = 1; break;
                case 4: o.rigor = DISTFFT_ESTIMATE; break;
                case 5: o.grid_ndims = 1; break;
                }
            }
            if (k == 5 && !last) o.grid_ndims = 2;
            plan_fails(3, shape, DISTFFT_DOUBLE, &o, mismatch,
                       differs[k].field, -1, differs[k].name);
        }
    }
#undef FRESH
}

/* ---- execute ------------------------------------------------------------------- */

/* A real-to-complex slab plan and its buffers. */
typedef struct {
    distfft_plan plan;
    size_t in_bytes, out_bytes;
    unsigned char *x, *x_copy, *y, *y_copy;
} r2c_fixture;

static int r2c_setup(r2c_fixture *f)
{
    const int64_t shape[3] = {8, 6, 10};
    distfft_options o;
    distfft_options_init(&o);
    o.kinds[2] = DISTFFT_R2C;
    o.grid_ndims = 1;
    o.rigor = DISTFFT_ESTIMATE;
    memset(f, 0, sizeof *f);
    int rc = distfft_plan_create(MPI_COMM_WORLD, 3, shape, DISTFFT_FLOAT, &o,
                                 &f->plan);
    test_case(&suite, rc == DISTFFT_SUCCESS, "r2c fixture: plan_create");
    if (!test_all(MPI_COMM_WORLD, rc == DISTFFT_SUCCESS)) return 0;
    int64_t in_shape[3], in_start[3], out_shape[3];
    distfft_plan_input_block(f->plan, in_shape, in_start);
    distfft_plan_output_block(f->plan, out_shape, NULL);
    f->in_bytes = (size_t)test_product(3, in_shape) * sizeof(float);
    f->out_bytes = (size_t)test_product(3, out_shape) * 2 * sizeof(float);
    /* 64 bytes more than the block: room for shifted views */
    f->x = test_guarded_alloc(f->in_bytes + 64, 0);
    f->y = test_guarded_alloc(f->out_bytes + 64, 0x3C);
    test_fill(DISTFFT_REAL_FLOAT, 3, shape, in_shape, in_start, 1, 0, f->x);
    f->x_copy = malloc(f->in_bytes + 64 + TEST_GUARD_BYTES);
    f->y_copy = malloc(f->out_bytes + 64 + TEST_GUARD_BYTES);
    memcpy(f->x_copy, f->x, f->in_bytes + 64 + TEST_GUARD_BYTES);
    memcpy(f->y_copy, f->y, f->out_bytes + 64 + TEST_GUARD_BYTES);
    return 1;
}

static int r2c_untouched(const r2c_fixture *f, const char *name)
{
    int ok = memcmp(f->x, f->x_copy, f->in_bytes + 64 + TEST_GUARD_BYTES) ==
                 0 &&
             memcmp(f->y, f->y_copy, f->out_bytes + 64 + TEST_GUARD_BYTES) ==
                 0;
    if (!ok) test_detail(&suite, "%s: a buffer was modified", name);
    return ok;
}

static void test_execute(void)
{
    r2c_fixture f;
    if (!r2c_setup(&f)) return;
    const unsigned arg = CODE(DISTFFT_ERR_ARGUMENT);
    const unsigned align = CODE(DISTFFT_ERR_ALIGNMENT);
    const int b = me == bad_rank;
    int rc;

    /* out starts inside in: a partial overlap, not in == out */
    rc = distfft_plan_execute(f.plan, f.x, f.x + 16, DISTFFT_FORWARD);
    expect_failure(rc, arg, "overlap", -1, r2c_untouched(&f, "a"),
                   "forward: out overlaps the end of in");
    rc = distfft_plan_execute(f.plan, f.y, f.y, DISTFFT_BACKWARD);
    expect_failure(rc, arg, "overlap", -1, r2c_untouched(&f, "b"),
                   "backward (r2c plan): in == out");
    rc = distfft_plan_execute(f.plan, f.y + 32, b ? f.y : f.x, DISTFFT_BACKWARD);
    expect_failure(rc, arg, "overlap", bad_rank, r2c_untouched(&f, "c"),
                   "backward (r2c plan): overlap on one rank");
    /* a float is 4 bytes: x + 4 is aligned for a float, not for FFTW */
    rc = distfft_plan_execute(f.plan, f.x + 4, f.y, DISTFFT_FORWARD);
    expect_failure(rc, align, "aligned", -1, r2c_untouched(&f, "d"),
                   "forward (r2c float): input 4 bytes off");
    rc = distfft_plan_execute(f.plan, f.x, b ? f.y + 8 : f.y, DISTFFT_FORWARD);
    expect_failure(rc, align, "aligned", bad_rank, r2c_untouched(&f, "e"),
                   "forward (r2c float): output 8 bytes off on one rank");
    rc = distfft_plan_execute(f.plan, f.x, f.y, b ? 0 : DISTFFT_FORWARD);
    expect_failure(rc, arg, "direction", bad_rank, r2c_untouched(&f, "h"),
                   "execute: direction 0 on one rank");

    /* Used after destroy: destroy sets the handle NULL on every rank. */
    distfft_plan plan = f.plan;
    rc = distfft_plan_destroy(&plan);
    test_case(&suite, rc == DISTFFT_SUCCESS && plan == NULL,
              "plan_destroy sets the handle NULL");
    rc = distfft_plan_execute(plan, f.x, f.y, DISTFFT_FORWARD);
    expect_failure(rc, arg, "destroyed", -1, r2c_untouched(&f, "f"),
                   "forward: plan used after destroy");
    rc = distfft_plan_execute(plan, f.y, f.x, DISTFFT_BACKWARD);
    expect_failure(rc, arg, "destroyed", -1, r2c_untouched(&f, "g"),
                   "backward: plan used after destroy");
    rc = distfft_plan_destroy(&plan);
    test_case(&suite, rc == DISTFFT_SUCCESS && plan == NULL,
              "plan_destroy twice is a no-op");
    rc = distfft_plan_destroy(NULL);
    test_case(&suite, rc == DISTFFT_ERR_ARGUMENT,
              "plan_destroy(NULL) fails");

    distfft_free(f.x);
    distfft_free(f.y);
    free(f.x_copy);
    free(f.y_copy);
}

/* ---- redistributions ------------------------------------------------------------- */

static void test_redist(void)
{
    const unsigned arg = CODE(DISTFFT_ERR_ARGUMENT);
    const unsigned mismatch = CODE(DISTFFT_ERR_MISMATCH);
    int64_t in_shape[3] = {8, 6, 5}, out_shape[3] = {8, 6, 5};
    distfft_decompose(8, P, me, &in_shape[0], NULL);
    distfft_decompose(6, P, me, &out_shape[1], NULL);
    const int last = me == P - 1;
    distfft_redist redist;
    int rc;

#define CREATE(type, in, out, batch, method)                                 \
    (redist = GARBAGE,                                                       \
     distfft_redist_create(MPI_COMM_WORLD, type, 3, in, 1, out, 0, batch,    \
                           method, &redist))
    rc = CREATE(DISTFFT_REAL_DOUBLE, in_shape, out_shape, 1,
                last ? DISTFFT_METHOD_ALLTOALLV : DISTFFT_METHOD_ALLTOALLW);
    if (P > 1)
        expect_failure(rc, mismatch, "method", -1, redist == NULL,
                       "redist_create: method differs on the last rank");
    rc = CREATE(DISTFFT_REAL_DOUBLE, in_shape, out_shape, last ? 3 : 1,
                DISTFFT_METHOD_ALLTOALLW);
    if (P > 1)
        expect_failure(rc, mismatch, "batch", -1, redist == NULL,
                       "redist_create: batch differs on the last rank");
    rc = CREATE(last ? DISTFFT_COMPLEX_DOUBLE : DISTFFT_REAL_DOUBLE, in_shape,
                out_shape, 1, DISTFFT_METHOD_ALLTOALLW);
    if (P > 1)
        expect_failure(rc, mismatch, "element type", -1, redist == NULL,
                       "redist_create: real on some ranks, complex on others");
    if (P == 1 && rc == DISTFFT_SUCCESS) distfft_redist_destroy(&redist);
    /* huge extents: the element count does not fit in 64 bits */
    int64_t big_in[3] = {INT64_C(1) << 40, INT64_C(1) << 40, INT64_C(1) << 40};
    int64_t big_out[3];
    memcpy(big_out, big_in, sizeof big_out);
    distfft_decompose(big_in[1], P, me, &big_out[1], NULL);
    distfft_decompose(big_in[0], P, me, &big_in[0], NULL);
    rc = CREATE(DISTFFT_REAL_DOUBLE, big_in, big_out, 1,
                DISTFFT_METHOD_ALLTOALLW);
    expect_failure(rc,
                   CODE(DISTFFT_ERR_SHAPE) | CODE(DISTFFT_ERR_UNSUPPORTED) |
                       CODE(DISTFFT_ERR_MEMORY),
                   NULL, -1, redist == NULL,
                   "redist_create: 2^120 elements");
#undef CREATE

    /* execute: after destroy, and with partly overlapping buffers */
    rc = distfft_redist_create(MPI_COMM_WORLD, DISTFFT_REAL_DOUBLE, 3,
                               in_shape, 1, out_shape, 0, 1,
                               DISTFFT_METHOD_SENDRECV, &redist);
    test_case(&suite, rc == DISTFFT_SUCCESS, "redist fixture");
    if (!test_all(MPI_COMM_WORLD, rc == DISTFFT_SUCCESS)) return;
    size_t in_bytes = (size_t)test_product(3, in_shape) * sizeof(double);
    size_t out_bytes = (size_t)test_product(3, out_shape) * sizeof(double);
    size_t bytes = in_bytes + out_bytes;
    unsigned char *buffer = test_guarded_alloc(bytes, 0x77);
    unsigned char *copy = malloc(bytes + TEST_GUARD_BYTES);
    memcpy(copy, buffer, bytes + TEST_GUARD_BYTES);
    rc = distfft_redist_execute(redist, buffer,
                                buffer + (in_bytes > 8 ? in_bytes - 8 : 0));
    expect_failure(rc, arg, "overlap", -1,
                   memcmp(buffer, copy, bytes + TEST_GUARD_BYTES) == 0,
                   "redist_execute: out overlaps the end of in");
    rc = distfft_redist_destroy(&redist);
    test_case(&suite, rc == DISTFFT_SUCCESS && redist == NULL,
              "redist_destroy sets the handle NULL");
    rc = distfft_redist_execute(redist, buffer, buffer + in_bytes);
    expect_failure(rc, arg, "destroyed", -1,
                   memcmp(buffer, copy, bytes + TEST_GUARD_BYTES) == 0,
                   "redist_execute: used after destroy");
    distfft_free(buffer);
    free(copy);
}

/* ---- gather and scatter ------------------------------------------------------------ */

/* ---- placement and wisdom (collective on a communicator) ------------------------ */

static void grid_fails(int ndims, const int *dims, distfft_placement placement,
                       int node_size, int busy, unsigned allowed,
                       const char *text, int who, const char *name)
{
    distfft_grid grid = GARBAGE;
    int rc = distfft_grid_create_placed(MPI_COMM_WORLD, ndims, dims, placement,
                                        node_size, busy, &grid);
    expect_failure(rc, allowed, text, who, grid == NULL, name);
    if (test_all(MPI_COMM_WORLD, rc == DISTFFT_SUCCESS && grid != GARBAGE))
        distfft_grid_destroy(&grid);
}

static void test_placement_wisdom(void)
{
    const unsigned arg = CODE(DISTFFT_ERR_ARGUMENT);
    const unsigned mismatch = CODE(DISTFFT_ERR_MISMATCH);
    const int b = me == bad_rank, last = me == P - 1;
    const distfft_placement NODE = DISTFFT_PLACEMENT_NODE;
    grid_fails(2, NULL, (distfft_placement)99, 0, 0, arg, "placement", -1,
               "grid_create_placed: unknown placement");
    grid_fails(2, NULL, NODE, -2, 0, arg, "node_size", -1,
               "grid_create_placed: negative node_size");
    grid_fails(2, NULL, NODE, 0, b ? 2 : 0, arg | mismatch, "busy_direction",
               bad_rank, "grid_create_placed: busy_direction 2 of 2 on one rank");
    if (P > 1)
        grid_fails(2, NULL, last ? DISTFFT_PLACEMENT_MORTON : NODE, 0, 0,
                   mismatch, "placement", -1,
                   "grid_create_placed: placement differs on the last rank");

    const int64_t shape[3] = {8, 6, 5};
    distfft_options o;
    distfft_options_init(&o);
    o.placement = (distfft_placement)-3;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg, "placement", -1,
               "plan_create: unknown placement");
    distfft_options_init(&o);
    o.placement = NODE;
    o.node_size = b ? -1 : 0;
    plan_fails(3, shape, DISTFFT_DOUBLE, &o, arg | mismatch, "node_size",
               bad_rank, "plan_create: negative node_size on one rank");

    /* wisdom: a bad text changes nothing */
    char *before = distfft_wisdom_export();
    int rc = distfft_wisdom_import("distfft-wisdom 1\nthis is not wisdom\n");
    int named = strstr(distfft_last_error(), "line 2") != NULL;
    char *after = distfft_wisdom_export();
    test_case(&suite,
              rc == DISTFFT_ERR_ARGUMENT && named && before && after &&
                  strcmp(before, after) == 0,
              "wisdom_import: corrupted line 2, wisdom unchanged");
    free(before);
    free(after);
    test_case(&suite, distfft_wisdom_import(NULL) == DISTFFT_ERR_ARGUMENT,
              "wisdom_import: NULL text");
    rc = distfft_wisdom_import_file(MPI_COMM_WORLD, "/nonexistent/wisdom");
    expect_failure(rc, arg, "/nonexistent/wisdom", 0, 1,
                   "wisdom_import_file: missing file (read by rank 0)");
    rc = distfft_wisdom_export_file(MPI_COMM_WORLD, "/nonexistent/dir/w");
    expect_failure(rc, arg, "/nonexistent/dir/w", 0, 1,
                   "wisdom_export_file: unwritable path (rank 0 writes)");
    char path[64];
    snprintf(path, sizeof path, "test_bad_input.np%d.wisdom", P);
    rc = distfft_wisdom_export_file(MPI_COMM_WORLD, path);
    test_case(&suite, rc == DISTFFT_SUCCESS, "wisdom_export_file fixture");
    rc = distfft_wisdom_import_file(MPI_COMM_WORLD, b ? NULL : path);
    expect_failure(rc, arg, "path is NULL", bad_rank, 1,
                   "wisdom_import_file: NULL path on one rank");
    if (me == 0) remove(path);
    distfft_placement placement = DISTFFT_PLACEMENT_ROW;
    rc = distfft_placement_from_name("diagonal", &placement);
    test_case(&suite,
              rc == DISTFFT_ERR_ARGUMENT &&
                  placement == DISTFFT_PLACEMENT_ROW &&
                  strstr(distfft_last_error(), "diagonal"),
              "placement_from_name: unknown name, placement untouched");
}

/* ---- local calls ------------------------------------------------------------------ */

static void test_local(void)
{
    distfft_kind kind = DISTFFT_C2C;
    int rc = distfft_kind_from_name("dct5", &kind);
    test_case(&suite,
              rc == DISTFFT_ERR_ARGUMENT && kind == DISTFFT_C2C &&
                  strstr(distfft_last_error(), "dct5"),
              "kind_from_name: unknown name, kind untouched");
    rc = distfft_kind_from_name(NULL, &kind);
    test_case(&suite, rc == DISTFFT_ERR_ARGUMENT, "kind_from_name: NULL");
    distfft_method method = DISTFFT_METHOD_SENDRECV;
    rc = distfft_method_from_name("", &method);
    test_case(&suite,
              rc == DISTFFT_ERR_ARGUMENT && method == DISTFFT_METHOD_SENDRECV,
              "method_from_name: empty name, method untouched");
    test_case(&suite,
              distfft_kind_name((distfft_kind)99) == NULL &&
                  distfft_method_name((distfft_method)-2) == NULL &&
                  distfft_method_name((distfft_method)distfft_method_count()) == NULL &&
                  distfft_type_size((distfft_type)7) == 0,
              "names and sizes of unknown values are NULL / 0");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite_init(&suite, "test_bad_input", MPI_COMM_WORLD);
    P = suite.size;
    me = suite.rank;
    bad_rank = P > 1 ? 1 : 0;

    test_plan_create();
    test_execute();
    test_redist();
    test_placement_wisdom();
    test_local();

    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
