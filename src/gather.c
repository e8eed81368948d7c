/*
 * gather.c -- assemble a distributed array on one rank, or spread one from
 * it. Each block travels as a contiguous message and lands in (or leaves)
 * the global array through a subarray datatype, so nothing is copied by us.
 * For tests, I/O and small problems: the root needs the whole array.
 * Blocks of any element count (big_count.h); each axis below 2^31.
 *
 * The blocks are a layout's boxes: the root already holds every rank's box,
 * so nothing is exchanged but the data.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "device_memory.h"
#include "error.h"
#include "big_count.h"
#include "layouts/layout_value.h"
#include "types.h"

#define BLOCK_TAG 7001

/* On the root: one subarray datatype of the global array per non-empty
 * box (types[p], MPI_DATATYPE_NULL elsewhere). Local; returns this rank's
 * outcome, the types made so far left for the caller to free. */
static int block_types(const struct distfft_layout_s *layout, distfft_type type, MPI_Datatype *types)
{
    int rc = DISTFFT_SUCCESS, ndims = layout->ndims;
    int sizes[DISTFFT_MAX_DIMS], subsizes[DISTFFT_MAX_DIMS], starts[DISTFFT_MAX_DIMS];
    for (int p = 0; p < layout->size; p++) {
        if (layout_box_count(layout, p) == 0) continue;
        for (int i = 0; i < ndims; i++) {
            sizes[i] = (int)layout->global_shape[i];
            subsizes[i] = (int)layout_shape(layout, p)[i];
            starts[i] = (int)layout_start(layout, p)[i];
        }
        TRY_MPI(MPI_Type_create_subarray(ndims, sizes, subsizes, starts, MPI_ORDER_C, type_mpi(type), &types[p]));
        TRY_MPI(MPI_Type_commit(&types[p]));
    }
fail:
    return rc;
}

/* Move every block between the ranks and the root's global array:
 * to_root = 1 gathers, 0 scatters. One field; arguments agreed. Every
 * datatype is made and agreed on before the first message, so a failure
 * leaves none in flight. Returns this rank's outcome (the caller agrees).
 * Collective on layout->comm. */
static int move_blocks(const struct distfft_layout_s *layout, distfft_type type, void *local, int root,
                       void *global, int to_root)
{
    int rc = DISTFFT_SUCCESS, size = layout->size, rank = layout->rank;
    MPI_Comm comm = layout->comm;
    MPI_Request *requests = NULL;
    MPI_Status *statuses = NULL; /* not MPI_STATUSES_IGNORE: GCC misreads MPICH's */
    MPI_Datatype *types = NULL;
    int local_code = DISTFFT_SUCCESS;
    big_message own_message = {.count = 0, .type = MPI_BYTE, .owned = 0};
    if (rank == root) {
        requests = malloc((size_t)(size + 1) * sizeof(MPI_Request));
        statuses = malloc((size_t)(size + 1) * sizeof(MPI_Status));
        types = malloc((size_t)size * sizeof(MPI_Datatype));
        for (int p = 0; types && p < size; p++) types[p] = MPI_DATATYPE_NULL;
        if (!requests || !statuses || !types) local_code = error_fail(DISTFFT_ERR_MEMORY, "gather tables");
        else local_code = block_types(layout, type, types);
    }
    int64_t count = layout_box_count(layout, rank);
    /* A block of any size: beyond an int count, one derived type. */
    if (local_code == DISTFFT_SUCCESS && count > 0)
        local_code = CHECK_MPI(big_message_create(count, type_mpi(type), big_count_limit(), &own_message));
    TRY(error_agree(comm, local_code));

    int pending = 0;
    MPI_Request own = MPI_REQUEST_NULL;
    if (count > 0) {
        if (to_root) TRY_MPI(MPI_Isend(local, own_message.count, own_message.type, root, BLOCK_TAG, comm, &own));
        else TRY_MPI(MPI_Irecv(local, own_message.count, own_message.type, root, BLOCK_TAG, comm, &own));
    }
    for (int p = 0; rank == root && p < size; p++) {
        if (types[p] == MPI_DATATYPE_NULL) continue;
        if (to_root) TRY_MPI(MPI_Irecv(global, 1, types[p], p, BLOCK_TAG, comm, &requests[pending++]));
        else TRY_MPI(MPI_Isend(global, 1, types[p], p, BLOCK_TAG, comm, &requests[pending++]));
    }
    if (rank == root && pending) TRY_MPI(MPI_Waitall(pending, requests, statuses));
    TRY_MPI(MPI_Wait(&own, MPI_STATUS_IGNORE));
fail:
    KEEP_MPI(big_message_free(&own_message));
    for (int p = 0; types && p < size; p++)
        if (types[p] != MPI_DATATYPE_NULL) KEEP_MPI(MPI_Type_free(&types[p]));
    free(requests);
    free(statuses);
    free(types);
    return rc;
}

/* The one implementation: `batch` fields, one after the other in local
 * (boxes) and global (whole arrays, on the root), each moved and agreed.
 * Arguments checked and agreed. Collective on layout->comm. */
static int move_fields(const struct distfft_layout_s *layout, distfft_type type, int64_t batch, void *local,
                       int root, void *global, int to_root)
{
    int rc = DISTFFT_SUCCESS;
    size_t element = distfft_type_size(type);
    int64_t local_count = layout_box_count(layout, layout->rank);
    int64_t global_count = shape_product(layout->ndims, layout->global_shape);
    for (int64_t field = 0; field < batch && rc == DISTFFT_SUCCESS; field++) {
        char *mine = local ? (char *)local + (size_t)(field * local_count) * element : NULL;
        char *whole = global && layout->rank == root ? (char *)global + (size_t)(field * global_count) * element
                                                     : NULL;
        /* agreed: a free that fails at the end fails the call everywhere */
        rc = error_agree(layout->comm, move_blocks(layout, type, mine, root, whole, to_root));
    }
    return rc;
}

/* The layout calls' checks (local; the values every rank must share go
 * into args). */
static int check_fields(const struct distfft_layout_s *layout, distfft_type type, int64_t batch,
                        const void *local, int root, const void *global, const char *where,
                        replicated_args *args)
{
    if (!type_is_valid(type)) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown element type %d", where, (int)type);
    if (batch < 1) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: batch = %lld must be >= 1", where, (long long)batch);
    if (root < 0 || root >= layout->size)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: root = %d is not a rank of the layout", where, root);
    for (int i = 0; i < layout->ndims; i++)
        if (layout->global_shape[i] > INT_MAX)
            return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: axis %d has %lld points; subarray datatypes take at "
                              "most %d", where, i, (long long)layout->global_shape[i], INT_MAX);
    if (!local && layout_box_count(layout, layout->rank) > 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: local is NULL for a non-empty block", where);
    if (layout->rank == root && !global && shape_product(layout->ndims, layout->global_shape) > 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: global is NULL on the root", where);
    device_memory_probe();
    int rc = device_memory_refuse(local, where, "local");
    if (rc == DISTFFT_SUCCESS && layout->rank == root)
        rc = device_memory_refuse(global, where, "global");
    if (rc != DISTFFT_SUCCESS) return rc;
    replicated_add(args, type, "element type");
    replicated_add(args, batch, "batch");
    replicated_add(args, root, "root");
    return DISTFFT_SUCCESS;
}

static int layout_transfer(const struct distfft_layout_s *layout, distfft_type type, int64_t batch, void *local,
                           int root, void *global, int to_root, const char *where)
{
    error_clear();
    if (!layout) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: layout is NULL", where);
    replicated_args args;
    replicated_init(&args);
    int rc = error_agree_replicated(layout->comm, check_fields(layout, type, batch, local, root, global, where,
                                                               &args), &args);
    if (rc != DISTFFT_SUCCESS) return rc;
    return move_fields(layout, type, batch, local, root, global, to_root);
}

int distfft_layout_gather(const struct distfft_layout_s *layout, distfft_type type, int64_t batch,
                          const void *local, int root, void *global)
{
    return layout_transfer(layout, type, batch, (void *)local, root, global, 1, "distfft_layout_gather");
}

int distfft_layout_scatter(const struct distfft_layout_s *layout, distfft_type type, int64_t batch,
                           const void *global, int root, void *local)
{
    return layout_transfer(layout, type, batch, local, root, (void *)global, 0, "distfft_layout_scatter");
}
