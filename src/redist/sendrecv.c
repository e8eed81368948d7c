/*
 * sendrecv.c -- pairwise exchange (paper 001, Sec. 3.2.1, OpenFFT's
 * "Sendrecv"): P - 1 rounds; in round k this rank packs the chunk of
 * (rank + k) mod P, exchanges it with one MPI_Sendrecv for the chunk of
 * (rank - k) mod P, and unpacks that. Only one message in each direction is
 * in flight at a time, which suits long messages. This rank's own chunk is
 * copied locally first.
 *
 * An empty chunk is no message: its side of the MPI_Sendrecv names
 * MPI_PROC_NULL (sender and receiver agree on which chunks are empty).
 * Buffers, counts and (for chunks beyond an int count) derived datatypes
 * come from chunks.c, built once at create time.
 */
#include <stdlib.h>

#include "../error.h"
#include "chunks.h"
#include "redist.h"

static int sendrecv_destroy(void *opaque)
{
    int rc = DISTFFT_SUCCESS;
    chunk_exchange *exchange = opaque;
    if (!exchange) return rc;
    KEEP(chunk_exchange_free(exchange));
    free(exchange);
    return rc;
}

static int sendrecv_create(MPI_Comm comm, const redist_geometry *g,
                  const void *parameters, void **opaque)
{
    (void)parameters;
    (void)comm;
    *opaque = NULL;
    chunk_exchange *exchange = malloc(sizeof *exchange);
    if (!exchange) return error_fail(DISTFFT_ERR_MEMORY, "sendrecv state");
    int rc = chunk_exchange_init(g, "sendrecv", exchange);
    if (rc != DISTFFT_SUCCESS) {
        free(exchange);
        return rc;
    }
    *opaque = exchange;
    return DISTFFT_SUCCESS;
}

static int sendrecv_execute(void *opaque, MPI_Comm comm, const void *in,
                            void *out)
{
    const chunk_exchange *x = opaque;
    int rc = DISTFFT_SUCCESS;
    chunk_copy_own(x, in, out);
    for (int k = 1; k < x->parts; k++) {
        int target = (x->part + k) % x->parts;
        int source = (x->part - k + x->parts) % x->parts;
        const big_message *send = &x->send_messages[target];
        const big_message *receive = &x->receive_messages[source];
        int sending = x->send_counts[target] > 0;
        int receiving = x->receive_counts[source] > 0;
        if (sending) chunk_pack(x, target, in);
        TRY_MPI(MPI_Sendrecv(chunk_send_region(x, target), send->count,
                             send->type, sending ? target : MPI_PROC_NULL,
                             CHUNK_TAG, chunk_receive_region(x, source),
                             receive->count, receive->type,
                             receiving ? source : MPI_PROC_NULL, CHUNK_TAG,
                             comm, MPI_STATUS_IGNORE));
        if (receiving) chunk_unpack(x, source, out);
    }
    return DISTFFT_SUCCESS;
fail:
    return rc;
}

static void sendrecv_describe(const void *opaque, int depth, text *out)
{
    const chunk_exchange *exchange = opaque;
    text_node(out, depth, "rounds %d, one MPI_Sendrecv each", exchange->parts - 1);
    chunk_exchange_describe(exchange, "chunks", depth, out);
}

const redist_method redist_sendrecv = {
    .name = "sendrecv",
    .applicable = redist_applies_everywhere,
    .create = sendrecv_create,
    .execute = sendrecv_execute,
    .destroy = sendrecv_destroy,
    .scale = chunk_state_scale,
    .describe = sendrecv_describe,
};
