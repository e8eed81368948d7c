/*
 * serial_fft.c -- FFTW guru64 plans on strided local blocks (see
 * serial_fft.h), for double (fftw_), single (fftwf_) and long double
 * (fftwl_, the public serial API's only) precision.
 */
#include <stdlib.h>
#include <string.h>
#include <fftw3.h>

#include "../error.h"
#include "../kinds.h"
#include "../parallel.h"
#include "serial_fft.h"

struct serial_fft {
    fftw_plan plan_double;   /* one of the three is set, or none (empty) */
    fftwf_plan plan_float;
    fftwl_plan plan_long_double;
    serial_family family;
};

static unsigned rigor_flags(distfft_rigor rigor)
{
    switch (rigor) {
    case DISTFFT_ESTIMATE: return FFTW_ESTIMATE;
    case DISTFFT_MEASURE: return FFTW_MEASURE;
    case DISTFFT_PATIENT: return FFTW_PATIENT;
    case DISTFFT_EXHAUSTIVE: return FFTW_EXHAUSTIVE;
    }
    return FFTW_MEASURE;
}

/* C-order strides (in elements) of a block, and of one field. */
static int64_t strides(int ndims, const int64_t *shape, int64_t *stride)
{
    int64_t step = 1;
    for (int i = ndims - 1; i >= 0; i--) {
        stride[i] = step;
        step *= shape[i];
    }
    return step;
}

static bool listed(const serial_spec *spec, int axis)
{
    for (int j = 0; j < spec->naxes; j++)
        if (spec->axes[j] == axis) return true;
    return false;
}

/* FFTW's threads support, initialised once per process before the first
 * plan_with_nthreads (FFTW 3.3.10's plan_with_nthreads would otherwise call
 * fftw_cleanup, freeing the planner under every existing plan). It runs
 * when the library is loaded (the constructor below), so that another FFTW
 * user of the process -- mpi4py-fft or pyFFTW beside the Python package, a
 * C library beside a C program -- may call plan_with_nthreads at any time;
 * the Python package opens no FFTW library itself and relies on it. */
static void init_threads_once(void)
{
    static bool done;
    if (done) return;
    fftw_init_threads();
    fftwf_init_threads();
    fftwl_init_threads();
    done = true;
}

__attribute__((constructor)) static void init_threads_at_load(void)
{
    init_threads_once();
}

bool serial_needs_copy(const serial_spec *spec)
{
    return spec->family == SERIAL_C2R && spec->naxes > 1 && spec->preserve_input;
}

/* The three precisions are FFTW's three APIs of one shape (fftw_, fftwf_,
 * fftwl_): one switch over the family, written once for each prefix. */
#define GURU_PLAN(prefix, target)                                                             \
    do {                                                                                      \
        switch (spec->family) {                                                               \
        case SERIAL_C2C:                                                                      \
            target = prefix##_plan_guru64_dft(rank, dims, loop_rank, loops, in, out, sign, flags); \
            break;                                                                            \
        case SERIAL_R2C:                                                                      \
            target = prefix##_plan_guru64_dft_r2c(rank, dims, loop_rank, loops, in, out, flags); \
            break;                                                                            \
        case SERIAL_C2R:                                                                      \
            target = prefix##_plan_guru64_dft_c2r(rank, dims, loop_rank, loops, in, out, flags); \
            break;                                                                            \
        case SERIAL_R2R:                                                                      \
            target = prefix##_plan_guru64_r2r(rank, dims, loop_rank, loops, in, out, kinds, flags); \
            break;                                                                            \
        }                                                                                     \
    } while (0)
#define EXECUTE(prefix, plan)                                                                 \
    do {                                                                                      \
        switch (fft->family) {                                                                \
        case SERIAL_C2C: prefix##_execute_dft(plan, in, out); break;                          \
        case SERIAL_R2C: prefix##_execute_dft_r2c(plan, in, out); break;                      \
        case SERIAL_C2R: prefix##_execute_dft_c2r(plan, in, out); break;                      \
        case SERIAL_R2R: prefix##_execute_r2r(plan, in, out); break;                          \
        }                                                                                     \
    } while (0)

/* The FFTW guru64 plan of `rank` transformed dimensions over `loop_rank`
 * loop dimensions, in the spec's precision and family. */
static void make_guru_plan(serial_fft *fft, const serial_spec *spec, int rank, const fftw_iodim64 *dims,
                           int loop_rank, const fftw_iodim64 *loops, const fftw_r2r_kind *kinds,
                           void *in, void *out)
{
    bool preserve = spec->preserve_input && !serial_needs_copy(spec);
    unsigned flags = rigor_flags(spec->rigor) | (preserve ? FFTW_PRESERVE_INPUT : FFTW_DESTROY_INPUT) |
                     spec->planner_flags;
    int sign = spec->sign == DISTFFT_FORWARD ? FFTW_FORWARD : FFTW_BACKWARD;
    int threads = spec->threads > 1 ? spec->threads : 1;
    init_threads_once();
    int saved_double = fftw_planner_nthreads(), saved_float = fftwf_planner_nthreads();
    int saved_long_double = fftwl_planner_nthreads();
    fftw_plan_with_nthreads(threads);
    fftwf_plan_with_nthreads(threads);
    fftwl_plan_with_nthreads(threads);
    if (spec->precision == DISTFFT_LONG_DOUBLE) GURU_PLAN(fftwl, fft->plan_long_double);
    else if (spec->precision == DISTFFT_FLOAT) GURU_PLAN(fftwf, fft->plan_float);
    else GURU_PLAN(fftw, fft->plan_double);
    fftw_plan_with_nthreads(saved_double);
    fftwf_plan_with_nthreads(saved_float);
    fftwl_plan_with_nthreads(saved_long_double);
}

int serial_fft_create(const serial_spec *spec, void *in, void *out,
                      serial_fft **fft_out)
{
    *fft_out = NULL;
    serial_fft *fft = calloc(1, sizeof *fft);
    if (!fft) return error_fail(DISTFFT_ERR_MEMORY, "serial FFT object");
    fft->family = spec->family;

    /* Input and output shapes differ only along an R2C/C2R axis. */
    int64_t real_shape[DISTFFT_MAX_DIMS], complex_shape[DISTFFT_MAX_DIMS];
    memcpy(real_shape, spec->shape, sizeof real_shape);
    memcpy(complex_shape, spec->shape, sizeof complex_shape);
    bool halving = spec->family == SERIAL_R2C || spec->family == SERIAL_C2R;
    int halved = spec->axes[spec->naxes - 1];
    if (halving) complex_shape[halved] = spec->shape[halved] / 2 + 1;
    const int64_t *in_shape = spec->family == SERIAL_C2R ? complex_shape : real_shape;
    const int64_t *out_shape = spec->family == SERIAL_R2C ? complex_shape : real_shape;

    int64_t in_stride[DISTFFT_MAX_DIMS], out_stride[DISTFFT_MAX_DIMS];
    int64_t in_field = strides(spec->ndims, in_shape, in_stride);
    int64_t out_field = strides(spec->ndims, out_shape, out_stride);
    if (spec->in_strided) memcpy(in_stride, spec->in_strides, sizeof in_stride);
    if (spec->out_strided) memcpy(out_stride, spec->out_strides, sizeof out_stride);
    if (in_field == 0 || out_field == 0 || spec->batch == 0) { /* empty block */
        *fft_out = fft;
        return DISTFFT_SUCCESS;
    }
    /* Real-to-real on complex data: a real array with a trailing axis of 2
     * (real, imaginary) that becomes one more loop. */
    int64_t unit = spec->family == SERIAL_R2R && spec->complex_data ? 2 : 1;

    fftw_iodim64 dims[DISTFFT_MAX_DIMS], loops[DISTFFT_MAX_DIMS + 2];
    fftw_r2r_kind kinds[DISTFFT_MAX_DIMS];
    int rank = 0, loop_rank = 0;
    for (int j = 0; j < spec->naxes; j++) {
        int a = spec->axes[j];
        dims[rank] = (fftw_iodim64){spec->shape[a], unit * in_stride[a], unit * out_stride[a]};
        if (spec->family == SERIAL_R2R) kinds[rank] = (fftw_r2r_kind)kind_row_of(spec->r2r_kinds[j])->fftw_kind;
        rank++;
    }
    if (spec->batch > 1)
        loops[loop_rank++] = (fftw_iodim64){spec->batch, unit * in_field, unit * out_field};
    for (int a = 0; a < spec->ndims; a++)
        if (!listed(spec, a) && spec->shape[a] > 1)
            loops[loop_rank++] = (fftw_iodim64){spec->shape[a], unit * in_stride[a],
                                                unit * out_stride[a]};
    if (unit == 2) loops[loop_rank++] = (fftw_iodim64){2, 1, 1};

    make_guru_plan(fft, spec, rank, dims, loop_rank, loops, kinds, in, out);
    if (!fft->plan_float && !fft->plan_double && !fft->plan_long_double) {
        free(fft);
        return error_fail(DISTFFT_ERR_FFTW, "FFTW could not plan a %d-axis "
                          "transform with %d loop dimensions", rank, loop_rank);
    }
    *fft_out = fft;
    return DISTFFT_SUCCESS;
}

void serial_fft_execute(const serial_fft *fft, void *in, void *out)
{
    if (fft->plan_double) EXECUTE(fftw, fft->plan_double);
    if (fft->plan_float) EXECUTE(fftwf, fft->plan_float);
    if (fft->plan_long_double) EXECUTE(fftwl, fft->plan_long_double);
}

void serial_fft_destroy(serial_fft *fft)
{
    if (!fft) return;
    if (fft->plan_double) fftw_destroy_plan(fft->plan_double);
    if (fft->plan_float) fftwf_destroy_plan(fft->plan_float);
    if (fft->plan_long_double) fftwl_destroy_plan(fft->plan_long_double);
    free(fft);
}

char *serial_fft_sprint(const serial_fft *fft)
{
    if (fft->plan_double) return fftw_sprint_plan(fft->plan_double);
    if (fft->plan_float) return fftwf_sprint_plan(fft->plan_float);
    if (fft->plan_long_double) return fftwl_sprint_plan(fft->plan_long_double);
    return NULL;
}

bool serial_fft_aligned(distfft_precision precision, const void *pointer)
{
    if (!pointer) return true;
    if (precision == DISTFFT_FLOAT)
        return fftwf_alignment_of((float *)pointer) == 0;
    if (precision == DISTFFT_LONG_DOUBLE)
        return fftwl_alignment_of((long double *)pointer) == 0;
    return fftw_alignment_of((double *)pointer) == 0;
}

void serial_scale(distfft_precision precision, void *data, int64_t count,
                  double factor, int threads)
{
    size_t element = precision == DISTFFT_FLOAT ? sizeof(float) : sizeof(double);
    int team = parallel_threads(threads, count * (int64_t)element);
    if (precision == DISTFFT_FLOAT) {
        float *values = data, f = (float)factor;
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
        for (int64_t i = 0; i < count; i++) values[i] *= f;
    } else {
        double *values = data;
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
        for (int64_t i = 0; i < count; i++) values[i] *= factor;
    }
}

void serial_scaled_copy(distfft_precision precision, void *out, const void *in, int64_t count,
                        double factor, int threads)
{
    size_t element = precision == DISTFFT_FLOAT ? sizeof(float) : sizeof(double);
    int team = parallel_threads(threads, count * (int64_t)element);
    if (precision == DISTFFT_FLOAT) {
        const float *from = in;
        float *to = out, f = (float)factor;
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
        for (int64_t i = 0; i < count; i++) to[i] = from[i] * f;
    } else {
        const double *from = in;
        double *to = out;
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
        for (int64_t i = 0; i < count; i++) to[i] = from[i] * factor;
    }
}

/* out = in * w over `inner` reals, in the precision's type. */
static void scale_run(distfft_precision precision, const void *in, void *out, int64_t inner, double w)
{
    if (precision == DISTFFT_FLOAT) {
        const float *src = in;
        float *dst = out, f = (float)w;
        for (int64_t j = 0; j < inner; j++) dst[j] = src[j] * f;
    } else {
        const double *src = in;
        double *dst = out;
        for (int64_t j = 0; j < inner; j++) dst[j] = src[j] * w;
    }
}

void serial_scale_axis(distfft_precision precision, int components, int ndims,
                       const int64_t *shape, int64_t batch, int axis,
                       const double *weights, const void *in, void *out,
                       int threads)
{
    /* The array as [outer, n, inner]: weights[i] scales a run of `inner`. */
    int64_t outer = batch, inner = components;
    for (int a = 0; a < axis; a++) outer *= shape[a];
    for (int a = axis + 1; a < ndims; a++) inner *= shape[a];
    int64_t n = shape[axis], runs = outer * n;
    size_t element = precision == DISTFFT_FLOAT ? sizeof(float) : sizeof(double);
    int team = parallel_threads(threads, runs * inner * (int64_t)element);
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
    for (int64_t r = 0; r < runs; r++) {
        int64_t offset = r * inner * (int64_t)element;
        scale_run(precision, (const char *)in + offset, (char *)out + offset, inner, weights[r % n]);
    }
}
