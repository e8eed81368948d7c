/*
 * timer.c -- timing of one candidate at plan time (see timer.h). The
 * fastest run is kept, as in the paper's methodology: on a shared machine
 * noise only ever slows a run down.
 */
#include <math.h>

#include "distfft.h"
#include "timer.h"
#include "../error.h"

int tuning_time(MPI_Comm comm, tuning_run run, void *context, double *seconds)
{
    int rc = run(context); /* warm-up: first touch, lazy connections */
    double best = INFINITY, total = 0.0;
    for (int r = 0; rc == DISTFFT_SUCCESS && r < TUNING_MAX_RUNS &&
                    (r < TUNING_MIN_RUNS || total < TUNING_MIN_SECONDS); r++) {
        rc = CHECK_MPI(MPI_Barrier(comm));
        if (rc != DISTFFT_SUCCESS) break;
        double start = MPI_Wtime();
        rc = run(context);
        double elapsed = MPI_Wtime() - start;
        int reduced = CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm));
        if (rc == DISTFFT_SUCCESS) rc = reduced;
        total += elapsed;
        if (elapsed < best) best = elapsed;
    }
    *seconds = best;
    return rc;
}
