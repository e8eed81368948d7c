/*
 * progress_thread.c -- the helper thread of a plan with overlap PROGRESS:
 * it calls MPI_Testall on the exchanges a pipelined plan has in flight
 * while the caller's thread runs the FFTs of another field (run.c).
 *
 * Why: MPI_Ialltoallw only starts an exchange. Open MPI's and MPICH's
 * shared-memory transports copy the data inside MPI calls, on the core of
 * the thread that makes them, so an exchange left in flight during FFTs
 * mostly waits for the MPI_Wait after them, and pipelining hides little.
 * A thread that keeps calling MPI_Test meanwhile moves it -- on a core of
 * its own; on a full node it competes with the FFTs instead (the measured
 * choice, overlap AUTO, decides). MPICH's own progress thread
 * (MPIR_CVAR_ASYNC_PROGRESS=1, with MPI_THREAD_MULTIPLE) does the same
 * job for every request of the process, and overlap ON then suffices.
 *
 * The one thing to know: a request may be completed by one thread at a
 * time (MPI 4.0, 11.6.2). Between plan_progress_begin and
 * plan_progress_end the helper owns the requests (completed ones it sets
 * to MPI_REQUEST_NULL, as MPI_Testall does); the caller touches them only
 * after plan_progress_end returns, which waits until the helper has left
 * them. Idle, the helper sleeps on a condition variable: it costs nothing
 * between transforms. It is made once with the plan and joined when the
 * plan is freed, never per call.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT (Linux) */

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

#include "../error.h"
#include "../platform.h"
#include "plan.h"

enum { HELPER_IDLE, HELPER_RUN, HELPER_QUIT };

struct plan_progress {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;          /* the helper waits here for RUN or QUIT */
    pthread_cond_t idle;          /* the caller waits here for the helper to leave RUN */
    int state;                    /* HELPER_*, under lock */
    atomic_bool stop;             /* the caller wants the requests back: read while testing */
    MPI_Request *requests;        /* owned by the helper while RUN */
    int count;
    int error;                    /* the first MPI error code of MPI_Testall (MPI_SUCCESS: none) */
};

int plan_progress_available(bool *available)
{
    *available = false;
    if (!platform_runs_threads()) return DISTFFT_SUCCESS;
    int provided = MPI_THREAD_SINGLE;
    int rc = CHECK_MPI(MPI_Query_thread(&provided));
    *available = rc == DISTFFT_SUCCESS && provided >= MPI_THREAD_MULTIPLE;
    return rc;
}

bool plan_progress_spare_core(int threads, int node_ranks)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores > 0 && (long)node_ranks * (threads + 1) > cores) return false;
#if defined(__linux__) && defined(CPU_COUNT)
    cpu_set_t cpus;
    if (sched_getaffinity(0, sizeof cpus, &cpus) == 0) return CPU_COUNT(&cpus) >= threads + 1;
#endif
    return true; /* unknown: let the measurement decide */
}

/* Test the requests until they are complete, the caller wants them back,
 * or MPI fails. Called without the lock. */
static void test_until_done(plan_progress *progress)
{
    while (!atomic_load_explicit(&progress->stop, memory_order_acquire)) {
        int done = 0;
        int code = MPI_Testall(progress->count, progress->requests, &done, MPI_STATUSES_IGNORE);
        if (code != MPI_SUCCESS) {
            progress->error = code;
            return;
        }
        if (done) return;
        sched_yield(); /* a shared core: let the FFTs have it between tests */
    }
}

static void *helper_main(void *argument)
{
    plan_progress *progress = argument;
    pthread_mutex_lock(&progress->lock);
    for (;;) {
        while (progress->state == HELPER_IDLE) pthread_cond_wait(&progress->wake, &progress->lock);
        if (progress->state == HELPER_QUIT) break;
        pthread_mutex_unlock(&progress->lock);
        test_until_done(progress);
        pthread_mutex_lock(&progress->lock);
        if (progress->state == HELPER_RUN) progress->state = HELPER_IDLE;
        pthread_cond_signal(&progress->idle);
    }
    pthread_mutex_unlock(&progress->lock);
    return NULL;
}

int plan_progress_create(plan_progress **out)
{
    *out = NULL;
    plan_progress *progress = calloc(1, sizeof *progress);
    if (!progress) return error_fail(DISTFFT_ERR_MEMORY, "overlap progress: the helper thread's state");
    progress->state = HELPER_IDLE;
    progress->error = MPI_SUCCESS;
    atomic_init(&progress->stop, false);
    int code = pthread_mutex_init(&progress->lock, NULL);
    if (code != 0) goto no_lock;
    if ((code = pthread_cond_init(&progress->wake, NULL)) != 0) goto no_wake;
    if ((code = pthread_cond_init(&progress->idle, NULL)) != 0) goto no_idle;
    if ((code = pthread_create(&progress->thread, NULL, helper_main, progress)) != 0) goto no_thread;
    *out = progress;
    return DISTFFT_SUCCESS;
no_thread:
    pthread_cond_destroy(&progress->idle);
no_idle:
    pthread_cond_destroy(&progress->wake);
no_wake:
    pthread_mutex_destroy(&progress->lock);
no_lock:
    free(progress);
    return error_fail(DISTFFT_ERR_MEMORY, "overlap progress: the helper thread could not be started "
                      "(pthread error %d)", code);
}

void plan_progress_begin(plan_progress *progress, MPI_Request *requests, int count)
{
    pthread_mutex_lock(&progress->lock);
    progress->requests = requests;
    progress->count = count;
    atomic_store_explicit(&progress->stop, false, memory_order_relaxed);
    progress->state = HELPER_RUN;
    pthread_cond_signal(&progress->wake);
    pthread_mutex_unlock(&progress->lock);
}

int plan_progress_end(plan_progress *progress)
{
    atomic_store_explicit(&progress->stop, true, memory_order_release);
    pthread_mutex_lock(&progress->lock);
    while (progress->state == HELPER_RUN) pthread_cond_wait(&progress->idle, &progress->lock);
    int code = progress->error;
    progress->error = MPI_SUCCESS;
    progress->requests = NULL;
    progress->count = 0;
    pthread_mutex_unlock(&progress->lock);
    return code == MPI_SUCCESS ? DISTFFT_SUCCESS : error_mpi(code, "MPI_Testall (overlap progress thread)");
}

void plan_progress_free(plan_progress *progress)
{
    if (!progress) return;
    pthread_mutex_lock(&progress->lock);
    progress->state = HELPER_QUIT;
    pthread_cond_signal(&progress->wake);
    pthread_mutex_unlock(&progress->lock);
    pthread_join(progress->thread, NULL);
    pthread_cond_destroy(&progress->idle);
    pthread_cond_destroy(&progress->wake);
    pthread_mutex_destroy(&progress->lock);
    free(progress);
}
