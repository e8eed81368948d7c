/*
 * serial_fft.c -- FFTW guru64 plans on strided local blocks (see
 * serial_fft.h), for double (fftw_) and single (fftwf_) precision.
 */
#include <stdlib.h>
#include <fftw3.h>

#include "../error.h"
#include "serial_fft.h"

struct serial_fft {
    distfft_precision precision;
    fftw_plan plan_double;   /* one of the two is set, or neither (empty) */
    fftwf_plan plan_float;
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

int serial_fft_create(distfft_precision precision, int ndims,
                      const int64_t *shape, int64_t batch, int first_axis,
                      int last_axis, int sign, distfft_rigor rigor,
                      bool preserve_input, void *in, void *out,
                      serial_fft **fft_out)
{
    *fft_out = NULL;
    serial_fft *fft = calloc(1, sizeof *fft);
    if (!fft) return error_fail(DISTFFT_ERR_MEMORY, "serial FFT object");
    fft->precision = precision;

    /* Strides of the C-ordered block, in elements; the batch is axis -1. */
    int64_t stride[DISTFFT_MAX_DIMS];
    int64_t step = 1, elements = batch;
    for (int i = ndims - 1; i >= 0; i--) {
        stride[i] = step;
        step *= shape[i];
        elements *= shape[i];
    }
    if (elements == 0) { /* this rank's block is empty: nothing to do */
        *fft_out = fft;
        return DISTFFT_SUCCESS;
    }

    fftw_iodim64 dims[DISTFFT_MAX_DIMS], loops[DISTFFT_MAX_DIMS + 1];
    int rank = 0, loop_rank = 0;
    for (int i = first_axis; i <= last_axis; i++)
        dims[rank++] = (fftw_iodim64){shape[i], stride[i], stride[i]};
    if (batch > 1)
        loops[loop_rank++] = (fftw_iodim64){batch, step, step};
    for (int i = 0; i < ndims; i++)
        if ((i < first_axis || i > last_axis) && shape[i] > 1)
            loops[loop_rank++] = (fftw_iodim64){shape[i], stride[i], stride[i]};

    unsigned flags = rigor_flags(rigor) |
                     (preserve_input ? FFTW_PRESERVE_INPUT : FFTW_DESTROY_INPUT);
    int fftw_sign = sign == DISTFFT_FORWARD ? FFTW_FORWARD : FFTW_BACKWARD;
    if (precision == DISTFFT_FLOAT)
        fft->plan_float = fftwf_plan_guru64_dft(rank, dims, loop_rank, loops,
                                                in, out, fftw_sign, flags);
    else
        fft->plan_double = fftw_plan_guru64_dft(rank, dims, loop_rank, loops,
                                                in, out, fftw_sign, flags);
    if (!fft->plan_float && !fft->plan_double) {
        free(fft);
        return error_fail(DISTFFT_ERR_FFTW, "FFTW could not plan a %d-axis "
                          "transform with %d loop dimensions", rank, loop_rank);
    }
    *fft_out = fft;
    return DISTFFT_SUCCESS;
}

void serial_fft_execute(const serial_fft *fft, void *in, void *out)
{
    if (fft->plan_double) fftw_execute_dft(fft->plan_double, in, out);
    if (fft->plan_float) fftwf_execute_dft(fft->plan_float, in, out);
}

void serial_fft_destroy(serial_fft *fft)
{
    if (!fft) return;
    if (fft->plan_double) fftw_destroy_plan(fft->plan_double);
    if (fft->plan_float) fftwf_destroy_plan(fft->plan_float);
    free(fft);
}

bool serial_fft_aligned(distfft_precision precision, const void *pointer)
{
    if (!pointer) return true;
    if (precision == DISTFFT_FLOAT)
        return fftwf_alignment_of((float *)pointer) == 0;
    return fftw_alignment_of((double *)pointer) == 0;
}

void serial_scale(distfft_precision precision, void *data, int64_t count,
                  double factor)
{
    if (precision == DISTFFT_FLOAT) {
        float *values = data, f = (float)factor;
        for (int64_t i = 0; i < 2 * count; i++) values[i] *= f;
    } else {
        double *values = data;
        for (int64_t i = 0; i < 2 * count; i++) values[i] *= factor;
    }
}
