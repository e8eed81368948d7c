/*
 * chunks.h -- the chunks of a redistribution as contiguous runs, and the
 * pack / unpack copies shared by every method that moves contiguous buffers
 * (alltoallv, the isend-* family, sendrecv) instead of describing the chunks
 * with datatypes as alltoallw does.
 *
 * The one thing to know: the chunk of peer p of a C-ordered local array with
 * a leading batch dimension, partitioned along axis a (block p of the
 * parts' blocks, distfft_decompose), is `rows` = batch * shape[0..a-1]
 * contiguous runs of length(p) * shape[a+1..] elements each, one whole
 * row of the array apart. The sender's chunk (input partitioned along
 * axis_in) and the receiver's chunk (output partitioned along axis_out) are
 * the same sub-block of the global array in the same C order, so a packed
 * chunk is unpacked element for element without any index arithmetic.
 *
 * A reshape between the boxes of two layouts (redist_geometry.boxes_in)
 * has chunks of the same kind: peer p's chunk is the intersection of this
 * rank's box with p's box of the other layout, a sub-box of both in the
 * same C order. The copies find it from the boxes (the layouts hold every
 * rank's) when they run, so no per-peer geometry is stored.
 */
#ifndef DISTFFT_REDIST_CHUNKS_H
#define DISTFFT_REDIST_CHUNKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../big_count.h"
#include "copies.h"
#include "redist.h"

/* Tag of the messages of the point-to-point methods. Each execution sends
 * at most one message per ordered pair of ranks and completes every message
 * before it returns, so MPI's non-overtaking order keeps executions (of this
 * or any other redistribution on the same communicator) apart. */
enum { CHUNK_TAG = 1729 };

/* What the copying methods share, built once at create time: every peer's
 * chunk in the input and the output, and one send and one receive buffer
 * with a region per peer. This rank's own chunk never goes through the
 * buffers (chunk_copy_own moves it directly), so its counts are 0. */
typedef struct {
    int parts, part;
    size_t element;                 /* bytes of one element */
    MPI_Datatype datatype;          /* MPI type of one element */
    chunk_span *send_chunks;        /* [parts] in the input, along axis_in */
    chunk_span *receive_chunks;     /* [parts] in the output, along axis_out */
    int64_t *send_counts, *receive_counts;      /* [parts] elements */
    /* [parts] the same counts as MPI arguments: count n of `datatype`, or
     * count 1 of a derived type beyond the count limit (big_count.h). */
    big_message *send_messages, *receive_messages;
    int64_t *send_offsets, *receive_offsets;    /* [parts] elements */
    int64_t send_total, receive_total;          /* elements in the buffers */
    void *send_buffer, *receive_buffer;         /* NULL when empty */
    bool single;                    /* float elements (else double) */
    double scale;                   /* unpack and own copy multiply by it */
    int threads;                    /* OpenMP threads of the copies */
    /* A reshape's layouts (NULL: pencils); send_chunks and receive_chunks
     * are NULL then. */
    const struct distfft_layout_s *boxes_in, *boxes_out;
    int ndims;
    int64_t batch;
    /* Who allocates the buffers and runs the copies, in the exchange's
     * memory (redist_geometry.copies; the host's when it names none), and
     * the stream that orders them. */
    const redist_copies *copies;
    void *stream;
} chunk_exchange;

/* Fill *exchange for geometry g and allocate its buffers. Chunks of any
 * size: those beyond big_count_limit() elements get derived types.
 * Fails with DISTFFT_ERR_MEMORY or DISTFFT_ERR_MPI; `method` names the
 * caller in messages. On failure everything is freed. Local. */
int chunk_exchange_init(const redist_geometry *g, const char *method,
                        chunk_exchange *exchange);
/* The same, with only the peers p where buffered[p] is nonzero going
 * through the buffers (the others get counts 0, like this rank, and are
 * moved by the caller; their chunks are still described). */
int chunk_exchange_init_some(const redist_geometry *g, const char *method,
                             const unsigned char *buffered,
                             chunk_exchange *exchange);

/* The functions from here to chunk_put serve pencils only (the node-aware
 * methods, which do not apply to boxes).
 *
 * Elements of the chunk that rank `source` sends to rank `target` of a
 * group of geometry g (any rank of the group can tell). Local. */
int64_t chunk_count_between(const redist_geometry *g, int source, int target);
int chunk_exchange_free(chunk_exchange *exchange);

/* The region of peer's chunk in the send / receive buffer (a valid pointer
 * even for an empty chunk, as some MPI libraries want). */
void *chunk_send_region(const chunk_exchange *exchange, int peer);
void *chunk_receive_region(const chunk_exchange *exchange, int peer);

/* The one peer-posting loop of the methods that send a message per peer:
 * for each offset k of first .. first + count - 1, the receive from rank
 * (part - k) mod parts into its region and the send, packed from `in`, to
 * rank (part + k) mod parts -- every receive posted before any send.
 * receives[i] and sends[i] are offset first + i's (MPI_REQUEST_NULL for an
 * empty chunk, this rank's own among them). Completing them is the
 * caller's. */
int chunk_post(const chunk_exchange *exchange, MPI_Comm comm, const void *in, int first, int count,
               MPI_Request *receives, MPI_Request *sends);

/* Copy peer's chunk of `in` into its send region; its receive region into
 * peer's chunk of `out`; this rank's own chunk from `in` to `out`. */
void chunk_pack(const chunk_exchange *exchange, int peer, const void *in);
void chunk_unpack(const chunk_exchange *exchange, int peer, void *out);
void chunk_copy_own(const chunk_exchange *exchange, const void *in, void *out);
/* Every peer's chunk of `in` into its send region; and this rank's own
 * chunk from `in` to `out`, then every receive region into `out`. */
void chunk_pack_all(const chunk_exchange *exchange, const void *in);
void chunk_unpack_all(const chunk_exchange *exchange, const void *in, void *out);
/* Copy peer's chunk of `in` to `packed`, contiguous; and back from
 * `packed` into peer's chunk of `out` (any peer, buffered or not). */
void chunk_pack_to(const chunk_exchange *exchange, int peer, const void *in,
                   void *packed);
void chunk_unpack_from(const chunk_exchange *exchange, int peer,
                       const void *packed, void *out);

/* This rank's chunk in the output of `peer` (the output partitioned along
 * axis_out, with peer's block of axis_in): where chunk_put writes it. */
chunk_span chunk_in_peer_output(const redist_geometry *g, int peer);
/* Copy peer's chunk of `in` straight to `at` in `peer_out` (the peer's
 * output, as this rank sees it: shared memory), multiplied as an unpack:
 * the pack, message and unpack of one element in one copy. */
void chunk_put(const chunk_exchange *exchange, int peer, const void *in,
               void *peer_out, chunk_span at);

/* Every copy above runs as local work (platform_run_local_work): a
 * simulator charges it as it charges the FFT steps. Each is made by the
 * exchange's copies (copies.h), in its memory.
 *
 * The datatype methods' copies, priced. Where the platform's MPI packs
 * and unpacks datatypes without charging the time
 * (platform_hides_mpi_copies), chunk_priced_init builds a chunk exchange
 * of geometry g, and chunk_priced_run makes its copies -- every pack, the
 * own copy, every unpack, the copies alltoallv makes for the same
 * exchange -- so that the clock pays for moving the same bytes through
 * memory whichever method moves them. They write garbage into `out`,
 * which the method's exchange then overwrites (exchanges are out of
 * place): call it before the exchange. Elsewhere *copies is NULL, and
 * chunk_priced_run and chunk_priced_free do nothing. Local. */
int chunk_priced_init(const redist_geometry *g, const char *method, chunk_exchange **copies);
void chunk_priced_run(const chunk_exchange *copies, const void *in, void *out);
int chunk_priced_free(chunk_exchange *copies);

/* The node "(WHAT: n out B, m in B)" at `depth` (text.h): the buffered
 * chunks this rank sends and receives, and their bytes. */
void chunk_exchange_describe(const chunk_exchange *exchange, const char *what, int depth, text *out);

/* The redist_method `scale` of every copying method, whose state begins
 * with its chunk_exchange: unpack and own copy multiply by factor. */
void chunk_state_scale(void *state, double factor);

#endif
