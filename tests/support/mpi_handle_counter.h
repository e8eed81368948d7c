/*
 * mpi_handle_counter.h -- count the MPI objects a program creates and frees.
 *
 * mpi_handle_counter.c defines MPI_Comm_dup, MPI_Type_commit, MPI_Isend,
 * MPI_Win_allocate_shared, MPI_Comm_free, ... (the standard's profiling interface): each wrapper
 * calls the PMPI_ version and counts. Link it, with the STATIC distfft
 * library, into a test only: the library's calls then go through the
 * wrappers, and the counts say whether destroy freed everything create made.
 *
 * Requests are tracked by handle: a request is live from the call that
 * returns it until a completion call (Wait/Test families) sets it to
 * MPI_REQUEST_NULL, or MPI_Request_free.
 */
#ifndef MPI_HANDLE_COUNTER_H
#define MPI_HANDLE_COUNTER_H

typedef struct {
    long comms;     /* communicators created minus freed */
    long datatypes; /* derived datatypes created minus freed */
    long groups;    /* groups created minus freed */
    long requests;  /* requests started and not yet completed or freed */
    long windows;   /* RMA windows (shared ones included) created minus freed */
    long created;   /* every object ever created (all five kinds) */
} mpi_handle_counts;

/* This process's current counts. */
mpi_handle_counts mpi_handle_counts_now(void);

#endif
