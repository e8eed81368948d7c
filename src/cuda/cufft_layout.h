/*
 * cufft_layout.h -- a plan step's serial transform (serial_spec) as
 * cuFFT's advanced data layout. Pure arithmetic, no CUDA: the CUDA
 * backend (cufft_step.cu) plans with it, and tests/unit/test_cufft_layout.c
 * checks it on any machine.
 *
 * One cuFFT plan covers a rank-k transform (k <= 3) over a run of
 * consecutive axes of the C-ordered local block [batch, shape...]. The
 * axes after the run are cuFFT's batch (transforms `inner` elements apart
 * in each other's gaps: stride inner, distance 1); the fields and the axes
 * before the run are `loops` executions of that plan, each in_loop /
 * out_loop elements further on. With nothing after the run, the fields and
 * the axes before it fold into cuFFT's batch instead (stride 1, distance
 * the run's elements): one execution. R2C and C2R halve the run's last
 * axis on the complex side (n -> n/2 + 1), as FFTW does.
 *
 * What cuFFT cannot do is refused here, with the reason: real-to-real
 * kinds (DCT, DST, DHT), long double, padded axes, more than three axes
 * at once, axes that are not one consecutive run, strided arrays.
 */
#ifndef DISTFFT_CUDA_CUFFT_LAYOUT_H
#define DISTFFT_CUDA_CUFFT_LAYOUT_H

#include <stdbool.h>
#include <string.h>

#include "serial/serial_fft.h"

typedef struct {
    int rank;                          /* transformed axes: 1..3 */
    long long n[3];                    /* their lengths (real space for R2C/C2R) */
    long long inembed[3], onembed[3];  /* the run's extents on the input and output side */
    long long istride, idist, ostride, odist, batch;
    long long loops;                   /* executions (0: an empty block, nothing to do) */
    long long in_loop, out_loop;       /* elements between executions' starts, in and out */
} cufft_layout;

/* *layout for `spec`; false with the reason in *why where cuFFT cannot run
 * it. Pure. */
static inline bool cufft_layout_of(const serial_spec *spec, cufft_layout *layout, const char **why)
{
    memset(layout, 0, sizeof *layout);
    if (spec->family == SERIAL_R2R) {
        *why = "cuFFT has no real-to-real transforms (DCT, DST, DHT, Chebyshev)";
        return false;
    }
    if (spec->precision != DISTFFT_DOUBLE && spec->precision != DISTFFT_FLOAT) {
        *why = "cuFFT transforms double and float only";
        return false;
    }
    if (spec->in_strided || spec->out_strided) {
        *why = "the device transforms C-ordered blocks only";
        return false;
    }
    int first = spec->axes[0], count = spec->naxes;
    if (count < 1 || count > 3) {
        *why = "cuFFT transforms one to three axes in one plan";
        return false;
    }
    for (int i = 0; i < count; i++) {
        if (spec->axes[i] != first + i) {
            *why = "the transformed axes are not one run of consecutive axes";
            return false;
        }
        if (spec->retained[spec->axes[i]] > 0) {
            *why = "padded transforms (options.padding) do not run on the device yet";
            return false;
        }
    }
    long long outer = spec->batch, inner = 1, in_run = 1, out_run = 1;
    for (int a = 0; a < first; a++) outer *= spec->shape[a];
    for (int a = first + count; a < spec->ndims; a++) inner *= spec->shape[a];
    layout->rank = count;
    for (int i = 0; i < count; i++) {
        long long n = spec->shape[first + i];
        long long halved = i == count - 1 && spec->family != SERIAL_C2C ? n / 2 + 1 : n;
        layout->n[i] = n;
        layout->inembed[i] = spec->family == SERIAL_C2R ? halved : n;
        layout->onembed[i] = spec->family == SERIAL_R2C ? halved : n;
        in_run *= layout->inembed[i];
        out_run *= layout->onembed[i];
    }
    if (outer == 0 || inner == 0 || in_run == 0) return true; /* an empty block: loops 0 */
    if (inner == 1) {
        layout->istride = layout->ostride = 1;
        layout->idist = in_run;
        layout->odist = out_run;
        layout->batch = outer;
        layout->loops = 1;
    } else {
        layout->istride = layout->ostride = inner;
        layout->idist = layout->odist = 1;
        layout->batch = inner;
        layout->loops = outer;
    }
    layout->in_loop = in_run * inner;
    layout->out_loop = out_run * inner;
    return true;
}

#endif
