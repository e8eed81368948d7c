/*
 * test_array_io.c -- distfft_layout_array_write / _read, distfft_array_file_info.
 *
 *   test_array_io write DIR   every element type, 1-D to 3-D, batch 1 and
 *                             3, written from blocks of a 2-D process grid
 *                             and read back the same way;
 *   test_array_io read DIR    the files of `write` (run first, on another
 *                             rank count) read back through blocks along
 *                             the LAST axis, and their info;
 *   test_array_io bad DIR     missing, misshapen, other-dtype, truncated,
 *                             Fortran-ordered and non-.npy files, an
 *                             unwritable path, blocks that do not tile,
 *                             paths that differ between ranks: the same
 *                             error on every rank, no file left behind.
 *
 * check_array_io.py loads the files of `write` with numpy.load. Values are
 * exact in every type: field * 100000 + global index (+ i(-index - 1/2)).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

static test_suite suite;
static int P, me;
static const char *dir;

typedef struct {
    const char *name;
    int ndims;
    int64_t shape[3];
    int64_t batch;
} file_case;

/* The files `write` makes for every type (check_array_io.py knows them). */
static const file_case cases[] = {
    {"cube", 3, {5, 7, 6}, 1},
    {"batched", 2, {9, 4, 0}, 3},
    {"line", 1, {11, 0, 0}, 1},
};
#define NCASES (int)(sizeof cases / sizeof cases[0])
static const char *type_tags[4] = {"c16", "c8", "f8", "f4"};

static void file_path(char *path, size_t size, distfft_type type, const char *name)
{
    snprintf(path, size, "%s/%s_%s.npy", dir, name, type_tags[type]);
}

/* This rank's block: axes 0..grid_ndims-1 split over a grid (split_last:
 * only the last axis, over all ranks). */
static void my_block(int ndims, const int64_t *shape, int split_last, int64_t *local, int64_t *start)
{
    int dims[3] = {0, 0, 0}, coords[3] = {0, 0, 0};
    int grid_ndims = split_last || ndims == 1 ? 1 : 2;
    MPI_Dims_create(P, grid_ndims, dims);
    for (int i = 0, rest = me; i < grid_ndims; i++) { /* row-major coordinates */
        int stride = 1;
        for (int j = i + 1; j < grid_ndims; j++) stride *= dims[j];
        coords[i] = rest / stride;
        rest %= stride;
    }
    for (int i = 0; i < ndims; i++) {
        local[i] = shape[i];
        start[i] = 0;
    }
    for (int g = 0; g < grid_ndims; g++) {
        int axis = split_last ? ndims - 1 : g;
        distfft_decompose(shape[axis], dims[g], coords[g], &local[axis], &start[axis]);
    }
}

static double complex value(int64_t field, int64_t global)
{
    return (double)(field * 100000 + global) + I * (-(double)global - 0.5);
}

/* Fill (check) a batch of blocks; returns mismatches. */
static int64_t fill_or_check(distfft_type type, const file_case *c, const int64_t *local,
                             const int64_t *start, void *buffer, int check)
{
    int64_t count = test_product(c->ndims, local), mismatches = 0, index[3];
    for (int64_t b = 0; b < c->batch; b++)
        for (int64_t l = 0; l < count; l++) {
            int64_t rest = l, global = 0;
            for (int i = c->ndims - 1; i >= 0; i--) {
                index[i] = rest % local[i];
                rest /= local[i];
            }
            for (int i = 0; i < c->ndims; i++) global = global * c->shape[i] + start[i] + index[i];
            double complex v = value(b, global);
            int64_t at = b * count + l;
            switch (type) {
            case DISTFFT_COMPLEX_DOUBLE:
                if (check) mismatches += ((double complex *)buffer)[at] != v;
                else ((double complex *)buffer)[at] = v;
                break;
            case DISTFFT_COMPLEX_FLOAT:
                if (check) mismatches += ((float complex *)buffer)[at] != (float complex)v;
                else ((float complex *)buffer)[at] = (float complex)v;
                break;
            case DISTFFT_REAL_DOUBLE:
                if (check) mismatches += ((double *)buffer)[at] != creal(v);
                else ((double *)buffer)[at] = creal(v);
                break;
            case DISTFFT_REAL_FLOAT:
                if (check) mismatches += ((float *)buffer)[at] != (float)creal(v);
                else ((float *)buffer)[at] = (float)creal(v);
                break;
            }
        }
    return mismatches;
}

/* Read one file through this rank's block and compare. */
static void read_and_check(distfft_type type, const file_case *c, int split_last)
{
    char path[512];
    file_path(path, sizeof path, type, c->name);
    int64_t local[3], start[3];
    my_block(c->ndims, c->shape, split_last, local, start);
    size_t bytes = (size_t)(c->batch * test_product(c->ndims, local)) * distfft_type_size(type);
    void *buffer = test_guarded_alloc(bytes, 0xA5);
    int rc = test_array_read(MPI_COMM_WORLD, path, type, c->ndims, c->shape, local, start, c->batch, buffer);
    if (rc) test_detail(&suite, "read %s: %s", path, distfft_last_error());
    int64_t wrong = rc ? -1 : fill_or_check(type, c, local, start, buffer, 1);
    test_case(&suite, rc == DISTFFT_SUCCESS && wrong == 0 && test_guard_intact(buffer, bytes, 0xA5),
              "read %s_%s (%s blocks)", c->name, type_tags[type], split_last ? "last-axis" : "grid");
    distfft_free(buffer);
}

static void write_all_files(void)
{
    for (int t = 0; t < 4; t++)
        for (int k = 0; k < NCASES; k++) {
            const file_case *c = &cases[k];
            char path[512];
            file_path(path, sizeof path, (distfft_type)t, c->name);
            int64_t local[3], start[3];
            my_block(c->ndims, c->shape, 0, local, start);
            size_t bytes = (size_t)(c->batch * test_product(c->ndims, local)) * distfft_type_size((distfft_type)t);
            void *buffer = distfft_malloc(bytes ? bytes : 1);
            fill_or_check((distfft_type)t, c, local, start, buffer, 0);
            int rc = test_array_write(MPI_COMM_WORLD, path, (distfft_type)t, c->ndims, c->shape, local, start,
                                         c->batch, buffer);
            if (rc) test_detail(&suite, "write %s: %s", path, distfft_last_error());
            test_case(&suite, rc == DISTFFT_SUCCESS, "write %s_%s", c->name, type_tags[t]);
            distfft_free(buffer);
            read_and_check((distfft_type)t, c, 0);
        }
}

static void read_all_files(void)
{
    for (int t = 0; t < 4; t++)
        for (int k = 0; k < NCASES; k++) {
            const file_case *c = &cases[k];
            read_and_check((distfft_type)t, c, 1);
            char path[512];
            file_path(path, sizeof path, (distfft_type)t, c->name);
            distfft_type type = DISTFFT_COMPLEX_DOUBLE;
            int naxes = -1;
            int64_t shape[DISTFFT_MAX_DIMS + 1];
            int rc = distfft_array_file_info(MPI_COMM_WORLD, path, &type, &naxes, shape);
            int first = c->batch > 1, ok = rc == DISTFFT_SUCCESS && type == (distfft_type)t &&
                                           naxes == c->ndims + first && (!first || shape[0] == c->batch);
            for (int i = 0; ok && i < c->ndims; i++) ok = shape[first + i] == c->shape[i];
            test_case(&suite, ok, "info %s_%s", c->name, type_tags[t]);
        }
}

/* --- bad input --------------------------------------------------------- */

/* The call failed with `code` on every rank, with a message naming `text`,
 * the same on every rank (a disagreement's messages say what each rank has,
 * so they differ: expect_mismatch). */
static void expect_message(int rc, int code, const char *text, int same, const char *name)
{
    const char *message = distfft_last_error();
    int ok = rc == code && strstr(message, text) != NULL;
    if (!ok) test_detail(&suite, "%s: code %d, message: %s", name, rc, message);
    int64_t hash = (int64_t)(test_hash_string(message) >> 1), mine[2] = {hash, -hash};
    MPI_Allreduce(MPI_IN_PLACE, mine, 2, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    test_case(&suite, ok && (!same || mine[0] == -mine[1]), "%s", name);
}

static void expect_error(int rc, int code, const char *text, const char *name)
{
    expect_message(rc, code, text, 1, name);
}

static int file_exists(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (file) fclose(file);
    return file != NULL;
}

/* On rank 0: copy the first `keep` bytes of `from` to `to` (keep < 0: all),
 * replacing the first `old` by `new` (same length) when given. */
static void derive_file(const char *from, const char *to, long keep, const char *old, const char *new)
{
    if (me == 0) {
        FILE *in = fopen(from, "rb");
        char *bytes = malloc(1 << 16);
        long n = in ? (long)fread(bytes, 1, 1 << 16, in) : 0;
        if (in) fclose(in);
        if (keep >= 0 && keep < n) n = keep;
        size_t length = old ? strlen(old) : 0;
        for (long at = 0; old && at + (long)length <= n; at++)
            if (memcmp(bytes + at, old, length) == 0) {
                memcpy(bytes + at, new, length);
                break;
            }
        FILE *out = fopen(to, "wb");
        if (out) {
            fwrite(bytes, 1, (size_t)n, out);
            fclose(out);
        }
        free(bytes);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Reading a file into the cube case's blocks (of global `shape`), as
 * complex double unless `type` says otherwise: the error expected. */
static void bad_read(const char *path, distfft_type type, const int64_t *shape, int code, const char *text,
                     const char *name)
{
    int64_t local[3], start[3];
    my_block(3, shape, 0, local, start);
    void *buffer = distfft_malloc((size_t)test_product(3, local) * 16 + 16);
    distfft_layout layout = NULL;
    int rc = distfft_layout_from_box(MPI_COMM_WORLD, 3, shape, start, local, &layout);
    if (rc == DISTFFT_SUCCESS) rc = distfft_layout_array_read(layout, path, type, 1, buffer);
    expect_error(rc, code, text, name);
    distfft_layout_destroy(&layout);
    distfft_free(buffer);
}

static void bad_reads(const char *good)
{
    char path[512];
    const int64_t cube[3] = {5, 7, 6}, other[3] = {5, 7, 5};
    snprintf(path, sizeof path, "%s/missing.npy", dir);
    bad_read(path, DISTFFT_COMPLEX_DOUBLE, cube, DISTFFT_ERR_ARGUMENT, "missing.npy", "missing file");
    bad_read(good, DISTFFT_COMPLEX_DOUBLE, other, DISTFFT_ERR_SHAPE, "5x7x6, not 5x7x5",
                 "file of another shape");
    bad_read(good, DISTFFT_REAL_DOUBLE, cube, DISTFFT_ERR_ARGUMENT, "dtype '<c16', not '<f8'",
                 "file of another dtype");
    snprintf(path, sizeof path, "%s/truncated.npy", dir);
    derive_file(good, path, 64 + 5 * 7 * 6 * 16 - 16, NULL, NULL);
    bad_read(path, DISTFFT_COMPLEX_DOUBLE, cube, DISTFFT_ERR_ARGUMENT, "truncated", "truncated file");
    snprintf(path, sizeof path, "%s/header-only.npy", dir);
    derive_file(good, path, 30, NULL, NULL);
    bad_read(path, DISTFFT_COMPLEX_DOUBLE, cube, DISTFFT_ERR_ARGUMENT, "header", "truncated header");
    snprintf(path, sizeof path, "%s/fortran.npy", dir);
    derive_file(good, path, -1, "False", "True ");
    bad_read(path, DISTFFT_COMPLEX_DOUBLE, cube, DISTFFT_ERR_ARGUMENT, "Fortran order",
                 "Fortran-ordered file");
    snprintf(path, sizeof path, "%s/text.npy", dir);
    derive_file(good, path, -1, "\x93NUMPY", "#NUMPY");
    bad_read(path, DISTFFT_COMPLEX_DOUBLE, cube, DISTFFT_ERR_ARGUMENT, "not a .npy file",
                 "not a .npy file");
    distfft_type type;
    int naxes;
    int64_t shape[DISTFFT_MAX_DIMS + 1];
    expect_error(distfft_array_file_info(MPI_COMM_WORLD, path, &type, &naxes, shape), DISTFFT_ERR_ARGUMENT,
                 "not a .npy file", "info of a non-.npy file");
}

static void bad_writes(const char *good)
{
    char path[512], temporary[600];
    const int64_t cube[3] = {5, 7, 6};
    int64_t local[3], start[3];
    my_block(3, cube, 0, local, start);
    double complex *buffer = distfft_malloc((size_t)test_product(3, local) * 16 + 16);
    fill_or_check(DISTFFT_COMPLEX_DOUBLE, &cases[0], local, start, buffer, 0);
    distfft_layout layout = NULL;
    distfft_layout_from_box(MPI_COMM_WORLD, 3, cube, start, local, &layout);
    snprintf(path, sizeof path, "%s/no-such-directory/cube.npy", dir);
    expect_error(distfft_layout_array_write(layout, path, DISTFFT_COMPLEX_DOUBLE, 1, buffer), DISTFFT_ERR_ARGUMENT,
                 "cannot create", "unwritable path");
    /* Blocks that leave a hole make no layout: the existing file stays as it was. */
    int64_t short_local[3] = {local[0], local[1], me == 0 && local[2] > 0 ? local[2] - 1 : local[2]};
    distfft_layout holes = NULL;
    expect_error(distfft_layout_from_box(MPI_COMM_WORLD, 3, cube, start, short_local, &holes), DISTFFT_ERR_SHAPE,
                 "gap", "blocks that do not tile");
    snprintf(temporary, sizeof temporary, "%s.distfft-tmp", good);
    test_case(&suite, !file_exists(temporary), "no temporary file left behind");
    read_and_check(DISTFFT_COMPLEX_DOUBLE, &cases[0], 1);
    if (P > 1) {
        snprintf(path, sizeof path, "%s/rank%d.npy", dir, me);
        expect_message(distfft_layout_array_write(layout, path, DISTFFT_COMPLEX_DOUBLE, 1, buffer),
                       DISTFFT_ERR_MISMATCH, "path", 0, "paths differ between ranks");
        test_case(&suite, !file_exists(path), "no file for differing paths");
    }
    distfft_layout_destroy(&layout);
    distfft_free(buffer);
}

static void bad_input(void)
{
    char good[512];
    file_path(good, sizeof good, DISTFFT_COMPLEX_DOUBLE, "cube");
    int64_t local[3], start[3];
    my_block(3, cases[0].shape, 0, local, start);
    void *buffer = distfft_malloc((size_t)test_product(3, local) * 16 + 16);
    fill_or_check(DISTFFT_COMPLEX_DOUBLE, &cases[0], local, start, buffer, 0);
    int rc = test_array_write(MPI_COMM_WORLD, good, DISTFFT_COMPLEX_DOUBLE, 3, cases[0].shape, local, start, 1,
                                 buffer);
    test_case(&suite, rc == DISTFFT_SUCCESS, "write the good file");
    distfft_free(buffer);
    bad_reads(good);
    bad_writes(good);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (argc != 3 || (strcmp(argv[1], "write") && strcmp(argv[1], "read") && strcmp(argv[1], "bad"))) {
        if (me == 0) fprintf(stderr, "usage: test_array_io write|read|bad DIR\n");
        MPI_Finalize();
        return 2;
    }
    dir = argv[2];
    test_suite_init(&suite, "test_array_io", MPI_COMM_WORLD);
    if (!strcmp(argv[1], "write")) write_all_files();
    else if (!strcmp(argv[1], "read")) read_all_files();
    else bad_input();
    int status = test_suite_finish(&suite);
    MPI_Finalize();
    return status;
}
