/*
 * test_nccl_schedule.c -- the nccl exchange's messages (src/redist/nccl.h)
 * on the CPU: which peers, which regions of the packed buffers, in which
 * order inside the one NCCL group. Empty chunks get no message and a
 * rank's own chunk none at all; every send of one rank meets the receive
 * its peer expects (same bytes), so the group cannot wait for a message
 * nobody sends. Pure arithmetic: no device, no NCCL, no MPI at run time.
 */
#include <stdio.h>
#include <string.h>

#include "distfft.h"
#include "redist/nccl.h"

static int failures;

static void expect(int condition, const char *what)
{
    if (!condition) {
        printf("FAIL: %s\n", what);
        failures++;
    }
}

enum { MOST = 8 };

/* Rank r's chunk to rank p: r*3 + p elements (uneven), 0 from rank 1 to
 * rank 2 (an empty chunk), and 0 to itself (its own, copied locally). */
static int64_t chunk(int from, int to)
{
    if (from == to || (from == 1 && to == 2)) return 0;
    return from * 3 + to;
}

/* Rank `part`'s counts and offsets, packed in peer order as chunks.c packs. */
static void tables(int parts, int part, int64_t *send_counts, int64_t *send_offsets, int64_t *receive_counts,
                   int64_t *receive_offsets)
{
    int64_t sent = 0, received = 0;
    for (int p = 0; p < parts; p++) {
        send_counts[p] = chunk(part, p);
        receive_counts[p] = chunk(p, part);
        send_offsets[p] = sent;
        receive_offsets[p] = received;
        sent += send_counts[p];
        received += receive_counts[p];
    }
}

static int schedule_of(int parts, int part, redist_message *messages)
{
    int64_t send_counts[MOST], send_offsets[MOST], receive_counts[MOST], receive_offsets[MOST];
    tables(parts, part, send_counts, send_offsets, receive_counts, receive_offsets);
    return nccl_schedule(parts, part, send_counts, send_offsets, receive_counts, receive_offsets, 16, messages);
}

/* The order: for k = 1.., the receive from part - k, then the send to
 * part + k; offsets and bytes from the tables. */
static void check_rank(int parts, int part)
{
    redist_message messages[2 * MOST];
    int count = schedule_of(parts, part, messages), at = 0;
    int64_t send_counts[MOST], send_offsets[MOST], receive_counts[MOST], receive_offsets[MOST];
    tables(parts, part, send_counts, send_offsets, receive_counts, receive_offsets);
    for (int k = 1; k < parts; k++) {
        int from = (part - k + parts) % parts, to = (part + k) % parts;
        if (receive_counts[from] > 0) {
            const redist_message *m = &messages[at++];
            expect(at <= count && m->receive && m->peer == from, "the receive from part - k comes k-th");
            expect(m->offset == (size_t)receive_offsets[from] * 16 && m->bytes == (size_t)receive_counts[from] * 16,
                   "a receive's region is its peer's in the receive buffer");
        }
        if (send_counts[to] > 0) {
            const redist_message *m = &messages[at++];
            expect(at <= count && !m->receive && m->peer == to, "the send to part + k follows it");
            expect(m->offset == (size_t)send_offsets[to] * 16 && m->bytes == (size_t)send_counts[to] * 16,
                   "a send's region is its peer's in the send buffer");
        }
    }
    expect(at == count, "no message beyond the non-empty chunks");
    for (int i = 0; i < count; i++) {
        expect(messages[i].peer != part, "no message to or from the rank itself");
        expect(messages[i].bytes > 0, "no empty message");
    }
}

/* Every send has the matching receive on its peer, and the reverse. */
static void check_pairs(int parts)
{
    redist_message messages[MOST][2 * MOST];
    int counts[MOST];
    for (int r = 0; r < parts; r++) counts[r] = schedule_of(parts, r, messages[r]);
    for (int r = 0; r < parts; r++)
        for (int i = 0; i < counts[r]; i++) {
            const redist_message *m = &messages[r][i];
            int matches = 0;
            for (int j = 0; j < counts[m->peer]; j++) {
                const redist_message *other = &messages[m->peer][j];
                matches += other->peer == r && other->receive != m->receive && other->bytes == m->bytes;
            }
            expect(matches == 1, "each message meets exactly one of its peer's");
        }
}

int main(void)
{
    redist_message none[2];
    int64_t zero = 0;
    expect(nccl_schedule(1, 0, &zero, &zero, &zero, &zero, 16, none) == 0, "one rank: no message");
    for (int parts = 2; parts <= MOST; parts++) {
        for (int part = 0; part < parts; part++) check_rank(parts, part);
        check_pairs(parts);
    }
    /* rank 1 of 4: k = 1 receive from 0 (its send to 2 is empty: none),
     * k = 2 receive from 3 and send to 3, k = 3 receive from 2, send to 0 */
    redist_message messages[2 * MOST];
    int count = schedule_of(4, 1, messages);
    const int peers[] = {0, 3, 3, 2, 0};
    const int receives[] = {1, 1, 0, 1, 0};
    expect(count == 5, "rank 1 of 4: five messages (its empty chunk to rank 2 skipped)");
    for (int i = 0; i < count && i < 5; i++)
        expect(messages[i].peer == peers[i] && messages[i].receive == (receives[i] == 1), "rank 1 of 4's order");
    if (failures) printf("%d failures\n", failures);
    else printf("ok\n");
    return failures ? 1 : 0;
}
