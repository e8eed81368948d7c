/*
 * lifetime.h -- releasing objects without waiting for any rank, and
 * freeing their synchronising MPI objects later, together.
 *
 * The one thing to know: a released object's windows and communicators
 * are freed by distfft_collect on the communicator it was created on, and
 * only once EVERY rank has released it -- matched across ranks by a number
 * each object gets at creation from its communicator's queue, which every
 * rank counts identically because creation is collective.
 *
 * How: while lifetime_release runs an object's ordinary free function,
 * lifetime_comm_free and lifetime_win_free (which every destroy path calls
 * instead of MPI_Comm_free / MPI_Win_free) park their handle on the
 * object's record instead of freeing it; everything local (FFTW plans,
 * memory, datatypes) is freed at once.
 */
#ifndef DISTFFT_LIFETIME_H
#define DISTFFT_LIFETIME_H

#include <stdbool.h>
#include <stdint.h>
#include <mpi.h>

#include "distfft.h"

typedef struct lifetime_queue lifetime_queue;

/* An object's place in its creation communicator's queue; {NULL, 0} for
 * an object that never had one (internal objects, candidates). */
typedef struct {
    lifetime_queue *queue;
    int64_t number;
} lifetime_tag;

/* Give a new object its number on comm (the caller's communicator of the
 * creation): the first time on comm this makes the queue (cached on comm
 * as an attribute) and agrees on the outcome; later it drains the queue
 * (agreed: a failed free fails the creation). Collective on comm, after
 * the object exists on every rank; on failure the caller frees it. */
int lifetime_register(MPI_Comm comm, lifetime_tag *tag);

/* Give a new object made from `parent` (a live object of the same ranks:
 * a reshape or halo from a layout, a layout from a plan) its number in
 * the parent's queue, draining it on comm (a communicator of those
 * ranks). An unnumbered parent leaves the object unnumbered. Collective
 * on comm, agreed; on failure the caller frees the object. */
int lifetime_register_beside(const lifetime_tag *parent, MPI_Comm comm, lifetime_tag *tag);

/* The object was destroyed at once (collectively): drop its reference. */
int lifetime_forget(lifetime_tag *tag);

/* Free `object` with free_object, parking its communicators and windows
 * under tag's number. Local. DISTFFT_ERR_MEMORY with nothing freed where
 * the record cannot be made; otherwise free_object's first failure. */
int lifetime_release(lifetime_tag *tag, int (*free_object)(void *), void *object);

/* lifetime_release, and *companion too (a communicator a language binding
 * made beside the object: the Fortran module's duplicate; may be NULL),
 * parked on the same record -- or freed at once where the object is not
 * numbered. *companion becomes MPI_COMM_NULL unless nothing was freed
 * (DISTFFT_ERR_MEMORY). */
int lifetime_release_with(lifetime_tag *tag, int (*free_object)(void *), void *object, MPI_Comm *companion);

/* Whether a release that returned rc freed its object (tag: the copy of
 * the object's tag it was given): all but DISTFFT_ERR_MEMORY for the
 * record of a numbered object, which leaves the object intact. */
static inline bool lifetime_released(int rc, const lifetime_tag *tag)
{
    return !(rc == DISTFFT_ERR_MEMORY && tag->queue);
}

/* MPI_Comm_free / MPI_Win_free, or parked when a release is running on
 * this thread. MPI return codes (for KEEP_MPI). */
int lifetime_comm_free(MPI_Comm *comm);
int lifetime_win_free(MPI_Win *window);

/* release(pointer) once the windows freed before it on this path are:
 * at once outside a release, else parked behind them on the record (run
 * by the same distfft_collect, after their MPI_Win_free). For memory that
 * other processes map until they free such a window (cuda_ipc.c's device
 * buffers). MPI return codes. */
int lifetime_memory_free(void (*release)(void *), void *pointer);

#endif
