/*
 * steps.c -- the per-step breakdown of distfft-bench (see steps.h).
 *
 * The steps come from distfft_plan_step after one extra repetition of
 * `inner` pairs (the timed repetitions keep only the fastest one's totals):
 * times are the slowest rank's (and the fastest's), bytes are summed over the ranks and
 * compared with what a perfectly balanced exchange sends.
 */
#include "steps.h"

#include <stdlib.h>
#include <string.h>

/* Seconds of one memcpy of `bytes` on every rank at once: the slowest
 * rank's, fastest of 5 (the first touches the pages). 0 if it cannot
 * allocate on some rank. Collective. */
static double copy_floor(MPI_Comm comm, long long bytes)
{
#ifdef DISTFFT_SMPI
    /* Under SMPI every rank's copy runs on the one host: thousands of
     * copies of the rank's share would cost more than the whole run. */
    (void)comm;
    (void)bytes;
    return 0.0;
#endif
    char *from = bytes > 0 ? malloc((size_t)bytes) : NULL, *to = bytes > 0 ? malloc((size_t)bytes) : NULL;
    int mine = bytes <= 0 || (from && to), all;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
    double best = 0.0;
    if (all && bytes > 0) {
        memset(from, 1, (size_t)bytes);
        memset(to, 0, (size_t)bytes);
        for (int k = 0; k < 6; ++k) {
            MPI_Barrier(comm);
            double start = MPI_Wtime();
            memcpy(to, from, (size_t)bytes);
            double seconds = MPI_Wtime() - start, slowest;
            MPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
            if (k == 1 || (k > 1 && slowest < best)) best = slowest;
        }
    }
    free(from);
    free(to);
    return best;
}

static void collect_direction(MPI_Comm comm, distfft_plan plan, int direction,
                              bench_steps *steps)
{
    int count = distfft_plan_step_count(plan, direction);
    for (int index = 0; index < count && steps->count < BENCH_MAX_STEPS; ++index) {
        distfft_step info;
        distfft_plan_step(plan, direction, index, &info);
        double seconds = info.executions > 0 ? info.seconds / (double)info.executions : 0.0;
        long long sent = (long long)info.bytes_sent;
        double slowest, fastest;
        long long largest, total;
        MPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
        MPI_Allreduce(&seconds, &fastest, 1, MPI_DOUBLE, MPI_MIN, comm);
        MPI_Allreduce(&sent, &largest, 1, MPI_LONG_LONG, MPI_MAX, comm);
        MPI_Allreduce(&sent, &total, 1, MPI_LONG_LONG, MPI_SUM, comm);
        bench_step *step = &steps->steps[steps->count++];
        step->forward = direction == DISTFFT_FORWARD;
        memcpy(step->description, info.description, sizeof step->description);
        step->is_redistribution = info.is_redistribution;
        step->seconds = slowest;
        step->seconds_fastest_rank = fastest;
        step->bytes_sent_max = largest;
        step->bytes_total = total;
        step->bytes_theory = info.is_redistribution
            ? (long long)((double)info.global_bytes * (1.0 - 1.0 / info.group_size) + 0.5) : 0;
        if (info.is_redistribution) {
            int ranks;
            MPI_Comm_size(comm, &ranks);
            long long share = (long long)((info.global_bytes + ranks - 1) / ranks);
            step->copy_seconds = share == steps->copy_bytes ? steps->copy_floor
                                                            : copy_floor(comm, share);
            steps->copy_bytes = share, steps->copy_floor = step->copy_seconds;
        }
        steps->volume_bytes += total;
        steps->volume_theory_bytes += step->bytes_theory;
    }
}

int bench_steps_collect(MPI_Comm comm, distfft_plan plan, void *input,
                        void *output, void *roundtrip, int inner,
                        bench_steps *steps)
{
    memset(steps, 0, sizeof *steps);
    int status = distfft_plan_reset_timings(plan);
    for (int pair = 0; pair < inner && status == DISTFFT_SUCCESS; ++pair) {
        status = distfft_plan_execute(plan, input, output, DISTFFT_FORWARD);
        if (status == DISTFFT_SUCCESS)
            status = distfft_plan_execute(plan, output, roundtrip, DISTFFT_BACKWARD);
    }
    if (status != DISTFFT_SUCCESS)
        return status;
    collect_direction(comm, plan, DISTFFT_FORWARD, steps);
    collect_direction(comm, plan, DISTFFT_BACKWARD, steps);
    return DISTFFT_SUCCESS;
}

void bench_steps_describe(MPI_Comm comm, distfft_plan plan, bench_steps *steps)
{
    memset(steps, 0, sizeof *steps);
    collect_direction(comm, plan, DISTFFT_FORWARD, steps);
    collect_direction(comm, plan, DISTFFT_BACKWARD, steps);
}

int bench_steps_predict(distfft_plan plan, bench_steps *steps)
{
    int forward = distfft_plan_step_count(plan, DISTFFT_FORWARD);
    int backward = distfft_plan_step_count(plan, DISTFFT_BACKWARD);
    double seconds[BENCH_MAX_STEPS] = {0};
    if (forward < 0 || backward < 0 || forward + backward > BENCH_MAX_STEPS)
        return DISTFFT_ERR_ARGUMENT; /* the same plan everywhere: alike on every rank */
    int status = distfft_plan_predict(plan, DISTFFT_FORWARD, seconds, forward);
    if (status == DISTFFT_SUCCESS)
        status = distfft_plan_predict(plan, DISTFFT_BACKWARD, seconds + forward, backward);
    if (status == DISTFFT_SUCCESS) /* the steps and any final normalising sweep */
        status = distfft_plan_predict_pair(plan, &steps->predicted_pair_seconds);
    if (status == DISTFFT_SUCCESS) {
        steps->predicted = 1;
        steps->predicted_sweep_seconds = steps->predicted_pair_seconds;
        for (int i = 0; i < steps->count && i < forward + backward; ++i) {
            steps->steps[i].predicted_seconds = seconds[i];
            steps->predicted_sweep_seconds -= seconds[i];
        }
        if (steps->predicted_sweep_seconds < 1e-12 * steps->predicted_pair_seconds)
            steps->predicted_sweep_seconds = 0.0; /* rounding */
    }
    return status;
}
