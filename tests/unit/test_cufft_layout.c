/*
 * test_cufft_layout.c -- the CUDA backend's mapping of a step's serial
 * transform onto cuFFT's advanced layout (src/cuda/cufft_layout.h),
 * checked without a device: for each case, every element cuFFT would
 * address (execution, batch, position in the transform) is mapped back to
 * its C-order index in the block and must visit each index of the block
 * exactly once, on the input and on the output side; and what cuFFT cannot
 * run is refused with a reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cufft_layout.h"

static int failures;

static void expect(int condition, const char *what)
{
    if (!condition) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

static serial_spec spec_of(serial_family family, int ndims, const int64_t *shape, int64_t batch, int first,
                           int naxes)
{
    serial_spec spec = {.precision = DISTFFT_DOUBLE, .family = family, .ndims = ndims, .batch = batch,
                        .naxes = naxes};
    memcpy(spec.shape, shape, (size_t)ndims * sizeof *shape);
    for (int i = 0; i < naxes; i++) spec.axes[i] = first + i;
    return spec;
}

/* Every element cuFFT addresses on one side hits each index of the block
 * (extents `dims` of the side, batch leading) once. */
static int covers(const cufft_layout *l, const long long *embed, long long stride, long long dist,
                  long long loop, long long total)
{
    unsigned char *seen = calloc((size_t)total, 1);
    int ok = 1;
    long long run = 1;
    for (int i = 0; i < l->rank; i++) run *= embed[i];
    for (long long e = 0; e < l->loops; e++)
        for (long long b = 0; b < l->batch; b++)
            for (long long x = 0; x < run; x++) {
                long long index = e * loop + b * dist + x * stride;
                if (index < 0 || index >= total || seen[index]++) ok = 0;
            }
    for (long long i = 0; i < total; i++) ok = ok && seen[i] == 1;
    free(seen);
    return ok;
}

static void check_case(serial_family family, int ndims, const int64_t *shape, int64_t batch, int first,
                       int naxes, const char *name)
{
    serial_spec spec = spec_of(family, ndims, shape, batch, first, naxes);
    cufft_layout l;
    const char *why = NULL;
    char what[160];
    snprintf(what, sizeof what, "%s: planned", name);
    expect(cufft_layout_of(&spec, &l, &why), what);
    long long real = batch, complex_side = batch;
    for (int a = 0; a < ndims; a++) {
        real *= shape[a];
        complex_side *= family != SERIAL_C2C && a == first + naxes - 1 ? shape[a] / 2 + 1 : shape[a];
    }
    long long in_total = family == SERIAL_C2R ? complex_side : real;
    long long out_total = family == SERIAL_R2C ? complex_side : real;
    snprintf(what, sizeof what, "%s: input covered once", name);
    expect(covers(&l, l.inembed, l.istride, l.idist, l.in_loop, in_total), what);
    snprintf(what, sizeof what, "%s: output covered once", name);
    expect(covers(&l, l.onembed, l.ostride, l.odist, l.out_loop, out_total), what);
    for (int i = 0; i < naxes; i++) {
        snprintf(what, sizeof what, "%s: length of axis %d", name, first + i);
        expect(l.n[i] == shape[first + i], what);
    }
}

static void check_refused(serial_spec spec, const char *word, const char *name)
{
    cufft_layout l;
    const char *why = "";
    char what[160];
    snprintf(what, sizeof what, "%s: refused, saying \"%s\"", name, word);
    expect(!cufft_layout_of(&spec, &l, &why) && strstr(why, word), what);
}

int main(void)
{
    const int64_t a[3] = {5, 6, 7}, b[4] = {3, 4, 5, 6};
    check_case(SERIAL_C2C, 3, a, 1, 2, 1, "c2c last axis");
    check_case(SERIAL_C2C, 3, a, 2, 0, 1, "c2c first axis, 2 fields");
    check_case(SERIAL_C2C, 3, a, 3, 1, 1, "c2c middle axis, 3 fields");
    check_case(SERIAL_C2C, 3, a, 1, 1, 2, "c2c last two axes");
    check_case(SERIAL_C2C, 3, a, 2, 0, 3, "c2c all axes, 2 fields");
    check_case(SERIAL_C2C, 4, b, 2, 1, 2, "c2c middle run of a 4-d block");
    check_case(SERIAL_R2C, 3, a, 1, 2, 1, "r2c last axis (odd)");
    check_case(SERIAL_R2C, 3, a, 2, 1, 1, "r2c middle axis (even), 2 fields");
    check_case(SERIAL_R2C, 3, a, 1, 0, 3, "r2c all axes");
    check_case(SERIAL_C2R, 3, a, 1, 1, 2, "c2r last two axes");
    check_case(SERIAL_C2R, 4, b, 3, 0, 2, "c2r first two of 4, 3 fields");

    const int64_t empty[3] = {5, 0, 7};
    serial_spec none = spec_of(SERIAL_C2C, 3, empty, 1, 0, 1);
    cufft_layout l;
    const char *why = NULL;
    expect(cufft_layout_of(&none, &l, &why) && l.loops == 0, "an empty block: nothing to run");

    serial_spec r2r = spec_of(SERIAL_R2R, 3, a, 1, 0, 1);
    check_refused(r2r, "real-to-real", "dct");
    serial_spec wide = spec_of(SERIAL_C2C, 3, a, 1, 0, 1);
    wide.precision = DISTFFT_LONG_DOUBLE;
    check_refused(wide, "double and float", "long double");
    serial_spec padded = spec_of(SERIAL_C2C, 3, a, 1, 1, 1);
    padded.retained[1] = 4;
    check_refused(padded, "padded", "padding");
    serial_spec gap = spec_of(SERIAL_C2C, 3, a, 1, 0, 2);
    gap.axes[1] = 2;
    check_refused(gap, "consecutive", "axes 0 and 2");
    serial_spec four = spec_of(SERIAL_C2C, 4, b, 1, 0, 4);
    check_refused(four, "one to three", "four axes");

    if (failures) printf("test_cufft_layout: %d failures\n", failures);
    else printf("test_cufft_layout: ok\n");
    return failures != 0;
}
