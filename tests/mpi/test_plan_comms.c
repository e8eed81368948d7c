/*
 * test_plan_comms.c -- how many communicators a plan's creation makes
 * (issue 24, "plan time at scale": SimGrid's SMPI charges MPI_Comm_dup
 * about P^2 of simulated time, and every new communicator costs a real MPI
 * an agreement on a context id).
 *
 * A plan makes ONE copy of the caller's communicator (an
 * MPI_Comm_create_group of its whole group: no MPI_Comm_dup, which SMPI
 * charges O(P^2)), however many candidate plans tuning builds on it: the
 * candidates borrow it and the plan kept adopts it. A grid's
 * sub-communicators are made from it directly (no Cartesian communicator,
 * which SMPI charges as much as a dup): with the row placement one
 * MPI_Comm_create_group per direction (collective over the line only),
 * otherwise one MPI_Comm_split. The ranks' nodes are found at most once per
 * creation (one MPI_Comm_split_type), shared by every grid, exchange and
 * candidate. Bounds checked, on every rank, for each creation:
 *
 *   MPI_Comm_dup          0 (before issue 24: 3 for a fixed method, 1 + 2
 *                         per candidate plan under auto)
 *   MPI_Cart_create,
 *   MPI_Cart_sub          0 (before: 1 and one per grid direction, per
 *                         candidate)
 *   MPI_Comm_split_type   0 for a fixed method that is not node-aware on
 *                         the row or Morton placement, at most 1 otherwise
 *                         (before: one per node-aware exchange made, and
 *                         one per grid on the node placement)
 *   MPI_Comm_create_group the copy: exactly 1; and with
 *   + MPI_Comm_split      a fixed method (not shm) exactly one more per grid
 *                         direction, no split on the row placement; auto:
 *                         at most 60 more -- 10 candidate plans at most
 *                         (8 grids, 2 overlap modes) of at most 2
 *                         directions and 4 exchanges, each exchange's shm
 *                         window group one split
 *
 * and, as test_handles does, every communicator made is freed by
 * destroy. The counts come from tests/support/mpi_handle_counter.c (PMPI
 * wrappers, linked with the STATIC library), through its fault-injection
 * hook, which this program defines to count and never fail.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distfft.h"
#include "mpi_handle_counter.h"

static int me, P, failures, cases;

/* ---- counting: the handle counter's hook (mpi_fault.h), never failing ---- */

enum { DUP, SPLIT, SPLIT_TYPE, CART_CREATE, CART_SUB, CREATE_GROUP, COUNTED };
static const char *const counted_names[COUNTED] = {"MPI_Comm_dup", "MPI_Comm_split", "MPI_Comm_split_type",
                                                   "MPI_Cart_create", "MPI_Cart_sub", "MPI_Comm_create_group"};
static long counts[COUNTED];

int mpi_fault_hit(const char *name)
{
    for (int i = 0; i < COUNTED; i++)
        if (!strcmp(name, counted_names[i])) counts[i]++;
    return 0;
}

/* ---- one creation ------------------------------------------------------------- */

typedef struct {
    const char *name;
    int64_t shape[3];
    distfft_method method;
    distfft_rigor rigor;
    distfft_placement placement;
    int64_t batch;
    bool layouts;          /* through distfft_plan_create_layouts (no layouts given) */
    long max_split_type;   /* the bounds */
    long max_split;        /* -1: exactly one per grid direction */
} creation;

static void check_creation(const creation *c)
{
    distfft_options o;
    distfft_options_init(&o);
    o.method = c->method;
    o.rigor = c->rigor;
    o.placement = c->placement;
    o.batch = c->batch;
    mpi_handle_counts before = mpi_handle_counts_now();
    memset(counts, 0, sizeof counts);
    distfft_plan plan = NULL;
    int rc = c->layouts ? distfft_plan_create_layouts(MPI_COMM_WORLD, 3, c->shape, DISTFFT_DOUBLE, &o, NULL, NULL,
                                                      &plan)
                        : distfft_plan_create(MPI_COMM_WORLD, 3, c->shape, DISTFFT_DOUBLE, &o, &plan);
    long made[COUNTED];
    memcpy(made, counts, sizeof made);
    int grid_ndims = 0, grid_dims[DISTFFT_MAX_DIMS];
    if (rc == DISTFFT_SUCCESS) distfft_plan_grid(plan, &grid_ndims, grid_dims);
    int ok = rc == DISTFFT_SUCCESS;
    if (!ok) fprintf(stderr, "[rank %d] %s: %s\n", me, c->name, distfft_last_error());
    if (plan) ok = distfft_plan_destroy(&plan) == DISTFFT_SUCCESS && ok;
    mpi_handle_counts after = mpi_handle_counts_now();

    long lines = made[SPLIT] + made[CREATE_GROUP] - 1; /* less the copy */
    bool splits_ok = c->max_split < 0 ? lines == grid_ndims &&
                                            (c->placement != DISTFFT_PLACEMENT_ROW || made[SPLIT] == 0)
                                      : lines <= c->max_split;
    bool counts_ok = made[DUP] == 0 && made[CREATE_GROUP] >= 1 && made[CART_CREATE] == 0 && made[CART_SUB] == 0 &&
                     made[SPLIT_TYPE] <= c->max_split_type && splits_ok;
    bool freed = after.comms == before.comms;
    if (ok && !counts_ok)
        fprintf(stderr, "[rank %d] %s: MPI_Comm_dup %ld (bound 0), MPI_Cart_create %ld and MPI_Cart_sub %ld "
                "(bound 0), MPI_Comm_split_type %ld (bound %ld), MPI_Comm_split %ld + MPI_Comm_create_group %ld "
                "(1 for the copy + %ld%s, no split on the row placement; a grid of %d dims)\n", me, c->name, made[DUP],
                made[CART_CREATE], made[CART_SUB], made[SPLIT_TYPE], c->max_split_type, made[SPLIT],
                made[CREATE_GROUP], c->max_split < 0 ? grid_ndims : c->max_split,
                c->max_split < 0 ? ", exactly" : "", grid_ndims);
    if (!freed)
        fprintf(stderr, "[rank %d] %s: %ld communicators left after destroy\n", me, c->name,
                after.comms - before.comms);
    ok = ok && counts_ok && freed;
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    cases++;
    if (!all) failures++;
    if (me == 0)
        printf("%s %s: dup %ld, split_type %ld, split %ld, create_group %ld, cart_create %ld, cart_sub %ld\n",
               all ? "ok  " : "FAIL", c->name, made[DUP], made[SPLIT_TYPE], made[SPLIT], made[CREATE_GROUP],
               made[CART_CREATE], made[CART_SUB]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    enum { AUTO_SPLITS = 60 }; /* see the top */
    const creation list[] = {
        /* a fixed method: one plan, one grid */
        {"alltoallw", {16, 12, 10}, DISTFFT_METHOD_ALLTOALLW, DISTFFT_ESTIMATE, DISTFFT_PLACEMENT_ROW, 1, false, 0, -1},
        {"sendrecv measure", {16, 12, 10}, DISTFFT_METHOD_SENDRECV, DISTFFT_MEASURE, DISTFFT_PLACEMENT_ROW, 1,
         false, 0, -1},
        /* the node-aware method: its nodes found once for every exchange */
        {"hierarchical", {16, 12, 10}, DISTFFT_METHOD_HIERARCHICAL, DISTFFT_ESTIMATE, DISTFFT_PLACEMENT_ROW, 1,
         false, 1, -1},
        /* auto: every candidate grid built, every method of every exchange timed */
        {"auto", {16, 12, 10}, DISTFFT_METHOD_AUTO, DISTFFT_MEASURE, DISTFFT_PLACEMENT_ROW, 1, false, 1,
         AUTO_SPLITS},
        /* the same again: wisdom's choice, one plan */
        {"auto from wisdom", {16, 12, 10}, DISTFFT_METHOD_AUTO, DISTFFT_MEASURE, DISTFFT_PLACEMENT_ROW, 1, false,
         1, AUTO_SPLITS},
        /* auto with a batch: the overlap candidates too (the same grid twice more) */
        {"auto batch 2", {12, 10, 8}, DISTFFT_METHOD_AUTO, DISTFFT_MEASURE, DISTFFT_PLACEMENT_ROW, 2, false, 1,
         AUTO_SPLITS},
        /* the node placement on the real nodes: the placement of every
         * candidate grid and the node-aware methods share one split_type */
        {"auto node placement", {10, 8, 12}, DISTFFT_METHOD_AUTO, DISTFFT_MEASURE, DISTFFT_PLACEMENT_NODE, 1, false,
         1, AUTO_SPLITS},
        {"node placement", {16, 12, 10}, DISTFFT_METHOD_ALLTOALLW, DISTFFT_ESTIMATE, DISTFFT_PLACEMENT_NODE, 1,
         false, 1, -1},
        {"morton", {16, 12, 10}, DISTFFT_METHOD_ALLTOALLW, DISTFFT_ESTIMATE, DISTFFT_PLACEMENT_MORTON, 1, false, 0,
         -1},
        /* the caller's-layouts entry point: the same one copy */
        {"layouts entry", {16, 12, 10}, DISTFFT_METHOD_ALLTOALLW, DISTFFT_ESTIMATE, DISTFFT_PLACEMENT_ROW, 1, true,
         0, -1},
    };
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) check_creation(&list[i]);
    if (me == 0) printf("%d of %d cases passed on %d ranks\n", cases - failures, cases, P);
    MPI_Finalize();
    return failures ? 1 : 0;
}
