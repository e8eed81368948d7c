/*
 * gather.c -- assemble a distributed array on one rank, or spread one from
 * it. Each block travels as a contiguous message and lands in (or leaves)
 * the global array through a subarray datatype, so nothing is copied by us.
 * For tests, I/O and small problems: the root needs the whole array.
 * Blocks of any element count (big_count.h); each axis below 2^31.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "big_count.h"
#include "types.h"

#define BLOCK_TAG 7001

static int check_blocks(MPI_Comm comm, distfft_type type, int ndims,
                        const int64_t *global_shape, const int64_t *local_shape,
                        const int64_t *global_start, const void *local,
                        int root, const void *global, const char *where,
                        replicated_args *args)
{
    int size, rank, rc = mpi_rank_size(comm, &rank, &size);
    if (rc != DISTFFT_SUCCESS) return rc;
    if (!type_is_valid(type)) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown element type %d", where, (int)type);
    if (ndims < 1 || ndims > DISTFFT_MAX_DIMS)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: ndims = %d must be in 1..%d", where, ndims, DISTFFT_MAX_DIMS);
    if (!global_shape || !local_shape || !global_start)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: a shape or start argument is NULL", where);
    if (root < 0 || root >= size) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: root = %d is not a rank of comm", where, root);
    for (int i = 0; i < ndims; i++) {
        if (global_shape[i] < 0 || global_shape[i] > INT_MAX || local_shape[i] < 0 || global_start[i] < 0 ||
            global_start[i] + local_shape[i] > global_shape[i])
            return error_fail(DISTFFT_ERR_SHAPE, "%s: axis %d: block of %lld at %lld does not fit in 0..%lld",
                              where, i, (long long)local_shape[i], (long long)global_start[i], (long long)global_shape[i]);
    }
    int64_t count = shape_product(ndims, local_shape);
    if (!local && count > 0) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: local is NULL for a non-empty block", where);
    if (rank == root && !global && shape_product(ndims, global_shape) > 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: global is NULL on the root", where);
    replicated_add(args, type, "element type");
    replicated_add(args, ndims, "ndims");
    replicated_add(args, root, "root");
    for (int i = 0; i < ndims; i++) replicated_add(args, global_shape[i], "global_shape[%d]", i);
    return DISTFFT_SUCCESS;
}

/* Move every block between the ranks and the root's global array:
 * to_root = 1 gathers, 0 scatters. */
static int move_blocks(MPI_Comm comm, distfft_type type, int ndims,
                       const int64_t *global_shape, const int64_t *local_shape,
                       const int64_t *global_start, void *local, int root,
                       void *global, int to_root)
{
    int rc = DISTFFT_SUCCESS, size = 0, rank;
    int64_t mine[2 * DISTFFT_MAX_DIMS];
    memcpy(mine, local_shape, ndims * sizeof(int64_t));
    memcpy(mine + ndims, global_start, ndims * sizeof(int64_t));
    int64_t *blocks = NULL;
    MPI_Request *requests = NULL;
    MPI_Status *statuses = NULL; /* not MPI_STATUSES_IGNORE: GCC misreads MPICH's */
    MPI_Datatype *types = NULL;
    int local_code = DISTFFT_SUCCESS;
    big_message own_message = {.count = 0, .type = MPI_BYTE, .owned = 0};
    TRY(mpi_rank_size(comm, &rank, &size));
    if (rank == root) {
        blocks = malloc((size_t)size * 2 * ndims * sizeof(int64_t));
        requests = malloc((size_t)(size + 1) * sizeof(MPI_Request));
        statuses = malloc((size_t)(size + 1) * sizeof(MPI_Status));
        types = malloc((size_t)size * sizeof(MPI_Datatype));
        for (int p = 0; types && p < size; p++) types[p] = MPI_DATATYPE_NULL;
        if (!blocks || !requests || !statuses || !types) local_code = error_fail(DISTFFT_ERR_MEMORY, "gather tables");
    }
    TRY(error_agree(comm, local_code));
    TRY_MPI(MPI_Gather(mine, 2 * ndims, MPI_INT64_T, blocks, 2 * ndims, MPI_INT64_T, root, comm));

    int pending = 0;
    MPI_Request own = MPI_REQUEST_NULL;
    int64_t count = shape_product(ndims, local_shape);
    if (count > 0) {
        /* A block of any size: beyond an int count, one derived type. */
        TRY_MPI(big_message_create(count, type_mpi(type), big_count_limit(), &own_message));
        if (to_root) TRY_MPI(MPI_Isend(local, own_message.count, own_message.type, root, BLOCK_TAG, comm, &own));
        else TRY_MPI(MPI_Irecv(local, own_message.count, own_message.type, root, BLOCK_TAG, comm, &own));
    }
    if (rank == root) {
        int sizes[DISTFFT_MAX_DIMS], subsizes[DISTFFT_MAX_DIMS], starts[DISTFFT_MAX_DIMS];
        for (int p = 0; p < size; p++) {
            const int64_t *block = blocks + (size_t)p * 2 * ndims;
            if (shape_product(ndims, block) == 0) continue;
            for (int i = 0; i < ndims; i++) {
                sizes[i] = (int)global_shape[i];
                subsizes[i] = (int)block[i];
                starts[i] = (int)block[ndims + i];
            }
            TRY_MPI(MPI_Type_create_subarray(ndims, sizes, subsizes, starts, MPI_ORDER_C,
                                             type_mpi(type), &types[p]));
            TRY_MPI(MPI_Type_commit(&types[p]));
            if (to_root) TRY_MPI(MPI_Irecv(global, 1, types[p], p, BLOCK_TAG, comm, &requests[pending++]));
            else TRY_MPI(MPI_Isend(global, 1, types[p], p, BLOCK_TAG, comm, &requests[pending++]));
        }
    }
    if (rank == root && pending) TRY_MPI(MPI_Waitall(pending, requests, statuses));
    TRY_MPI(MPI_Wait(&own, MPI_STATUS_IGNORE));
fail:
    KEEP_MPI(big_message_free(&own_message));
    for (int p = 0; types && p < size; p++)
        if (types[p] != MPI_DATATYPE_NULL) KEEP_MPI(MPI_Type_free(&types[p]));
    free(blocks);
    free(requests);
    free(statuses);
    free(types);
    return rc;
}

static int transfer(MPI_Comm user_comm, distfft_type type, int ndims,
                    const int64_t *global_shape, const int64_t *local_shape,
                    const int64_t *global_start, void *local, int root,
                    void *global, int to_root, const char *where)
{
    error_clear();
    if (user_comm == MPI_COMM_NULL)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: comm is MPI_COMM_NULL", where);
    int rc = DISTFFT_SUCCESS;
    MPI_Comm comm = MPI_COMM_NULL;
    TRY_MPI(MPI_Comm_dup(user_comm, &comm));
    TRY_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    replicated_args args;
    replicated_init(&args);
    int local_code = check_blocks(comm, type, ndims, global_shape, local_shape, global_start,
                                  local, root, global, where, &args);
    TRY(error_agree_replicated(comm, local_code, &args));
    /* agreed: a free that fails at the end fails the call everywhere */
    TRY(error_agree(comm, move_blocks(comm, type, ndims, global_shape, local_shape, global_start,
                                      local, root, global, to_root)));
fail:
    if (comm != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(&comm));
    return rc;
}

int distfft_gather(MPI_Comm comm, distfft_type type, int ndims,
                   const int64_t *global_shape, const int64_t *local_shape,
                   const int64_t *global_start, const void *local, int root,
                   void *global)
{
    return transfer(comm, type, ndims, global_shape, local_shape, global_start,
                    (void *)local, root, global, 1, "distfft_gather");
}

int distfft_scatter(MPI_Comm comm, distfft_type type, int ndims,
                    const int64_t *global_shape, const int64_t *local_shape,
                    const int64_t *global_start, const void *global, int root,
                    void *local)
{
    return transfer(comm, type, ndims, global_shape, local_shape, global_start,
                    local, root, (void *)global, 0, "distfft_scatter");
}
