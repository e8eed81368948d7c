/*
 * redist.h -- the redistribution object and the interface every
 * communication method implements.
 *
 * A method is one file exporting one `redist_method` table row: applicable
 * (may it serve this exchange at all: FFTW's applicable()), create (build
 * whatever it needs once: datatypes, buffers, requests), execute (move the
 * data), destroy. Adding a method never touches the planner.
 * Redistribution knows nothing about FFTs.
 */
#ifndef DISTFFT_REDIST_H
#define DISTFFT_REDIST_H

#include <stdbool.h>
#include <stdint.h>

#include "distfft.h"
#include "../layouts/layout_value.h"
#include "../lifetime.h"
#include "../text.h"
#include "copies.h"

/* Where an exchange's arrays live: the memory kind of the plan's backend
 * (backend.h). */
typedef enum { REDIST_MEMORY_HOST, REDIST_MEMORY_CUDA } redist_memory;

/* What to move: a local array of in_shape aligned in axis_in becomes one of
 * out_shape aligned in axis_out, within a group of `parts` ranks (this one
 * is `part`), with a leading batch dimension. Or, where boxes_in is set,
 * a reshape between the boxes of two layouts of the same ranks. */
typedef struct {
    distfft_type type;
    int ndims;
    int64_t in_shape[DISTFFT_MAX_DIMS];
    int64_t out_shape[DISTFFT_MAX_DIMS];
    int axis_in, axis_out;
    int64_t batch;
    int parts, part;
    int threads;          /* OpenMP threads of the local copies (0, 1: none) */
    /* The node-aware methods' node of this rank: 0 finds the real
     * shared-memory nodes; k > 0 pretends (for testing, from the plan's
     * options.node_size) that the ranks of the group labelled k form one
     * node. Other methods ignore it. */
    int node;
    /* The real shared-memory node of this rank when the caller has found
     * it already (a plan finds it once per creation, plan_comms_node):
     * k > 0, equal labels on one node; 0: the node-aware methods find it
     * themselves (MPI_Comm_split_type). Below `node` and
     * DISTFFT_NODE_SIZE in precedence (nodes.h). */
    int shared_node;
    /* A plan's request: the methods that can (shm) make this rank's
     * output in shared memory, shared_output_bytes long (the work buffer
     * the exchange writes; may be 0 here and not elsewhere), so that the
     * peers copy their chunks straight into it -- one copy per element
     * (redist_shared_output). True on every rank of the group or on
     * none; other methods ignore it. */
    bool shared_output;
    int64_t shared_output_bytes;
    /* A reshape (NULL: pencils, as above): this rank's box of boxes_in
     * becomes its box of boxes_out; parts and part are the layouts' size
     * and rank, in_shape and out_shape this rank's two boxes, axis_in and
     * axis_out -1. Borrowed: the layouts outlive the redistribution. Only
     * the rows that apply everywhere serve it. */
    const struct distfft_layout_s *boxes_in, *boxes_out;
    /* Where in and out live (0: host memory); alike on every rank. */
    redist_memory memory;
    /* Who makes the copying methods' buffers and copies in that memory:
     * the plan's backend's (backend.h); NULL: the host's. Borrowed. */
    const redist_copies *copies;
    /* What orders the work in that memory (a cudaStream_t; NULL: the
     * default stream); the host ignores it. */
    void *stream;
} redist_geometry;

/* What applicable() is asked about. Every field is alike on every rank
 * of the group, so every rank gets the same answer without a message. */
typedef struct {
    /* Both sides are pencils of one grid: their geometry. NULL: the boxes
     * of two arbitrary layouts (a reshape). */
    const redist_geometry *pencils;
    distfft_type type;
    redist_memory memory;
    bool shared_windows;  /* the platform has MPI-3 shared-memory windows */
    /* The memory's messages without MPI (copies.h; NULL: none). */
    const redist_messages *messages;
} redist_problem;

typedef struct {
    const char *name;
    /* Whether the method can serve `problem` at all: cheap, local and
     * deterministic (the same answer on every rank). When it cannot, a
     * reason goes to *why (NULL: not wanted). Required. */
    bool (*applicable)(const redist_problem *problem, text *why);
    /* Handed to create: what a parameterised family (isend.c) fixes per row. */
    const void *parameters;
    /* May fail on some ranks only (the caller agrees on it). Local, except
     * for the node-aware methods (nodes.h), which find the nodes and make
     * windows collectively on comm -- every caller runs create on the whole
     * group at once -- and agree among themselves before each collective
     * a local failure could skip. */
    int (*create)(MPI_Comm comm, const redist_geometry *geometry,
                  const void *parameters, void **state);
    /* Collective on comm. */
    int (*execute)(void *state, MPI_Comm comm, const void *in, void *out);
    /* Frees everything, even when an MPI free fails; the first failure. */
    int (*destroy)(void *state);
    /* Optional, for methods that copy the received data anyway: multiply
     * it by factor from now on (a plan's normalisation, folded in). */
    void (*scale)(void *state, double factor);
    /* Optional: start the exchange non-blocking; it is complete once
     * *request is (MPI_Wait). Several may be in flight at once (pipelined
     * batched plans). Collective on comm. */
    int (*start)(void *state, MPI_Comm comm, const void *in, void *out, MPI_Request *request);
    /* Whether create finds the ranks' nodes (nodes.h): a plan then finds
     * them once, for every exchange and candidate (geometry.shared_node). */
    bool node_aware;
    /* Optional: append the method's inner phases -- its hops, windows,
     * groups, datatypes, with their message counts and bytes as this rank
     * sees them -- as child nodes at `depth` (text_node). Local. */
    void (*describe)(const void *state, int depth, text *out);
    /* Optional: this rank's output in shared memory, made at create for
     * geometry.shared_output_bytes (NULL: none). An execution whose `out`
     * is it moves the chunks of the peers sharing memory with one copy.
     * Local. */
    void *(*shared_output)(const void *state);
} redist_method;

struct distfft_redist_s {
    MPI_Comm comm;
    int owns_comm;                 /* freed by destroy when nonzero */
    distfft_method method_id;
    const redist_method *method;
    void *state;
    redist_geometry geometry;
    int64_t in_count, out_count;   /* local elements, batch included */
    double tuning_seconds;         /* spent choosing the method (auto, tune/) */
    lifetime_tag lifetime;         /* a public one's number on its creation's communicator */
};

/* The problem of an exchange (pencils or boxes, in its geometry's
 * memory), and of a reshape between boxes of elements of `type` in
 * `memory`, on this platform. Local. */
redist_problem redist_problem_of(const redist_geometry *geometry);
redist_problem redist_box_problem(distfft_type type, redist_memory memory);

/* The first row of the table that applies to `problem` (what estimate
 * mode takes untimed: alltoallw in host memory, staged in a device's);
 * alltoallw when none does, whose refusal then says why. Local, alike on
 * every rank. */
distfft_method redist_first_applicable(const redist_problem *problem);

/* Whether `method` (a row of the table) applies to `problem`; if not, a
 * DISTFFT_ERR_UNSUPPORTED naming the method and the reason, recorded as
 * the message (`where` names the caller). The same on every rank. Local. */
int redist_check_applicable(distfft_method method, const redist_problem *problem, const char *where);

/* The applicable() of rows that serve any exchange in host memory, and of
 * rows that serve pencils of one grid only (the node-aware methods). */
bool redist_applies_everywhere(const redist_problem *problem, text *why);
bool redist_applies_to_pencils(const redist_problem *problem, text *why);

/* Plan a concrete method on `comm` (borrowed: the caller keeps it alive
 * and frees it) for a geometry already validated and agreed; a method
 * that does not apply (redist_check_applicable) fails alike on every rank
 * before any communication. Called by
 * every rank of comm at once (the node-aware methods' create is
 * collective); it may fail on some ranks only, and the caller agrees on
 * the outcome. *redist is NULL on failure. */
int redist_create(MPI_Comm comm, const redist_geometry *geometry, distfft_method method,
                  distfft_redist *redist);

/* Execute without argument checks (the caller has checked). Collective. */
int redist_run(const struct distfft_redist_s *redist, const void *in, void *out);

/* Start the exchange non-blocking where the method can (then MPI_Wait on
 * *request completes it), else run it blocking and set *request to
 * MPI_REQUEST_NULL. Collective. */
int redist_start(const struct distfft_redist_s *redist, const void *in, void *out,
                 MPI_Request *request);

/* Fold a factor into the method's unpack, when it has one: true if so.
 * Local; at plan time. */
bool redist_fold_scale(struct distfft_redist_s *redist, double factor);

/* The method's output in shared memory (redist_method.shared_output),
 * or NULL. Passing it as `out` to redist_run is collective in the sense
 * that every rank of the group does so, or none: the ranks of a window
 * take the one-copy path together. Local. */
void *redist_shared_output(const struct distfft_redist_s *redist);

/* Bytes this rank sends to the other ranks of its group per execution:
 * everything but its own chunk. Local. */
int64_t redist_bytes_sent(const struct distfft_redist_s *redist);

/* The method's inner phases as child nodes at `depth` (nothing for a
 * method without a describe hook). Local. */
void redist_describe(const struct distfft_redist_s *redist, int depth, text *out);

/* Free everything, even when an MPI free fails; returns the first failure
 * (a message is recorded only then). NULL: no-op. */
int redist_free(struct distfft_redist_s *redist);

/* distfft_redist_release of a non-NULL handle pointer, parking *companion
 * (a language binding's communicator beside it; may be NULL) with the
 * redistribution's own (lifetime_release_with). In api/redistribution.c. */
int redist_release(distfft_redist *redist, MPI_Comm *companion);

/* The method table (methods.def): its rows in id order. */
#define REDIST_MAX_METHODS DISTFFT_MAX_METHODS
int redist_method_count(void);
/* The row of a concrete method id, or NULL. */
const redist_method *redist_method_row(distfft_method method);

#endif
