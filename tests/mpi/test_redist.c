/*
 * test_redist.c -- the redistribution API on its own (paper Alg. 2 and 3).
 *
 * For every shape, on grids of every dimensionality r built with
 * distfft_grid_create, every grid direction i, and every ordered pair of
 * axes (v, w), v != w: the other r-1 grid directions distribute the first
 * r-1 remaining axes (in order), direction i exchanges alignment v -> w.
 * Inputs are exact functions of the global index, so the redistributed
 * array must match them EXACTLY (a redistribution is a permutation), for all
 * four element types, with batch 1 and 3, and back again (w -> v).
 * Sentinel bytes after each buffer catch stray writes; empty blocks (more
 * ranks than points along an axis) pass NULL buffers.
 *
 * The grid itself is checked too: extents, row-major coordinates and the
 * membership of every sub-communicator.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

enum { IN_SENTINEL = 0xA5, OUT_SENTINEL = 0x5A };

/* --quick: every exchange once, with the element type and batch rotating
 * and without the way back (w -> v is tested as its own exchange, on the
 * same layouts); for 6D only grids of 1 and 5 dimensions and pairs of
 * neighbouring axes; the explicit 1xP grid for the first shape only. For
 * oversubscribed runs of MPIs that busy-poll, where each collective costs
 * milliseconds. */
static int quick;
static int rotation;

static const char *type_name(distfft_type type)
{
    switch (type) {
    case DISTFFT_COMPLEX_DOUBLE: return "complex-double";
    case DISTFFT_COMPLEX_FLOAT: return "complex-float";
    case DISTFFT_REAL_DOUBLE: return "real-double";
    case DISTFFT_REAL_FLOAT: return "real-float";
    }
    return "?";
}

typedef struct {
    int ndims;
    int64_t shape[6];
} shape_case;

static const shape_case shapes[] = {
    {3, {5, 7, 11}},
    {4, {8, 9, 10, 3}},
    {3, {1, 13, 4}},        /* a length-1 axis: empty blocks everywhere */
    {2, {17, 3}},
    {3, {2, 3, 2}},         /* length-2 axes: empty blocks at 3+ ranks */
    {6, {2, 3, 2, 3, 2, 2}} /* 6D, small */
};

typedef struct {
    int ndims;
    int dims[DISTFFT_MAX_DIMS];
    int coords[DISTFFT_MAX_DIMS];
} grid_info;

static char *grid_string(const grid_info *g, char *buf, size_t size)
{
    int64_t dims[DISTFFT_MAX_DIMS];
    for (int i = 0; i < g->ndims; i++)
        dims[i] = g->dims[i];
    return test_shape_string(g->ndims, dims, buf, size);
}

/* Check the grid's queries and sub-communicators; returns this rank's
 * verdict. requested: the dims passed to distfft_grid_create (or NULL). */
static int check_grid(test_suite *suite, distfft_grid grid, int ndims,
                      const int *requested, grid_info *info)
{
    int ok = 1, rank = suite->rank, size = suite->size;
    info->ndims = distfft_grid_ndims(grid);
    if (info->ndims != ndims) {
        test_detail(suite, "grid_ndims %d, expected %d", info->ndims, ndims);
        return 0;
    }
    distfft_grid_dims(grid, info->dims);
    distfft_grid_coords(grid, info->coords);

    int want[DISTFFT_MAX_DIMS] = {0};
    for (int i = 0; i < ndims; i++)
        want[i] = requested ? requested[i] : 0;
    MPI_Dims_create(size, ndims, want);
    for (int i = 0; i < ndims; i++)
        if (info->dims[i] != want[i]) {
            test_detail(suite, "grid dims[%d] = %d, MPI_Dims_create says %d",
                        i, info->dims[i], want[i]);
            ok = 0;
        }
    if (!ok)
        return 0;

    /* Ranks are laid on the grid in the communicator's order, row-major. */
    int rest = rank;
    for (int i = ndims - 1; i >= 0; i--) {
        if (info->coords[i] != rest % want[i]) {
            test_detail(suite, "grid coords[%d] = %d, expected %d", i,
                        info->coords[i], rest % want[i]);
            ok = 0;
        }
        rest /= want[i];
    }

    /* Sub-communicator i: size dims[i], rank coords[i], and its members are
     * the ranks that differ from this one in coordinate i only. */
    for (int i = 0; i < ndims; i++) {
        MPI_Comm subcomm = distfft_grid_subcomm(grid, i);
        int sub_size = -1, sub_rank = -1;
        if (subcomm == MPI_COMM_NULL) {
            test_detail(suite, "subcomm %d is MPI_COMM_NULL", i);
            ok = 0;
            continue;
        }
        MPI_Comm_size(subcomm, &sub_size);
        MPI_Comm_rank(subcomm, &sub_rank);
        if (sub_size != info->dims[i] || sub_rank != info->coords[i]) {
            test_detail(suite, "subcomm %d: size %d rank %d, expected %d %d",
                        i, sub_size, sub_rank, info->dims[i],
                        info->coords[i]);
            ok = 0;
            continue;
        }
        int *members = malloc((size_t)sub_size * sizeof *members);
        MPI_Allgather(&rank, 1, MPI_INT, members, 1, MPI_INT, subcomm);
        int stride = 1;
        for (int j = ndims - 1; j > i; j--)
            stride *= info->dims[j];
        for (int k = 0; k < sub_size; k++) {
            int expected = rank + (k - info->coords[i]) * stride;
            if (members[k] != expected) {
                test_detail(suite, "subcomm %d member %d is world rank %d, "
                            "expected %d", i, k, members[k], expected);
                ok = 0;
            }
        }
        free(members);
    }
    return ok;
}

/* One exchange v -> w on grid direction `direction` and back. */
static void run_exchange(test_suite *suite, const shape_case *sc,
                         distfft_grid grid, const grid_info *g, int direction,
                         int v, int w, distfft_type type, int64_t batch)
{
    int ndims = sc->ndims;
    const int64_t *shape = sc->shape;
    MPI_Comm subcomm = distfft_grid_subcomm(grid, direction);

    /* Layouts: start from the full global array... */
    int64_t in_shape[DISTFFT_MAX_DIMS], in_start[DISTFFT_MAX_DIMS];
    int64_t out_shape[DISTFFT_MAX_DIMS], out_start[DISTFFT_MAX_DIMS];
    for (int a = 0; a < ndims; a++) {
        in_shape[a] = out_shape[a] = shape[a];
        in_start[a] = out_start[a] = 0;
    }
    /* ...the other directions distribute the first remaining axes... */
    int axis = 0;
    for (int j = 0; j < g->ndims; j++) {
        if (j == direction)
            continue;
        while (axis == v || axis == w)
            axis++;
        int64_t n, s;
        distfft_decompose(shape[axis], g->dims[j], g->coords[j], &n, &s);
        in_shape[axis] = out_shape[axis] = n;
        in_start[axis] = out_start[axis] = s;
        axis++;
    }
    /* ...and this direction distributes w in the input, v in the output. */
    int64_t n, s;
    int M = g->dims[direction], p = g->coords[direction];
    distfft_decompose(shape[w], M, p, &n, &s);
    in_shape[w] = n;
    in_start[w] = s;
    distfft_decompose(shape[v], M, p, &n, &s);
    out_shape[v] = n;
    out_start[v] = s;

    size_t element = distfft_type_size(type);
    size_t in_bytes = (size_t)(batch * test_product(ndims, in_shape)) * element;
    size_t out_bytes =
        (size_t)(batch * test_product(ndims, out_shape)) * element;
    void *in = in_bytes ? test_guarded_alloc(in_bytes, IN_SENTINEL) : NULL;
    void *out = out_bytes ? test_guarded_alloc(out_bytes, OUT_SENTINEL) : NULL;
    void *back = in_bytes ? test_guarded_alloc(in_bytes, OUT_SENTINEL) : NULL;
    if (in)
        test_fill(type, ndims, shape, in_shape, in_start, batch, 1, in);

    char shape_text[96], grid_text[96], detail[256];
    test_shape_string(ndims, shape, shape_text, sizeof shape_text);
    grid_string(g, grid_text, sizeof grid_text);

    int ok = 1;
    distfft_redist forward = NULL, reverse = NULL;
    int rc = distfft_redist_create(subcomm, type, ndims, in_shape, v,
                                   out_shape, w, batch,
                                   DISTFFT_METHOD_ALLTOALLW, &forward);
    if (rc != DISTFFT_SUCCESS || forward == NULL) {
        test_detail(suite, "redist_create %d->%d: %s (%s)", v, w,
                    distfft_error_string(rc), distfft_last_error());
        ok = 0;
    }
    int forward_ran = 0;
    if (forward) {
        rc = distfft_redist_execute(forward, in, out);
        forward_ran = rc == DISTFFT_SUCCESS;
        if (rc != DISTFFT_SUCCESS) {
            test_detail(suite, "redist_execute %d->%d: %s (%s)", v, w,
                        distfft_error_string(rc), distfft_last_error());
            ok = 0;
        } else {
            if (test_check_exact(type, ndims, shape, out_shape, out_start,
                                 batch, out, detail, sizeof detail)) {
                test_detail(suite, "%d->%d output: %s", v, w, detail);
                ok = 0;
            }
            if (out && !test_guard_intact(out, out_bytes, OUT_SENTINEL)) {
                test_detail(suite, "%d->%d wrote past its output", v, w);
                ok = 0;
            }
            if (in && (test_check_exact(type, ndims, shape, in_shape,
                                        in_start, batch, in, NULL, 0) ||
                       !test_guard_intact(in, in_bytes, IN_SENTINEL))) {
                test_detail(suite, "%d->%d modified its input", v, w);
                ok = 0;
            }
        }
    }
    /* Back again, w -> v, into a fresh buffer: collective on the
     * sub-communicator, so decide together (a wrong element on one rank must
     * not leave the others waiting). */
    if (!quick && test_all(subcomm, forward_ran)) {
        rc = distfft_redist_create(subcomm, type, ndims, out_shape, w,
                                   in_shape, v, batch,
                                   DISTFFT_METHOD_ALLTOALLW, &reverse);
        if (rc != DISTFFT_SUCCESS || reverse == NULL) {
            test_detail(suite, "redist_create %d->%d: %s (%s)", w, v,
                        distfft_error_string(rc), distfft_last_error());
            ok = 0;
        } else if ((rc = distfft_redist_execute(reverse, out, back)) !=
                   DISTFFT_SUCCESS) {
            test_detail(suite, "redist_execute %d->%d: %s (%s)", w, v,
                        distfft_error_string(rc), distfft_last_error());
            ok = 0;
        } else if (test_check_exact(type, ndims, shape, in_shape, in_start,
                                    batch, back, detail, sizeof detail) ||
                   (back && !test_guard_intact(back, in_bytes,
                                               OUT_SENTINEL))) {
            test_detail(suite, "%d->%d->%d round trip: %s", v, w, v, detail);
            ok = 0;
        }
    }
    if (distfft_redist_destroy(&forward) != DISTFFT_SUCCESS ||
        distfft_redist_destroy(&reverse) != DISTFFT_SUCCESS ||
        forward != NULL || reverse != NULL) {
        test_detail(suite, "redist_destroy failed or left a handle");
        ok = 0;
    }
    test_case(suite, ok, "redist %s %s batch=%lld grid=%s(r=%d) P%d %d->%d",
              type_name(type), shape_text, (long long)batch, grid_text,
              g->ndims, direction, v, w);
    distfft_free(in);
    distfft_free(out);
    distfft_free(back);
}

static void run_grid(test_suite *suite, const shape_case *sc, int grid_ndims,
                     const int *requested)
{
    distfft_grid grid = NULL;
    grid_info g;
    char shape_text[96], request_text[96] = "auto";
    test_shape_string(sc->ndims, sc->shape, shape_text, sizeof shape_text);
    if (requested) {
        int64_t r[DISTFFT_MAX_DIMS];
        for (int i = 0; i < grid_ndims; i++)
            r[i] = requested[i];
        test_shape_string(grid_ndims, r, request_text, sizeof request_text);
    }
    int rc = distfft_grid_create(MPI_COMM_WORLD, grid_ndims, requested, &grid);
    int ok = rc == DISTFFT_SUCCESS && grid != NULL;
    if (!ok)
        test_detail(suite, "grid_create(r=%d): %s (%s)", grid_ndims,
                    distfft_error_string(rc), distfft_last_error());
    else
        ok = check_grid(suite, grid, grid_ndims, requested, &g);
    test_case(suite, ok, "grid r=%d dims=%s for %s", grid_ndims, request_text,
              shape_text);
    /* Go on only when the grid is sound on every rank (exchanges are
     * collective on its sub-communicators). */
    if (!test_all(MPI_COMM_WORLD, ok)) {
        if (grid)
            distfft_grid_destroy(&grid);
        return;
    }

    const distfft_type types[] = {DISTFFT_COMPLEX_DOUBLE,
                                  DISTFFT_COMPLEX_FLOAT, DISTFFT_REAL_DOUBLE,
                                  DISTFFT_REAL_FLOAT};
    for (int direction = 0; direction < grid_ndims; direction++)
        for (int v = 0; v < sc->ndims; v++)
            for (int w = 0; w < sc->ndims; w++) {
                if (v == w)
                    continue;
                if (quick) {
                    /* high dimensions: neighbouring axes and the ends */
                    int d = sc->ndims;
                    if (d > 4 && abs(v - w) != 1 && abs(v - w) != d - 1)
                        continue;
                    int k = rotation++;
                    run_exchange(suite, sc, grid, &g, direction, v, w,
                                 types[k % 4], (k / 4) % 2 ? 3 : 1);
                    continue;
                }
                for (int t = 0; t < 4; t++)
                    for (int64_t batch = 1; batch <= 3; batch += 2)
                        run_exchange(suite, sc, grid, &g, direction, v, w,
                                     types[t], batch);
            }

    rc = distfft_grid_destroy(&grid);
    test_case(suite, rc == DISTFFT_SUCCESS && grid == NULL,
              "grid_destroy r=%d dims=%s for %s", grid_ndims, request_text,
              shape_text);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite suite;
    test_suite_init(&suite, "test_redist", MPI_COMM_WORLD);
    for (int i = 1; i < argc; i++)
        quick |= strcmp(argv[i], "--quick") == 0;

    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        const shape_case *sc = &shapes[k];
        for (int r = 1; r < sc->ndims; r++)
            if (!quick || sc->ndims <= 4 || r == 1 || r == sc->ndims - 1)
                run_grid(&suite, sc, r, NULL);
        if (sc->ndims >= 3 && (!quick || k == 0)) {
            /* explicit extents: a trivial direction and the whole world */
            const int one_by_p[2] = {1, 0};
            run_grid(&suite, sc, 2, one_by_p);
        }
    }
    /* An explicit 3D grid with the world along the middle direction. */
    const int middle[3] = {1, suite.size, 1};
    if (!quick)
        run_grid(&suite, &shapes[1], 3, middle);

    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
