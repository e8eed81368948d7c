/*
 * test_nodes.c -- the node map of the node-aware methods (src/redist/nodes.c)
 * against a direct reference, and at scale: a group of 2^20 ranks, one node
 * each and labels in reverse order, builds in well under a second; the old
 * scan per rank (O(p^2), 10^12 steps here) would run into the CTest timeout.
 * No MPI at run time.
 */
#include <stdio.h>
#include <stdlib.h>

#include "redist/nodes.h"

static int failures;

static void expect(int condition, const char *what, int parts)
{
    if (!condition) {
        printf("FAIL: %s (parts %d)\n", what, parts);
        failures++;
    }
}

static void check(const int *labels, int parts)
{
    node_map map = {.parts = parts};
    map.node_of = malloc((size_t)parts * sizeof *map.node_of);
    map.first = malloc((2 * (size_t)parts + 1) * sizeof *map.first);
    map.members = malloc((size_t)parts * sizeof *map.members);
    if (node_map_build(labels, &map) != 0) {
        expect(0, "node_map_build failed", parts);
        return;
    }
    /* nodes numbered by first appearance; same label <=> same node */
    int expected_nodes = 0;
    for (int p = 0; p < parts; p++) {
        int first = p;
        for (int q = 0; q < p && parts <= 4096; q++)
            if (labels[q] == labels[p]) { first = q; break; }
        if (parts > 4096) continue; /* the reference is quadratic: small cases only */
        if (first == p) expect(map.node_of[p] == expected_nodes++, "new node number", parts);
        else expect(map.node_of[p] == map.node_of[first], "same node as its first rank", parts);
    }
    if (parts <= 4096) expect(map.nodes == expected_nodes, "node count", parts);
    /* members of node n, in rank order, between first[n] and first[n+1] */
    for (int n = 0; n < map.nodes; n++)
        for (int i = map.first[n]; i < map.first[n + 1]; i++) {
            expect(map.node_of[map.members[i]] == n, "member on its node", parts);
            if (i > map.first[n]) expect(map.members[i] > map.members[i - 1], "members ascending", parts);
        }
    expect(map.first[map.nodes] == parts, "every rank listed once", parts);
    node_map_free(&map);
}

int main(void)
{
    int small[][8] = {{3, 3, 1, 1, 3, 2, 2, 1}, {5, 5, 5, 5, 5, 5, 5, 5}, {8, 7, 6, 5, 4, 3, 2, 1}};
    for (int c = 0; c < 3; c++) check(small[c], 8);
    int parts = 4096;
    int *labels = malloc(((size_t)1 << 20) * sizeof *labels);
    for (int p = 0; p < parts; p++) labels[p] = (p * 37) % 97 + 1; /* nodes interleaved */
    check(labels, parts);
    parts = 1 << 20;
    for (int p = 0; p < parts; p++) labels[p] = parts - p; /* one node per rank, reverse order */
    check(labels, parts);
    for (int p = 0; p < parts; p++) labels[p] = p / 128 + 1; /* nodes of 128 */
    check(labels, parts);
    free(labels);
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
