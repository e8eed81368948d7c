/*
 * weights_step.c -- the plan step that multiplies the local block by a
 * weight per index along one axis (the Chebyshev scaling around the DCT-I:
 * a_k = DCT-I(f)_k / (c_k (n-1)) forward, c_k / 2 before the DCT-I
 * backward, c_0 = c_{n-1} = 2, else 1; n is the transform's length, the
 * padded one on a padded axis, whose retained modes are the first). The axis has just been
 * transformed, so it is complete in the local block; the step owns its
 * table of weights.
 */
#include <stdlib.h>

#include "../error.h"
#include "../step.h"
#include "../types.h"

typedef struct {
    step base;
    double *weights;     /* [length of the axis], complete on every rank here */
} weights_step;

static int weights_execute(const step *self, const void *in, void *out)
{
    const weights_step *s = (const weights_step *)self;
    const step_spec *spec = &self->spec;
    serial_scale_axis(type_precision(spec->in_type), type_is_complex(spec->in_type) ? 2 : 1, spec->ndims, spec->in_shape,
                      spec->batch, spec->weights_axis, s->weights, in, out, spec->threads);
    return DISTFFT_SUCCESS;
}

static void weights_describe(const step *self, text *out)
{
    text_append(out, "cheb-weights axis=%d", self->spec.weights_axis);
}

static int weights_destroy(step *self)
{
    free(((weights_step *)self)->weights);
    free(self);
    return DISTFFT_SUCCESS;
}

/* The plan's normalisation joins the weights: no pass of its own. */
static bool weights_fold_scale(step *self, double factor)
{
    weights_step *s = (weights_step *)self;
    for (int64_t k = 0; k < self->spec.in_shape[self->spec.weights_axis]; k++) s->weights[k] *= factor;
    return true;
}

static const step_ops weights_ops = {weights_execute, weights_describe, NULL, weights_destroy,
                                     weights_fold_scale, NULL, NULL};

/* The Chebyshev weights of the first `count` coefficients of a transform
 * of n >= 2 points (see the top; count < n when the axis is padded). */
static void chebyshev_weights(int64_t count, int64_t n, bool forward, double *weights)
{
    for (int64_t k = 0; k < count; k++) {
        double c = (k == 0 || k == n - 1) ? 2.0 : 1.0;
        weights[k] = forward ? 1.0 / (c * (double)(n - 1)) : c / 2.0;
    }
}

int weights_step_create(const step_spec *spec, step **out)
{
    *out = NULL;
    int64_t length = spec->in_shape[spec->weights_axis];
    weights_step *s = calloc(1, sizeof *s);
    double *weights = malloc((size_t)length * sizeof *weights);
    if (!s || !weights) {
        free(s);
        free(weights);
        return error_fail(DISTFFT_ERR_MEMORY, "Chebyshev weights of %lld points", (long long)length);
    }
    int64_t n = spec->weights_length > length ? spec->weights_length : length;
    chebyshev_weights(length, n, spec->weights_table == 0, weights);
    s->base = (step){.ops = &weights_ops, .spec = *spec};
    s->weights = weights;
    *out = &s->base;
    return DISTFFT_SUCCESS;
}
