/*
 * layout_value.c -- a global array's boxes on the ranks, made and checked
 * once (see layout_value.h). The check is the whole point of the value: a
 * layout that exists tiles its global array exactly, so reshapes, plans,
 * gathers and files built from it need not check the boxes again.
 *
 * Order of the checks, and why: each rank first checks its own box (inside
 * bounds) and the agreement names the lowest rank whose box is outside;
 * then, on the gathered table that every rank holds alike, overlaps (the
 * first pair of ranks in rank order) and finally gaps (the first element,
 * in C order, that no box holds). Every rank computes the same verdict
 * from the same table, and one more agreement makes the message the same.
 */
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../lifetime.h"
#include "../text.h"
#include "../types.h"
#include "layout_value.h"

/* "[0:4,2:6]": a box as numpy slices. */
static void format_box(text *out, int ndims, const int64_t *start, const int64_t *shape)
{
    text_append(out, "[");
    for (int a = 0; a < ndims; a++)
        text_append(out, "%s%lld:%lld", a ? "," : "", (long long)start[a],
                    (long long)(start[a] + shape[a]));
    text_append(out, "]");
}

int64_t layout_box_count(const struct distfft_layout_s *layout, int r)
{
    return shape_product(layout->ndims, layout_shape(layout, r));
}

int64_t layout_intersect(int ndims, const int64_t *a0, const int64_t *an, const int64_t *b0,
                         const int64_t *bn, int64_t *start, int64_t *shape)
{
    int64_t count = 1;
    for (int i = 0; i < ndims; i++) {
        int64_t low = a0[i] > b0[i] ? a0[i] : b0[i];
        int64_t high_a = a0[i] + an[i], high_b = b0[i] + bn[i];
        int64_t high = high_a < high_b ? high_a : high_b;
        int64_t n = high > low ? high - low : 0;
        if (start) start[i] = low;
        if (shape) shape[i] = n;
        count *= n;
    }
    return count;
}

int layout_same_ranks(const struct distfft_layout_s *a, const struct distfft_layout_s *b)
{
    int result = MPI_UNEQUAL;
    if (MPI_Comm_compare(a->comm, b->comm, &result) != MPI_SUCCESS) return 0;
    return result == MPI_IDENT || result == MPI_CONGRUENT;
}

int layout_value_free(struct distfft_layout_s *layout)
{
    int rc = DISTFFT_SUCCESS;
    if (!layout) return rc;
    free(layout->boxes);
    if (layout->comm != MPI_COMM_NULL) KEEP_MPI(lifetime_comm_free(&layout->comm));
    free(layout);
    return rc;
}

/* This rank's own box: arguments, sizes and bounds. */
static int check_own_box(int ndims, const int64_t *global_shape, const int64_t *start,
                         const int64_t *shape, const char *where, replicated_args *args)
{
    if (ndims < 1 || ndims > DISTFFT_MAX_DIMS)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: ndims = %d must be in 1..%d", where, ndims, DISTFFT_MAX_DIMS);
    replicated_add(args, ndims, "ndims");
    if (!global_shape || !start || !shape)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: global_shape, start or shape is NULL", where);
    for (int a = 0; a < ndims; a++) replicated_add(args, global_shape[a], "global_shape[%d]", a);
    for (int a = 0; a < ndims; a++)
        if (global_shape[a] < 0)
            return error_fail(DISTFFT_ERR_SHAPE, "%s: global_shape[%d] = %lld must be >= 0", where, a,
                              (long long)global_shape[a]);
    if (shape_count_bounded(ndims, global_shape, 1) < 0)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: the global array has more than 2^59 elements", where);
    for (int a = 0; a < ndims; a++) {
        if (start[a] < 0 || shape[a] < 0 || start[a] > global_shape[a] - shape[a]) {
            char box[512];
            text out = text_on(box, sizeof box);
            format_box(&out, ndims, start, shape);
            return error_fail(DISTFFT_ERR_SHAPE, "%s: this rank's box %s (start %lld, shape %lld on axis %d) "
                              "is not inside the global array of %lld points along axis %d", where, box,
                              (long long)start[a], (long long)shape[a], a, (long long)global_shape[a], a);
        }
    }
    return DISTFFT_SUCCESS;
}

/* The first pair of ranks (in rank order) whose boxes share elements. */
static int check_overlaps(const struct distfft_layout_s *l, const char *where)
{
    int64_t start[DISTFFT_MAX_DIMS], shape[DISTFFT_MAX_DIMS];
    for (int r = 0; r < l->size; r++) {
        if (layout_box_count(l, r) == 0) continue;
        for (int s = r + 1; s < l->size; s++) {
            if (!layout_intersect(l->ndims, layout_start(l, r), layout_shape(l, r), layout_start(l, s),
                                  layout_shape(l, s), start, shape))
                continue;
            char message[1024];
            text out = text_on(message, sizeof message);
            text_append(&out, "the boxes of rank %d ", r);
            format_box(&out, l->ndims, layout_start(l, r), layout_shape(l, r));
            text_append(&out, " and rank %d ", s);
            format_box(&out, l->ndims, layout_start(l, s), layout_shape(l, s));
            text_append(&out, " overlap in ");
            format_box(&out, l->ndims, start, shape);
            return error_fail(DISTFFT_ERR_SHAPE, "%s: %s (boxes must tile the global array)", where, message);
        }
    }
    return DISTFFT_SUCCESS;
}

/* Is the element at `index` in some box? */
static int covered(const struct distfft_layout_s *l, const int64_t *index)
{
    for (int r = 0; r < l->size; r++) {
        const int64_t *s = layout_start(l, r), *n = layout_shape(l, r);
        int inside = 1;
        for (int a = 0; a < l->ndims && inside; a++) inside = index[a] >= s[a] && index[a] < s[a] + n[a];
        if (inside) return 1;
    }
    return 0;
}

static int compare_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The first uncovered element in C order has, on every axis, 0 or the end
 * of some box as its index (one step back along any axis is covered by a
 * box that ends there): search those candidates, within a budget. */
static int first_gap(const struct distfft_layout_s *l, int64_t *index)
{
    int64_t *candidates[DISTFFT_MAX_DIMS] = {0};
    int count[DISTFFT_MAX_DIMS], at[DISTFFT_MAX_DIMS] = {0}, found = 0;
    int64_t budget = 10000000 / ((int64_t)l->size * l->ndims + 1) + 1;
    for (int a = 0; a < l->ndims; a++) {
        candidates[a] = malloc(((size_t)l->size + 1) * sizeof(int64_t));
        if (!candidates[a]) goto done;
        count[a] = 0;
        candidates[a][count[a]++] = 0;
        for (int r = 0; r < l->size; r++) {
            int64_t end = layout_start(l, r)[a] + layout_shape(l, r)[a];
            if (end < l->global_shape[a]) candidates[a][count[a]++] = end;
        }
        qsort(candidates[a], count[a], sizeof(int64_t), compare_int64);
    }
    while (budget-- > 0) {
        for (int a = 0; a < l->ndims; a++) index[a] = candidates[a][at[a]];
        if (!covered(l, index)) { found = 1; break; }
        int a = l->ndims - 1;
        while (a >= 0 && ++at[a] == count[a]) at[a--] = 0;
        if (a < 0) break;
    }
done:
    for (int a = 0; a < l->ndims; a++) free(candidates[a]);
    return found;
}

static int check_cover(const struct distfft_layout_s *l, const char *where)
{
    int64_t total = 0, expected = shape_product(l->ndims, l->global_shape);
    for (int r = 0; r < l->size; r++) total += layout_box_count(l, r); /* no overlap: <= expected */
    if (total == expected) return DISTFFT_SUCCESS;
    char message[512];
    text out = text_on(message, sizeof message);
    int64_t index[DISTFFT_MAX_DIMS];
    if (first_gap(l, index)) {
        text_append(&out, ": the first is element (");
        for (int a = 0; a < l->ndims; a++) text_append(&out, "%s%lld", a ? "," : "", (long long)index[a]);
        text_append(&out, "), on no rank");
    }
    return error_fail(DISTFFT_ERR_SHAPE, "%s: the boxes leave a gap -- they hold %lld of the %lld elements of "
                      "the global array%s (boxes must tile the global array)", where, (long long)total,
                      (long long)expected, message);
}

int layout_value_build(MPI_Comm user_comm, int ndims, const int64_t *global_shape, const int64_t *start,
                       const int64_t *shape, const char *where, int prior, replicated_args *caller_args,
                       struct distfft_layout_s **layout_out)
{
    *layout_out = NULL;
    int rc = DISTFFT_SUCCESS, size = 0, rank = 0;
    MPI_Comm comm = MPI_COMM_NULL;
    struct distfft_layout_s *l = calloc(1, sizeof *l); /* a failure is agreed below */
    if (l) l->comm = MPI_COMM_NULL;
    TRY_MPI(MPI_Comm_dup(user_comm, &comm));
    if (l) l->comm = comm; /* freed with l from here on */
    replicated_args own_args, *args = caller_args ? caller_args : &own_args;
    if (!caller_args) replicated_init(&own_args);
    /* local calls, failing on some ranks only: agreed with the checks */
    int local = prior;
    if (local == DISTFFT_SUCCESS) local = CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    if (local == DISTFFT_SUCCESS) local = mpi_rank_size(comm, &rank, &size);
    if (local == DISTFFT_SUCCESS) local = check_own_box(ndims, global_shape, start, shape, where, args);
    if (local == DISTFFT_SUCCESS && !l) local = error_fail(DISTFFT_ERR_MEMORY, "%s: layout object", where);
    if (local == DISTFFT_SUCCESS) {
        l->size = size;
        l->rank = rank;
        l->ndims = ndims;
        memcpy(l->global_shape, global_shape, ndims * sizeof(int64_t));
        l->boxes = malloc((size_t)size * 2 * ndims * sizeof(int64_t));
        if (!l->boxes) local = error_fail(DISTFFT_ERR_MEMORY, "%s: table of %d boxes", where, size);
    }
    TRY(error_agree_replicated(comm, local, args));
    int64_t mine[2 * DISTFFT_MAX_DIMS];
    memcpy(mine, start, ndims * sizeof(int64_t));
    memcpy(mine + ndims, shape, ndims * sizeof(int64_t));
    TRY_MPI(MPI_Allgather(mine, 2 * ndims, MPI_INT64_T, l->boxes, 2 * ndims, MPI_INT64_T, l->comm));
    local = check_overlaps(l, where);
    if (local == DISTFFT_SUCCESS) local = check_cover(l, where);
    TRY(error_agree(l->comm, local)); /* the same verdict everywhere; rank 0's words */
    *layout_out = l;
    return DISTFFT_SUCCESS;
fail:
    if (!l && comm != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(&comm));
    KEEP(layout_value_free(l));
    return rc;
}

int layout_value_copy(const struct distfft_layout_s *layout, struct distfft_layout_s **copy)
{
    int rc = DISTFFT_SUCCESS;
    *copy = NULL;
    struct distfft_layout_s *l = calloc(1, sizeof *l);
    size_t bytes = (size_t)layout->size * 2 * layout->ndims * sizeof(int64_t);
    if (l) {
        *l = *layout;
        l->comm = MPI_COMM_NULL;
        l->lifetime = (lifetime_tag){NULL, 0}; /* a copy is not the public object */
        l->boxes = malloc(bytes);
    }
    int local = l && l->boxes ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "layout copy");
    TRY(error_agree(layout->comm, local));
    memcpy(l->boxes, layout->boxes, bytes);
    TRY_MPI(MPI_Comm_dup(layout->comm, &l->comm));
    /* local, failing on some ranks only: agreed before the caller's next collective */
    TRY(error_agree(l->comm, CHECK_MPI(MPI_Comm_set_errhandler(l->comm, MPI_ERRORS_RETURN))));
    *copy = l;
    return DISTFFT_SUCCESS;
fail:
    KEEP(layout_value_free(l));
    return rc;
}
