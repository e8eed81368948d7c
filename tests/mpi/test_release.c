/*
 * test_release.c -- the release calls (distfft_plan_release,
 * distfft_redist_release) and distfft_collect: the path that cannot
 * deadlock on the shm method's MPI_Win_free (issue 21).
 *
 * The scenario a destroy hangs in: rank 0 lets its plan go and enters a
 * barrier, the others enter the barrier first and let theirs go after.
 * With destroy, rank 0 would wait in MPI_Win_free for ranks that wait in
 * the barrier for it; with release nobody waits, and one collect frees the
 * windows. Then releases in a different order on each rank, one object
 * held back on one rank through a collect (it must stay), the queue freed
 * by MPI_Comm_free, and objects left released at MPI_Finalize. Layouts,
 * reshapes and halos (and a plan's layout) release the same way: their
 * communicators wait for a collect on the communicator their layout (or
 * plan) was made on.
 *
 * Linked with the PMPI handle counter: windows and communicators are
 * counted, so "parked until collect" and "all freed after" are checked,
 * not assumed. The CTest timeout turns a hang into a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distfft.h"
#include "mpi_handle_counter.h"

static int me, P, failures;

static void expect(int ok, const char *what)
{
    if (!ok) fprintf(stderr, "[rank %d] FAIL: %s (%s)\n", me, what, distfft_last_error());
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all) failures++;
    if (me == 0) printf("%s %s\n", all ? "ok  " : "FAIL", what);
}

/* Live communicators and windows against a starting point. */
static int same_counts(const mpi_handle_counts *start)
{
    mpi_handle_counts now = mpi_handle_counts_now();
    return now.comms == start->comms && now.windows == start->windows && now.datatypes == start->datatypes &&
           now.requests == start->requests && now.groups == start->groups;
}

static distfft_plan shm_plan(MPI_Comm comm, int64_t n)
{
    distfft_options o;
    distfft_options_init(&o);
    o.method = DISTFFT_METHOD_SHM;
    o.grid_ndims = 1;
    int64_t shape[2] = {n, n};
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(comm, 2, shape, DISTFFT_DOUBLE, &o, &plan);
    if (rc != DISTFFT_SUCCESS) {
        fprintf(stderr, "[rank %d] plan_create: %s\n", me, distfft_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* run it once: the window is in use before it is let go */
    size_t bytes = 16 * (size_t)n * (size_t)n; /* beyond any local block */
    void *in = distfft_malloc(bytes), *out = distfft_malloc(bytes);
    memset(in, 0, bytes);
    rc = distfft_plan_execute(plan, in, out, DISTFFT_FORWARD);
    distfft_free(in);
    distfft_free(out);
    if (rc != DISTFFT_SUCCESS) MPI_Abort(MPI_COMM_WORLD, 3);
    return plan;
}

static distfft_redist shm_redist(MPI_Comm comm, int64_t n)
{
    int64_t rows, columns;
    distfft_decompose(n, P, me, &rows, NULL);
    distfft_decompose(n, P, me, &columns, NULL);
    int64_t in_shape[2] = {rows, n}, out_shape[2] = {n, columns};
    distfft_redist redist = NULL;
    int rc = distfft_redist_create(comm, DISTFFT_COMPLEX_DOUBLE, 2, in_shape, 1, out_shape, 0, 1,
                                   DISTFFT_METHOD_SHM, &redist);
    if (rc != DISTFFT_SUCCESS) {
        fprintf(stderr, "[rank %d] redist_create: %s\n", me, distfft_last_error());
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return redist;
}

/* Rank 0 releases, then waits in a barrier; the others release after it. */
static void staggered_release(void)
{
    mpi_handle_counts start = mpi_handle_counts_now();
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    distfft_plan plan = shm_plan(comm, 16);
    long windows = mpi_handle_counts_now().windows - start.windows;
    int rc = DISTFFT_SUCCESS;
    if (me == 0) rc = distfft_plan_release(&plan);
    MPI_Barrier(MPI_COMM_WORLD);
    if (me != 0) rc = distfft_plan_release(&plan);
    expect(rc == DISTFFT_SUCCESS && plan == NULL, "staggered release: local, handle NULL");
    expect(mpi_handle_counts_now().windows - start.windows == windows,
           "staggered release: the window waits for collect");
    rc = distfft_collect(comm);
    expect(rc == DISTFFT_SUCCESS && mpi_handle_counts_now().windows == start.windows,
           "staggered release: collect frees the window");
    expect(distfft_collect(comm) == DISTFFT_SUCCESS, "a second collect: nothing to do");
    MPI_Comm_free(&comm);
    expect(same_counts(&start), "staggered release: every handle freed");
}

/* Four objects released in a different order on each rank, one held back
 * by the last rank through a first collect. */
static void orders(void)
{
    mpi_handle_counts start = mpi_handle_counts_now();
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    distfft_plan plans[3];
    plans[0] = shm_plan(comm, 8);
    distfft_redist redist = shm_redist(comm, 12);
    plans[1] = shm_plan(comm, 10);
    mpi_handle_counts before_held = mpi_handle_counts_now();
    plans[2] = shm_plan(comm, 12);
    long held_windows = mpi_handle_counts_now().windows - before_held.windows;
    int rc = DISTFFT_SUCCESS, held = P - 1;
    for (int k = 0; k < 4; k++) { /* rank r starts at object r */
        int object = (k + me) % 4, code;
        if (object == 3) code = distfft_redist_release(&redist);
        else if (object == 2 && me == held) continue;
        else code = distfft_plan_release(&plans[object]);
        if (rc == DISTFFT_SUCCESS) rc = code;
    }
    expect(rc == DISTFFT_SUCCESS, "releases in four orders");
    rc = distfft_collect(comm);
    expect(rc == DISTFFT_SUCCESS && mpi_handle_counts_now().windows - start.windows == held_windows,
           "collect frees what every rank released, keeps the held plan's window");
    if (me == held) rc = distfft_plan_release(&plans[2]); /* let go late */
    expect(rc == DISTFFT_SUCCESS, "the held plan released");
    rc = distfft_collect(comm);
    expect(rc == DISTFFT_SUCCESS && mpi_handle_counts_now().windows == start.windows,
           "a second collect frees the held plan's window");
    MPI_Comm_free(&comm);
    expect(same_counts(&start), "orders: every handle freed");
}

/* No collect: MPI_Comm_free of the creation's communicator drains. */
static void freed_communicator(void)
{
    mpi_handle_counts start = mpi_handle_counts_now();
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    distfft_plan plan = shm_plan(comm, 8);
    distfft_redist redist = shm_redist(comm, 8);
    int rc = distfft_redist_release(&redist);
    if (rc == DISTFFT_SUCCESS) rc = distfft_plan_release(&plan);
    MPI_Comm_free(&comm);
    expect(rc == DISTFFT_SUCCESS && same_counts(&start), "MPI_Comm_free collects");
}

/* A layout, a reshape and a halo made from it, and a plan's layout, each
 * released on a different schedule per rank: their communicators wait for
 * the collect on the layout's (and plan's) communicator. */
static void layout_objects(void)
{
    mpi_handle_counts start = mpi_handle_counts_now();
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int64_t shape[2] = {8, 6}, rows[2] = {0, 6}, first[2] = {0, 0};
    distfft_decompose(8, P, me, &rows[0], &first[0]);
    int64_t columns[2] = {8, 0}, left[2] = {0, 0};
    distfft_decompose(6, P, me, &columns[1], &left[1]);
    distfft_layout slabs = NULL, pencils = NULL, planned = NULL;
    distfft_reshape reshape = NULL;
    distfft_halo halo = NULL;
    const int64_t widths[2] = {1, 1};
    const int periodic[2] = {1, 1};
    int rc = distfft_layout_from_box(comm, 2, shape, first, rows, &slabs);
    if (!rc) rc = distfft_layout_from_box(comm, 2, shape, left, columns, &pencils);
    if (!rc) rc = distfft_reshape_create(slabs, pencils, DISTFFT_COMPLEX_DOUBLE, 1, NULL, &reshape);
    if (!rc) rc = distfft_layout_halo_create(slabs, DISTFFT_REAL_DOUBLE, widths, NULL, periodic, 1,
                                              DISTFFT_HALO_DATATYPES, &halo);
    distfft_plan plan = shm_plan(comm, 8);
    if (!rc) rc = distfft_plan_input_layout(plan, &planned);
    expect(rc == DISTFFT_SUCCESS, "layouts, a reshape, a halo and a plan's layout made");
    long comms = mpi_handle_counts_now().comms;
    /* rank r lets go of the layouts first when r is even, last when odd */
    if (me % 2 == 0) rc = distfft_layout_release(&slabs) || distfft_layout_release(&pencils);
    rc = rc || distfft_plan_release(&plan) || distfft_halo_release(&halo) || distfft_reshape_release(&reshape) ||
         distfft_layout_release(&planned);
    if (me % 2 == 1) rc = rc || distfft_layout_release(&slabs) || distfft_layout_release(&pencils);
    expect(!rc && !slabs && !pencils && !reshape && !halo && !planned && !plan, "released: handles NULL");
    expect(mpi_handle_counts_now().comms == comms, "released: the communicators wait for collect");
    rc = distfft_collect(comm);
    expect(rc == DISTFFT_SUCCESS && mpi_handle_counts_now().comms == start.comms + 1,
           "collect frees every communicator (comm itself stays)");
    expect(distfft_layout_release(NULL) == DISTFFT_ERR_ARGUMENT && distfft_reshape_release(NULL) ==
           DISTFFT_ERR_ARGUMENT && distfft_halo_release(NULL) == DISTFFT_ERR_ARGUMENT,
           "layout, reshape, halo release(NULL): argument error");
    MPI_Comm_free(&comm);
    expect(same_counts(&start), "layout objects: every handle freed");
}

/* Destroy still works beside the queue, and NULL handles. */
static void destroy_and_null(void)
{
    mpi_handle_counts start = mpi_handle_counts_now();
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    distfft_plan plan = shm_plan(comm, 8);
    int rc = distfft_plan_destroy(&plan);
    expect(rc == DISTFFT_SUCCESS && plan == NULL, "destroy of a numbered plan");
    expect(distfft_plan_release(&plan) == DISTFFT_SUCCESS, "release of a NULL plan: no-op");
    expect(distfft_plan_release(NULL) == DISTFFT_ERR_ARGUMENT, "release(NULL): argument error");
    expect(distfft_redist_release(NULL) == DISTFFT_ERR_ARGUMENT, "redist_release(NULL): argument error");
    expect(distfft_collect(MPI_COMM_NULL) == DISTFFT_ERR_ARGUMENT, "collect(MPI_COMM_NULL): argument error");
    MPI_Comm_free(&comm);
    expect(same_counts(&start), "destroy: every handle freed");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    expect(distfft_collect(MPI_COMM_WORLD) == DISTFFT_SUCCESS, "collect before any object: no-op");
    staggered_release();
    orders();
    freed_communicator();
    layout_objects();
    destroy_and_null();
    /* left released on MPI_COMM_WORLD: MPI_Finalize frees them (the
     * sanitizer and valgrind builds see any use after free) */
    distfft_plan plan = shm_plan(MPI_COMM_WORLD, 8);
    expect(distfft_plan_release(&plan) == DISTFFT_SUCCESS, "released, left to MPI_Finalize");
    int code = failures ? 1 : 0;
    MPI_Finalize();
    return code;
}
