/*
 * mpi_handle_counter.c -- PMPI wrappers that count MPI objects (see
 * mpi_handle_counter.h). For tests only; single-threaded programs.
 *
 * Every constructor of communicators, derived datatypes, groups and windows that a
 * library like ours might call is wrapped, so a free of an object made by an
 * unwrapped constructor shows up as a negative count rather than going
 * unnoticed. Requests are remembered by handle, because completion calls
 * take arrays in which only some entries finish.
 */
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "mpi_handle_counter.h"

static mpi_handle_counts counts;

mpi_handle_counts mpi_handle_counts_now(void) { return counts; }

/* ---- requests: a set of live handles -------------------------------------- */

static MPI_Request *live;
static long live_count, live_capacity;

static void request_started(MPI_Request request)
{
    if (request == MPI_REQUEST_NULL) return;
    if (live_count == live_capacity) {
        live_capacity = live_capacity ? 2 * live_capacity : 64;
        live = realloc(live, (size_t)live_capacity * sizeof *live);
        if (!live) abort();
    }
    live[live_count++] = request;
    counts.requests++;
    counts.created++;
}

static void request_ended(MPI_Request request)
{
    for (long i = 0; i < live_count; i++)
        if (live[i] == request) {
            live[i] = live[--live_count];
            counts.requests--;
            return;
        }
}

/* After a completion call on requests[0..n): entries that became
 * MPI_REQUEST_NULL have ended (`before` holds them as they were). */
static void requests_completed(int n, const MPI_Request *before,
                               const MPI_Request *after)
{
    for (int i = 0; i < n; i++)
        if (before[i] != MPI_REQUEST_NULL && after[i] == MPI_REQUEST_NULL)
            request_ended(before[i]);
}

/* Copy n requests to a scratch array (freed by the caller). */
static MPI_Request *copy_requests(int n, const MPI_Request *requests)
{
    MPI_Request *copy = malloc((size_t)(n > 0 ? n : 1) * sizeof *copy);
    if (!copy) abort();
    if (n > 0) memcpy(copy, requests, (size_t)n * sizeof *copy);
    return copy;
}

/* ---- fault injection ---------------------------------------------------------
 * tests/support/mpi_fault.c (test_faults only) defines mpi_fault_hit; in
 * other programs the weak reference is NULL and nothing fails. */
int mpi_fault_hit(const char *name) __attribute__((weak));
#define FAULT(name, handle, null)                                            \
    do {                                                                     \
        if (mpi_fault_hit && mpi_fault_hit(name)) {                          \
            *(handle) = (null);                                              \
            return MPI_ERR_OTHER;                                            \
        }                                                                    \
    } while (0)
#define FAULT_NO_HANDLE(name)                                                \
    do {                                                                     \
        if (mpi_fault_hit && mpi_fault_hit(name)) return MPI_ERR_OTHER;      \
    } while (0)
/* A free that is made to fail still frees -- the object is gone, the call
 * reports an error -- so the counts show whether the rest of a destroy
 * went on: anything it then left behind is the library's leak. */
#define FREED(name, rc)                                                      \
    ((rc) == MPI_SUCCESS && mpi_fault_hit && mpi_fault_hit(name) ? MPI_ERR_OTHER : (rc))

/* ---- counting helpers ------------------------------------------------------ */

static int comm_made(int rc, MPI_Comm made)
{
    if (rc == MPI_SUCCESS && made != MPI_COMM_NULL) {
        counts.comms++;
        counts.created++;
    }
    return rc;
}

static int type_made(int rc)
{
    if (rc == MPI_SUCCESS) {
        counts.datatypes++;
        counts.created++;
    }
    return rc;
}

static int group_made(int rc, MPI_Group made)
{
    if (rc == MPI_SUCCESS && made != MPI_GROUP_NULL && made != MPI_GROUP_EMPTY) {
        counts.groups++;
        counts.created++;
    }
    return rc;
}

/* ---- communicators ---------------------------------------------------------- */

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    FAULT("MPI_Comm_dup", newcomm, MPI_COMM_NULL);
    int rc = PMPI_Comm_dup(comm, newcomm);
    return comm_made(rc, *newcomm);
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_dup_with_info(comm, info, newcomm);
    return comm_made(rc, *newcomm);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    FAULT("MPI_Comm_split", newcomm, MPI_COMM_NULL);
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    return comm_made(rc, *newcomm);
}

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                        MPI_Comm *newcomm)
{
    FAULT("MPI_Comm_split_type", newcomm, MPI_COMM_NULL);
    int rc = PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
    return comm_made(rc, *newcomm);
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_create(comm, group, newcomm);
    return comm_made(rc, *newcomm);
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag,
                          MPI_Comm *newcomm)
{
    FAULT("MPI_Comm_create_group", newcomm, MPI_COMM_NULL);
    int rc = PMPI_Comm_create_group(comm, group, tag, newcomm);
    return comm_made(rc, *newcomm);
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[],
                    const int periods[], int reorder, MPI_Comm *newcomm)
{
    FAULT("MPI_Cart_create", newcomm, MPI_COMM_NULL);
    int rc = PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm);
    return comm_made(rc, *newcomm);
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    FAULT("MPI_Cart_sub", newcomm, MPI_COMM_NULL);
    int rc = PMPI_Cart_sub(comm, remain_dims, newcomm);
    return comm_made(rc, *newcomm);
}

int MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree,
                                   const int sources[],
                                   const int sourceweights[], int outdegree,
                                   const int destinations[],
                                   const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm *newcomm)
{
    int rc = PMPI_Dist_graph_create_adjacent(
        comm, indegree, sources, sourceweights, outdegree, destinations,
        destweights, info, reorder, newcomm);
    return comm_made(rc, *newcomm);
}

int MPI_Comm_free(MPI_Comm *comm)
{
    int rc = PMPI_Comm_free(comm);
    if (rc == MPI_SUCCESS) counts.comms--;
    return FREED("MPI_Comm_free", rc);
}

/* ---- groups ------------------------------------------------------------------- */

int MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    FAULT("MPI_Comm_group", group, MPI_GROUP_NULL);
    int rc = PMPI_Comm_group(comm, group);
    return group_made(rc, *group);
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[],
                   MPI_Group *newgroup)
{
    FAULT("MPI_Group_incl", newgroup, MPI_GROUP_NULL);
    int rc = PMPI_Group_incl(group, n, ranks, newgroup);
    return group_made(rc, *newgroup);
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[],
                   MPI_Group *newgroup)
{
    int rc = PMPI_Group_excl(group, n, ranks, newgroup);
    return group_made(rc, *newgroup);
}

int MPI_Group_free(MPI_Group *group)
{
    MPI_Group old = *group;
    int rc = PMPI_Group_free(group);
    if (rc == MPI_SUCCESS && old != MPI_GROUP_EMPTY) counts.groups--;
    return FREED("MPI_Group_free", rc);
}

/* ---- windows ------------------------------------------------------------------ */

static int window_made(int rc)
{
    if (rc == MPI_SUCCESS) {
        counts.windows++;
        counts.created++;
    }
    return rc;
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
                            MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    FAULT("MPI_Win_allocate_shared", win, MPI_WIN_NULL);
    return window_made(
        PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win));
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                     MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    return window_made(
        PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win));
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                   MPI_Comm comm, MPI_Win *win)
{
    return window_made(
        PMPI_Win_create(base, size, disp_unit, info, comm, win));
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return window_made(PMPI_Win_create_dynamic(info, comm, win));
}

int MPI_Win_free(MPI_Win *win)
{
    int rc = PMPI_Win_free(win);
    if (rc == MPI_SUCCESS) counts.windows--;
    return FREED("MPI_Win_free", rc);
}

/* ---- derived datatypes ---------------------------------------------------------- */

int MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    FAULT("MPI_Type_contiguous", newtype, MPI_DATATYPE_NULL);
    return type_made(PMPI_Type_contiguous(count, oldtype, newtype));
}

int MPI_Type_vector(int count, int blocklength, int stride,
                    MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    FAULT("MPI_Type_vector", newtype, MPI_DATATYPE_NULL);
    return type_made(
        PMPI_Type_vector(count, blocklength, stride, oldtype, newtype));
}

int MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride,
                            MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    FAULT("MPI_Type_create_hvector", newtype, MPI_DATATYPE_NULL);
    return type_made(
        PMPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype));
}

int MPI_Type_indexed(int count, const int blocklengths[],
                     const int displacements[], MPI_Datatype oldtype,
                     MPI_Datatype *newtype)
{
    return type_made(PMPI_Type_indexed(count, blocklengths, displacements,
                                       oldtype, newtype));
}

int MPI_Type_create_hindexed(int count, const int blocklengths[],
                             const MPI_Aint displacements[],
                             MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_made(PMPI_Type_create_hindexed(count, blocklengths,
                                               displacements, oldtype,
                                               newtype));
}

int MPI_Type_create_struct(int count, const int blocklengths[],
                           const MPI_Aint displacements[],
                           const MPI_Datatype types[], MPI_Datatype *newtype)
{
    FAULT("MPI_Type_create_struct", newtype, MPI_DATATYPE_NULL);
    return type_made(PMPI_Type_create_struct(count, blocklengths,
                                             displacements, types, newtype));
}

int MPI_Type_create_subarray(int ndims, const int sizes[],
                             const int subsizes[], const int starts[],
                             int order, MPI_Datatype oldtype,
                             MPI_Datatype *newtype)
{
    FAULT("MPI_Type_create_subarray", newtype, MPI_DATATYPE_NULL);
    return type_made(PMPI_Type_create_subarray(ndims, sizes, subsizes, starts,
                                               order, oldtype, newtype));
}

int MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                            MPI_Datatype *newtype)
{
    FAULT("MPI_Type_create_resized", newtype, MPI_DATATYPE_NULL);
    return type_made(PMPI_Type_create_resized(oldtype, lb, extent, newtype));
}

int MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_made(PMPI_Type_dup(oldtype, newtype));
}

#if MPI_VERSION >= 4
/* MPI-4 large-count constructors (MPICH 4 has them; Open MPI 4 does not). */
int MPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype,
                          MPI_Datatype *newtype)
{
    return type_made(PMPI_Type_contiguous_c(count, oldtype, newtype));
}

int MPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                      MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_made(
        PMPI_Type_vector_c(count, blocklength, stride, oldtype, newtype));
}

int MPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength,
                              MPI_Count stride, MPI_Datatype oldtype,
                              MPI_Datatype *newtype)
{
    return type_made(PMPI_Type_create_hvector_c(count, blocklength, stride,
                                                oldtype, newtype));
}

int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count blocklengths[],
                             const MPI_Count displacements[],
                             const MPI_Datatype types[], MPI_Datatype *newtype)
{
    return type_made(PMPI_Type_create_struct_c(count, blocklengths,
                                               displacements, types, newtype));
}

int MPI_Type_create_subarray_c(int ndims, const MPI_Count sizes[],
                               const MPI_Count subsizes[],
                               const MPI_Count starts[], int order,
                               MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return type_made(PMPI_Type_create_subarray_c(ndims, sizes, subsizes,
                                                 starts, order, oldtype,
                                                 newtype));
}

int MPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb,
                              MPI_Count extent, MPI_Datatype *newtype)
{
    return type_made(PMPI_Type_create_resized_c(oldtype, lb, extent, newtype));
}
#endif

int MPI_Type_free(MPI_Datatype *datatype)
{
    int rc = PMPI_Type_free(datatype);
    if (rc == MPI_SUCCESS) counts.datatypes--;
    return FREED("MPI_Type_free", rc);
}

/* ---- requests ------------------------------------------------------------------- */

#define STARTS_REQUEST(call)                                                 \
    do {                                                                     \
        int rc_ = (call);                                                    \
        if (rc_ == MPI_SUCCESS) request_started(*request);                   \
        return rc_;                                                          \
    } while (0)

int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest,
              int tag, MPI_Comm comm, MPI_Request *request)
{
    FAULT("MPI_Isend", request, MPI_REQUEST_NULL);
    STARTS_REQUEST(PMPI_Isend(buf, count, datatype, dest, tag, comm, request));
}

int MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest,
               int tag, MPI_Comm comm, MPI_Request *request)
{
    STARTS_REQUEST(PMPI_Issend(buf, count, datatype, dest, tag, comm, request));
}

int MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
              MPI_Comm comm, MPI_Request *request)
{
    FAULT("MPI_Irecv", request, MPI_REQUEST_NULL);
    STARTS_REQUEST(PMPI_Irecv(buf, count, datatype, source, tag, comm, request));
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest,
                  int tag, MPI_Comm comm, MPI_Request *request)
{
    STARTS_REQUEST(
        PMPI_Send_init(buf, count, datatype, dest, tag, comm, request));
}

int MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source,
                  int tag, MPI_Comm comm, MPI_Request *request)
{
    STARTS_REQUEST(
        PMPI_Recv_init(buf, count, datatype, source, tag, comm, request));
}

int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request *request)
{
    FAULT("MPI_Ialltoallw", request, MPI_REQUEST_NULL);
    STARTS_REQUEST(PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes,
                                   recvbuf, recvcounts, rdispls, recvtypes,
                                   comm, request));
}

int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    STARTS_REQUEST(PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype,
                                   recvbuf, recvcounts, rdispls, recvtype,
                                   comm, request));
}

#if MPI_VERSION >= 4
int MPI_Isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype,
                int dest, int tag, MPI_Comm comm, MPI_Request *request)
{
    STARTS_REQUEST(
        PMPI_Isend_c(buf, count, datatype, dest, tag, comm, request));
}

int MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                int tag, MPI_Comm comm, MPI_Request *request)
{
    STARTS_REQUEST(
        PMPI_Irecv_c(buf, count, datatype, source, tag, comm, request));
}
#endif

int MPI_Request_free(MPI_Request *request)
{
    MPI_Request old = *request;
    int rc = PMPI_Request_free(request);
    if (rc == MPI_SUCCESS) request_ended(old);
    return rc;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    FAULT_NO_HANDLE("MPI_Wait");
    MPI_Request old = *request;
    int rc = PMPI_Wait(request, status);
    requests_completed(1, &old, request);
    return rc;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    MPI_Request old = *request;
    int rc = PMPI_Test(request, flag, status);
    requests_completed(1, &old, request);
    return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    FAULT_NO_HANDLE("MPI_Waitall");
    MPI_Request *before = copy_requests(count, requests);
    int rc = PMPI_Waitall(count, requests, statuses);
    requests_completed(count, before, requests);
    free(before);
    return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int *flag,
                MPI_Status statuses[])
{
    MPI_Request *before = copy_requests(count, requests);
    int rc = PMPI_Testall(count, requests, flag, statuses);
    requests_completed(count, before, requests);
    free(before);
    return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int *index,
                MPI_Status *status)
{
    MPI_Request *before = copy_requests(count, requests);
    int rc = PMPI_Waitany(count, requests, index, status);
    requests_completed(count, before, requests);
    free(before);
    return rc;
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag,
                MPI_Status *status)
{
    MPI_Request *before = copy_requests(count, requests);
    int rc = PMPI_Testany(count, requests, index, flag, status);
    requests_completed(count, before, requests);
    free(before);
    return rc;
}

int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount,
                 int indices[], MPI_Status statuses[])
{
    FAULT_NO_HANDLE("MPI_Waitsome");
    MPI_Request *before = copy_requests(incount, requests);
    int rc = PMPI_Waitsome(incount, requests, outcount, indices, statuses);
    requests_completed(incount, before, requests);
    free(before);
    return rc;
}

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount,
                 int indices[], MPI_Status statuses[])
{
    MPI_Request *before = copy_requests(incount, requests);
    int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
    requests_completed(incount, before, requests);
    free(before);
    return rc;
}
