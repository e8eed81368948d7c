/*
 * timer.c -- timing of one candidate at plan time (see timer.h). The
 * fastest run is kept, as in the paper's methodology: on a shared machine
 * noise only ever slows a run down.
 */
#include <math.h>

#include "distfft.h"
#include "timer.h"
#include "../error.h"
#include "../redist/copies.h"

bool tuning_enough(const double *times, int runs, double bound)
{
    if (runs >= TUNING_MAX_RUNS) return true;
    double fastest = INFINITY, total = 0.0;
    for (int r = 0; r < runs; r++) {
        fastest = times[r] < fastest ? times[r] : fastest;
        total += times[r];
    }
    if (runs > 0 && isfinite(bound) && fastest > TUNING_LOSER * bound) return true;
    if (runs < TUNING_MIN_RUNS) return false;
    if (total >= TUNING_MIN_SECONDS) return true;
    double before = INFINITY; /* the fastest before the last TUNING_MIN_RUNS runs */
    for (int r = 0; r < runs - TUNING_MIN_RUNS; r++) before = times[r] < before ? times[r] : before;
    return before <= fastest * (1 + TUNING_AGREEMENT);
}

int tuning_time(MPI_Comm comm, tuning_run run, void *context, double bound, double *seconds, int *runs)
{
    int rc = run(context), r; /* warm-up: first touch, lazy connections */
    double times[TUNING_MAX_RUNS], best = INFINITY;
    for (r = 0; rc == DISTFFT_SUCCESS && !tuning_enough(times, r, bound); r++) {
        rc = CHECK_MPI(MPI_Barrier(comm));
        if (rc != DISTFFT_SUCCESS) break;
        double start = MPI_Wtime();
        rc = run(context);
        double elapsed = MPI_Wtime() - start;
        int reduced = CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm));
        if (rc == DISTFFT_SUCCESS) rc = reduced;
        times[r] = elapsed;
        if (elapsed < best) best = elapsed;
    }
    *seconds = best;
    if (runs) *runs = r;
    return rc;
}

int tuning_wait(const struct redist_copies *copies, void *stream)
{
    return copies && copies->ipc ? copies->ipc->wait(stream) : DISTFFT_SUCCESS;
}
