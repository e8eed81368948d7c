/*
 * redist.c -- the redistribution object (paper 000 Sec. 3.2-3.3: a global
 * redistribution v -> w within a process group) and the method table
 * (methods.def) it dispatches to. The public distfft_redist_* entry points
 * (argument checks, agreement, "auto") are in api/redistribution.c.
 */
#include <stdlib.h>

#include "../error.h"
#include "../lifetime.h"
#include "../platform.h"
#include "../types.h"
#include "../vocabulary.h"
#include "redist.h"

/* A reserved id: a row that no exchange takes, so that the rows after it
 * keep their ids. */
static bool reserved_applicable(const redist_problem *problem, text *why)
{
    (void)problem;
    if (why) text_append(why, "this id is reserved for a method this build does not have");
    return false;
}

static const redist_method redist_reserved = {.name = "reserved", .applicable = reserved_applicable};

#define METHOD(row) extern const redist_method row;
#include "methods.def"
#undef METHOD

static const redist_method *const method_table[] = {
#define METHOD(row) &row,
#include "methods.def"
#undef METHOD
};
#define METHOD_COUNT ((int)(sizeof method_table / sizeof method_table[0]))
_Static_assert(METHOD_COUNT <= REDIST_MAX_METHODS, "raise REDIST_MAX_METHODS");

int redist_method_count(void)
{
    return METHOD_COUNT;
}

const redist_method *redist_method_row(distfft_method method)
{
    if ((int)method < 0 || (int)method >= METHOD_COUNT) return NULL;
    return method_table[method];
}

/* The public names of methods: "auto", then the rows of the table. */
int distfft_method_count(void)
{
    return redist_method_count();
}

const char *distfft_method_name(distfft_method method)
{
    if (method == DISTFFT_METHOD_AUTO) return "auto";
    const redist_method *row = redist_method_row(method);
    return row ? row->name : NULL;
}

int distfft_method_from_name(const char *name, distfft_method *method)
{
    word table[1 + REDIST_MAX_METHODS] = {{DISTFFT_METHOD_AUTO, "auto"}};
    int count = 1;
    for (int m = 0; m < redist_method_count(); m++)
        table[count++] = (word){m, redist_method_row(m)->name};
    int found = 0;
    int rc = vocabulary_lookup(table, count, "redistribution method", name, method ? &found : NULL);
    if (rc == DISTFFT_SUCCESS) *method = (distfft_method)found;
    return rc;
}

redist_problem redist_problem_of(const redist_geometry *geometry)
{
    return (redist_problem){.pencils = geometry->boxes_in ? NULL : geometry, .type = geometry->type,
                            .memory = geometry->memory, .shared_windows = platform_shares_windows()};
}

redist_problem redist_box_problem(distfft_type type)
{
    return (redist_problem){.pencils = NULL, .type = type, .memory = REDIST_MEMORY_HOST,
                            .shared_windows = platform_shares_windows()};
}

int redist_check_applicable(distfft_method method, const redist_problem *problem, const char *where)
{
    const redist_method *row = redist_method_row(method);
    if (!row) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown method %d", where, (int)method);
    char reason[512] = "";
    text why = text_on(reason, sizeof reason);
    if (row->applicable(problem, &why)) return DISTFFT_SUCCESS;
    return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: method %s does not apply here: %s", where, row->name, reason);
}

int redist_create(MPI_Comm comm, const redist_geometry *geometry, distfft_method method,
                  distfft_redist *redist_out)
{
    *redist_out = NULL;
    redist_problem problem = redist_problem_of(geometry);
    /* alike on every rank: refused before any collective */
    int rc = redist_check_applicable(method, &problem, "redistribution");
    if (rc != DISTFFT_SUCCESS) return rc;
    const redist_method *row = redist_method_row(method);
    struct distfft_redist_s *redist = calloc(1, sizeof *redist);
    /* agreed: the methods with collectives inside their create (shm,
     * hierarchical) must be entered by every rank of the group or none */
    rc = error_agree(comm, redist ? DISTFFT_SUCCESS
                                      : error_fail(DISTFFT_ERR_MEMORY, "redistribution object"));
    if (rc != DISTFFT_SUCCESS) {
        free(redist);
        return rc;
    }
    redist->comm = comm;
    redist->method_id = method;
    redist->method = row;
    redist->geometry = *geometry;
    redist->in_count = geometry->batch * shape_product(geometry->ndims, geometry->in_shape);
    redist->out_count = geometry->batch * shape_product(geometry->ndims, geometry->out_shape);
    rc = row->create(comm, geometry, row->parameters, &redist->state);
    if (rc != DISTFFT_SUCCESS) {
        if (redist->state) KEEP(row->destroy(redist->state));
        free(redist);
        return rc;
    }
    *redist_out = redist;
    return DISTFFT_SUCCESS;
}

int redist_run(const struct distfft_redist_s *redist, const void *in, void *out)
{
    return redist->method->execute(redist->state, redist->comm, in, out);
}

int redist_start(const struct distfft_redist_s *redist, const void *in, void *out,
                 MPI_Request *request)
{
    *request = MPI_REQUEST_NULL;
    if (!redist->method->start) return redist_run(redist, in, out);
    return redist->method->start(redist->state, redist->comm, in, out, request);
}

bool redist_fold_scale(struct distfft_redist_s *redist, double factor)
{
    if (!redist->method->scale || !redist->state) return false;
    redist->method->scale(redist->state, factor);
    return true;
}

void *redist_shared_output(const struct distfft_redist_s *redist)
{
    return redist->method->shared_output && redist->state ? redist->method->shared_output(redist->state) : NULL;
}

int64_t redist_bytes_sent(const struct distfft_redist_s *redist)
{
    const redist_geometry *g = &redist->geometry;
    int64_t element = (int64_t)distfft_type_size(g->type);
    if (g->boxes_in) {
        int64_t sent = 0, start[DISTFFT_MAX_DIMS], shape[DISTFFT_MAX_DIMS];
        for (int p = 0; p < g->parts; p++)
            if (p != g->part)
                sent += layout_intersect(g->ndims, layout_start(g->boxes_in, g->part),
                                         layout_shape(g->boxes_in, g->part), layout_start(g->boxes_out, p),
                                         layout_shape(g->boxes_out, p), start, shape);
        return sent * g->batch * element;
    }
    int64_t n = g->in_shape[g->axis_in], kept;
    if (n == 0) return 0;
    distfft_decompose(n, g->parts, g->part, &kept, NULL);
    return redist->in_count / n * (n - kept) * element;
}

void redist_describe(const struct distfft_redist_s *redist, int depth, text *out)
{
    if (redist->method->describe && redist->state) redist->method->describe(redist->state, depth, out);
}

int redist_free(struct distfft_redist_s *redist)
{
    int rc = DISTFFT_SUCCESS;
    if (!redist) return rc;
    KEEP(redist->method->destroy(redist->state));
    if (redist->owns_comm) KEEP_MPI(lifetime_comm_free(&redist->comm));
    free(redist);
    return rc;
}
