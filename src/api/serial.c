/*
 * serial.c -- the public serial-transform API (distfft_serial_*): one
 * process's strided array, transformed along some of its axes by one FFTW
 * plan of serial/serial_fft.c, and FFTW's own wisdom and time limit per
 * precision (double, float and long double: the one place distfft offers
 * long double). Argument checks here, planning there; nothing is collective.
 */
#include <stdlib.h>
#include <string.h>
#include <fftw3.h>

#include "../error.h"
#include "../kinds.h"
#include "../plan/plan.h"
#include "../serial/serial_fft.h"
#include "../text.h"
#include "../types.h"

struct distfft_serial_plan_s {
    serial_fft *fft;
    serial_spec spec;
    bool empty;              /* an array with no element: execute does nothing */
    bool in_place, unaligned;
    int in_alignment, out_alignment; /* FFTW's alignment_of of the planning arrays */
};

/* FFTW's alignment of a pointer (its remainder modulo the SIMD alignment). */
static int alignment_of(distfft_precision precision, void *pointer)
{
    switch (precision) {
    case DISTFFT_FLOAT: return fftwf_alignment_of(pointer);
    case DISTFFT_LONG_DOUBLE: return fftwl_alignment_of(pointer);
    default: return fftw_alignment_of(pointer);
    }
}

/* The family of the transform of kinds[0..naxes) in `direction`, and the
 * spec's per-axis FFTW kinds; an error naming the first kind that does not
 * fit. */
static int family_of(int naxes, const distfft_kind *kinds, int direction, serial_spec *spec,
                     const char *where)
{
    int real_axes = 0, halved = -1;
    for (int j = 0; j < naxes; j++) {
        const kind_row *row = kind_row_of(kinds[j]);
        if (!row)
            return error_fail(DISTFFT_ERR_ARGUMENT, "%s: kinds[%d] = %d is not a transform kind", where, j,
                              (int)kinds[j]);
        if (row->role == KIND_UNTRANSFORMED)
            return error_fail(DISTFFT_ERR_ARGUMENT, "%s: kinds[%d] is none; list only the transformed axes "
                              "in axes (the others are a loop)", where, j);
        if (row->weights)
            return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: kinds[%d] is %s, which needs distfft's weights "
                              "step; a serial plan takes the FFTW kinds (c2c, r2c, dct1..4, dst1..4, "
                              "r2hc, hc2r, dht)",
                              where, j, row->name);
        if (row->role == KIND_REAL_TO_COMPLEX) {
            if (halved >= 0)
                return error_fail(DISTFFT_ERR_ARGUMENT, "%s: kinds[%d] and kinds[%d] are r2c; at most one "
                                  "axis can be r2c", where, halved, j);
            halved = j;
        }
        real_axes += row->role == KIND_REAL;
        spec->r2r_kinds[j] = direction == DISTFFT_FORWARD ? kinds[j] : row->backward;
    }
    if (halved >= 0 && halved != naxes - 1)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: kinds[%d] is r2c, but r2c must be the last listed "
                          "axis (kinds[%d])", where, halved, naxes - 1);
    if (real_axes && real_axes != naxes)
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: kinds mix real-to-real (dct, dst, r2hc, hc2r, dht) "
                          "with c2c or r2c axes; "
                          "one FFTW plan does one family: make one serial plan per family", where);
    spec->family = real_axes ? SERIAL_R2R : halved < 0 ? SERIAL_C2C
                 : direction == DISTFFT_FORWARD ? SERIAL_R2C : SERIAL_C2R;
    return DISTFFT_SUCCESS;
}

/* The shape, the axes and their lengths. *empty: the array has no element. */
static int check_shape(int ndims, const int64_t *shape, int naxes, const int *axes,
                       const distfft_kind *kinds, bool *empty, const char *where)
{
    if (ndims < 1 || ndims > DISTFFT_MAX_DIMS)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: ndims = %d is not 1..%d", where, ndims, DISTFFT_MAX_DIMS);
    if (!shape) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: shape is NULL", where);
    if (naxes < 1 || naxes > ndims)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: naxes = %d is not 1..ndims (%d)", where, naxes, ndims);
    if (!axes) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: axes is NULL", where);
    if (!kinds) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: kinds is NULL", where);
    *empty = false;
    for (int a = 0; a < ndims; a++) {
        if (shape[a] < 0)
            return error_fail(DISTFFT_ERR_SHAPE, "%s: shape[%d] = %lld is negative", where, a,
                              (long long)shape[a]);
        *empty |= shape[a] == 0;
    }
    for (int j = 0; j < naxes; j++) {
        if (axes[j] < 0 || axes[j] >= ndims)
            return error_fail(DISTFFT_ERR_ARGUMENT, "%s: axes[%d] = %d is not an axis (0..%d)", where, j,
                              axes[j], ndims - 1);
        for (int k = 0; k < j; k++)
            if (axes[k] == axes[j])
                return error_fail(DISTFFT_ERR_ARGUMENT, "%s: axis %d is listed twice (axes[%d] and axes[%d])",
                                  where, axes[j], k, j);
    }
    for (int j = 0; j < naxes && !*empty; j++) {
        const kind_row *row = kind_row_of(kinds[j]);
        if (row && shape[axes[j]] < row->min_length)
            return error_fail(DISTFFT_ERR_SHAPE, "%s: %s on axis %d needs at least %lld points, the axis has "
                              "%lld", where, row->name, axes[j], (long long)row->min_length,
                              (long long)shape[axes[j]]);
    }
    return DISTFFT_SUCCESS;
}

/* Planner flags (DISTFFT_SERIAL_*) into the spec. */
static int apply_flags(int flags, serial_spec *spec, const char *where)
{
    const int known = DISTFFT_SERIAL_DESTROY_INPUT | DISTFFT_SERIAL_PRESERVE_INPUT | DISTFFT_SERIAL_UNALIGNED |
                      DISTFFT_SERIAL_CONSERVE_MEMORY | DISTFFT_SERIAL_WISDOM_ONLY | DISTFFT_SERIAL_COMPLEX_DATA;
    if (flags & ~known)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: flags = %#x has bits that are no DISTFFT_SERIAL_* flag "
                          "(%#x)", where, (unsigned)flags, (unsigned)(flags & ~known));
    bool destroy = flags & DISTFFT_SERIAL_DESTROY_INPUT, preserve = flags & DISTFFT_SERIAL_PRESERVE_INPUT;
    if (destroy && preserve)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: flags has both DISTFFT_SERIAL_DESTROY_INPUT and "
                          "DISTFFT_SERIAL_PRESERVE_INPUT", where);
    /* FFTW's default: c2r destroys its input, every other family keeps it. */
    spec->preserve_input = preserve || (!destroy && spec->family != SERIAL_C2R);
    if (preserve && serial_needs_copy(spec))
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: FFTW cannot preserve the input of a c2r over %d "
                          "axes (only of one axis); leave out DISTFFT_SERIAL_PRESERVE_INPUT and copy the "
                          "input", where, spec->naxes);
    spec->complex_data = flags & DISTFFT_SERIAL_COMPLEX_DATA;
    if (spec->complex_data && spec->family != SERIAL_R2R)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: DISTFFT_SERIAL_COMPLEX_DATA is for real-to-real kinds "
                          "(dct, dst) only", where);
    spec->planner_flags = (flags & DISTFFT_SERIAL_UNALIGNED ? FFTW_UNALIGNED : 0) |
                          (flags & DISTFFT_SERIAL_CONSERVE_MEMORY ? FFTW_CONSERVE_MEMORY : 0) |
                          (flags & DISTFFT_SERIAL_WISDOM_ONLY ? FFTW_WISDOM_ONLY : 0);
    return DISTFFT_SUCCESS;
}

static int check_arguments(int ndims, const int64_t *shape, int naxes, const int *axes,
                           const distfft_kind *kinds, int direction, distfft_precision precision,
                           const void *in, const int64_t *in_strides, const void *out,
                           const int64_t *out_strides, distfft_rigor rigor, int flags, int threads,
                           struct distfft_serial_plan_s *plan, const char *where)
{
    serial_spec *spec = &plan->spec;
    int rc = check_shape(ndims, shape, naxes, axes, kinds, &plan->empty, where);
    if (rc != DISTFFT_SUCCESS) return rc;
    if (direction != DISTFFT_FORWARD && direction != DISTFFT_BACKWARD)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: direction = %d is neither DISTFFT_FORWARD (-1) nor "
                          "DISTFFT_BACKWARD (+1)", where, direction);
    if (!precision_is_valid(precision))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: precision = %d is not a precision", where, (int)precision);
    if (!distfft_rigor_name(rigor))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: rigor = %d is not a rigor", where, (int)rigor);
    if (threads < 1 || threads > DISTFFT_MAX_THREADS)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: threads = %d is not 1..%d", where, threads,
                          DISTFFT_MAX_THREADS);
    spec->precision = precision;
    spec->ndims = ndims;
    memcpy(spec->shape, shape, ndims * sizeof *shape);
    spec->batch = 1;
    spec->naxes = naxes;
    memcpy(spec->axes, axes, naxes * sizeof *axes);
    spec->sign = direction;
    spec->rigor = rigor;
    spec->threads = threads;
    TRY(family_of(naxes, kinds, direction, spec, where));
    TRY(apply_flags(flags, spec, where));
    if (!plan->empty && (!in || !out))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: %s is NULL (only an array without elements may be NULL)",
                          where, in ? "out" : "in");
    plan->in_place = in == out;
    bool halving = spec->family == SERIAL_R2C || spec->family == SERIAL_C2R;
    if (plan->in_place && halving && (!in_strides || !out_strides) && !plan->empty)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: an in-place %s needs in_strides and out_strides (the "
                          "real array padded to 2(n/2+1) along the halved axis, as FFTW's); NULL means C "
                          "order, which overlaps", where, spec->family == SERIAL_R2C ? "r2c" : "c2r");
    spec->in_strided = in_strides != NULL;
    spec->out_strided = out_strides != NULL;
    if (in_strides) memcpy(spec->in_strides, in_strides, ndims * sizeof *in_strides);
    if (out_strides) memcpy(spec->out_strides, out_strides, ndims * sizeof *out_strides);
fail:
    return rc;
}

/* Enter FFTW's planner (plan/plan.h's count of threads inside it), or
 * DISTFFT_ERR_UNSUPPORTED where another thread is inside. Each enter, even
 * a refused one, is matched by plan_planner_leave. */
static int planner_enter(const char *where)
{
    if (plan_planner_enter() > 0)
        return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: another thread is inside FFTW's planner (creating or "
                          "destroying a plan); it takes one thread at a time", where);
    return DISTFFT_SUCCESS;
}

int distfft_serial_plan_create(int ndims, const int64_t *shape, int naxes, const int *axes,
                               const distfft_kind *kinds, int direction, distfft_precision precision,
                               void *in, const int64_t *in_strides, void *out,
                               const int64_t *out_strides, distfft_rigor rigor, int flags, int threads,
                               distfft_serial_plan *plan)
{
    const char *where = "distfft_serial_plan_create";
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: plan is NULL", where);
    *plan = NULL;
    struct distfft_serial_plan_s *made = calloc(1, sizeof *made);
    if (!made) return error_fail(DISTFFT_ERR_MEMORY, "%s: the plan object", where);
    int rc = check_arguments(ndims, shape, naxes, axes, kinds, direction, precision, in, in_strides, out,
                             out_strides, rigor, flags, threads, made, where);
    if (rc == DISTFFT_SUCCESS) {
        made->unaligned = flags & DISTFFT_SERIAL_UNALIGNED;
        if (!made->empty) {
            made->in_alignment = alignment_of(precision, in);
            made->out_alignment = alignment_of(precision, out);
        }
        rc = planner_enter(where);
        if (rc == DISTFFT_SUCCESS) rc = serial_fft_create(&made->spec, in, out, &made->fft);
        plan_planner_leave();
        if (rc == DISTFFT_ERR_FFTW && (flags & DISTFFT_SERIAL_WISDOM_ONLY))
            rc = error_fail(rc, "%s: FFTW has no wisdom for this transform (DISTFFT_SERIAL_WISDOM_ONLY "
                            "plans only from wisdom)", where);
        else if (rc == DISTFFT_ERR_FFTW)
            rc = error_fail(rc, "%s: FFTW refused the %d-axis %s transform (check the strides)", where,
                            naxes, distfft_kind_name(kinds[naxes - 1]));
    }
    if (rc != DISTFFT_SUCCESS) {
        free(made);
        return rc;
    }
    *plan = made;
    return DISTFFT_SUCCESS;
}

int distfft_serial_plan_execute(const struct distfft_serial_plan_s *plan, void *in, void *out)
{
    const char *where = "distfft_serial_plan_execute";
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: plan is NULL", where);
    if (plan->empty) return DISTFFT_SUCCESS;
    if (!in || !out)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: %s is NULL", where, in ? "out" : "in");
    if ((in == out) != plan->in_place)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: the plan was made %s, but in and out are %s", where,
                          plan->in_place ? "in place (in == out)" : "out of place (in != out)",
                          in == out ? "the same array" : "two arrays");
    distfft_precision precision = plan->spec.precision;
    if (!plan->unaligned && (alignment_of(precision, in) != plan->in_alignment ||
                             alignment_of(precision, out) != plan->out_alignment))
        return error_fail(DISTFFT_ERR_ALIGNMENT, "%s: in or out is not aligned as the arrays the plan was "
                          "made on (FFTW's alignment_of %d and %d, here %d and %d); plan with "
                          "DISTFFT_SERIAL_UNALIGNED to run on any", where, plan->in_alignment,
                          plan->out_alignment, alignment_of(precision, in), alignment_of(precision, out));
    serial_fft_execute(plan->fft, in, out);
    return DISTFFT_SUCCESS;
}

int distfft_serial_plan_destroy(distfft_serial_plan *plan)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_serial_plan_destroy: NULL");
    if (!*plan) return DISTFFT_SUCCESS;
    plan_planner_enter(); /* a creation starting meanwhile is refused */
    serial_fft_destroy((*plan)->fft);
    plan_planner_leave();
    free(*plan);
    *plan = NULL;
    return DISTFFT_SUCCESS;
}

int distfft_serial_plan_describe(const struct distfft_serial_plan_s *plan, char *buf, size_t size)
{
    error_clear();
    if (!plan) return -1;
    char *fftw_text = plan->fft ? serial_fft_sprint(plan->fft) : NULL;
    text out = text_on(buf, size);
    text_append(&out, "%s", fftw_text ? fftw_text : "(empty)");
    free(fftw_text);
    return (int)out.used;
}

/* ---- FFTW's wisdom and time limit, per precision ---------------------------- */

static int check_precision(distfft_precision precision, const char *where)
{
    error_clear();
    if (!precision_is_valid(precision))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: precision = %d is not a precision", where, (int)precision);
    return DISTFFT_SUCCESS;
}

char *distfft_serial_wisdom_export(distfft_precision precision)
{
    if (check_precision(precision, "distfft_serial_wisdom_export") != DISTFFT_SUCCESS) return NULL;
    char *text = precision == DISTFFT_FLOAT ? fftwf_export_wisdom_to_string()
               : precision == DISTFFT_LONG_DOUBLE ? fftwl_export_wisdom_to_string()
               : fftw_export_wisdom_to_string();
    if (!text) error_fail(DISTFFT_ERR_MEMORY, "distfft_serial_wisdom_export: the text");
    return text;
}

/* FFTW's wisdom calls that take a text or a path, per precision. */
typedef int (*wisdom_call)(const char *);
enum { IMPORT_TEXT, EXPORT_FILE, IMPORT_FILE };
static const wisdom_call wisdom_calls[3][3] = {
    [DISTFFT_DOUBLE] = {fftw_import_wisdom_from_string, fftw_export_wisdom_to_filename,
                        fftw_import_wisdom_from_filename},
    [DISTFFT_FLOAT] = {fftwf_import_wisdom_from_string, fftwf_export_wisdom_to_filename,
                       fftwf_import_wisdom_from_filename},
    [DISTFFT_LONG_DOUBLE] = {fftwl_import_wisdom_from_string, fftwl_export_wisdom_to_filename,
                             fftwl_import_wisdom_from_filename},
};

/* FFTW's call `which` of `precision` on `argument` (a text or a path),
 * its arguments checked and its failure named. */
static int wisdom_transfer(distfft_precision precision, int which, const char *argument, const char *where)
{
    static const char *const failure[] = {"is not FFTW wisdom (FFTW refused it)", "cannot be written",
                                          "cannot be read as FFTW wisdom (missing, unreadable or not wisdom)"};
    int rc = check_precision(precision, where);
    if (rc != DISTFFT_SUCCESS) return rc;
    if (!argument)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: %s is NULL", where, which == IMPORT_TEXT ? "text" : "path");
    if (!wisdom_calls[precision][which](argument)) {
        const char *quote = which == IMPORT_TEXT ? "" : "'";
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: %s%s%s %s (%s precision)", where, quote,
                          which == IMPORT_TEXT ? "the text" : argument, quote, failure[which],
                          distfft_precision_name(precision));
    }
    return DISTFFT_SUCCESS;
}

int distfft_serial_wisdom_import(distfft_precision precision, const char *text)
{
    return wisdom_transfer(precision, IMPORT_TEXT, text, "distfft_serial_wisdom_import");
}

int distfft_serial_wisdom_export_file(distfft_precision precision, const char *path)
{
    return wisdom_transfer(precision, EXPORT_FILE, path, "distfft_serial_wisdom_export_file");
}

int distfft_serial_wisdom_import_file(distfft_precision precision, const char *path)
{
    return wisdom_transfer(precision, IMPORT_FILE, path, "distfft_serial_wisdom_import_file");
}

int distfft_serial_wisdom_forget(distfft_precision precision)
{
    int rc = check_precision(precision, "distfft_serial_wisdom_forget");
    if (rc != DISTFFT_SUCCESS) return rc;
    if (precision == DISTFFT_FLOAT) fftwf_forget_wisdom();
    else if (precision == DISTFFT_LONG_DOUBLE) fftwl_forget_wisdom();
    else fftw_forget_wisdom();
    return DISTFFT_SUCCESS;
}

int distfft_serial_set_timelimit(distfft_precision precision, double seconds)
{
    int rc = check_precision(precision, "distfft_serial_set_timelimit");
    if (rc != DISTFFT_SUCCESS) return rc;
    if (seconds != seconds)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_serial_set_timelimit: seconds is NaN");
    if (precision == DISTFFT_FLOAT) fftwf_set_timelimit(seconds);
    else if (precision == DISTFFT_LONG_DOUBLE) fftwl_set_timelimit(seconds);
    else fftw_set_timelimit(seconds);
    return DISTFFT_SUCCESS;
}
