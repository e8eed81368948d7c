/*
 * mpi_fault.c -- fault injection for tests (see mpi_fault.h): the k-th call
 * of one MPI function, or the k-th allocation, fails.
 *
 * The wrappers here are the calls mpi_handle_counter.c does not wrap
 * (collectives, MPI-IO, commits, queries, releases); the counter's
 * wrappers call mpi_fault_hit themselves. A failed call does not reach MPI, so a
 * collective armed at the same k on every rank fails on every rank
 * together, as an MPI error that every rank sees would.
 */
#include <stddef.h>
#include <string.h>

#include <mpi.h>

#include "mpi_fault.h"

#define MAX_NAMES 96
static const char *names[MAX_NAMES];
static long calls[MAX_NAMES];
static int n_names, counting, fired;
static const char *armed;
static long armed_at;

static int slot(const char *name)
{
    for (int i = 0; i < n_names; i++)
        if (!strcmp(names[i], name)) return i;
    if (n_names == MAX_NAMES) return -1;
    names[n_names] = name;
    calls[n_names] = 0;
    return n_names++;
}

void mpi_fault_start(const char *name, long k)
{
    for (int i = 0; i < n_names; i++) calls[i] = 0;
    armed = name;
    armed_at = k;
    fired = 0;
    counting = 1;
}

void mpi_fault_stop(void)
{
    counting = 0;
    armed = NULL;
}

long mpi_fault_count(const char *name)
{
    for (int i = 0; i < n_names; i++)
        if (!strcmp(names[i], name)) return calls[i];
    return 0;
}

int mpi_fault_fired(void) { return fired; }

int mpi_fault_hit(const char *name)
{
    if (!counting) return 0;
    int i = slot(name);
    if (i < 0) return 0;
    calls[i]++;
    if (armed && !fired && !strcmp(armed, name) && calls[i] == armed_at) {
        fired = 1;
        return 1;
    }
    return 0;
}

/* ---- allocations (the library's, through -Wl,--wrap=...) --------------------- */

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *pointer, size_t size);
char *__real_strdup(const char *text);
void *__real_fftw_malloc(size_t size);

void *__wrap_malloc(size_t size)
{
    return mpi_fault_hit("alloc") ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t count, size_t size)
{
    return mpi_fault_hit("alloc") ? NULL : __real_calloc(count, size);
}

void *__wrap_realloc(void *pointer, size_t size)
{
    return mpi_fault_hit("alloc") ? NULL : __real_realloc(pointer, size);
}

char *__wrap_strdup(const char *text)
{
    return mpi_fault_hit("alloc") ? NULL : __real_strdup(text);
}

void *__wrap_fftw_malloc(size_t size)
{
    return mpi_fault_hit("alloc") ? NULL : __real_fftw_malloc(size);
}

/* ---- MPI calls the handle counter does not wrap ------------------------------ */

#define FAIL_IF_ARMED(name)                                                  \
    do {                                                                     \
        if (mpi_fault_hit(name)) return MPI_ERR_OTHER;                       \
    } while (0)

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm)
{
    FAIL_IF_ARMED("MPI_Allreduce");
    return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    FAIL_IF_ARMED("MPI_Allgather");
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    FAIL_IF_ARMED("MPI_Bcast");
    return PMPI_Bcast(buffer, count, datatype, root, comm);
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    FAIL_IF_ARMED("MPI_Gather");
    return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    FAIL_IF_ARMED("MPI_Scatter");
    return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

int MPI_Barrier(MPI_Comm comm)
{
    FAIL_IF_ARMED("MPI_Barrier");
    return PMPI_Barrier(comm);
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    FAIL_IF_ARMED("MPI_Alltoall");
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    FAIL_IF_ARMED("MPI_Alltoallv");
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                          rdispls, recvtype, comm);
}

int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    FAIL_IF_ARMED("MPI_Alltoallw");
    return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                          rdispls, recvtypes, comm);
}

int MPI_Type_commit(MPI_Datatype *datatype)
{
    FAIL_IF_ARMED("MPI_Type_commit");
    return PMPI_Type_commit(datatype);
}

int MPI_Info_create(MPI_Info *info)
{
    if (mpi_fault_hit("MPI_Info_create")) {
        *info = MPI_INFO_NULL;
        return MPI_ERR_OTHER;
    }
    return PMPI_Info_create(info);
}

int MPI_File_open(MPI_Comm comm, const char *filename, int amode, MPI_Info info, MPI_File *fh)
{
    if (mpi_fault_hit("MPI_File_open")) {
        *fh = MPI_FILE_NULL;
        return MPI_ERR_OTHER;
    }
    return PMPI_File_open(comm, filename, amode, info, fh);
}

int MPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                      const char *datarep, MPI_Info info)
{
    FAIL_IF_ARMED("MPI_File_set_view");
    return PMPI_File_set_view(fh, disp, etype, filetype, datarep, info);
}

int MPI_File_write_all(MPI_File fh, const void *buf, int count, MPI_Datatype datatype,
                       MPI_Status *status)
{
    FAIL_IF_ARMED("MPI_File_write_all");
    return PMPI_File_write_all(fh, buf, count, datatype, status);
}

int MPI_File_read_all(MPI_File fh, void *buf, int count, MPI_Datatype datatype,
                      MPI_Status *status)
{
    FAIL_IF_ARMED("MPI_File_read_all");
    return PMPI_File_read_all(fh, buf, count, datatype, status);
}

int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    FAIL_IF_ARMED("MPI_Comm_rank");
    return PMPI_Comm_rank(comm, rank);
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
    FAIL_IF_ARMED("MPI_Comm_size");
    return PMPI_Comm_size(comm, size);
}

int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    FAIL_IF_ARMED("MPI_Comm_set_errhandler");
    return PMPI_Comm_set_errhandler(comm, errhandler);
}

/* ---- releases: made to fail, they still release (see FREED in
 * mpi_handle_counter.c, which fails MPI_Comm_free, _Type_free, _Win_free) --- */

static int released(const char *name, int rc)
{
    return rc == MPI_SUCCESS && mpi_fault_hit(name) ? MPI_ERR_OTHER : rc;
}

int MPI_Info_free(MPI_Info *info)
{
    return released("MPI_Info_free", PMPI_Info_free(info));
}

int MPI_File_close(MPI_File *fh)
{
    return released("MPI_File_close", PMPI_File_close(fh));
}

int MPI_Win_unlock_all(MPI_Win win)
{
    return released("MPI_Win_unlock_all", PMPI_Win_unlock_all(win));
}
