/*
 * fft_step.c -- the plan step that runs one serial transform (serial_fft:
 * one FFTW plan over a set of axes of the local block). Knows nothing of
 * MPI. A multi-axis C2R (the fused backward of R2C + C2C) that must keep
 * its input copies it first, with the plan's normalisation folded in, into
 * the scratch array the plan lends, as FFTW cannot preserve the input of
 * such a plan (src/plan/algebra.c says why this beats an unfused c2c +
 * c2r). The copy runs on the calling thread, not on the plan's OpenMP
 * threads: the c2r starts right after it on FFTW's own threads, and
 * libgomp's idle threads spin for a while after a parallel region (its
 * default wait policy), so FFTW's threads would share the cores with
 * them. On 2 cores with 2 threads the threaded copy and that overlap cost
 * about 4 copies' time; one thread's copy costs one.
 * A padded transform (serial/padding.h) runs at the padded lengths in
 * a scratch array the plan lends: forward transforms into it and truncates
 * into the output, backward zero-pads into it and transforms from it. It
 * never writes where it still has to read, so it may run with in == out
 * (the plan's in-place chains use that).
 */
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../step.h"
#include "padding.h"

typedef struct {
    step base;
    serial_fft *fft;
    void *copy;            /* the input's copy (serial_needs_copy): the plan's scratch; else NULL */
    size_t copy_bytes;
    double scale;          /* the copy multiplies by it (a folded normalisation) */
    void *scratch;       /* the plan's, for padded transforms; else NULL */
} fft_step;

static int fft_execute(const step *self, const void *in, void *out)
{
    const fft_step *s = (const fft_step *)self;
    if (s->copy) { /* on the calling thread: see the file's comment */
        if (s->scale == 1.0) {
            memcpy(s->copy, in, s->copy_bytes);
        } else {
            distfft_precision precision = self->spec.fft.precision;
            size_t real = precision == DISTFFT_FLOAT ? sizeof(float) : sizeof(double);
            serial_scaled_copy(precision, s->copy, in, (int64_t)(s->copy_bytes / real), s->scale, 1);
        }
        in = s->copy;
    }
    const serial_spec *spec = &self->spec.fft;
    if (!s->scratch) {
        serial_fft_execute(s->fft, (void *)in, out);
    } else if (spec->sign == DISTFFT_FORWARD) {
        serial_fft_execute(s->fft, (void *)in, s->scratch);
        serial_truncate(spec, s->scratch, out);
    } else {
        serial_pad(spec, in, s->scratch);
        serial_fft_execute(s->fft, s->scratch, out);
    }
    return DISTFFT_SUCCESS;
}

static void fft_describe(const step *self, text *out)
{
    static const char *const families[] = {[SERIAL_C2C] = "c2c", [SERIAL_R2C] = "r2c",
                                           [SERIAL_C2R] = "c2r", [SERIAL_R2R] = "r2r"};
    const serial_spec *spec = &self->spec.fft;
    text_append(out, "fft %s axes=", families[spec->family]);
    for (int j = 0; j < spec->naxes; j++) {
        int a = spec->axes[j];
        text_append(out, j ? ",%d" : "%d", a);
        if (spec->family == SERIAL_R2R) text_append(out, ":%s", distfft_kind_name(spec->r2r_kinds[j]));
        if (spec->retained[a] > 0)
            text_append(out, spec->sign == DISTFFT_FORWARD ? "(%lld>%lld)" : "(%lld<%lld)",
                        (long long)spec->shape[a], (long long)spec->retained[a]);
    }
}

static int fft_destroy(step *self)
{
    fft_step *s = (fft_step *)self;
    serial_fft_destroy(s->fft);
    free(self);
    return DISTFFT_SUCCESS;
}

/* A step that copies its input anyway takes the plan's normalisation into
 * the copy (scaling is linear: before the c2r is as good as after). */
static bool fft_fold_scale(step *self, double factor)
{
    fft_step *s = (fft_step *)self;
    if (!s->copy) return false;
    s->scale *= factor;
    return true;
}

/* From verbosity 1 on, the copy of the input a c2r that keeps it makes
 * (a pass over memory that destroy_input saves), with the normalisation
 * it carries; from verbosity 2 on, FFTW's own plan, as FFTW prints it (an
 * empty block has none). */
static void fft_children(const step *self, int verbosity, int depth, text *out)
{
    const fft_step *s = (const fft_step *)self;
    if (s->copy) {
        text_open(out, depth);
        text_append(out, "copy input %zu bytes", s->copy_bytes);
        if (s->scale != 1.0) text_append(out, " scale=%.6g", s->scale);
        text_append(out, ": keeps the input, a pass destroy_input saves)");
    }
    if (verbosity < 2) return;
    char *plan = serial_fft_sprint(s->fft);
    if (plan) text_lines(out, depth, plan);
    free(plan);
}

static const step_ops fft_ops = {fft_execute, fft_describe, NULL, fft_destroy, fft_fold_scale, NULL,
                                 fft_children};

int fft_step_create(const step_spec *spec, void *plan_in, void *plan_out, void *scratch, step **out)
{
    *out = NULL;
    fft_step *s = calloc(1, sizeof *s);
    if (!s) return error_fail(DISTFFT_ERR_MEMORY, "fft step");
    s->base = (step){.ops = &fft_ops, .spec = *spec};
    s->scale = 1.0;
    if (serial_needs_copy(&spec->fft) && spec->in_count > 0) {
        s->copy_bytes = (size_t)spec->in_count * distfft_type_size(spec->in_type);
        s->copy = scratch; /* the algebra sized it (step_scratch_bytes) */
    }
    int rc;
    if (serial_is_padded(&spec->fft)) {
        /* The length-M transform, always out of place through the scratch;
         * backward's input is our own zero-padded copy. */
        serial_spec full = spec->fft;
        s->scratch = scratch;
        if (full.sign == DISTFFT_FORWARD) {
            rc = serial_fft_create(&full, plan_in, scratch, &s->fft);
        } else {
            full.preserve_input = false;
            rc = serial_fft_create(&full, scratch, plan_out, &s->fft);
        }
    } else {
        rc = serial_fft_create(&spec->fft, plan_in, spec->out_of_place ? plan_out : plan_in, &s->fft);
    }
    if (rc != DISTFFT_SUCCESS) {
        free(s);
        return rc;
    }
    *out = &s->base;
    return DISTFFT_SUCCESS;
}
