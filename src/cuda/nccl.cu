/*
 * nccl.cu -- the CUDA backend's messages between device buffers
 * (redist/copies.h: redist_messages), by NCCL, for the nccl exchange row.
 * NCCL is not linked: libnccl.so.2 is opened with dlopen the first time a
 * plan asks whether it is there, so the backend loads, and staged serves,
 * where NCCL is absent; then the nccl row says why it does not apply.
 * Each function pointer has the type of nccl.h's declaration, so the
 * compiler checks every call against the header the build found.
 *
 * Several ranks sharing one device need NCCL >= 2.30 and
 * NCCL_MULTI_RANK_GPU_ENABLE=1 in the environment (NCCL reads it);
 * without them ncclCommInitRank refuses, and the refusal is the plan's
 * error on every rank.
 */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <cuda_runtime.h>
#include <nccl.h>

#include "cuda/cuda_backend.h"

#define NCCL_LIBRARY "libnccl.so.2"

static pthread_once_t loading = PTHREAD_ONCE_INIT;

static struct {
    char why[512];              /* empty: loaded */
    decltype(&ncclGetVersion) get_version;
    decltype(&ncclGetErrorString) error_string;
    decltype(&ncclGetLastError) last_error;
    decltype(&ncclGetUniqueId) unique_id;
    decltype(&ncclCommInitRank) init_rank;
    decltype(&ncclCommDestroy) destroy;
    decltype(&ncclCommAbort) abort;
    decltype(&ncclGroupStart) group_start;
    decltype(&ncclGroupEnd) group_end;
    decltype(&ncclSend) send;
    decltype(&ncclRecv) receive;
} nccl;

/* *pointer = the library's `name`; false (with the reason) when missing. */
template <typename Function>
static bool find(void *library, const char *name, Function *pointer)
{
    void *symbol = dlsym(library, name);
    memcpy(pointer, &symbol, sizeof *pointer); /* object pointer to function pointer */
    if (symbol) return true;
    snprintf(nccl.why, sizeof nccl.why, "%s has no %s", NCCL_LIBRARY, name);
    return false;
}

static void load(void)
{
    void *library = dlopen(NCCL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(nccl.why, sizeof nccl.why, "NCCL (%s) cannot load: %s", NCCL_LIBRARY, reason ? reason : "not found");
        return;
    }
    bool found = find(library, "ncclGetVersion", &nccl.get_version) &&
                 find(library, "ncclGetErrorString", &nccl.error_string) &&
                 find(library, "ncclGetLastError", &nccl.last_error) &&
                 find(library, "ncclGetUniqueId", &nccl.unique_id) &&
                 find(library, "ncclCommInitRank", &nccl.init_rank) &&
                 find(library, "ncclCommDestroy", &nccl.destroy) && find(library, "ncclCommAbort", &nccl.abort) &&
                 find(library, "ncclGroupStart", &nccl.group_start) &&
                 find(library, "ncclGroupEnd", &nccl.group_end) && find(library, "ncclSend", &nccl.send) &&
                 find(library, "ncclRecv", &nccl.receive);
    int version = 0;
    if (found && (nccl.get_version(&version) != ncclSuccess || version < NCCL_VERSION(2, 7, 0))) {
        snprintf(nccl.why, sizeof nccl.why, "NCCL %d is older than 2.7 (ncclSend and ncclRecv)", version);
        found = false;
    }
    if (!found) dlclose(library); /* else kept open for the life of the process */
}

static const char *nccl_unavailable(void)
{
    if (pthread_once(&loading, load) != 0) return "NCCL could not be loaded (pthread_once failed)";
    return nccl.why[0] ? nccl.why : NULL;
}

/* A failed NCCL call as the core's error, with NCCL's own words. */
static int nccl_failed(ncclResult_t result, const char *what, ncclComm_t communicator)
{
    const char *detail = communicator ? nccl.last_error(communicator) : "";
    return cuda_services->fail(DISTFFT_ERR_UNSUPPORTED, "memory cuda: %s failed (%s%s%s)", what,
                               nccl.error_string(result),
                               detail && detail[0] ? ": " : "", detail ? detail : "");
}

static int nccl_make_id(void *id)
{
    ncclResult_t result = nccl.unique_id((ncclUniqueId *)id);
    return result == ncclSuccess ? DISTFFT_SUCCESS : nccl_failed(result, "ncclGetUniqueId", NULL);
}

static int nccl_open(const void *id, int ranks, int rank, void **communicator)
{
    ncclComm_t made = NULL;
    ncclUniqueId unique;
    memcpy(&unique, id, sizeof unique);
    ncclResult_t result = nccl.init_rank(&made, ranks, unique, rank);
    *communicator = result == ncclSuccess ? made : NULL;
    if (result == ncclSuccess) return DISTFFT_SUCCESS;
    return nccl_failed(result, "ncclCommInitRank (several ranks on one device need NCCL >= 2.30 and "
                       "NCCL_MULTI_RANK_GPU_ENABLE=1)", NULL);
}

static int nccl_close(void *communicator, bool abort)
{
    ncclComm_t comm = (ncclComm_t)communicator;
    ncclResult_t result = abort ? nccl.abort(comm) : nccl.destroy(comm);
    return result == ncclSuccess ? DISTFFT_SUCCESS
                                 : nccl_failed(result, abort ? "ncclCommAbort" : "ncclCommDestroy", NULL);
}

static int nccl_run(void *communicator, const redist_message *messages, int count, const void *send_buffer,
                    void *receive_buffer, void *stream)
{
    ncclComm_t comm = (ncclComm_t)communicator;
    cudaStream_t on = (cudaStream_t)stream;
    ncclResult_t result = nccl.group_start();
    for (int i = 0; i < count && result == ncclSuccess; i++) {
        const redist_message *m = &messages[i];
        if (m->receive)
            result = nccl.receive((char *)receive_buffer + m->offset, m->bytes, ncclInt8, m->peer, comm, on);
        else
            result = nccl.send((const char *)send_buffer + m->offset, m->bytes, ncclInt8, m->peer, comm, on);
    }
    ncclResult_t ended = nccl.group_end(); /* always: a started group must end */
    if (result == ncclSuccess) result = ended;
    return result == ncclSuccess ? DISTFFT_SUCCESS : nccl_failed(result, "an NCCL group of sends and receives", comm);
}

const redist_messages cuda_nccl = {"nccl",    nccl_unavailable, sizeof(ncclUniqueId), nccl_make_id,
                                   nccl_open, nccl_close,       nccl_run};
