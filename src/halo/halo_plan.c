/*
 * halo_plan.c -- who sends which boxes to whom (see halo.h): the
 * neighbours of the halo exchange, found from the blocks themselves.
 *
 * Every rank's (global_start, local_shape) is known: the boxes of the
 * layout the halo is made from (gathered once, when it was made). Along axis a,
 * this rank's LINE is the set of ranks whose blocks have the same ranges on
 * every other axis (the row of a Cartesian grid through it, however the
 * ranks are laid out). A line's OWNERS are its members with points along
 * a, one per distinct range (empty blocks in several grid rows can share a
 * line; the lowest rank speaks for a range); they must tile 0..n_a. Each
 * ghost interval [s - w_low, s) and [s + len, s + len + w_high) -- wrapped
 * along periodic axes, as many times as it takes -- is cut by the owners'
 * ranges into pieces; owner q sends receiver p one message per stage with
 * all of p's pieces from q, in the order both compute alike (low interval
 * first, then high; wraps in increasing order). So widths beyond a
 * neighbour's block, or beyond the whole axis, just mean more pieces, and
 * the usual case is two messages per axis.
 */
#include <stdlib.h>
#include <string.h>

#include "../error.h"
#include "../types.h"
#include "halo.h"

/* block r of the gathered table: starts[ndims], then shapes[ndims] */
#define BLOCK(table, h, r) ((table) + (int64_t)(r) * 2 * (h)->ndims)

static int64_t floor_div(int64_t a, int64_t b) /* b > 0 */
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static int same_line(const struct distfft_halo_s *h, const int64_t *a,
                     const int64_t *b, int axis)
{
    for (int i = 0; i < h->ndims; i++)
        if (i != axis && (a[i] != b[i] || a[h->ndims + i] != b[h->ndims + i]))
            return 0;
    return 1;
}

/* The part of the padded array stage `axis` moves along the other axes:
 * earlier axes what is valid after their stages (owned plus ghost layers,
 * clipped at non-periodic boundaries), later axes the owned range. Both
 * ends of a message share these ranges, hence these coordinates. */
static void box_frame(const struct distfft_halo_s *h, const int64_t *block,
                      int axis, halo_box *box)
{
    box->start[0] = 0;
    box->extent[0] = h->batch;
    for (int b = 0; b < h->ndims; b++) {
        int64_t s = block[b], lo = s, hi = s + block[h->ndims + b];
        if (b < axis) {
            lo -= h->low[b];
            hi += h->high[b];
            if (!h->periodic[b]) {
                lo = lo > 0 ? lo : 0;
                hi = hi < h->global_shape[b] ? hi : h->global_shape[b];
            }
        }
        box->start[b + 1] = lo - (s - h->low[b]);
        box->extent[b + 1] = hi > lo ? hi - lo : 0;
    }
}

static int add_box(halo_message *m, const halo_box *box, int dims)
{
    int64_t elements = 1;
    for (int i = 0; i < dims; i++) elements *= box->extent[i];
    if (elements == 0) return DISTFFT_SUCCESS;
    if (m->boxes == m->capacity) {
        int capacity = m->capacity ? 2 * m->capacity : 2;
        halo_box *grown = realloc(m->box, (size_t)capacity * sizeof *grown);
        if (!grown) return error_fail(DISTFFT_ERR_MEMORY, "halo: box table");
        m->box = grown;
        m->capacity = capacity;
    }
    m->box[m->boxes++] = *box;
    m->elements += elements;
    return DISTFFT_SUCCESS;
}

/* Receiver p's pieces owned by q along `axis`, in the coordinates of the
 * sender's array (sender != 0) or the receiver's. */
static int add_pieces(const struct distfft_halo_s *h, const int64_t *p,
                      const int64_t *q, int axis, int sender, halo_message *m)
{
    int nd = h->ndims, rc = DISTFFT_SUCCESS;
    int64_t n = h->global_shape[axis], s = p[axis], t = q[axis], len = q[nd + axis];
    int64_t ghosts[2][2] = {{s - h->low[axis], s},
                            {s + p[nd + axis], s + p[nd + axis] + h->high[axis]}};
    halo_box box;
    box_frame(h, p, axis, &box);
    for (int g = 0; g < 2; g++) {
        int64_t g0 = ghosts[g][0], g1 = ghosts[g][1], first = 0, last = 0;
        if (g1 <= g0 || len == 0) continue;
        if (h->periodic[axis]) { /* wraps k with t + kn < g1 and t + len + kn > g0 */
            first = floor_div(g0 - t - len, n) + 1;
            last = -floor_div(t - g1, n) - 1;
        }
        for (int64_t k = first; k <= last; k++) {
            int64_t lo = t + k * n > g0 ? t + k * n : g0;
            int64_t hi = t + len + k * n < g1 ? t + len + k * n : g1;
            if (hi <= lo) continue;
            box.start[axis + 1] = (sender ? lo - k * n - t : lo - s) + h->low[axis];
            box.extent[axis + 1] = hi - lo;
            TRY(add_box(m, &box, nd + 1));
        }
    }
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

typedef struct {
    int64_t start, length;
} range;

static int by_start(const void *a, const void *b)
{
    const range *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* This rank's line along axis (members) and its owners; the owners must
 * tile the axis. */
static int find_line(const struct distfft_halo_s *h, const int64_t *blocks,
                     int axis, int *members, int *member_count, int *owners,
                     int *owner_count)
{
    const int64_t *mine = BLOCK(blocks, h, h->rank);
    int nd = h->ndims;
    *member_count = *owner_count = 0;
    for (int r = 0; r < h->size; r++) {
        const int64_t *b = BLOCK(blocks, h, r);
        if (!same_line(h, mine, b, axis)) continue;
        members[(*member_count)++] = r;
        int duplicate = b[nd + axis] == 0;
        for (int k = 0; k < *owner_count && !duplicate; k++) {
            const int64_t *o = BLOCK(blocks, h, owners[k]);
            duplicate = o[axis] == b[axis] && o[nd + axis] == b[nd + axis];
        }
        if (!duplicate) owners[(*owner_count)++] = r;
    }
    range *ranges = malloc(((size_t)*owner_count + 1) * sizeof *ranges);
    if (!ranges) return error_fail(DISTFFT_ERR_MEMORY, "halo: line table");
    for (int k = 0; k < *owner_count; k++) {
        const int64_t *o = BLOCK(blocks, h, owners[k]);
        ranges[k] = (range){o[axis], o[nd + axis]};
    }
    qsort(ranges, (size_t)*owner_count, sizeof *ranges, by_start);
    int64_t covered = 0;
    for (int k = 0; k < *owner_count && ranges[k].start == covered; k++)
        covered += ranges[k].length;
    free(ranges);
    if (covered != h->global_shape[axis])
        return error_fail(DISTFFT_ERR_SHAPE, "distfft_layout_halo_create: along axis %d "
                          "the blocks of the ranks that share rank %d's ranges on the "
                          "other axes do not tile 0..%lld (they cover 0..%lld, then a "
                          "gap or an overlap)", axis, h->rank,
                          (long long)h->global_shape[axis], (long long)covered);
    return DISTFFT_SUCCESS;
}

/* Append a message if it carries anything (it is zeroed for the next). */
static void keep(halo_message *list, int *count, halo_message *m, int peer)
{
    m->peer = peer;
    m->type = MPI_DATATYPE_NULL;
    m->packed = (big_message){.count = 0, .type = MPI_BYTE, .owned = 0};
    if (m->boxes > 0) list[(*count)++] = *m;
    else free(m->box);
    memset(m, 0, sizeof *m);
}

static int plan_stage(struct distfft_halo_s *h, const int64_t *blocks,
                      int *members, int *owners, halo_stage *stage)
{
    int rc = DISTFFT_SUCCESS, member_count, owner_count, axis = stage->axis;
    halo_message m = {0}; /* before the first jump to fail, which frees its box */
    TRY(find_line(h, blocks, axis, members, &member_count, owners, &owner_count));
    stage->receive = calloc((size_t)owner_count + 1, sizeof *stage->receive);
    stage->send = calloc((size_t)member_count + 1, sizeof *stage->send);
    if (!stage->receive || !stage->send)
        return error_fail(DISTFFT_ERR_MEMORY, "halo: message tables");
    const int64_t *mine = BLOCK(blocks, h, h->rank);
    int owner = 0;
    for (int k = 0; k < owner_count; k++) {
        owner |= owners[k] == h->rank;
        TRY(add_pieces(h, mine, BLOCK(blocks, h, owners[k]), axis, 0, &m));
        keep(stage->receive, &stage->receives, &m, owners[k]);
    }
    for (int k = 0; owner && k < member_count; k++) {
        TRY(add_pieces(h, BLOCK(blocks, h, members[k]), mine, axis, 1, &m));
        keep(stage->send, &stage->sends, &m, members[k]);
    }
    return DISTFFT_SUCCESS;
fail:
    free(m.box);
    return rc;
}

/* Do the blocks hold as many elements as the array (no overlaps, given
 * that every line tiles)? */
static int check_volume(const struct distfft_halo_s *h, const int64_t *blocks)
{
    int64_t total = shape_product(h->ndims, h->global_shape), sum = 0;
    for (int r = 0; r < h->size && sum <= total; r++)
        sum += shape_product(h->ndims, BLOCK(blocks, h, r) + h->ndims);
    if (sum == total) return DISTFFT_SUCCESS;
    return error_fail(DISTFFT_ERR_SHAPE, "distfft_layout_halo_create: the ranks' blocks "
                      "hold %s%lld elements, the global array %lld: they do not "
                      "tile it", sum > total ? "more than " : "", (long long)sum,
                      (long long)total);
}

int halo_plan_messages(struct distfft_halo_s *h, const int64_t *blocks)
{
    int rc = DISTFFT_SUCCESS;
    int *members = malloc((size_t)h->size * sizeof *members);
    int *owners = malloc((size_t)h->size * sizeof *owners);
    if (!members || !owners) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "halo: line tables of %d ranks", h->size);
        goto fail;
    }
    TRY(check_volume(h, blocks));
    for (int i = 0; i < h->stages; i++) TRY(plan_stage(h, blocks, members, owners, &h->stage[i]));
fail:
    free(members);
    free(owners);
    return rc;
}
