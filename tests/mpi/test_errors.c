/*
 * test_errors.c -- bad input gets a clear error on every rank, and no hang.
 *
 * For each bad call: every rank returns the same nonzero code (one of the
 * codes the header allows for that mistake), distfft_last_error() is
 * non-empty and names a rank -- when only one rank is wrong, it names that
 * rank and is the same text on every rank -- the out-handle is NULL, and
 * the buffers passed in (inputs and outputs) are unchanged. Bad arguments are
 * tried on all ranks and on ONE rank only (rank 1, or 0 when alone), which
 * is what breaks libraries that check locally and then enter a collective.
 * Afterwards the plans and redistributions that saw the errors must still
 * work. Run under a short CTest timeout: a hang is a failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

#define CODE(c) (1u << (c))

static test_suite suite;
static int P, me, bad_rank;

enum { SENTINEL = 0xC3 };

/* Handles start as this non-NULL garbage so that "NULL after failure" is
 * observable; never dereferenced. */
static char not_a_handle;
#define GARBAGE_PLAN ((distfft_plan)(void *)&not_a_handle)
#define GARBAGE_REDIST ((distfft_redist)(void *)&not_a_handle)
#define GARBAGE_GRID ((distfft_grid)(void *)&not_a_handle)

/* Check the outcome of a failed call on every rank and record one case.
 *  allowed:   mask of acceptable codes;
 *  who:       the one bad rank, which the message must name and whose
 *             message every rank must return verbatim (-1: all ranks are
 *             bad, or the argument differs between ranks: the message
 *             must name some rank);
 *  local_ok:  extra per-rank verdict (handles NULL, buffers unchanged). */
static void expect_failure(int rc, unsigned allowed, int who,
                           int local_ok, const char *name)
{
    /* One bad rank: its message is shared, so the text must match. */
    int same_text = who >= 0;
    const char *message = distfft_last_error();
    int ok = local_ok;
    if (rc == DISTFFT_SUCCESS || rc < 0 || rc > 31 ||
        !(allowed & CODE(rc))) {
        test_detail(&suite, "%s: got code %d (%s)", name, rc,
                    distfft_error_string(rc));
        ok = 0;
    }
    if (!message || message[0] == '\0') {
        test_detail(&suite, "%s: empty distfft_last_error()", name);
        ok = 0;
    } else if (who >= 0 ? !test_message_names_rank(message, who)
                        : !strstr(message, "rank")) {
        test_detail(&suite, "%s: message does not name rank %d: \"%s\"",
                    name, who, message);
        ok = 0;
    }
    /* same code, same text everywhere */
    int64_t mine[4] = {rc, -(int64_t)rc, 0, 0}, all[4];
    uint64_t hash = test_hash_string(message);
    mine[2] = (int64_t)(hash >> 1);
    mine[3] = -(int64_t)(hash >> 1);
    MPI_Allreduce(mine, all, 4, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (all[0] != -all[1]) {
        test_detail(&suite, "%s: codes differ between ranks (%lld..%lld)",
                    name, (long long)-all[1], (long long)all[0]);
        ok = 0;
    }
    if (same_text && all[2] != -all[3]) {
        test_detail(&suite, "%s: messages differ between ranks; here \"%s\"",
                    name, message);
        ok = 0;
    }
    test_case(&suite, ok, "%s", name);
}

/* ------------------------------------------------------------------------ */
/* distfft_plan_create                                                       */
/* ------------------------------------------------------------------------ */

/* Call plan_create and check it fails as expected. If it succeeded
 * somewhere, the plan is destroyed again (collectively, when it succeeded
 * everywhere). */
static void plan_create_fails(MPI_Comm comm, int ndims, const int64_t *shape,
                              distfft_precision precision,
                              const distfft_options *options,
                              distfft_plan *out, unsigned allowed, int who,
                              const char *name)
{
    distfft_plan plan = GARBAGE_PLAN;
    distfft_plan *target = out ? out : &plan;
    if (out)
        *out = GARBAGE_PLAN;
    int rc = distfft_plan_create(comm, ndims, shape, precision, options,
                                 out ? out : NULL);
    int handle_null = out ? *target == NULL : 1;
    if (!handle_null && rc != DISTFFT_SUCCESS)
        test_detail(&suite, "%s: out-handle not NULL after failure", name);
    expect_failure(rc, allowed, who, handle_null, name);
    if (test_all(MPI_COMM_WORLD,
                 rc == DISTFFT_SUCCESS && *target != GARBAGE_PLAN))
        distfft_plan_destroy(target);
}

static void test_plan_create(void)
{
    const int64_t good[3] = {8, 8, 6};
    distfft_plan plan;
    distfft_options o;
    char name[160];
    const unsigned shape_or_arg = CODE(DISTFFT_ERR_SHAPE) |
                                  CODE(DISTFFT_ERR_ARGUMENT);
    const unsigned grid_or_arg = CODE(DISTFFT_ERR_GRID) |
                                 CODE(DISTFFT_ERR_ARGUMENT);

    /* Invalid shapes, on every rank. */
    const int64_t zero[3] = {8, 0, 6}, negative[3] = {8, -3, 6};
    plan_create_fails(MPI_COMM_WORLD, 3, zero, DISTFFT_DOUBLE, NULL, &plan,
                      CODE(DISTFFT_ERR_SHAPE), -1,
                      "plan_create: shape with a 0 extent");
    plan_create_fails(MPI_COMM_WORLD, 3, negative, DISTFFT_DOUBLE, NULL,
                      &plan, CODE(DISTFFT_ERR_SHAPE), -1,
                      "plan_create: shape with a negative extent");
    plan_create_fails(MPI_COMM_WORLD, 1, good, DISTFFT_DOUBLE, NULL, &plan,
                      shape_or_arg, -1, "plan_create: ndims 1");
    plan_create_fails(MPI_COMM_WORLD, 0, good, DISTFFT_DOUBLE, NULL, &plan,
                      shape_or_arg, -1, "plan_create: ndims 0");
    int64_t many[DISTFFT_MAX_DIMS + 1];
    for (int i = 0; i <= DISTFFT_MAX_DIMS; i++)
        many[i] = 1;
    plan_create_fails(MPI_COMM_WORLD, DISTFFT_MAX_DIMS + 1, many,
                      DISTFFT_DOUBLE, NULL, &plan, shape_or_arg, -1,
                      "plan_create: ndims > DISTFFT_MAX_DIMS");
    plan_create_fails(MPI_COMM_WORLD, 3, NULL, DISTFFT_DOUBLE, NULL, &plan,
                      shape_or_arg, -1, "plan_create: NULL shape");
    plan_create_fails(MPI_COMM_WORLD, 3, good, (distfft_precision)7, NULL,
                      &plan, CODE(DISTFFT_ERR_ARGUMENT), -1,
                      "plan_create: unknown precision");
    plan_create_fails(MPI_COMM_NULL, 3, good, DISTFFT_DOUBLE, NULL, &plan,
                      CODE(DISTFFT_ERR_ARGUMENT), -1,
                      "plan_create: MPI_COMM_NULL");
    plan_create_fails(MPI_COMM_WORLD, 3, good, DISTFFT_DOUBLE, NULL, NULL,
                      CODE(DISTFFT_ERR_ARGUMENT), -1,
                      "plan_create: NULL out-handle pointer");

    /* Invalid options, on every rank. */
    distfft_options_init(&o);
    o.norm = (distfft_norm)9;
    plan_create_fails(MPI_COMM_WORLD, 3, good, DISTFFT_DOUBLE, &o, &plan,
                      CODE(DISTFFT_ERR_ARGUMENT), -1,
                      "plan_create: unknown norm");
    distfft_options_init(&o);
    o.rigor = (distfft_rigor)9;
    plan_create_fails(MPI_COMM_WORLD, 3, good, DISTFFT_DOUBLE, &o, &plan,
                      CODE(DISTFFT_ERR_ARGUMENT), -1,
                      "plan_create: unknown rigor");
    distfft_options_init(&o);
    o.method = (distfft_method)99;
    plan_create_fails(MPI_COMM_WORLD, 3, good, DISTFFT_DOUBLE, &o, &plan,
                      CODE(DISTFFT_ERR_ARGUMENT) |
                          CODE(DISTFFT_ERR_UNSUPPORTED),
                      -1, "plan_create: unknown method");
    const int bad_grid_ndims[] = {-1, 3, 5, DISTFFT_MAX_DIMS + 1};
    for (int k = 0; k < 4; k++) {
        distfft_options_init(&o);
        o.grid_ndims = bad_grid_ndims[k];
        snprintf(name, sizeof name,
                 "plan_create: grid_ndims %d for a 3D array",
                 bad_grid_ndims[k]);
        plan_create_fails(MPI_COMM_WORLD, 3, good, DISTFFT_DOUBLE, &o, &plan,
                          grid_or_arg, -1, name);
    }

    /* Grids that do not fit the communicator. */
    const int bad_dims[][2] = {{P + 1, 1}, {P, 2}, {-1, 0}, {3, 0}};
    for (int k = 0; k < 4; k++) {
        if (bad_dims[k][0] == 3 && P % 3 == 0)
            continue; /* 3 divides P: not an error */
        distfft_options_init(&o);
        o.grid_ndims = 2;
        o.grid_dims[0] = bad_dims[k][0];
        o.grid_dims[1] = bad_dims[k][1];
        snprintf(name, sizeof name, "plan_create: grid_dims {%d,%d} on %d "
                 "ranks", bad_dims[k][0], bad_dims[k][1], P);
        plan_create_fails(MPI_COMM_WORLD, 3, good, DISTFFT_DOUBLE, &o, &plan,
                          k == 2 ? grid_or_arg : CODE(DISTFFT_ERR_GRID), -1,
                          name);
    }

    /* Bad argument on one rank only: everyone fails with its code and a
     * message naming it. */
    plan_create_fails(MPI_COMM_WORLD, 3, me == bad_rank ? zero : good,
                      DISTFFT_DOUBLE, NULL, &plan,
                      CODE(DISTFFT_ERR_SHAPE) | CODE(DISTFFT_ERR_MISMATCH),
                      bad_rank, "plan_create: 0 extent on one rank");
    plan_create_fails(MPI_COMM_WORLD, 3, good, DISTFFT_DOUBLE, NULL,
                      me == bad_rank ? NULL : &plan,
                      CODE(DISTFFT_ERR_ARGUMENT), bad_rank,
                      "plan_create: NULL out-handle pointer on one rank");
    distfft_options_init(&o);
    if (me == bad_rank)
        o.rigor = (distfft_rigor)-4;
    plan_create_fails(MPI_COMM_WORLD, 3, good, DISTFFT_DOUBLE, &o, &plan,
                      CODE(DISTFFT_ERR_ARGUMENT) |
                          CODE(DISTFFT_ERR_MISMATCH),
                      bad_rank, "plan_create: unknown rigor on one rank");

    /* Arguments that differ between ranks (only with several ranks). */
    if (P > 1) {
        const int64_t other[3] = {8, 9, 6};
        plan_create_fails(MPI_COMM_WORLD, 3, me == P - 1 ? other : good,
                          DISTFFT_DOUBLE, NULL, &plan,
                          CODE(DISTFFT_ERR_MISMATCH), -1,
                          "plan_create: shape differs on the last rank");
        plan_create_fails(MPI_COMM_WORLD, 3, good,
                          me == P - 1 ? DISTFFT_FLOAT : DISTFFT_DOUBLE, NULL,
                          &plan, CODE(DISTFFT_ERR_MISMATCH), -1,
                          "plan_create: precision differs on the last rank");
        distfft_options_init(&o);
        o.norm = me == P - 1 ? DISTFFT_NORM_ORTHO : DISTFFT_NORM_BACKWARD;
        plan_create_fails(MPI_COMM_WORLD, 3, good, DISTFFT_DOUBLE, &o, &plan,
                          CODE(DISTFFT_ERR_MISMATCH), -1,
                          "plan_create: norm differs on the last rank");
        distfft_options_init(&o);
        o.grid_ndims = 2;
        o.grid_dims[0] = me == P - 1 ? P : 1;
        o.grid_dims[1] = me == P - 1 ? 1 : P;
        plan_create_fails(MPI_COMM_WORLD, 3, good, DISTFFT_DOUBLE, &o, &plan,
                          CODE(DISTFFT_ERR_MISMATCH) | CODE(DISTFFT_ERR_GRID),
                          -1,
                          "plan_create: grid_dims differ on the last rank");
        const int64_t four[4] = {8, 8, 6, 2};
        plan_create_fails(MPI_COMM_WORLD, me == P - 1 ? 4 : 3,
                          me == P - 1 ? four : good, DISTFFT_DOUBLE, NULL,
                          &plan, CODE(DISTFFT_ERR_MISMATCH), -1,
                          "plan_create: ndims differs on the last rank");
    }
}

/* ------------------------------------------------------------------------ */
/* distfft_plan_execute                                                     */
/* ------------------------------------------------------------------------ */

typedef struct {
    distfft_plan plan;
    distfft_type type;
    int64_t shape[3];
    int64_t in_shape[3], in_start[3], out_shape[3], out_start[3];
    size_t in_bytes, out_bytes;
    unsigned char *x, *x_copy;     /* input block, filled */
    unsigned char *y;              /* output block, sentinel */
    unsigned char *shifted;        /* in_bytes + 64, for misaligned views */
} plan_fixture;

/* Did a failed call leave the fixture's buffers alone? */
static int buffers_unchanged(const plan_fixture *f, const char *name)
{
    int ok = memcmp(f->x, f->x_copy, f->in_bytes) == 0 &&
             test_all_bytes(f->y, f->out_bytes + TEST_GUARD_BYTES, SENTINEL);
    if (!ok)
        test_detail(&suite, "%s: a buffer was modified", name);
    return ok;
}

static void forward_fails(plan_fixture *f, distfft_plan plan, void *in,
                          void *out, unsigned allowed, int who,
                          const char *name)
{
    int rc = distfft_plan_execute(plan, in, out, DISTFFT_FORWARD);
    expect_failure(rc, allowed, who, buffers_unchanged(f, name), name);
}

static void backward_fails(plan_fixture *f, void *in, void *out,
                           unsigned allowed, int who, const char *name)
{
    /* backward reads the output block (y, sentinel) and writes the input
     * block (x): both must stay as they are */
    int rc = distfft_plan_execute(f->plan, in, out, DISTFFT_BACKWARD);
    expect_failure(rc, allowed, who, buffers_unchanged(f, name), name);
}

/* The plan's forward/backward with bad buffers; destroy_input must not
 * license a failing call to touch its input either. */
static void test_execute(int destroy_input)
{
    const char *tag = destroy_input ? " (destroy_input)" : "";
    char name[160];
#define NAMED(text) (snprintf(name, sizeof name, "%s%s", text, tag), name)
    plan_fixture f = {.type = DISTFFT_COMPLEX_DOUBLE, .shape = {8, 8, 6}};
    distfft_options o;
    distfft_options_init(&o);
    o.grid_ndims = 1;
    o.destroy_input = destroy_input;
    o.rigor = DISTFFT_ESTIMATE;
    int rc = distfft_plan_create(MPI_COMM_WORLD, 3, f.shape, DISTFFT_DOUBLE,
                                 &o, &f.plan);
    test_case(&suite, rc == DISTFFT_SUCCESS && f.plan,
              NAMED("execute fixture: plan_create 8x8x6"));
    if (!test_all(MPI_COMM_WORLD, rc == DISTFFT_SUCCESS && f.plan))
        return;
    distfft_plan_input_block(f.plan, f.in_shape, f.in_start);
    distfft_plan_output_block(f.plan, f.out_shape, f.out_start);
    size_t element = distfft_type_size(f.type);
    f.in_bytes = (size_t)test_product(3, f.in_shape) * element;
    f.out_bytes = (size_t)test_product(3, f.out_shape) * element;
    /* 8x8x6 on 1..8 ranks as a slab: every block is non-empty */
    test_case(&suite, test_all(MPI_COMM_WORLD, f.in_bytes && f.out_bytes),
              NAMED("execute fixture: blocks non-empty"));
    f.x = test_guarded_alloc(f.in_bytes, 0);
    f.x_copy = malloc(f.in_bytes);
    f.y = test_guarded_alloc(f.out_bytes, SENTINEL);
    f.shifted = test_guarded_alloc(f.in_bytes + 64, 0);
    test_fill(f.type, 3, f.shape, f.in_shape, f.in_start, 1, 0, f.x);
    memcpy(f.x_copy, f.x, f.in_bytes);
    const unsigned arg = CODE(DISTFFT_ERR_ARGUMENT);
    const unsigned align = CODE(DISTFFT_ERR_ALIGNMENT);
    void *x = f.x, *y = f.y;
    /* a misaligned view of the input data (same contents) */
    void *x_odd = f.shifted + 1;
    memcpy(x_odd, f.x, f.in_bytes);

    /* On every rank. */
    forward_fails(&f, f.plan, NULL, y, arg, -1, NAMED("forward: NULL input"));
    forward_fails(&f, f.plan, x, NULL, arg, -1, NAMED("forward: NULL output"));
    forward_fails(&f, f.plan, x, x, arg, -1, NAMED("forward: in == out"));
    forward_fails(&f, NULL, x, y, arg, -1, NAMED("forward: NULL plan"));
    forward_fails(&f, f.plan, x_odd, y, align, -1,
                  NAMED("forward: misaligned input"));
    forward_fails(&f, f.plan, x, f.y + 1, align, -1,
                  NAMED("forward: misaligned output"));
    backward_fails(&f, NULL, x, arg, -1, NAMED("backward: NULL input"));
    backward_fails(&f, y, NULL, arg, -1, NAMED("backward: NULL output"));
    backward_fails(&f, y, y, arg, -1, NAMED("backward: in == out"));
    backward_fails(&f, f.y + 1, x, align, -1,
                   NAMED("backward: misaligned input"));
    rc = distfft_plan_execute(NULL, y, x, DISTFFT_BACKWARD);
    expect_failure(rc, arg, -1, buffers_unchanged(&f, "backward: NULL plan"),
                   NAMED("backward: NULL plan"));

    /* On one rank only. */
    int b = me == bad_rank;
    forward_fails(&f, f.plan, b ? NULL : x, y, arg, bad_rank,
                  NAMED("forward: NULL input on one rank"));
    forward_fails(&f, f.plan, x, b ? NULL : y, arg, bad_rank,
                  NAMED("forward: NULL output on one rank"));
    forward_fails(&f, f.plan, x, b ? x : y, arg, bad_rank,
                  NAMED("forward: in == out on one rank"));
    forward_fails(&f, f.plan, b ? x_odd : x, y, align, bad_rank,
                  NAMED("forward: misaligned input on one rank"));
    backward_fails(&f, b ? NULL : y, x, arg, bad_rank,
                   NAMED("backward: NULL input on one rank"));
    backward_fails(&f, y, b ? (void *)(f.x + 1) : x, align, bad_rank,
                   NAMED("backward: misaligned output on one rank"));

    /* The plan still works, and the input survived everything. */
    memset(f.y, 0, f.out_bytes);
    unsigned char *z = test_guarded_alloc(f.in_bytes, 0);
    int ok = distfft_plan_execute(f.plan, x, y, DISTFFT_FORWARD) == DISTFFT_SUCCESS;
    ok = ok && distfft_plan_execute(f.plan, y, z, DISTFFT_BACKWARD) == DISTFFT_SUCCESS;
    double error = 0;
    for (int64_t j = 0; ok && j < test_product(3, f.in_shape); j++) {
        double e = cabs(test_element(f.type, z, j) -
                        test_element(f.type, f.x_copy, j));
        if (!(e <= error))
            error = e;
    }
    ok = ok && error <= test_tolerance(DISTFFT_DOUBLE, 384);
    test_case(&suite, ok, NAMED("plan still works after the failed calls"));
    rc = distfft_plan_destroy(&f.plan);
    test_case(&suite, rc == DISTFFT_SUCCESS && f.plan == NULL,
              NAMED("plan_destroy after the failed calls"));

    distfft_free(f.x);
    distfft_free(f.y);
    distfft_free(f.shifted);
    distfft_free(z);
    free(f.x_copy);
}
#undef NAMED

/* ------------------------------------------------------------------------ */
/* distfft_redist_create / execute                                           */
/* ------------------------------------------------------------------------ */

typedef struct {
    int64_t shape[3], in_shape[3], in_start[3], out_shape[3], out_start[3];
    int axis_in, axis_out;
} redist_layout;

/* 8x8x6 on MPI_COMM_WORLD: in complete along axis 1, out along axis 0. */
static redist_layout make_layout(void)
{
    redist_layout l = {.shape = {8, 8, 6}, .axis_in = 1, .axis_out = 0};
    for (int i = 0; i < 3; i++) {
        l.in_shape[i] = l.out_shape[i] = l.shape[i];
        l.in_start[i] = l.out_start[i] = 0;
    }
    distfft_decompose(8, P, me, &l.in_shape[0], &l.in_start[0]);
    distfft_decompose(8, P, me, &l.out_shape[1], &l.out_start[1]);
    return l;
}

static void redist_create_fails(MPI_Comm comm, distfft_type type, int ndims,
                                const int64_t *in_shape, int axis_in,
                                const int64_t *out_shape, int axis_out,
                                int64_t batch, distfft_method method,
                                int null_handle, unsigned allowed, int who,
                                const char *name)
{
    distfft_redist redist = GARBAGE_REDIST;
    int rc = distfft_redist_create(comm, type, ndims, in_shape, axis_in,
                                   out_shape, axis_out, batch, method,
                                   null_handle ? NULL : &redist);
    int handle_null = null_handle || redist == NULL;
    if (!handle_null && rc != DISTFFT_SUCCESS)
        test_detail(&suite, "%s: out-handle not NULL after failure", name);
    expect_failure(rc, allowed, who, handle_null, name);
    if (rc == DISTFFT_SUCCESS && !null_handle && redist != GARBAGE_REDIST)
        distfft_redist_destroy(&redist); /* local */
}

static void test_redist(void)
{
    redist_layout l = make_layout();
    const distfft_type T = DISTFFT_REAL_DOUBLE;
    const distfft_method A = DISTFFT_METHOD_ALLTOALLW;
    const unsigned arg = CODE(DISTFFT_ERR_ARGUMENT);
    const unsigned shape_or_arg = CODE(DISTFFT_ERR_SHAPE) | arg;
    const unsigned shape_or_mismatch = CODE(DISTFFT_ERR_SHAPE) |
                                       CODE(DISTFFT_ERR_MISMATCH) | arg;
    int b = me == bad_rank;
    MPI_Comm W = MPI_COMM_WORLD;

    /* On every rank. */
    redist_create_fails(W, T, 3, l.in_shape, 1, l.out_shape, 1, 1, A, 0, arg,
                        -1, "redist_create: axis_in == axis_out");
    redist_create_fails(W, T, 3, l.in_shape, 1, l.out_shape, 3, 1, A, 0, arg,
                        -1, "redist_create: axis_out == ndims");
    redist_create_fails(W, T, 3, l.in_shape, -1, l.out_shape, 0, 1, A, 0, arg,
                        -1, "redist_create: negative axis_in");
    redist_create_fails(W, T, 3, l.in_shape, 1, l.out_shape, 0, 0, A, 0, arg,
                        -1, "redist_create: batch 0");
    redist_create_fails(W, T, 3, l.in_shape, 1, l.out_shape, 0, -2, A, 0, arg,
                        -1, "redist_create: negative batch");
    redist_create_fails(W, (distfft_type)99, 3, l.in_shape, 1, l.out_shape, 0,
                        1, A, 0, arg, -1, "redist_create: unknown type");
    redist_create_fails(W, T, 3, l.in_shape, 1, l.out_shape, 0, 1,
                        (distfft_method)99, 0,
                        arg | CODE(DISTFFT_ERR_UNSUPPORTED), -1,
                        "redist_create: unknown method");
    redist_create_fails(W, T, 0, l.in_shape, 1, l.out_shape, 0, 1, A, 0,
                        shape_or_arg, -1, "redist_create: ndims 0");
    redist_create_fails(W, T, DISTFFT_MAX_DIMS + 1, l.in_shape, 1,
                        l.out_shape, 0, 1, A, 0, shape_or_arg, -1,
                        "redist_create: ndims > DISTFFT_MAX_DIMS");
    redist_create_fails(W, T, 3, NULL, 1, l.out_shape, 0, 1, A, 0,
                        shape_or_arg, -1, "redist_create: NULL in_shape");
    redist_create_fails(W, T, 3, l.in_shape, 1, l.out_shape, 0, 1, A, 1, arg,
                        -1, "redist_create: NULL out-handle pointer");
    redist_create_fails(MPI_COMM_NULL, T, 3, l.in_shape, 1, l.out_shape, 0,
                        1, A, 0, arg, -1, "redist_create: MPI_COMM_NULL");
    int64_t negative[3] = {l.in_shape[0], l.in_shape[1], -6};
    int64_t negative_out[3] = {l.out_shape[0], l.out_shape[1], -6};
    redist_create_fails(W, T, 3, negative, 1, negative_out, 0, 1, A, 0,
                        shape_or_arg, -1,
                        "redist_create: negative extent");

    /* On one rank only. */
    redist_create_fails(W, T, 3, l.in_shape, b ? -1 : 1, l.out_shape, 0, 1, A,
                        0, arg | CODE(DISTFFT_ERR_MISMATCH), bad_rank,
                        "redist_create: negative axis_in on one rank");
    redist_create_fails(W, T, 3, l.in_shape, 1, l.out_shape, 0, b ? 0 : 1, A,
                        0, arg | CODE(DISTFFT_ERR_MISMATCH), bad_rank,
                        "redist_create: batch 0 on one rank");
    redist_create_fails(W, T, 3, l.in_shape, 1, l.out_shape, 0, 1, A, b, arg,
                        bad_rank,
                        "redist_create: NULL out-handle pointer on one rank");
    /* wrong block along axis_out (the input's distributed axis) */
    int64_t wrong_block[3] = {l.in_shape[0] + 1, l.in_shape[1],
                              l.in_shape[2]};
    redist_create_fails(W, T, 3, b ? wrong_block : l.in_shape, 1, l.out_shape,
                        0, 1, A, 0, shape_or_mismatch, bad_rank,
                        "redist_create: wrong input block on one rank");
    /* an untouched axis that differs between in and out */
    int64_t untouched[3] = {l.in_shape[0], l.in_shape[1], 5};
    redist_create_fails(W, T, 3, b ? untouched : l.in_shape, 1, l.out_shape,
                        0, 1, A, 0, shape_or_mismatch, bad_rank,
                        "redist_create: in/out differ on an untouched axis "
                        "on one rank");
    if (P > 1) {
        /* consistent on the rank, but not with the other ranks */
        int64_t in5[3] = {l.in_shape[0], l.in_shape[1], 5};
        int64_t out5[3] = {l.out_shape[0], l.out_shape[1], 5};
        redist_create_fails(W, T, 3, me == P - 1 ? in5 : l.in_shape, 1,
                            me == P - 1 ? out5 : l.out_shape, 0, 1, A, 0,
                            shape_or_mismatch, -1,
                            "redist_create: untouched axis differs on the "
                            "last rank");
        redist_create_fails(W, me == P - 1 ? DISTFFT_REAL_FLOAT : T, 3,
                            l.in_shape, 1, l.out_shape, 0, 1, A, 0,
                            CODE(DISTFFT_ERR_MISMATCH), -1,
                            "redist_create: type differs on the last rank");
    }

    /* execute */
    distfft_redist redist = NULL;
    int rc = distfft_redist_create(W, T, 3, l.in_shape, 1, l.out_shape, 0, 1,
                                   A, &redist);
    test_case(&suite, rc == DISTFFT_SUCCESS && redist,
              "redist fixture: create 8x8x6 1->0");
    if (!test_all(W, rc == DISTFFT_SUCCESS && redist))
        return;
    size_t in_bytes = (size_t)test_product(3, l.in_shape) * sizeof(double);
    size_t out_bytes = (size_t)test_product(3, l.out_shape) * sizeof(double);
    double *in = test_guarded_alloc(in_bytes, 0);
    double *in_copy = malloc(in_bytes);
    double *out = test_guarded_alloc(out_bytes, SENTINEL);
    test_fill(T, 3, l.shape, l.in_shape, l.in_start, 1, 1, in);
    memcpy(in_copy, in, in_bytes);
    struct {
        const void *in;
        void *out;
        distfft_redist redist;
        int who;
        const char *name;
    } calls[] = {
        {NULL, out, redist, -1, "redist_execute: NULL input"},
        {in, NULL, redist, -1, "redist_execute: NULL output"},
        {in, in, redist, -1, "redist_execute: in == out"},
        {in, out, NULL, -1, "redist_execute: NULL plan"},
        {b ? NULL : in, out, redist, bad_rank,
         "redist_execute: NULL input on one rank"},
        {in, b ? NULL : out, redist, bad_rank,
         "redist_execute: NULL output on one rank"},
        {in, b ? (void *)in : out, redist, bad_rank,
         "redist_execute: in == out on one rank"},
    };
    for (size_t k = 0; k < sizeof calls / sizeof calls[0]; k++) {
        rc = distfft_redist_execute(calls[k].redist, calls[k].in,
                                    calls[k].out);
        int unchanged = memcmp(in, in_copy, in_bytes) == 0 &&
                        test_all_bytes(out, out_bytes + TEST_GUARD_BYTES,
                                       SENTINEL);
        if (!unchanged)
            test_detail(&suite, "%s: a buffer was modified", calls[k].name);
        expect_failure(rc, arg, calls[k].who, unchanged, calls[k].name);
    }
    rc = distfft_redist_execute(redist, in, out);
    char detail[256];
    int ok = rc == DISTFFT_SUCCESS &&
             test_check_exact(T, 3, l.shape, l.out_shape, l.out_start, 1, out,
                              detail, sizeof detail) == 0;
    test_case(&suite, ok, "redistribution still works after the failed calls");
    rc = distfft_redist_destroy(&redist);
    test_case(&suite, rc == DISTFFT_SUCCESS && redist == NULL,
              "redist_destroy");
    distfft_free(in);
    distfft_free(out);
    free(in_copy);
}

/* ------------------------------------------------------------------------ */
/* Grids, gather, local calls                                                */
/* ------------------------------------------------------------------------ */

static void grid_create_fails(MPI_Comm comm, int ndims, const int *dims,
                              int null_handle, unsigned allowed, int who,
                              const char *name)
{
    distfft_grid grid = GARBAGE_GRID;
    int rc = distfft_grid_create(comm, ndims, dims, null_handle ? NULL : &grid);
    int handle_null = null_handle || grid == NULL;
    if (!handle_null && rc != DISTFFT_SUCCESS)
        test_detail(&suite, "%s: out-handle not NULL after failure", name);
    expect_failure(rc, allowed, who, handle_null, name);
    if (test_all(MPI_COMM_WORLD, rc == DISTFFT_SUCCESS && !null_handle &&
                                     grid != GARBAGE_GRID))
        distfft_grid_destroy(&grid);
}

static void test_grid_local(void)
{
    const unsigned arg = CODE(DISTFFT_ERR_ARGUMENT);
    const unsigned grid_or_arg = CODE(DISTFFT_ERR_GRID) | arg;
    int b = me == bad_rank;

    int too_many[1] = {P + 1};
    grid_create_fails(MPI_COMM_WORLD, 1, too_many, 0, CODE(DISTFFT_ERR_GRID),
                      -1, "grid_create: dims product != ranks");
    int two_d[2] = {P, 3};
    grid_create_fails(MPI_COMM_WORLD, 2, two_d, 0, CODE(DISTFFT_ERR_GRID), -1,
                      "grid_create: dims {P,3}");
    int negative[2] = {-P, -1};
    grid_create_fails(MPI_COMM_WORLD, 2, negative, 0, grid_or_arg, -1,
                      "grid_create: negative dims");
    grid_create_fails(MPI_COMM_WORLD, 0, NULL, 0, grid_or_arg, -1,
                      "grid_create: ndims 0");
    grid_create_fails(MPI_COMM_WORLD, DISTFFT_MAX_DIMS + 1, NULL, 0,
                      grid_or_arg, -1,
                      "grid_create: ndims > DISTFFT_MAX_DIMS");
    grid_create_fails(MPI_COMM_WORLD, 2, NULL, 1, arg, -1,
                      "grid_create: NULL out-handle pointer");
    grid_create_fails(MPI_COMM_NULL, 2, NULL, 0, arg, -1,
                      "grid_create: MPI_COMM_NULL");
    grid_create_fails(MPI_COMM_WORLD, 2, NULL, b, arg, bad_rank,
                      "grid_create: NULL out-handle pointer on one rank");
    int three[1] = {3};
    if (P % 3 != 0) {
        int partial[2] = {3, 0};
        grid_create_fails(MPI_COMM_WORLD, 2, partial, 0,
                          CODE(DISTFFT_ERR_GRID), -1,
                          "grid_create: dims {3,0} that 3 does not divide");
    }
    grid_create_fails(MPI_COMM_WORLD, 1, b ? three : too_many, 0,
                      CODE(DISTFFT_ERR_GRID) | CODE(DISTFFT_ERR_MISMATCH), -1,
                      "grid_create: dims differ and are wrong");
    if (P > 1) {
        int mine[2] = {me == P - 1 ? P : 1, me == P - 1 ? 1 : P};
        grid_create_fails(MPI_COMM_WORLD, 2, mine, 0,
                          CODE(DISTFFT_ERR_MISMATCH) | CODE(DISTFFT_ERR_GRID),
                          -1, "grid_create: dims differ on the last rank");
    }

    /* Local calls. */
    distfft_method method;
    int rc = distfft_method_from_name("alltoallv-with-typo", &method);
    test_case(&suite,
              rc == DISTFFT_ERR_ARGUMENT && distfft_last_error()[0] != '\0',
              "method_from_name: unknown name");
    rc = distfft_method_from_name(NULL, &method);
    test_case(&suite, rc == DISTFFT_ERR_ARGUMENT,
              "method_from_name: NULL name");
    distfft_plan no_plan = NULL;
    distfft_redist no_redist = NULL;
    distfft_grid no_grid = NULL;
    test_case(&suite,
              distfft_plan_destroy(&no_plan) == DISTFFT_SUCCESS &&
                  no_plan == NULL,
              "plan_destroy of a NULL handle is a no-op");
    test_case(&suite,
              distfft_redist_destroy(&no_redist) == DISTFFT_SUCCESS &&
                  no_redist == NULL,
              "redist_destroy of a NULL handle is a no-op");
    test_case(&suite,
              distfft_grid_destroy(&no_grid) == DISTFFT_SUCCESS &&
                  no_grid == NULL,
              "grid_destroy of a NULL handle is a no-op");
    char text[16] = "untouched";
    test_case(&suite, distfft_plan_describe(NULL, text, sizeof text) == -1,
              "plan_describe of a NULL plan is -1");
    int64_t block[3];
    test_case(&suite,
              distfft_plan_input_block(NULL, block, block) ==
                      DISTFFT_ERR_ARGUMENT &&
                  distfft_plan_output_block(NULL, block, block) ==
                      DISTFFT_ERR_ARGUMENT,
              "plan block queries on a NULL plan are DISTFFT_ERR_ARGUMENT");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite_init(&suite, "test_errors", MPI_COMM_WORLD);
    P = suite.size;
    me = suite.rank;
    bad_rank = P > 1 ? 1 : 0;

    test_plan_create();
    test_execute(0);
    test_execute(1);
    test_redist();
    test_grid_local();

    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
