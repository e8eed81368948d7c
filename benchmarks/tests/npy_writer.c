/*
 * npy_writer.c -- exercise the .npy writer of distfft-bench on its own.
 *
 *   npy_writer PREFIX
 *
 * Writes PREFIX.<case>.npy for each element type and for 0 to 3 axes
 * (including an empty array), element i holding i + 0.5i*i (complex) or i
 * (real), and prints one JSON line listing the files, their dtype and shape,
 * for check_npy_writer.py to load with NumPy. No MPI. Exit status 0 or 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"

typedef struct {
    const char *name;
    distfft_type type;
    const char *descr;
    int ndims;
    int64_t shape[3];
} writer_case;

static const writer_case cases[] = {
    {"complex_double_2d", DISTFFT_COMPLEX_DOUBLE, "<c16", 2, {3, 4, 0}},
    {"complex_float_1d", DISTFFT_COMPLEX_FLOAT, "<c8", 1, {5, 0, 0}},
    {"real_double_0d", DISTFFT_REAL_DOUBLE, "<f8", 0, {0, 0, 0}},
    {"real_float_3d", DISTFFT_REAL_FLOAT, "<f4", 3, {2, 1, 3}},
    {"complex_double_empty", DISTFFT_COMPLEX_DOUBLE, "<c16", 2, {0, 3, 0}},
};

/* Element i: i + 0.5i*i, or i for real types. */
static void fill(distfft_type type, int64_t count, void *data)
{
    for (int64_t index = 0; index < count; ++index) {
        double value = (double)index;
        switch (type) {
        case DISTFFT_COMPLEX_DOUBLE:
            ((double *)data)[2 * index] = value;
            ((double *)data)[2 * index + 1] = 0.5 * value;
            break;
        case DISTFFT_COMPLEX_FLOAT:
            ((float *)data)[2 * index] = (float)value;
            ((float *)data)[2 * index + 1] = (float)(0.5 * value);
            break;
        case DISTFFT_REAL_DOUBLE: ((double *)data)[index] = value; break;
        case DISTFFT_REAL_FLOAT: ((float *)data)[index] = (float)value; break;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: npy_writer PREFIX\n");
        return 1;
    }
    const char *prefix = argv[1];
    int case_count = (int)(sizeof cases / sizeof cases[0]);
    printf("{\"files\": [");
    for (int number = 0; number < case_count; ++number) {
        const writer_case *test = &cases[number];
        int64_t count = 1;
        for (int axis = 0; axis < test->ndims; ++axis)
            count *= test->shape[axis];
        void *data = malloc((size_t)(count > 0 ? count : 1) *
                            distfft_type_size(test->type));
        if (data == NULL)
            return 1;
        fill(test->type, count, data);
        char path[4096];
        snprintf(path, sizeof path, "%s.%s.npy", prefix, test->name);
        if (npy_write(path, test->type, test->ndims, test->shape,
                      count > 0 ? data : NULL) != 0) {
            perror(path);
            return 1;
        }
        free(data);
        printf("%s{\"path\": \"%s\", \"descr\": \"%s\", \"shape\": [",
               number ? ", " : "", path, test->descr);
        for (int axis = 0; axis < test->ndims; ++axis)
            printf("%s%lld", axis ? ", " : "", (long long)test->shape[axis]);
        printf("]}");
    }
    printf("]}\n");

    /* A bad type must be refused, not written. */
    int64_t shape[1] = {1};
    double value = 0.0;
    char path[4096];
    snprintf(path, sizeof path, "%s.refused.npy", prefix);
    if (npy_write(path, (distfft_type)99, 1, shape, &value) == 0) {
        fprintf(stderr, "npy_writer: an unknown element type was accepted\n");
        return 1;
    }
    return 0;
}
