/*
 * lifetime.c -- the per-communicator queue of released objects and its
 * drain, distfft_collect (the C half of python/distfft/_lifetime.py's
 * deferred frees).
 *
 * MPI_Win_free returns on no rank before every rank of the window's group
 * has called it, so freeing a window from a call some ranks make while
 * others wait in another collective deadlocks. A release therefore frees
 * only what is local and parks the window (and the communicators: collective
 * in the standard) on a record numbered at creation. distfft_collect frees,
 * on every rank, the records every rank has parked -- found with one
 * MPI_Allreduce of the numbers' bounds and one MPI_BAND of a bitmap per
 * 4096 numbers -- in number order, so every rank frees the same windows in
 * the same order whatever order it released them in.
 *
 * A queue lives as an attribute of the caller's communicator (MPI's way
 * to cache library state) and holds no MPI object: creation numbers and
 * parked records only, so a program's live MPI handles are those of its
 * live objects. Drains run on that communicator itself -- every drain is
 * at a point where all its ranks are: distfft_collect, a creation on it,
 * its attribute's delete callback (MPI_Comm_free, before the communicator
 * goes), and MPI_Finalize, through an attribute of MPI_COMM_SELF (the
 * standard deletes those first, with MPI still fully working), which
 * detaches every queue still attached. An object released after its
 * communicator was freed stays parked until MPI_Finalize reclaims it.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "lifetime.h"
#include "platform.h"

typedef struct {
    int is_window;
    MPI_Comm comm;
    MPI_Win window;
    void (*release)(void *); /* memory, when set: release(memory) */
    void *memory;
} parked_handle;

/* Handles a record holds without allocating: more than any plan has (its
 * communicators, and a window and a communicator per shm exchange), so a
 * release that made its record cannot fail for memory. */
#define RECORD_INLINE 64

typedef struct lifetime_record {
    int64_t number;
    int count, capacity;
    parked_handle *handles; /* inline, or on the heap beyond RECORD_INLINE */
    parked_handle inline_handles[RECORD_INLINE];
    struct lifetime_record *next; /* the queue's parked records, in number order */
} lifetime_record;

struct lifetime_queue {
    MPI_Comm user;           /* the caller's, while attached */
    int attached;            /* still an attribute of `user` */
    int made;                /* registration finished (an aborted one's attribute frees nothing) */
    int64_t next_number;     /* the next creation's number: alike on every rank */
    long references;         /* objects created and not yet freed (parked included) */
    lifetime_record *parked; /* in number order */
    lifetime_queue *next;    /* the process's queues, in creation order */
};

static lifetime_queue *queues;
static int queue_keyval = MPI_KEYVAL_INVALID;
static int finalize_keyval = MPI_KEYVAL_INVALID;
/* The record of the release running on this thread, or NULL. */
static _Thread_local lifetime_record *parking;

/* ---- parking ---------------------------------------------------------------- */

static int park(parked_handle handle)
{
    if (parking->count == parking->capacity) {
        int capacity = 2 * parking->capacity;
        parked_handle *grown = malloc(capacity * sizeof *grown);
        if (!grown) return MPI_ERR_NO_MEM; /* the handle leaks: better than a free that could hang */
        memcpy(grown, parking->handles, parking->count * sizeof *grown);
        if (parking->handles != parking->inline_handles) free(parking->handles);
        parking->handles = grown;
        parking->capacity = capacity;
    }
    parking->handles[parking->count++] = handle;
    return MPI_SUCCESS;
}

int lifetime_comm_free(MPI_Comm *comm)
{
    if (!parking) return MPI_Comm_free(comm);
    int code = park((parked_handle){.is_window = 0, .comm = *comm, .window = MPI_WIN_NULL});
    *comm = MPI_COMM_NULL;
    return code;
}

int lifetime_win_free(MPI_Win *window)
{
    if (!parking) return MPI_Win_free(window);
    int code = park((parked_handle){.is_window = 1, .comm = MPI_COMM_NULL, .window = *window});
    *window = MPI_WIN_NULL;
    return code;
}

int lifetime_memory_free(void (*release)(void *), void *pointer)
{
    if (!pointer) return MPI_SUCCESS;
    if (parking) return park((parked_handle){.comm = MPI_COMM_NULL, .window = MPI_WIN_NULL, .release = release,
                                             .memory = pointer});
    release(pointer);
    return MPI_SUCCESS;
}

/* Windows, communicators and memory in the order the object's free handed them
 * over -- the same on every rank of each one's group. */
static int free_record(lifetime_record *record)
{
    int rc = DISTFFT_SUCCESS;
    for (int i = 0; i < record->count; i++) {
        parked_handle *h = &record->handles[i];
        if (h->release) h->release(h->memory);
        else if (h->is_window) KEEP_MPI(MPI_Win_free(&h->window));
        else KEEP_MPI(MPI_Comm_free(&h->comm));
    }
    if (record->handles != record->inline_handles) free(record->handles);
    free(record);
    return rc;
}

int lifetime_release(lifetime_tag *tag, int (*free_object)(void *), void *object)
{
    return lifetime_release_with(tag, free_object, object, NULL);
}

int lifetime_release_with(lifetime_tag *tag, int (*free_object)(void *), void *object, MPI_Comm *companion)
{
    lifetime_queue *queue = tag->queue;
    int rc = DISTFFT_SUCCESS;
    if (!queue) { /* never numbered: nothing synchronising to park */
        KEEP(free_object(object));
        if (companion && *companion != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(companion));
        return rc;
    }
    lifetime_record *record = calloc(1, sizeof *record);
    if (!record) return error_fail(DISTFFT_ERR_MEMORY, "release: the record of the deferred frees");
    record->number = tag->number;
    record->handles = record->inline_handles;
    record->capacity = RECORD_INLINE;
    parking = record;
    rc = free_object(object);
    if (companion && *companion != MPI_COMM_NULL) KEEP_MPI(lifetime_comm_free(companion));
    parking = NULL;
    lifetime_record **at = &queue->parked;
    while (*at && (*at)->number < record->number) at = &(*at)->next;
    record->next = *at;
    *at = record;
    tag->queue = NULL;
    return rc;
}

/* ---- queues ----------------------------------------------------------------- */

/* Free a queue nothing refers to any more (memory only). */
static int queue_maybe_free(lifetime_queue *queue)
{
    int rc = DISTFFT_SUCCESS;
    if (queue->attached || queue->references > 0 || queue->parked) return rc;
    lifetime_queue **at = &queues;
    while (*at && *at != queue) at = &(*at)->next;
    if (*at) *at = queue->next;
    free(queue);
    return rc;
}

#define DRAIN_WORDS 64 /* numbers per agreement: 64 * 64 */

/* Free, on every rank, the records every rank has parked, in number
 * order. Collective on comm, the queue's communicator. */
static int drain(lifetime_queue *queue, MPI_Comm comm)
{
    int rc = DISTFFT_SUCCESS;
    /* [-(lowest parked), highest parked + 1], reduced with MIN: only
     * numbers between the largest lowest and the smallest highest can be
     * parked on every rank */
    int64_t bounds[2] = {-INT64_MAX, 0};
    if (queue->parked) {
        lifetime_record *last = queue->parked;
        while (last->next) last = last->next;
        bounds[0] = -queue->parked->number;
        bounds[1] = last->number + 1;
    }
    TRY_MPI(MPI_Allreduce(MPI_IN_PLACE, bounds, 2, MPI_INT64_T, MPI_MIN, comm));
    int64_t span = 64 * DRAIN_WORDS;
    for (int64_t base = -bounds[0]; base < bounds[1]; base += span) {
        uint64_t words[DRAIN_WORDS] = {0};
        for (lifetime_record *r = queue->parked; r && r->number < base + span; r = r->next)
            if (r->number >= base) words[(r->number - base) / 64] |= UINT64_C(1) << ((r->number - base) % 64);
        TRY_MPI(MPI_Allreduce(MPI_IN_PLACE, words, DRAIN_WORDS, MPI_UINT64_T, MPI_BAND, comm));
        lifetime_record **at = &queue->parked;
        while (*at && (*at)->number < base + span) {
            lifetime_record *r = *at;
            int64_t bit = r->number - base;
            if (bit < 0 || !(words[bit / 64] >> (bit % 64) & 1)) {
                at = &r->next;
                continue;
            }
            *at = r->next;
            KEEP(free_record(r));
            queue->references--;
        }
    }
fail:
    return rc;
}

/* The caller's communicator is being freed (or MPI finalized): every rank
 * of it is here, so drain; the queue then lives on (on its duplicate)
 * only while objects refer to it. A failure here cannot reach the caller
 * of MPI_Comm_free without failing that free: it is dropped. */
static int queue_detach(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval, (void)extra;
    lifetime_queue *queue = value;
    if (!queue->made) return MPI_SUCCESS; /* lifetime_register's failure path frees it */
    int rc = drain(queue, comm);
    (void)rc;
    queue->attached = 0;
    queue->user = MPI_COMM_NULL;
    queue_maybe_free(queue);
    return MPI_SUCCESS;
}

/* MPI_Finalize: every rank is here. Detach (and so drain) every queue
 * still attached, in creation order -- alike on every rank that shares
 * two queues, as queues are made in collective creations -- while MPI can
 * still communicate (MPI_COMM_WORLD's attributes may be deleted later,
 * when it cannot). MPI_COMM_SELF's own queue detaches with its attribute.
 * What stays parked -- objects not released everywhere, or released after
 * their communicator was freed -- is left to MPI_Finalize. */
static int finalize_queues(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)value, (void)extra;
    int rc = DISTFFT_SUCCESS;
    for (lifetime_queue *queue = queues, *next; queue; queue = next) {
        next = queue->next;
        if (queue->attached && queue->user != MPI_COMM_SELF)
            KEEP_MPI(MPI_Comm_delete_attr(queue->user, queue_keyval));
    }
    /* MPI frees a keyval once no attribute uses it */
    KEEP_MPI(MPI_Comm_free_keyval(&queue_keyval));
    KEEP_MPI(MPI_Comm_free_keyval(&finalize_keyval));
    (void)rc;
    return MPI_SUCCESS;
}

/* The keyvals, and the finalize hook on MPI_COMM_SELF, once. Local. */
static int keyvals_made(void)
{
    int rc = DISTFFT_SUCCESS;
    if (queue_keyval == MPI_KEYVAL_INVALID)
        TRY_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, queue_detach, &queue_keyval, NULL));
    if (finalize_keyval == MPI_KEYVAL_INVALID) {
        TRY_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, finalize_queues, &finalize_keyval, NULL));
        rc = CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, finalize_keyval, NULL));
        if (rc != DISTFFT_SUCCESS) KEEP_MPI(MPI_Comm_free_keyval(&finalize_keyval));
    }
fail:
    return rc;
}

int lifetime_register(MPI_Comm comm, lifetime_tag *tag)
{
    int rc = DISTFFT_SUCCESS, found = 0;
    lifetime_queue *queue = NULL;
    tag->queue = NULL;
    /* ranks that share this process share its globals (the list of
     * queues) and make no windows (platform.h): a release then frees at
     * once, with nothing that synchronises */
    if (platform_ranks_share_process()) return DISTFFT_SUCCESS;
    /* a queue is made in a creation every rank of comm makes, so either
     * every rank has one (nothing can fail then) or none has */
    if (queue_keyval != MPI_KEYVAL_INVALID)
        TRY_MPI(MPI_Comm_get_attr(comm, queue_keyval, &queue, &found));
    if (!found) {
        int local = keyvals_made();
        if (local == DISTFFT_SUCCESS && !(queue = calloc(1, sizeof *queue)))
            local = error_fail(DISTFFT_ERR_MEMORY, "the communicator's queue of released objects");
        rc = error_agree(comm, local);
        if (rc != DISTFFT_SUCCESS) {
            free(queue);
            return rc;
        }
        local = CHECK_MPI(MPI_Comm_set_attr(comm, queue_keyval, queue));
        queue->attached = local == DISTFFT_SUCCESS;
        TRY(error_agree(comm, local));
        queue->user = comm;
        queue->made = 1;
        lifetime_queue **at = &queues;
        while (*at) at = &(*at)->next;
        *at = queue;
    }
    else /* a creation is a collective point too (as in the Python package); a failed
          * free there fails the creation, on every rank */
        TRY(error_agree(comm, drain(queue, comm)));
    tag->queue = queue;
    tag->number = queue->next_number++;
    queue->references++;
    return DISTFFT_SUCCESS;
fail: /* every rank comes here; a queue found (a drain failed) stays */
    if (queue && !found) {
        if (queue->attached) KEEP_MPI(MPI_Comm_delete_attr(comm, queue_keyval)); /* not made: frees nothing */
        free(queue);
    }
    return rc;
}

int lifetime_register_beside(const lifetime_tag *parent, MPI_Comm comm, lifetime_tag *tag)
{
    lifetime_queue *queue = parent->queue;
    tag->queue = NULL;
    if (!queue) return DISTFFT_SUCCESS;
    int rc = error_agree(comm, drain(queue, comm));
    if (rc != DISTFFT_SUCCESS) return rc;
    tag->queue = queue;
    tag->number = queue->next_number++;
    queue->references++;
    return DISTFFT_SUCCESS;
}

int lifetime_forget(lifetime_tag *tag)
{
    lifetime_queue *queue = tag->queue;
    tag->queue = NULL;
    if (!queue) return DISTFFT_SUCCESS;
    queue->references--;
    return queue_maybe_free(queue);
}

int distfft_collect(MPI_Comm comm)
{
    error_clear();
    if (comm == MPI_COMM_NULL) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_collect: comm is MPI_COMM_NULL");
    int rc = DISTFFT_SUCCESS, found = 0;
    lifetime_queue *queue = NULL;
    /* no keyval: this process never created an object, nor then any rank
     * of comm on comm */
    if (queue_keyval == MPI_KEYVAL_INVALID) return rc;
    TRY_MPI(MPI_Comm_get_attr(comm, queue_keyval, &queue, &found));
    if (!found) return rc;
    rc = drain(queue, comm);
fail:
    return rc;
}
