/*
 * test_ipc_puts.c -- the put schedule of the cuda-ipc exchange
 * (src/redist/ipc_puts.h) against the chunk tables every copying method
 * unpacks by: for each writer and each peer it puts into, the schedule's
 * place in the peer's receive buffer must be where the peer unpacks the
 * writer's chunk (chunk_exchange_init's receive_offsets, computed here on
 * the peer's side, from the peer's own geometry), with the same count;
 * empty chunks and the own chunk are no puts; the source offsets are the
 * writer's packed order. Pencil exchanges of uneven and empty blocks on 1
 * to 9 ranks. No MPI and no device at run time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist/chunks.h"
#include "redist/ipc_puts.h"

static int failures;

static void expect(int condition, const char *what, int parts, const int64_t *n)
{
    if (!condition && failures++ < 20)
        printf("FAIL: %s (%d ranks, %lldx%lldx%lld)\n", what, parts, (long long)n[0], (long long)n[1],
               (long long)n[2]);
}

/* Rank `part`'s side of an n0 x n1 x n2 exchange, complex double: axis 0
 * whole in the input (axis 1 split), axis 1 whole in the output. */
static redist_geometry pencils(const int64_t *n, int parts, int part)
{
    redist_geometry g = {.type = DISTFFT_COMPLEX_DOUBLE, .ndims = 3, .axis_in = 0, .axis_out = 1, .batch = 2,
                         .parts = parts, .part = part};
    int64_t columns, rows;
    distfft_decompose(n[1], parts, part, &columns, NULL);
    distfft_decompose(n[0], parts, part, &rows, NULL);
    int64_t in[3] = {n[0], columns, n[2]}, out[3] = {rows, n[1], n[2]};
    memcpy(g.in_shape, in, sizeof in);
    memcpy(g.out_shape, out, sizeof out);
    return g;
}

static void check(const int64_t *n, int parts)
{
    chunk_exchange *sides = calloc((size_t)parts, sizeof *sides);
    int64_t *counts = calloc((size_t)parts * (size_t)parts, sizeof *counts);
    ipc_put *puts = calloc((size_t)parts, sizeof *puts);
    for (int r = 0; r < parts; r++) { /* every rank's own tables, as its create makes them */
        redist_geometry g = pencils(n, parts, r);
        expect(chunk_exchange_init(&g, "test", &sides[r]) == DISTFFT_SUCCESS, "chunk tables", parts, n);
        memcpy(counts + (size_t)r * parts, sides[r].send_counts, (size_t)parts * sizeof *counts);
    }
    for (int w = 0; w < parts; w++) {
        expect(ipc_receive_total(parts, counts, w) == sides[w].receive_total, "a receive buffer's size", parts, n);
        int count = ipc_put_schedule(parts, counts, w, puts), nonempty = 0;
        for (int p = 0; p < parts; p++) nonempty += p != w && sides[w].send_counts[p] > 0;
        expect(count == nonempty, "one put per peer with a nonempty chunk", parts, n);
        for (int i = 0; i < count; i++) {
            const ipc_put *put = &puts[i];
            const chunk_exchange *peer = &sides[put->peer];
            expect(put->peer != w, "the own chunk is no put", parts, n);
            expect(put->count > 0, "no empty put", parts, n);
            expect(i == 0 || put->peer > puts[i - 1].peer, "puts in rank order", parts, n);
            expect(put->count == peer->receive_counts[w], "the peer receives what the writer puts", parts, n);
            expect(put->target_offset == peer->receive_offsets[w], "the put lands where the peer unpacks it", parts,
                   n);
            expect(put->source_offset == sides[w].send_offsets[put->peer], "the writer's packed order", parts, n);
        }
    }
    for (int r = 0; r < parts; r++) chunk_exchange_free(&sides[r]);
    free(sides);
    free(counts);
    free(puts);
}

int main(void)
{
    static const int64_t shapes[][3] = {{6, 5, 7}, {2, 3, 4}, {1, 9, 2}, {12, 8, 3}, {3, 2, 5}, {16, 16, 1}};
    int cases = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int parts = 1; parts <= 9; parts++, cases++) check(shapes[s], parts);
    /* a hand-made matrix: 3 ranks, rank 1 sends nothing to rank 2 */
    const int64_t counts[9] = {5, 1, 2, 3, 5, 0, 4, 6, 5};
    ipc_put puts[3];
    int count = ipc_put_schedule(3, counts, 1, puts);
    int64_t n[3] = {0, 0, 0};
    expect(count == 1 && puts[0].peer == 0 && puts[0].source_offset == 0 && puts[0].target_offset == 0 &&
               puts[0].count == 3, "rank 1 puts 3 at 0 of rank 0's buffer, and nothing to rank 2", 3, n);
    count = ipc_put_schedule(3, counts, 2, puts);
    expect(count == 2 && puts[0].target_offset == 3 && puts[0].count == 4 && puts[1].peer == 1 &&
               puts[1].source_offset == 4 && puts[1].target_offset == 1 && puts[1].count == 6,
           "rank 2 puts after rank 1's chunk in rank 0's buffer, after rank 0's in rank 1's", 3, n);
    expect(ipc_receive_total(3, counts, 2) == 2, "rank 2's buffer holds rank 0's 2", 3, n);
    if (failures) printf("%d failures\n", failures);
    else printf("ok: %d exchanges\n", cases);
    return failures ? 1 : 0;
}
