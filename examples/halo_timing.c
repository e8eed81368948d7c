/*
 * halo_timing.c -- how long one halo exchange takes, zero-copy datatypes
 * against pack/unpack (paper 004 Sec. 3's comparison), on the blocks of a
 * grid of r dimensions. A measuring program, not a test.
 *
 *   mpiexec -n 2 halo_timing [--shape 128x128x128] [--grid 1] [--width 1]
 *                            [--repeat 50] [--type real-double] [--open]
 *                            [--variant datatypes|pack] [--json]
 *
 * Each variant (both, or the one --variant names): 5 warm-up exchanges,
 * then `repeat` timed ones, each the maximum over the ranks (a barrier
 * before each); prints the minimum and the median per variant,
 * interleaving the variants round by round so that a busy machine disturbs
 * both alike. --json prints one JSON line per variant instead (the
 * benchmark campaign's halo phase: pair_seconds is the fastest exchange).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distfft.h>

typedef struct {
    int64_t shape[3], width;
    int grid_ndims, repeat, periodic, json, first_variant, variants;
    distfft_type type;
} settings;

static int parse(int argc, char **argv, settings *s)
{
    *s = (settings){{128, 128, 128}, 1, 1, 50, 1, 0, 0, 2, DISTFFT_REAL_DOUBLE};
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(argv[i], "--open") == 0 || strcmp(argv[i], "--json") == 0) {
            if (argv[i][2] == 'o') s->periodic = 0;
            else s->json = 1;
            continue;
        }
        distfft_halo_variant variant;
        if (strcmp(argv[i], "--variant") == 0) {
            if (distfft_halo_variant_from_name(value, &variant) != DISTFFT_SUCCESS) return -1;
            s->first_variant = (int)variant, s->variants = 1, i++;
            continue;
        }
        long long a, b, c;
        if (strcmp(argv[i], "--shape") == 0 && sscanf(value, "%lldx%lldx%lld", &a, &b, &c) == 3)
            s->shape[0] = a, s->shape[1] = b, s->shape[2] = c;
        else if (strcmp(argv[i], "--grid") == 0) s->grid_ndims = atoi(value);
        else if (strcmp(argv[i], "--width") == 0) s->width = atoll(value);
        else if (strcmp(argv[i], "--repeat") == 0) s->repeat = atoi(value);
        else if (strcmp(argv[i], "--type") != 0 || distfft_type_from_name(value, &s->type)) return -1;
        i++;
    }
    return s->repeat > 0 ? 0 : -1;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double timed(distfft_halo halo, void *array)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    distfft_halo_execute(halo, array);
    double mine = MPI_Wtime() - start, slowest;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, rc = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    settings s;
    distfft_grid grid = NULL;
    if (parse(argc, argv, &s) != 0 ||
        distfft_grid_create(MPI_COMM_WORLD, s.grid_ndims, NULL, &grid) != DISTFFT_SUCCESS) {
        if (rank == 0) fprintf(stderr, "usage: halo_timing [--shape AxBxC] [--grid r] "
                               "[--width w] [--repeat n] [--type t] [--open] "
                               "[--variant datatypes|pack] [--json]\n");
        MPI_Finalize();
        return 2;
    }
    int dims[3], coords[3];
    distfft_grid_dims(grid, dims);
    distfft_grid_coords(grid, coords);
    int64_t local[3], start[3], widths[3] = {s.width, s.width, s.width};
    int periodic[3] = {s.periodic, s.periodic, s.periodic};
    for (int a = 0; a < 3; a++) {
        local[a] = s.shape[a], start[a] = 0;
        if (a < s.grid_ndims) distfft_decompose(s.shape[a], dims[a], coords[a], &local[a], &start[a]);
    }
    distfft_halo halo[2] = {NULL, NULL};
    void *array[2] = {NULL, NULL};
    double *seconds[2] = {NULL, NULL};
    int first = s.first_variant, last = s.first_variant + s.variants - 1;
    distfft_layout blocks = NULL; /* this rank's block of the grid */
    rc = distfft_layout_from_box(MPI_COMM_WORLD, 3, s.shape, start, local, &blocks);
    for (int v = first; v <= last && rc == 0; v++) {
        rc = distfft_layout_halo_create(blocks, s.type, widths, NULL, periodic, 1,
                                        (distfft_halo_variant)v, &halo[v]);
        if (rc) break;
        int64_t count = distfft_halo_padded_block(halo[v], NULL, NULL);
        array[v] = distfft_malloc((size_t)count * distfft_type_size(s.type));
        memset(array[v], 0, (size_t)count * distfft_type_size(s.type));
        seconds[v] = malloc((size_t)s.repeat * sizeof(double));
        for (int k = 0; k < 5; k++) timed(halo[v], array[v]);
    }
    for (int k = 0; rc == 0 && k < s.repeat; k++)
        for (int v = first; v <= last; v++) seconds[v][k] = timed(halo[v], array[v]);
    for (int v = first; rc == 0 && v <= last; v++) {
        qsort(seconds[v], (size_t)s.repeat, sizeof(double), by_value);
        if (rank == 0 && s.json)
            printf("{\"program\": \"halo_timing\", \"variant\": \"%s\", \"shape\": [%lld, %lld, %lld], "
                   "\"type\": \"%s\", \"ranks\": %d, \"grid_ndims\": %d, \"width\": %lld, "
                   "\"periodic\": %d, \"repeat\": %d, \"pair_seconds\": %.9g, "
                   "\"pair_seconds_median\": %.9g}\n",
                   distfft_halo_variant_name((distfft_halo_variant)v), (long long)s.shape[0],
                   (long long)s.shape[1], (long long)s.shape[2], distfft_type_name(s.type), size,
                   s.grid_ndims, (long long)s.width, s.periodic, s.repeat, seconds[v][0],
                   seconds[v][s.repeat / 2]);
        else if (rank == 0)
            printf("halo_timing: %lldx%lldx%lld %s on %d ranks, grid of %d dims, width %lld%s, "
                   "%-9s: min %.1f us, median %.1f us (%d runs)\n",
                   (long long)s.shape[0], (long long)s.shape[1], (long long)s.shape[2],
                   distfft_type_name(s.type), size, s.grid_ndims, (long long)s.width,
                   s.periodic ? " periodic" : "", distfft_halo_variant_name((distfft_halo_variant)v),
                   seconds[v][0] * 1e6, seconds[v][s.repeat / 2] * 1e6, s.repeat);
    }
    if (rc && rank == 0) fprintf(stderr, "halo_timing: %s\n", distfft_last_error());
    for (int v = 0; v < 2; v++) {
        distfft_free(array[v]);
        free(seconds[v]);
        distfft_halo_destroy(&halo[v]);
    }
    distfft_layout_destroy(&blocks);
    distfft_grid_destroy(&grid);
    MPI_Finalize();
    return rc ? 1 : 0;
}
