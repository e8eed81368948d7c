/*
 * padding.c -- zero-padding and truncation along padded axes (see
 * padding.h). One walk over the small (retained) array: each index of a
 * padded axis maps to one index of the big array, or to two (the even
 * Nyquist mode of a c2c axis) with a weight; the r2c Nyquist mode maps to
 * one index with a weight and, when truncating, keeps only the real part.
 */
#include <string.h>

#include "../types.h"
#include "padding.h"

typedef enum { AXIS_PLAIN, AXIS_PREFIX, AXIS_HALF, AXIS_WRAP } axis_mode;

/* Where small index k of an axis goes in the big array. */
typedef struct {
    int count;
    int64_t index[2];
    double weight[2];
    bool real_only;
} targets;

typedef struct {
    bool pad;                         /* pad (small -> big) or truncate */
    bool single;                      /* float elements */
    int components;                   /* 2 complex, 1 real */
    int ndims;
    axis_mode mode[DISTFFT_MAX_DIMS];
    int64_t retained[DISTFFT_MAX_DIMS], length[DISTFFT_MAX_DIMS];
    int64_t small[DISTFFT_MAX_DIMS], big[DISTFFT_MAX_DIMS];
    int64_t small_stride[DISTFFT_MAX_DIMS], big_stride[DISTFFT_MAX_DIMS];
    const void *source;
    void *target;
} walk;

bool serial_is_padded(const serial_spec *spec)
{
    for (int j = 0; j < spec->naxes; j++)
        if (spec->retained[spec->axes[j]] > 0) return true;
    return false;
}

static bool halving(const serial_spec *spec)
{
    return spec->family == SERIAL_R2C || spec->family == SERIAL_C2R;
}

static axis_mode mode_of(const serial_spec *spec, int axis)
{
    if (spec->retained[axis] <= 0) return AXIS_PLAIN;
    if (halving(spec)) return AXIS_HALF;
    return spec->family == SERIAL_R2R ? AXIS_PREFIX : AXIS_WRAP;
}

void serial_padded_shapes(const serial_spec *spec, int64_t *big, int64_t *small)
{
    for (int a = 0; a < spec->ndims; a++) {
        big[a] = small[a] = spec->shape[a];
        if (spec->retained[a] > 0) small[a] = spec->retained[a];
    }
    if (halving(spec)) {
        int a = spec->axes[0];
        big[a] = spec->shape[a] / 2 + 1;
        small[a] = (spec->retained[a] > 0 ? spec->retained[a] : spec->shape[a]) / 2 + 1;
    }
}

static int components_of(const serial_spec *spec)
{
    return spec->family == SERIAL_R2R && !spec->complex_data ? 1 : 2;
}

int64_t serial_padded_scratch_bytes(const serial_spec *spec)
{
    int64_t big[DISTFFT_MAX_DIMS], small[DISTFFT_MAX_DIMS];
    serial_padded_shapes(spec, big, small);
    int64_t real_bytes = spec->precision == DISTFFT_FLOAT ? 4 : 8;
    return spec->batch * shape_product(spec->ndims, big) * components_of(spec) * real_bytes;
}

static void axis_targets(const walk *w, int axis, int64_t k, targets *t)
{
    int64_t n = w->retained[axis], m = w->length[axis];
    *t = (targets){.count = 1, .index = {k, 0}, .weight = {1.0, 1.0}};
    switch (w->mode[axis]) {
    case AXIS_PLAIN: case AXIS_PREFIX: return;
    case AXIS_HALF:
        if (n % 2 == 0 && k == n / 2) {
            t->weight[0] = w->pad ? 0.5 : 2.0;
            t->real_only = !w->pad;
        }
        return;
    case AXIS_WRAP:
        if (n % 2 == 0 && k == n / 2) {
            *t = (targets){.count = 2, .index = {k, m - k}, .weight = {1.0, 1.0}};
            if (w->pad) t->weight[0] = t->weight[1] = 0.5;
        } else if (k > n / 2) {
            t->index[0] = k + m - n;
        }
        return;
    }
}

/* One element: big = weight * small (pad), or small += weight * big. */
static void move(const walk *w, int64_t small_at, int64_t big_at, double weight, bool real_only)
{
    int c = w->components;
    if (w->single) {
        const float *src = (const float *)w->source + c * (w->pad ? small_at : big_at);
        float *dst = (float *)w->target + c * (w->pad ? big_at : small_at);
        for (int j = 0; j < c; j++) {
            if (w->pad) dst[j] = (float)(weight * src[j]);
            else if (!(real_only && j == 1)) dst[j] += (float)(weight * src[j]);
        }
    } else {
        const double *src = (const double *)w->source + c * (w->pad ? small_at : big_at);
        double *dst = (double *)w->target + c * (w->pad ? big_at : small_at);
        for (int j = 0; j < c; j++) {
            if (w->pad) dst[j] = weight * src[j];
            else if (!(real_only && j == 1)) dst[j] += weight * src[j];
        }
    }
}

static void walk_axis(const walk *w, int axis, int64_t small_at, int64_t big_at, double weight,
                      bool real_only)
{
    if (axis == w->ndims) {
        move(w, small_at, big_at, weight, real_only);
        return;
    }
    for (int64_t k = 0; k < w->small[axis]; k++) {
        targets t;
        axis_targets(w, axis, k, &t);
        for (int j = 0; j < t.count; j++)
            walk_axis(w, axis + 1, small_at + k * w->small_stride[axis],
                      big_at + t.index[j] * w->big_stride[axis], weight * t.weight[j],
                      real_only || t.real_only);
    }
}

static void run(const serial_spec *spec, bool pad, const void *source, void *target)
{
    walk w = {.pad = pad, .single = spec->precision == DISTFFT_FLOAT,
              .components = components_of(spec), .ndims = spec->ndims,
              .source = source, .target = target};
    serial_padded_shapes(spec, w.big, w.small);
    int64_t small_step = 1, big_step = 1;
    for (int a = spec->ndims - 1; a >= 0; a--) {
        w.mode[a] = mode_of(spec, a);
        w.retained[a] = spec->retained[a];
        w.length[a] = spec->shape[a];
        w.small_stride[a] = small_step;
        w.big_stride[a] = big_step;
        small_step *= w.small[a];
        big_step *= w.big[a];
    }
    size_t real_bytes = w.single ? sizeof(float) : sizeof(double);
    int64_t cleared = pad ? big_step : small_step;
    if (spec->batch * cleared == 0) return; /* an empty block */
    memset(target, 0, (size_t)(spec->batch * cleared * w.components) * real_bytes);
    for (int64_t f = 0; f < spec->batch; f++)
        walk_axis(&w, 0, f * small_step, f * big_step, 1.0, false);
}

void serial_pad(const serial_spec *spec, const void *small, void *big)
{
    run(spec, true, small, big);
}

void serial_truncate(const serial_spec *spec, const void *big, void *small)
{
    run(spec, false, big, small);
}
