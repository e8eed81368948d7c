/*
 * alltoallv.c -- the traditional global redistribution (paper 000, Sec.
 * 3.3.1; OpenFFT's "Alltoallv", paper 001, Sec. 3.2.1): a local remapping
 * packs every peer's chunk contiguously into one send buffer, ONE
 * MPI_Alltoallv moves them (counts differ between peers when the sizes are
 * not divisible by the number of ranks), and each received chunk is
 * unpacked into the output.
 *
 * Buffers, counts and displacements are built once at create time
 * (chunks.c). This rank's own chunk is copied straight from input to output
 * rather than through the buffers and the collective (count 0 to itself).
 * Counts and displacements are in elements of the base type and must fit in
 * an int: a larger exchange is DISTFFT_ERR_UNSUPPORTED here (alltoallw, whose
 * datatypes carry the offsets, is not limited that way).
 */
#include <limits.h>
#include <stdlib.h>

#include "../error.h"
#include "chunks.h"
#include "redist.h"

typedef struct {
    chunk_exchange exchange;
    int *send_displacements, *receive_displacements;
} alltoallv_state;

static void alltoallv_destroy(void *opaque)
{
    alltoallv_state *state = opaque;
    if (!state) return;
    chunk_exchange_free(&state->exchange);
    free(state->send_displacements);
    free(state->receive_displacements);
    free(state);
}

/* int displacements from 64-bit offsets; 0 if one does not fit. */
static int int_displacements(int parts, const int64_t *offsets,
                             int *displacements)
{
    for (int p = 0; p < parts; p++) {
        if (offsets[p] > INT_MAX) return 0;
        displacements[p] = (int)offsets[p];
    }
    return 1;
}

static int alltoallv_create(MPI_Comm comm, const redist_geometry *g,
                            void **opaque)
{
    (void)comm;
    *opaque = NULL;
    int rc = DISTFFT_SUCCESS;
    alltoallv_state *state = calloc(1, sizeof *state);
    if (!state) return error_fail(DISTFFT_ERR_MEMORY, "alltoallv state");
    TRY(chunk_exchange_init(g, "alltoallv", &state->exchange));
    state->send_displacements = calloc(g->parts, sizeof(int));
    state->receive_displacements = calloc(g->parts, sizeof(int));
    if (!state->send_displacements || !state->receive_displacements) {
        rc = error_fail(DISTFFT_ERR_MEMORY, "alltoallv displacements");
        goto fail;
    }
    const chunk_exchange *x = &state->exchange;
    if (!int_displacements(g->parts, x->send_offsets, state->send_displacements) ||
        !int_displacements(g->parts, x->receive_offsets,
                           state->receive_displacements)) {
        rc = error_fail(DISTFFT_ERR_UNSUPPORTED, "alltoallv: buffers of %lld "
                        "and %lld elements need displacements beyond INT_MAX",
                        (long long)x->send_total, (long long)x->receive_total);
        goto fail;
    }
    *opaque = state;
    return DISTFFT_SUCCESS;
fail:
    alltoallv_destroy(state);
    return rc;
}

/* Some MPI libraries reject NULL buffers even for empty exchanges. */
static void *or_empty(void *buffer)
{
    static char empty;
    return buffer ? buffer : &empty;
}

static int alltoallv_execute(void *opaque, MPI_Comm comm, const void *in,
                             void *out)
{
    alltoallv_state *state = opaque;
    const chunk_exchange *x = &state->exchange;
    int rc = DISTFFT_SUCCESS;
    for (int p = 0; p < x->parts; p++)
        if (p != x->part) chunk_pack(x, p, in);
    TRY_MPI(MPI_Alltoallv(or_empty(x->send_buffer), x->send_counts,
                          state->send_displacements, x->datatype,
                          or_empty(x->receive_buffer), x->receive_counts,
                          state->receive_displacements, x->datatype, comm));
    chunk_copy_own(x, in, out);
    for (int p = 0; p < x->parts; p++)
        if (p != x->part) chunk_unpack(x, p, out);
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

const redist_method redist_alltoallv = {
    .name = "alltoallv",
    .create = alltoallv_create,
    .execute = alltoallv_execute,
    .destroy = alltoallv_destroy,
};
