/*
 * exchange_step.c -- the plan steps that move data between ranks: one
 * global redistribution (paper 000 Sec. 3.3: alignment axis_in -> axis_out
 * on the sub-communicator of one grid direction), with whatever method was
 * chosen for it; and a reshape at an end of a plan whose caller chose that
 * end's layout -- one of the reshape's two redistributions, over boxes.
 */
#include <stdlib.h>

#include "../error.h"
#include "../step.h"
#include "redist.h"
#include "reshape.h"

typedef struct {
    step base;
    struct distfft_redist_s *redist;
} exchange_step;

static int exchange_execute(const step *self, const void *in, void *out)
{
    return redist_run(((const exchange_step *)self)->redist, in, out);
}

static void exchange_describe(const step *self, text *out)
{
    const exchange_step *s = (const exchange_step *)self;
    text_append(out, "redist %s %d->%d on P%d", distfft_method_name(s->redist->method_id),
                self->spec.axis_in, self->spec.axis_out, self->spec.grid_direction);
}

static void exchange_report(const step *self, distfft_step *info)
{
    const exchange_step *s = (const exchange_step *)self;
    info->is_redistribution = 1;
    info->grid_direction = self->spec.grid_direction;
    info->axis_in = self->spec.axis_in;
    info->axis_out = self->spec.axis_out;
    info->group_size = s->redist->geometry.parts;
    info->method = s->redist->method_id;
    info->bytes_sent = redist_bytes_sent(s->redist);
}

static int exchange_destroy(step *self)
{
    int rc = redist_free(((exchange_step *)self)->redist);
    free(self);
    return rc;
}

static bool exchange_fold_scale(step *self, double factor)
{
    return redist_fold_scale(((exchange_step *)self)->redist, factor);
}

static int exchange_start(const step *self, const void *in, void *out, MPI_Request *request)
{
    return redist_start(((const exchange_step *)self)->redist, in, out, request);
}

static void exchange_children(const step *self, int verbosity, int depth, text *out)
{
    (void)verbosity;
    redist_describe(((const exchange_step *)self)->redist, depth, out);
}

static const step_ops exchange_ops = {exchange_execute, exchange_describe, exchange_report,
                                      exchange_destroy, exchange_fold_scale, exchange_start,
                                      exchange_children};

int exchange_step_create(const step_spec *spec, distfft_redist redist, step **out)
{
    *out = NULL;
    exchange_step *s = calloc(1, sizeof *s);
    if (!s) /* redist stays the caller's: freeing it may be collective */
        return error_fail(DISTFFT_ERR_MEMORY, "exchange step");
    s->base = (step){.ops = &exchange_ops, .spec = *spec};
    s->redist = redist;
    *out = &s->base;
    return DISTFFT_SUCCESS;
}

/* ---- a reshape at an end of a plan ------------------------------------------ */

typedef struct {
    step base;
    const struct distfft_reshape_s *reshape; /* borrowed: the plan's ends own it */
    bool forward;
    const char *end;                         /* "in" or "out" */
} reshape_step;

static struct distfft_redist_s *redist_of(const step *self)
{
    const reshape_step *s = (const reshape_step *)self;
    return s->reshape->redist[s->forward ? 0 : 1];
}

static int reshape_step_execute(const step *self, const void *in, void *out)
{
    return redist_run(redist_of(self), in, out);
}

static void reshape_step_describe(const step *self, text *out)
{
    const reshape_step *s = (const reshape_step *)self;
    text_append(out, "reshape %s %s", s->end, reshape_method_name(s->reshape));
}

static void reshape_step_report(const step *self, distfft_step *info)
{
    const reshape_step *s = (const reshape_step *)self;
    info->is_redistribution = 1;
    info->group_size = s->reshape->size;
    info->method = s->reshape->method;
    info->bytes_sent = s->forward ? s->reshape->bytes_sent : s->reshape->bytes_received;
}

static int reshape_step_destroy(step *self)
{
    free(self);
    return DISTFFT_SUCCESS;
}

static int reshape_step_start(const step *self, const void *in, void *out, MPI_Request *request)
{
    return redist_start(redist_of(self), in, out, request);
}

static void reshape_step_children(const step *self, int verbosity, int depth, text *out)
{
    (void)verbosity;
    redist_describe(redist_of(self), depth, out);
}

static const step_ops reshape_step_ops = {reshape_step_execute, reshape_step_describe, reshape_step_report,
                                          reshape_step_destroy, NULL, reshape_step_start,
                                          reshape_step_children};

int reshape_step_create(const step_spec *spec, const struct distfft_reshape_s *reshape, bool forward,
                        const char *end, step **out)
{
    *out = NULL;
    reshape_step *s = calloc(1, sizeof *s);
    if (!s) return error_fail(DISTFFT_ERR_MEMORY, "reshape step");
    s->base = (step){.ops = &reshape_step_ops, .spec = *spec};
    s->reshape = reshape;
    s->forward = forward;
    s->end = end;
    *out = &s->base;
    return DISTFFT_SUCCESS;
}
