/*
 * nodes.c -- the nodes of a redistribution's group (see nodes.h).
 *
 * Finding them is collective (an MPI_Comm_split_type, an MPI_Allgather),
 * so the node-aware methods' create is collective on the group, as every
 * caller of a method's create runs it on the whole group at once.
 */
#include <stdlib.h>
#include <string.h>

#include "../environment.h"
#include "../error.h"
#include "../node.h"
#include "nodes.h"

/* DISTFFT_NODE_SIZE, or 0 when unset or not a positive number. */
static int environment_node_size(void)
{
    return (int)environment_integer("DISTFFT_NODE_SIZE", 1, (1 << 30) - 1, 0);
}

int node_label(MPI_Comm comm, const redist_geometry *g, int *label)
{
    if (g->node > 0) {
        *label = g->node;
        return DISTFFT_SUCCESS;
    }
    if (g->shared_node > 0 && environment_node_size() == 0) { /* found once by the plan */
        *label = g->shared_node;
        return DISTFFT_SUCCESS;
    }
    /* a pretended node of the environment, or the group's real node (node.h) */
    int rc = node_label_find(comm, g->part, environment_node_size(), 0, label); /* part: rank in comm */
    *label += 1;
    return rc;
}

bool node_label_is_shared(const redist_geometry *g)
{
    return g->node == 0 && environment_node_size() == 0;
}

void node_map_free(node_map *map)
{
    free(map->node_of);
    free(map->first);
    free(map->members);
    memset(map, 0, sizeof *map);
}

typedef struct {
    int label, part;
} labelled;

static int by_label_then_part(const void *a, const void *b)
{
    const labelled *x = a, *y = b;
    if (x->label != y->label) return x->label < y->label ? -1 : 1;
    return (x->part > y->part) - (x->part < y->part);
}

/* Number the nodes by first appearance and list their members: a sort, so
 * O(p log p) for a group of p ranks (a scan per rank for its node's lowest
 * rank would be O(p^2): 10^8 steps per rank on a slab of 16,384 ranks). */
int node_map_build(const int *labels, node_map *map)
{
    int parts = map->parts;
    labelled *order = malloc((size_t)(parts > 0 ? parts : 1) * sizeof *order);
    if (!order) return error_fail(DISTFFT_ERR_MEMORY, "node tables");
    for (int p = 0; p < parts; p++) order[p] = (labelled){labels[p], p};
    qsort(order, (size_t)parts, sizeof *order, by_label_then_part);
    for (int i = 0, lowest = 0; i < parts; i++) { /* node_of[p]: the lowest rank of p's node */
        if (i == 0 || order[i].label != order[i - 1].label) lowest = order[i].part;
        map->node_of[order[i].part] = lowest;
    }
    free(order);
    map->nodes = 0;
    for (int p = 0; p < parts; p++) /* a lower rank's entry is already its node's number */
        map->node_of[p] = map->node_of[p] == p ? map->nodes++ : map->node_of[map->node_of[p]];
    memset(map->first, 0, (size_t)(map->nodes + 1) * sizeof *map->first);
    for (int p = 0; p < parts; p++) map->first[map->node_of[p] + 1]++;
    for (int n = 0; n < map->nodes; n++) map->first[n + 1] += map->first[n];
    int *fill = map->first + map->nodes + 1; /* scratch after the offsets */
    memcpy(fill, map->first, (size_t)map->nodes * sizeof *fill);
    for (int p = 0; p < parts; p++) map->members[fill[map->node_of[p]]++] = p;
    return DISTFFT_SUCCESS;
}

int node_map_create(MPI_Comm comm, int label, const char *method, node_map *map)
{
    int rc = DISTFFT_SUCCESS, parts = 0;
    memset(map, 0, sizeof *map);
    /* a failure here, on one rank only, is agreed with the tables' */
    int local = CHECK_MPI(MPI_Comm_size(comm, &parts));
    if (local == DISTFFT_SUCCESS) {
        map->parts = parts;
        map->node_of = malloc((size_t)parts * sizeof *map->node_of);
        map->first = malloc((2 * (size_t)parts + 1) * sizeof *map->first);
        map->members = malloc((size_t)parts * sizeof *map->members);
        if (!map->node_of || !map->first || !map->members)
            local = error_fail(DISTFFT_ERR_MEMORY, "%s: node tables", method);
    }
    int *labels = map->members; /* gathered here, then replaced */
    TRY(error_agree(comm, local));
    TRY_MPI(MPI_Allgather(&label, 1, MPI_INT, labels, 1, MPI_INT, comm));
    TRY(error_agree(comm, node_map_build(labels, map))); /* reads the labels before it lists members */
    return DISTFFT_SUCCESS;
fail:
    node_map_free(map);
    return rc;
}

int node_index_of(const node_map *map, int rank)
{
    int node = map->node_of[rank], index = 0;
    while (map->members[map->first[node] + index] != rank) index++;
    return index;
}
