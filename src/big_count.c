/*
 * big_count.c -- MPI messages of any element count (see big_count.h).
 */
#include "big_count.h"

#include <limits.h>

#include "environment.h"

int64_t big_count_limit(void)
{
    return environment_integer("DISTFFT_MAX_MESSAGE", 1, INT_MAX, INT_MAX);
}

void big_count_split(int64_t n, int64_t limit, int64_t *pieces, int64_t *rest)
{
    *pieces = n / limit;
    *rest = n % limit;
}

int big_count_fits(int64_t n, int64_t limit)
{
    return n >= 0 && n <= limit && n <= INT_MAX;
}

int big_count_product_fits(int count, const int64_t *factors, int64_t limit)
{
    int64_t product = 1;
    for (int i = 0; i < count; i++)
        if (factors[i] == 0) return 1;
    for (int i = 0; i < count; i++) {
        if (product > limit / factors[i]) return 0;
        product *= factors[i];
    }
    return product <= limit;
}

int big_count_region_type(int64_t offset, int64_t n, MPI_Datatype base,
                        int64_t limit, MPI_Datatype *type)
{
    int64_t pieces, rest;
    big_count_split(n, limit, &pieces, &rest);
    if (pieces > INT_MAX || limit > INT_MAX) return MPI_ERR_COUNT;
    MPI_Aint lower, extent;
    int code = MPI_Type_get_extent(base, &lower, &extent);
    if (code != MPI_SUCCESS) return code;
    MPI_Datatype run = MPI_DATATYPE_NULL, types[2];
    int lengths[2], blocks = 0;
    MPI_Aint displacements[2];
    if (pieces > 0) {
        code = MPI_Type_contiguous((int)limit, base, &run);
        if (code != MPI_SUCCESS) return code;
        lengths[blocks] = (int)pieces;
        displacements[blocks] = (MPI_Aint)offset * extent;
        types[blocks++] = run;
    }
    if (rest > 0 || blocks == 0) {
        lengths[blocks] = (int)rest;
        displacements[blocks] = (MPI_Aint)(offset + pieces * limit) * extent;
        types[blocks++] = base;
    }
    code = MPI_Type_create_struct(blocks, lengths, displacements, types, type);
    if (code == MPI_SUCCESS) code = MPI_Type_commit(type);
    if (run != MPI_DATATYPE_NULL) { /* the struct keeps it */
        int freed = MPI_Type_free(&run);
        if (code == MPI_SUCCESS) code = freed;
    }
    return code;
}

int big_message_create(int64_t n, MPI_Datatype base, int64_t limit, big_message *m)
{
    if (big_count_fits(n, limit)) {
        *m = (big_message){.count = (int)n, .type = base, .owned = 0};
        return MPI_SUCCESS;
    }
    *m = (big_message){.count = 1, .type = MPI_DATATYPE_NULL, .owned = 1};
    int code = big_count_region_type(0, n, base, limit, &m->type);
    if (code != MPI_SUCCESS) *m = (big_message){.count = 0, .type = MPI_BYTE, .owned = 0};
    return code;
}

int big_message_free(big_message *m)
{
    int code = MPI_SUCCESS;
    if (m->owned && m->type != MPI_DATATYPE_NULL) code = MPI_Type_free(&m->type);
    *m = (big_message){.count = 0, .type = MPI_BYTE, .owned = 0};
    return code;
}
