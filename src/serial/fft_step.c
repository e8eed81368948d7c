/*
 * fft_step.c -- the plan step that runs one serial transform (serial_fft:
 * one FFTW plan over a set of axes of the local block). Knows nothing of
 * MPI.
 */
#include <stdlib.h>

#include "../error.h"
#include "../step.h"

typedef struct {
    step base;
    serial_fft *fft;
} fft_step;

static int fft_execute(const step *self, const void *in, void *out)
{
    serial_fft_execute(((const fft_step *)self)->fft, (void *)in, out);
    return DISTFFT_SUCCESS;
}

static void fft_describe(const step *self, text *out)
{
    static const char *const families[] = {[SERIAL_C2C] = "c2c", [SERIAL_R2C] = "r2c",
                                           [SERIAL_C2R] = "c2r", [SERIAL_R2R] = "r2r"};
    const serial_spec *spec = &self->spec.fft;
    text_append(out, "fft %s axes=", families[spec->family]);
    for (int j = 0; j < spec->naxes; j++) {
        text_append(out, j ? ",%d" : "%d", spec->axes[j]);
        if (spec->family == SERIAL_R2R) text_append(out, ":%s", distfft_kind_name(spec->r2r_kinds[j]));
    }
}

static void fft_destroy(step *self)
{
    serial_fft_destroy(((fft_step *)self)->fft);
    free(self);
}

static const step_ops fft_ops = {fft_execute, fft_describe, NULL, fft_destroy};

int fft_step_create(const step_spec *spec, void *plan_in, void *plan_out, step **out)
{
    *out = NULL;
    fft_step *s = calloc(1, sizeof *s);
    if (!s) return error_fail(DISTFFT_ERR_MEMORY, "fft step");
    s->base = (step){.ops = &fft_ops, .spec = *spec};
    int rc = serial_fft_create(&spec->fft, plan_in, spec->out_of_place ? plan_out : plan_in, &s->fft);
    if (rc != DISTFFT_SUCCESS) {
        free(s);
        return rc;
    }
    *out = &s->base;
    return DISTFFT_SUCCESS;
}
