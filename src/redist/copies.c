/*
 * copies.c -- the host's copies (copies.h): buffers from the platform's
 * allocator, and the copy loops of the exchanges -- between two spans in
 * pieces of the shorter run (shared out between OpenMP threads when the
 * copy is large), or run by run along a box walk -- each piece a memcpy,
 * or a multiplying loop when the copy scales.
 */
#include <string.h>

#include "../parallel.h"
#include "../types.h"
#include "copies.h"

/* Copy `count` elements, multiplied by c->scale unless it is 1. */
static void copy_elements(const redist_copy *c, char *target, const char *source, int64_t count)
{
    if (c->scale == 1.0) {
        memcpy(target, source, (size_t)count * c->element);
        return;
    }
    int64_t reals = count * (int64_t)(c->element / (c->single ? sizeof(float) : sizeof(double)));
    if (c->single) {
        const float *from = (const float *)source;
        float *to = (float *)target, factor = (float)c->scale;
        for (int64_t i = 0; i < reals; i++) to[i] = from[i] * factor;
    } else {
        const double *from = (const double *)source;
        double *to = (double *)target;
        for (int64_t i = 0; i < reals; i++) to[i] = from[i] * c->scale;
    }
}

/* Between two spans: each run length is a multiple of the other's, so
 * copy in pieces of the shorter. With threads, piece k's place in each
 * span is computed from k, and the pieces are shared out. */
static void copy_spans(const redist_copy *c, const void *source, void *target)
{
    chunk_span from = c->from, to = c->to;
    int64_t total = from.rows * from.run, element = (int64_t)c->element;
    if (total == 0) return;
    int64_t piece = from.run < to.run ? from.run : to.run, pieces = total / piece;
    const char *from_base = (const char *)source + from.offset * element;
    char *to_base = (char *)target + to.offset * element;
    int team = parallel_threads(c->threads, total * element);
    if (team > 1) {
#pragma omp parallel for num_threads(team) schedule(static)
        for (int64_t k = 0; k < pieces; k++) {
            int64_t at = k * piece;
            copy_elements(c, to_base + ((at / to.run) * to.stride + at % to.run) * element,
                          from_base + ((at / from.run) * from.stride + at % from.run) * element, piece);
        }
        return;
    }
    int64_t from_used = 0, to_used = 0; /* elements done in the current runs */
    for (int64_t k = 0; k < pieces; k++) {
        copy_elements(c, to_base + to_used * element, from_base + from_used * element, piece);
        if ((from_used += piece) == from.run) {
            from_used = 0;
            from_base += from.stride * element;
        }
        if ((to_used += piece) == to.run) {
            to_used = 0;
            to_base += to.stride * element;
        }
    }
}

/* Along a box walk: a run, then the odometer to the next. */
static void copy_walk(const redist_copy *c, const void *source, void *target)
{
    int64_t index[COPY_AXES] = {0}, from_at = c->from_at, to_at = c->to_at, element = (int64_t)c->element;
    for (int64_t r = 0; r < c->rows; r++) {
        copy_elements(c, (char *)target + to_at * element, (const char *)source + from_at * element, c->run);
        for (int a = c->axes - 1; a >= 0; a--) {
            from_at += c->from_stride[a];
            to_at += c->to_stride[a];
            if (++index[a] < c->extent[a]) break;
            from_at -= c->extent[a] * c->from_stride[a];
            to_at -= c->extent[a] * c->to_stride[a];
            index[a] = 0;
        }
    }
}

static void host_copy(const redist_copy *copy, const void *source, void *target, void *stream)
{
    (void)stream;
    if (copy->box) copy_walk(copy, source, target);
    else copy_spans(copy, source, target);
}

static void host_move(void *target, const void *source, size_t bytes, void *stream)
{
    (void)stream;
    memcpy(target, source, bytes);
}

/* Host memory is the host's: staging is a copy. */
static int host_stage(void *target, const void *source, size_t bytes, bool to_host, void *stream)
{
    (void)to_host;
    host_move(target, source, bytes, stream);
    return DISTFFT_SUCCESS;
}

const redist_copies redist_host_copies = {.name = "host", .allocate = distfft_malloc, .release = distfft_free,
                                          .copy = host_copy, .move = host_move, .allocate_host = distfft_malloc,
                                          .release_host = distfft_free, .stage = host_stage};
