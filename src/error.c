/*
 * error.c -- error codes, messages and the collective agreement on them
 * (see error.h). After FFTW's mpi/any-true.c: "if any process fails ...
 * then all of the processes must fail".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

#define MESSAGE_SIZE 512

static _Thread_local char last_message[MESSAGE_SIZE];

const char *distfft_error_string(int code)
{
    switch (code) {
    case DISTFFT_SUCCESS: return "success";
    case DISTFFT_ERR_ARGUMENT: return "invalid argument";
    case DISTFFT_ERR_SHAPE: return "invalid or inconsistent array shape";
    case DISTFFT_ERR_GRID: return "process grid does not fit";
    case DISTFFT_ERR_MISMATCH: return "argument differs between ranks";
    case DISTFFT_ERR_ALIGNMENT: return "buffer not aligned as distfft_malloc aligns";
    case DISTFFT_ERR_UNSUPPORTED: return "unsupported request";
    case DISTFFT_ERR_MEMORY: return "out of memory";
    case DISTFFT_ERR_FFTW: return "FFTW could not create a plan";
    case DISTFFT_ERR_MPI: return "MPI call failed";
    default: return "unknown error code";
    }
}

const char *distfft_last_error(void) { return last_message; }

void error_clear(void) { last_message[0] = '\0'; }

/* -1 when MPI cannot say (not running, or the call fails): this is for a
 * message, which must not fail itself. */
static int world_rank(void)
{
    int initialized = 0, finalized = 0, rank = -1;
    if (MPI_Initialized(&initialized) != MPI_SUCCESS || !initialized ||
        MPI_Finalized(&finalized) != MPI_SUCCESS || finalized ||
        MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS)
        return -1;
    return rank;
}

int error_fail(int code, const char *format, ...)
{
    int used = snprintf(last_message, MESSAGE_SIZE, "distfft error on rank %d: ",
                        world_rank());
    va_list args;
    va_start(args, format);
    if (used >= 0 && used < MESSAGE_SIZE)
        vsnprintf(last_message + used, MESSAGE_SIZE - used, format, args);
    va_end(args);
    return code;
}

int requests_abandon(MPI_Request *requests, int count, int receives)
{
    int rc = DISTFFT_SUCCESS;
    for (int i = 0; requests && i < count; i++) {
        if (requests[i] == MPI_REQUEST_NULL) continue;
        KEEP_MPI(MPI_Cancel(&requests[i]));
        if (receives) KEEP_MPI(MPI_Wait(&requests[i], MPI_STATUS_IGNORE));
        else KEEP_MPI(MPI_Request_free(&requests[i]));
        requests[i] = MPI_REQUEST_NULL;
    }
    return rc;
}

int error_mpi(int mpi_code, const char *call)
{
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(mpi_code, text, &length) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", mpi_code);
    return error_fail(DISTFFT_ERR_MPI, "%s failed: %s", call, text);
}

int mpi_rank_size(MPI_Comm comm, int *rank, int *size)
{
    int rc = rank ? CHECK_MPI(MPI_Comm_rank(comm, rank)) : DISTFFT_SUCCESS;
    if (rc == DISTFFT_SUCCESS && size) rc = CHECK_MPI(MPI_Comm_size(comm, size));
    return rc;
}

void replicated_init(replicated_args *args) { args->count = 0; }

void replicated_add(replicated_args *args, int64_t value, const char *format,
                    ...)
{
    if (args->count >= REPLICATED_MAX) abort(); /* a library bug, not input */
    va_list list;
    va_start(list, format);
    vsnprintf(args->names[args->count], sizeof args->names[0], format, list);
    va_end(list);
    args->values[args->count++] = value;
}

/* Broadcast the failing rank's code and message to every rank. */
static int share_failure(MPI_Comm comm, int failing_rank, int local_code)
{
    struct { int code; char message[MESSAGE_SIZE]; } failure;
    failure.code = local_code;
    memcpy(failure.message, last_message, MESSAGE_SIZE);
    int mpi_code = MPI_Bcast(&failure, (int)sizeof failure, MPI_BYTE,
                             failing_rank, comm);
    if (mpi_code != MPI_SUCCESS) return error_mpi(mpi_code, "MPI_Bcast");
    memcpy(last_message, failure.message, MESSAGE_SIZE);
    last_message[MESSAGE_SIZE - 1] = '\0';
    return failure.code;
}

/* buffer[0] of the agreement: 0 where this rank succeeded, FAILED_AT -
 * rank where it failed (the MAX picks the lowest failing rank, whose
 * message every rank takes), or the bare code where it failed and could not
 * even learn its rank -- MPI_Comm_rank failing on this rank only: it still
 * takes part, so no rank is left alone in the reduction. Codes are below
 * 2^31 <= FAILED_AT - rank. */
#define FAILED_AT ((int64_t)1 << 32)

/* The agreement; `replicated` selects the fixed long form (every rank of a
 * call site must pass the same). */
static int agree(MPI_Comm comm, int local_code, const replicated_args *args,
                 int replicated)
{
    int rank = -1, rank_known = MPI_Comm_rank(comm, &rank) == MPI_SUCCESS;
    if (!rank_known && local_code == DISTFFT_SUCCESS) /* else the first failure's message stays */
        local_code = error_fail(DISTFFT_ERR_MPI, "MPI_Comm_rank failed in the error agreement");

    /* One MAX-reduction carries: the failure (above), then every
     * replicated value and its negation (so both max and min come back).
     * Its length is fixed: a rank that failed early, or that disagrees on
     * ndims, has fewer values, and MPI needs equal counts everywhere. */
    int count = args ? args->count : 0;
    int64_t buffer[1 + 2 * REPLICATED_MAX] = {0};
    if (local_code != DISTFFT_SUCCESS) buffer[0] = rank_known ? FAILED_AT - rank : local_code;
    for (int i = 0; i < count; i++) {
        buffer[1 + i] = args->values[i];
        buffer[1 + REPLICATED_MAX + i] = -args->values[i];
    }
    int length = replicated ? 1 + 2 * REPLICATED_MAX : 1;
    int mpi_code = MPI_Allreduce(MPI_IN_PLACE, buffer, length, MPI_INT64_T,
                                 MPI_MAX, comm);
    if (mpi_code != MPI_SUCCESS) return error_mpi(mpi_code, "MPI_Allreduce");

    if (buffer[0] > FAILED_AT / 2)
        return share_failure(comm, (int)(FAILED_AT - buffer[0]), local_code);
    if (buffer[0] > 0) { /* only ranks that do not know their rank failed */
        if (local_code == DISTFFT_SUCCESS)
            error_fail((int)buffer[0], "%s on another rank (MPI_Comm_rank failed there)",
                       distfft_error_string((int)buffer[0]));
        return (int)buffer[0];
    }
    for (int i = 0; i < count; i++) {
        int64_t max = buffer[1 + i], min = -buffer[1 + REPLICATED_MAX + i];
        if (min != max) {
            error_fail(DISTFFT_ERR_MISMATCH,
                       "%s must be the same on every rank (this rank has %lld;"
                       " values range from %lld to %lld)",
                       args->names[i], (long long)args->values[i],
                       (long long)min, (long long)max);
            return DISTFFT_ERR_MISMATCH;
        }
    }
    error_clear();
    return DISTFFT_SUCCESS;
}

int error_agree_replicated(MPI_Comm comm, int local_code,
                           const replicated_args *args)
{
    return agree(comm, local_code, args, 1);
}

int error_agree(MPI_Comm comm, int local_code)
{
    return agree(comm, local_code, NULL, 0);
}
