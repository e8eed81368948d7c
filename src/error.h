/*
 * error.h -- error codes, messages and the collective agreement on them.
 *
 * The one thing to know: a collective call must never leave some ranks
 * inside a collective operation while others have returned. So every
 * collective entry point first checks its arguments locally, then calls
 * error_agree() (ONE MPI_Allreduce), and only then does anything else
 * collective. If any rank failed, every rank returns the code and message of
 * the lowest failing rank. Arguments that must be equal on all ranks are
 * agreed in the same single reduction (error_agree_replicated).
 */
#ifndef DISTFFT_ERROR_H
#define DISTFFT_ERROR_H

#include <stdint.h>
#include <mpi.h>

#include "distfft.h"

/* Record a failure of this rank: the message is prefixed with the rank (in
 * MPI_COMM_WORLD) and kept in a thread-local buffer. Returns code. */
int error_fail(int code, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Record a failed MPI call (its MPI error string included). */
int error_mpi(int mpi_code, const char *call);

/* After a failed exchange, no request may outlive the call and none may
 * block it: each active one of requests[0..count) is cancelled, then a
 * receive (receives != 0) is completed -- at once if cancelled, when its
 * data arrives if already matched -- and a send is freed (MPI completes it
 * in the background; waiting could hang where its receiver gave up too).
 * Entries become MPI_REQUEST_NULL, whatever fails; returns the first
 * failure (callers KEEP it: the call is failing already, so the original
 * error is the one reported). */
int requests_abandon(MPI_Request *requests, int count, int receives);
/* Forget the last message (each public call starts with this). */
void error_clear(void);

/* Values that every rank must pass identically, with names for messages. */
#define REPLICATED_MAX 96
typedef struct {
    int count;
    int64_t values[REPLICATED_MAX];
    char names[REPLICATED_MAX][32];
} replicated_args;

void replicated_init(replicated_args *args);
void replicated_add(replicated_args *args, int64_t value, const char *format,
                    ...) __attribute__((format(printf, 3, 4)));

/* Collective on comm: agree on the outcome of local checks. Returns
 * DISTFFT_SUCCESS on every rank if local_code is 0 everywhere, otherwise on
 * every rank the code (and message) of the lowest failing rank -- or,
 * where the only failing ranks could not learn their rank, their code. */
int error_agree(MPI_Comm comm, int local_code);

/* As error_agree, and in the same single reduction also check that every
 * value in args is equal on all ranks (DISTFFT_ERR_MISMATCH otherwise).
 * args may be NULL. */
int error_agree_replicated(MPI_Comm comm, int local_code,
                           const replicated_args *args);

/* Checking MPI calls -- every return code is checked (tests/structure/
 * check_mpi_calls.py fails on a call whose result is thrown away):
 *   TRY_MPI(call)    jump to `fail` with rc set when the call fails;
 *   CHECK_MPI(call)  the call's outcome as a distfft code, where a function
 *                    returns at once or collects local codes;
 *   KEEP_MPI(call)   cleanup and destroy paths: the call runs whatever
 *                    failed before it, and its failure becomes rc only if rc
 *                    is still DISTFFT_SUCCESS -- the first error's code wins
 *                    and everything after is still freed. (A nested free
 *                    that fails after an earlier failure records its own
 *                    message: the code stays the first one's.)
 * The message names the call as written ("MPI_Comm_free(&comm) failed: ...").
 * Local calls -- MPI_Comm_rank, _size, _set_errhandler, datatype
 * constructors -- may fail on some ranks only (test_faults injects it):
 * such a failure is kept as this rank's code and handed to the next
 * agreement, which every rank reaches, never returned at once before a
 * collective the other ranks enter. (error_agree itself survives its own
 * MPI_Comm_rank failing on one rank.) */
static inline int mpi_result(int mpi_code, const char *call)
{
    return mpi_code == MPI_SUCCESS ? DISTFFT_SUCCESS : error_mpi(mpi_code, call);
}
#define CHECK_MPI(call) mpi_result((call), #call)

/* This rank's rank in comm and comm's size (either pointer may be NULL),
 * checked. */
int mpi_rank_size(MPI_Comm comm, int *rank, int *size);

/* Jump to the cleanup label `fail` with rc set when a call fails. */
#define TRY(call)                                                            \
    do {                                                                     \
        rc = (call);                                                         \
        if (rc != DISTFFT_SUCCESS) goto fail;                                \
    } while (0)

#define TRY_MPI(call) TRY(CHECK_MPI(call))

/* Keep the first failure in rc and go on (cleanup paths): KEEP for calls
 * that return a distfft code, KEEP_MPI for MPI calls. */
#define KEEP(call)                                                           \
    do {                                                                     \
        int code_ = (call);                                                  \
        if (rc == DISTFFT_SUCCESS) rc = code_;                               \
    } while (0)

#define KEEP_MPI(call) keep_mpi(&rc, (call), #call)

/* KEEP_MPI where the code lives elsewhere (*rc). */
static inline void keep_mpi(int *rc, int mpi_code, const char *call)
{
    if (*rc == DISTFFT_SUCCESS) *rc = mpi_result(mpi_code, call);
}

#endif
