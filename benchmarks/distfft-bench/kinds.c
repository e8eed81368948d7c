/*
 * kinds.c -- --kind and --axes of distfft-bench (see kinds.h). Only the
 * syntax is judged here; whether a combination of kinds is a valid
 * transform (at most one r2c axis, dct1 on at least two points)
 * is the library's call, so the bench reports what a user would get.
 */
#include "kinds.h"

#include <string.h>

#include "option_text.h"

const char *bench_kind_at(int index)
{
    return distfft_kind_name((distfft_kind)index);
}

int bench_kinds_check(const char *text, char *message, size_t message_size)
{
    char pieces[DISTFFT_MAX_DIMS][16];
    int count = bench_split_list(text, DISTFFT_MAX_DIMS, pieces, sizeof pieces[0]);
    char known[256];
    bench_join_names(bench_kind_at, known, sizeof known);
    if (count < 0)
        return bench_fail(message, message_size,
                          "--kind '%s' is malformed: expected one kind or a "
                          "comma-separated list of at most %d kinds, each one of: %s",
                          text, DISTFFT_MAX_DIMS, known);
    for (int index = 0; index < count; ++index) {
        distfft_kind kind;
        if (distfft_kind_from_name(pieces[index], &kind) != DISTFFT_SUCCESS)
            return bench_fail(message, message_size,
                              "--kind '%s': '%s' is not one of: %s", text,
                              pieces[index], known);
    }
    return BENCH_OPTIONS_OK;
}

/* --axes into transformed[0..ndims-1] (every axis without --axes). */
static int resolve_axes(const bench_options *options, int *transformed,
                        char *message, size_t message_size)
{
    int ndims = options->ndims;
    for (int axis = 0; axis < ndims; ++axis)
        transformed[axis] = options->axes == NULL;
    if (options->axes == NULL)
        return BENCH_OPTIONS_OK;
    char pieces[DISTFFT_MAX_DIMS][16];
    int count = bench_split_list(options->axes, ndims, pieces, sizeof pieces[0]);
    for (int index = 0; index < count; ++index) {
        int64_t axis;
        if (bench_parse_integer(pieces[index], strlen(pieces[index]), 0,
                                ndims - 1, &axis) != 0 ||
            transformed[axis])
            count = -1;
        else
            transformed[axis] = 1;
    }
    if (count < 0)
        return bench_fail(message, message_size,
                          "--axes '%s' is malformed: expected distinct axes from "
                          "0 to %d, separated by commas",
                          options->axes, ndims - 1);
    return BENCH_OPTIONS_OK;
}

/* One kind for every transformed axis (r2c: on the last one, c2c before). */
static void apply_one_kind(bench_options *options, distfft_kind kind,
                           const int *transformed)
{
    int last = -1;
    for (int axis = 0; axis < options->ndims; ++axis)
        if (transformed[axis])
            last = axis;
    for (int axis = 0; axis < options->ndims; ++axis) {
        distfft_kind own = kind == DISTFFT_R2C && axis != last ? DISTFFT_C2C : kind;
        options->kinds[axis] = transformed[axis] ? own : DISTFFT_NONE;
    }
}

int bench_kinds_resolve(bench_options *options, char *message,
                        size_t message_size)
{
    int ndims = options->ndims;
    int transformed[DISTFFT_MAX_DIMS];
    int status = resolve_axes(options, transformed, message, message_size);
    if (status != BENCH_OPTIONS_OK)
        return status;

    char pieces[DISTFFT_MAX_DIMS][16];
    int count = bench_split_list(options->kind, DISTFFT_MAX_DIMS, pieces,
                                 sizeof pieces[0]);
    distfft_kind given[DISTFFT_MAX_DIMS];
    for (int index = 0; index < count; ++index)
        distfft_kind_from_name(pieces[index], &given[index]); /* checked */
    if (count == 1) {
        apply_one_kind(options, given[0], transformed);
        return BENCH_OPTIONS_OK;
    }
    if (count != ndims)
        return bench_fail(message, message_size,
                          "--kind '%s' has %d kinds but --shape has %d axes: give "
                          "one kind, or one per axis",
                          options->kind, count, ndims);
    for (int axis = 0; axis < ndims; ++axis) {
        if (options->axes != NULL &&
            (given[axis] == DISTFFT_NONE) == transformed[axis])
            return bench_fail(message, message_size,
                              "--kind '%s' gives axis %d the kind %s, but --axes "
                              "'%s' %s: a per-axis --kind must say none exactly "
                              "on the axes that --axes leaves out",
                              options->kind, axis, pieces[axis], options->axes,
                              transformed[axis] ? "transforms that axis"
                                                : "leaves that axis out");
        options->kinds[axis] = given[axis];
    }
    return BENCH_OPTIONS_OK;
}
