/*
 * big_count.h -- MPI messages of any element count (counts beyond INT_MAX).
 *
 * MPI counts are int, so one call moves at most INT_MAX elements of a
 * datatype. A message of more elements travels as count 1 of a derived
 * datatype: `pieces` contiguous runs of `limit` elements plus a rest, in a
 * struct type whose displacements are MPI_Aint (64-bit), so byte offsets
 * beyond 2 GiB are fine too. Both ends build their type from the same
 * element count, and a derived type's signature is just its sequence of
 * base elements, so sender and receiver match however each is split. This
 * works alike on MPI-3 (OpenMPI 4.1) and MPI-4 libraries; no _c calls.
 *
 * The arithmetic lives in small pure functions so it can be tested at the
 * boundaries (INT_MAX - 1, INT_MAX, INT_MAX + 1, 2^32, ...) without memory.
 */
#ifndef DISTFFT_MESSAGE_H
#define DISTFFT_MESSAGE_H

#include <stdint.h>
#include <mpi.h>

/* Largest element count this build puts in one MPI count argument:
 * INT_MAX, or DISTFFT_MAX_MESSAGE from the environment when that is a
 * number in 1..INT_MAX (a testing knob: small arrays then take the path of
 * huge ones). Read at every call; plans read it once, at create time. */
int64_t big_count_limit(void);

/* n = *pieces * limit + *rest with 0 <= *rest < limit (limit >= 1). */
void big_count_split(int64_t n, int64_t limit, int64_t *pieces, int64_t *rest);

/* 1 if n elements can be one MPI count argument under `limit`. */
int big_count_fits(int64_t n, int64_t limit);

/* 1 if the product of factors[0..count-1] (each >= 0) is at most `limit`,
 * computed without overflow. */
int big_count_product_fits(int count, const int64_t *factors, int64_t limit);

/* How to pass n elements of `base` to an MPI call: count n of base when
 * n <= limit, else count 1 of a derived type (owned = 1, freed by
 * big_message_free). */
typedef struct {
    int count;
    MPI_Datatype type;
    int owned;
} big_message;

/* Returns an MPI error code (MPI_SUCCESS), or MPI_ERR_COUNT when n needs
 * more than INT_MAX pieces of `limit`. */
int big_message_create(int64_t n, MPI_Datatype base, int64_t limit, big_message *m);
/* Frees an owned type; the message is reset either way. Returns the MPI
 * code of MPI_Type_free (MPI_SUCCESS when nothing was owned). */
int big_message_free(big_message *m);

/* A committed derived type covering n > 0 elements of `base` that start
 * `offset` elements after the buffer address (so one call's per-peer
 * displacements of any size live inside the types). Same return codes. */
int big_count_region_type(int64_t offset, int64_t n, MPI_Datatype base,
                        int64_t limit, MPI_Datatype *type);

#endif
