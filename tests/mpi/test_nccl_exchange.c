/*
 * test_nccl_exchange.c -- the nccl exchange row (src/redist/nccl.c) on the
 * CPU, with a stand-in for the device's library of messages: its
 * "communicator" is a counter and its messages are MPI point-to-point
 * messages between host buffers. So it checks what needs no device and no
 * NCCL -- the communicator made once per MPI communicator (the id made on
 * rank 0 alone and the same on every rank, opened once, shared by every
 * exchange on that communicator, closed when the communicator is freed),
 * a failed opening on one rank refused on every rank and closed by abort,
 * the messages handed over as one group per execution on the exchange's
 * stream, and the chunks landing where the global index says -- and
 * nothing of NCCL's or a device's behaviour: that is the device check's.
 * Internal (links the static library); several rank counts.
 */
#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "redist/redist.h"

enum { TAG = 4242 };
static struct {
    int ids, opens, closes, aborts, runs, fail_open_on; /* fail_open_on: a rank whose open fails (-1: none) */
    int next_id;
    bool wrong_stream, wrong_id;
} seen = {.fail_open_on = -1};
static char stream_token;

static const char *always(void) { return NULL; }

static int fake_make_id(void *id)
{
    seen.ids++;
    snprintf(id, 16, "id %d", ++seen.next_id);
    return DISTFFT_SUCCESS;
}

static int fake_open(const void *id, int ranks, int rank, void **communicator)
{
    int size = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    seen.wrong_id |= strncmp(id, "id ", 3) != 0 || ranks != size;
    seen.opens++;
    if (rank == seen.fail_open_on) return error_fail(DISTFFT_ERR_UNSUPPORTED, "stand-in: open refused");
    *communicator = &seen;
    return DISTFFT_SUCCESS;
}

static int fake_close(void *communicator, bool abort)
{
    seen.wrong_id |= communicator != &seen;
    seen.closes++;
    seen.aborts += abort;
    return DISTFFT_SUCCESS;
}

static int fake_run(void *communicator, const redist_message *messages, int count, const void *send_buffer,
                    void *receive_buffer, void *stream)
{
    seen.runs++;
    seen.wrong_stream |= stream != &stream_token || communicator != &seen;
    MPI_Request *requests = calloc((size_t)count + 1, sizeof *requests);
    for (int i = 0; i < count; i++) {
        const redist_message *m = &messages[i];
        if (m->receive)
            MPI_Irecv((char *)receive_buffer + m->offset, (int)m->bytes, MPI_BYTE, m->peer, TAG, MPI_COMM_WORLD,
                      &requests[i]);
        else
            MPI_Isend((const char *)send_buffer + m->offset, (int)m->bytes, MPI_BYTE, m->peer, TAG,
                      MPI_COMM_WORLD, &requests[i]);
    }
    int rc = MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
    free(requests);
    return rc == MPI_SUCCESS ? DISTFFT_SUCCESS : DISTFFT_ERR_MPI;
}

static const redist_messages fake_messages = {"stand-in", always, 16, fake_make_id, fake_open, fake_close, fake_run};
static const redist_copies *fake_device(void)
{
    static redist_copies copies;
    copies = redist_host_copies;
    copies.name = "stand-in device";
    copies.messages = &fake_messages;
    return &copies;
}

static double value_at(int64_t i, int64_t j, int64_t k)
{
    return (double)(i * 10000 + j * 100 + k);
}

/* A pencil exchange n0 x n1 x n2 of complex doubles on comm, axis 0 whole
 * in the input, axis 1 in the output: made, run twice, checked. */
static int exchange_once(MPI_Comm comm, const int64_t *n, int parts, int part, int *created)
{
    redist_geometry g = {.type = DISTFFT_COMPLEX_DOUBLE, .ndims = 3, .axis_in = 0, .axis_out = 1, .batch = 1,
                         .parts = parts, .part = part, .memory = REDIST_MEMORY_CUDA, .copies = fake_device(),
                         .stream = &stream_token};
    int64_t j0, jn, i0, in_;
    distfft_decompose(n[1], parts, part, &jn, &j0);
    distfft_decompose(n[0], parts, part, &in_, &i0);
    int64_t in_shape[3] = {n[0], jn, n[2]}, out_shape[3] = {in_, n[1], n[2]};
    memcpy(g.in_shape, in_shape, sizeof in_shape);
    memcpy(g.out_shape, out_shape, sizeof out_shape);
    distfft_redist redist = NULL;
    *created = redist_create(comm, &g, DISTFFT_METHOD_NCCL, &redist);
    if (*created != DISTFFT_SUCCESS) return 0;
    double *in = calloc((size_t)(n[0] * jn * n[2]) * 2 + 2, sizeof *in);
    double *out = calloc((size_t)(in_ * n[1] * n[2]) * 2 + 2, sizeof *out);
    for (int64_t i = 0; i < n[0]; i++)
        for (int64_t j = 0; j < jn; j++)
            for (int64_t k = 0; k < n[2]; k++) {
                in[2 * ((i * jn + j) * n[2] + k)] = value_at(i, j0 + j, k);
                in[2 * ((i * jn + j) * n[2] + k) + 1] = -value_at(i, j0 + j, k);
            }
    int ok = 1;
    for (int run = 0; run < 2; run++) {
        memset(out, 0, (size_t)(in_ * n[1] * n[2]) * 2 * sizeof *out);
        int runs = seen.runs;
        ok &= redist_run(redist, in, out) == DISTFFT_SUCCESS;
        ok &= seen.runs - runs <= 1; /* one group per execution at most */
        for (int64_t i = 0; ok && i < in_; i++)
            for (int64_t j = 0; j < n[1]; j++)
                for (int64_t k = 0; k < n[2]; k++) {
                    const double *z = &out[2 * ((i * n[1] + j) * n[2] + k)];
                    ok &= z[0] == value_at(i0 + i, j, k) && z[1] == -value_at(i0 + i, j, k);
                }
    }
    if (!ok) printf("rank %d: %lldx%lldx%lld: the output is not the input's chunks\n", part, (long long)n[0],
                    (long long)n[1], (long long)n[2]);
    redist_free(redist);
    free(in);
    free(out);
    return ok;
}

static int expect(bool condition, int part, const char *what)
{
    if (!condition) printf("rank %d: %s (ids %d opens %d closes %d aborts %d runs %d)\n", part, what, seen.ids,
                           seen.opens, seen.closes, seen.aborts, seen.runs);
    return condition;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int parts, part, created = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &parts);
    MPI_Comm_rank(MPI_COMM_WORLD, &part);
    static const int64_t shapes[][3] = {{6, 5, 7}, {2, 3, 4}, {1, 9, 2}, {12, 8, 3}};
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int ok = 1;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        ok &= exchange_once(comm, shapes[s], parts, part, &created);
        ok &= expect(created == DISTFFT_SUCCESS, part, "created");
    }
    ok &= expect(seen.opens == 1 && seen.ids == (part == 0) && seen.closes == 0, part,
                 "one communicator for every exchange on one MPI communicator, its id made on rank 0");
    /* a rank without messages (an empty block) runs no group */
    ok &= expect(parts > 1 ? seen.runs >= 2 : seen.runs == 0, part, "groups run (none on one rank)");
    MPI_Comm_free(&comm);
    ok &= expect(seen.closes == 1 && seen.aborts == 0, part, "closed with its MPI communicator");

    /* opening fails on the last rank: refused on every rank, the others' aborted, nothing cached */
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    seen.fail_open_on = parts - 1;
    ok &= exchange_once(comm, shapes[0], parts, part, &created) == 0;
    ok &= expect(created == DISTFFT_ERR_UNSUPPORTED && strstr(distfft_last_error(), "open refused"), part,
                 "a failed opening is every rank's error");
    ok &= expect(seen.opens == 2 && seen.closes == (part == parts - 1 ? 1 : 2) &&
                 seen.aborts == (part == parts - 1 ? 0 : 1), part, "the opened ones aborted");
    seen.fail_open_on = -1;
    ok &= exchange_once(comm, shapes[3], parts, part, &created);
    ok &= expect(created == DISTFFT_SUCCESS && seen.opens == 3, part, "opened anew after the failure");
    MPI_Comm_free(&comm);
    ok &= expect(!seen.wrong_stream && !seen.wrong_id, part, "the exchange's stream and the one id everywhere");
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (part == 0) printf("test_nccl_exchange: %s on %d rank(s)\n", all ? "ok" : "FAILED", parts);
    MPI_Finalize();
    return all ? 0 : 1;
}
