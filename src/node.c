/*
 * node.c -- which node a rank is on (see node.h).
 */
#include "node.h"

#include "error.h"

int node_label_find(MPI_Comm comm, int rank, int node_size, int known, int *label)
{
    int rc = DISTFFT_SUCCESS;
    MPI_Comm shared = MPI_COMM_NULL;
    if (node_size > 0) {
        *label = rank / node_size * node_size;
        return DISTFFT_SUCCESS;
    }
    if (known > 0) {
        *label = known - 1;
        return DISTFFT_SUCCESS;
    }
    TRY_MPI(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared));
    TRY_MPI(MPI_Allreduce(&rank, label, 1, MPI_INT, MPI_MIN, shared)); /* the node's lowest rank */
fail:
    if (shared != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(&shared));
    return rc;
}
