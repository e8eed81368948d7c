/*
 * test_model.c -- the cost model through the public API: bad model files
 * (missing, malformed, from another machine kind) and bad budgets refused
 * on every rank with the same code and message, a forced foreign model
 * accepted, predictions positive and alike on every rank, and auto ranked
 * by the model timing only tune_budget candidates (the plan says so).
 *
 *   mpiexec -n 2 test_model
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

/* A valid model text, its MPI library line `library`. */
static void model_text(char *text, size_t size, const char *library)
{
    snprintf(text, size,
             "distfft-model 1\n"
             "machine = test; nodes of 2 ranks; host test\n"
             "mpi_library = %s\n"
             "node_size = 2\n"
             "latency_intra = 1e-6\nbandwidth_intra = 5e9\n"
             "latency_inter = 2e-6\nbandwidth_inter = 1e9\n"
             "injection_bandwidth = 2e9\nbisection_bandwidth = 0\n"
             "memcpy_bandwidth = 4e9\ndatatype_bandwidth = 0\n"
             "fft_c2c_double = 4096:1e-9 262144:2e-9\n", library);
}

/* Rank 0 writes text to path; every rank returns after it is written. */
static void write_file(MPI_Comm comm, const char *path, const char *text)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
        FILE *file = fopen(path, "w");
        if (file) {
            fputs(text, file);
            fclose(file);
        }
    }
    MPI_Barrier(comm);
}

/* The same nonzero code and message on every rank, containing `expected`. */
static int refused_alike(MPI_Comm comm, int code, const char *expected)
{
    const char *message = distfft_last_error();
    uint64_t hash = test_hash_string(message) >> 1;
    int64_t mine[4] = {code, -code, (int64_t)hash, -(int64_t)hash}, all[4];
    MPI_Allreduce(mine, all, 4, MPI_INT64_T, MPI_MAX, comm);
    int ok = code != DISTFFT_SUCCESS && all[0] == -all[1] && all[2] == -all[3] &&
             strstr(message, expected) != NULL;
    if (!ok) fprintf(stderr, "test_model: code %d, message '%s' (expected '%s')\n", code, message, expected);
    return ok;
}

static void library_banner(char *library, size_t size)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    version[length < MPI_MAX_LIBRARY_VERSION_STRING ? length : MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
    version[strcspn(version, "\r\n")] = '\0';
    size_t end = strlen(version);
    while (end > 0 && (version[end - 1] == ' ' || version[end - 1] == '\t')) version[--end] = '\0';
    snprintf(library, size, "%s", version);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_WORLD;
    test_suite suite;
    test_suite_init(&suite, "test_model", comm);
    int size;
    MPI_Comm_size(comm, &size);
    char path[64], text[2048], library[MPI_MAX_LIBRARY_VERSION_STRING];
    snprintf(path, sizeof path, "test_model.np%d.txt", size);
    library_banner(library, sizeof library);

    int rc = distfft_model_import_file(comm, "/nonexistent/model.txt", 0);
    test_case(&suite, refused_alike(comm, rc, "cannot be opened"), "missing file refused alike");

    static const struct { const char *text, *expected; } bad[] = {
        {"not a model\n", "not a distfft model"},
        {"distfft-model 1\nlatency_intra 1e-6\n", "expected 'key = value'"},
        {"distfft-model 1\nspeed = 3\n", "unknown key 'speed'"},
        {"distfft-model 1\nlatency_intra = 1e-6\nlatency_intra = 1e-6\n", "given twice"},
        {"distfft-model 1\nbandwidth_intra = fast\n", "is not a number"},
        {"distfft-model 1\nbandwidth_intra = -5\n", "must be > 0"},
        {"distfft-model 1\nfft_c2c_double = 4096:1e-9 1024:1e-9\n", "elements increasing"},
        {"distfft-model 1\nlatency_intra = 1e-6\n", "is missing"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(comm, path, bad[i].text);
        rc = distfft_model_import_file(comm, path, 0);
        test_case(&suite, refused_alike(comm, rc, bad[i].expected), "malformed model %zu refused alike (%s)",
                  i, bad[i].expected);
    }

    model_text(text, sizeof text, "Some Other MPI 9.9");
    write_file(comm, path, text);
    rc = distfft_model_import_file(comm, path, 0);
    test_case(&suite, refused_alike(comm, rc, "another kind of machine"), "foreign model refused alike");
    rc = distfft_model_import_file(comm, path, 1);
    test_case(&suite, test_all(comm, rc == DISTFFT_SUCCESS), "foreign model accepted when forced");

    model_text(text, sizeof text, library);
    write_file(comm, path, text);
    rc = distfft_model_import_file(comm, path, 0);
    test_case(&suite, test_all(comm, rc == DISTFFT_SUCCESS), "model of this machine kind accepted");

    static const int64_t shape[3] = {16, 12, 10};
    distfft_options options;
    distfft_options_init(&options);
    options.tune_budget = -2;
    distfft_plan plan = NULL;
    rc = distfft_plan_create(comm, 3, shape, DISTFFT_DOUBLE, &options, &plan);
    test_case(&suite, refused_alike(comm, rc, "tune_budget = -2") && plan == NULL,
              "negative tune_budget refused alike");

    /* Budget 1: the model's choice, built and kept untimed, and not stored
     * as wisdom -- the budget-2 plan below still measures (it would say
     * "wisdom" otherwise). */
    double untimed_pair = 0.0;
    options.tune_budget = 1;
    rc = distfft_plan_create(comm, 3, shape, DISTFFT_DOUBLE, &options, &plan);
    test_case(&suite, test_all(comm, rc == DISTFFT_SUCCESS), "auto with budget 1 plans");
    if (rc == DISTFFT_SUCCESS) {
        char description[1024];
        distfft_plan_describe(plan, description, sizeof description);
        test_case(&suite, size == 1 || strstr(description, "the model's choice untimed") != NULL,
                  "budget 1 keeps the model's choice untimed (%s)", description);
        rc = distfft_plan_predict_pair(plan, &untimed_pair);
        test_case(&suite, test_all(comm, rc == DISTFFT_SUCCESS), "budget 1's plan predicted");
        distfft_plan_destroy(&plan);
    }

    options.tune_budget = 2;
    rc = distfft_plan_create(comm, 3, shape, DISTFFT_DOUBLE, &options, &plan);
    test_case(&suite, test_all(comm, rc == DISTFFT_SUCCESS), "auto with a model and a budget plans");
    if (rc == DISTFFT_SUCCESS && size > 1) { /* budget 1 took the best ranked: no slower than the other */
        double pair = 0.0;
        rc = distfft_plan_predict_pair(plan, &pair);
        test_case(&suite, test_all(comm, rc == DISTFFT_SUCCESS && untimed_pair <= pair * (1 + 1e-9)),
                  "budget 1's choice predicted no slower than budget 2's (%.4g <= %.4g ms)", untimed_pair * 1e3,
                  pair * 1e3);
    }
    if (rc == DISTFFT_SUCCESS) {
        char description[1024];
        distfft_plan_describe(plan, description, sizeof description);
        test_case(&suite, size == 1 || strstr(description, "2 model-ranked candidates") != NULL,
                  "the budget's candidates timed (%s)", description);
        int steps = distfft_plan_step_count(plan, DISTFFT_FORWARD);
        double seconds[64];
        rc = distfft_plan_predict(plan, DISTFFT_FORWARD, seconds, 64);
        int positive = rc == DISTFFT_SUCCESS;
        double sum = 0.0;
        for (int s = 0; positive && s < steps; s++) {
            positive = isfinite(seconds[s]) && seconds[s] > 0;
            sum += seconds[s];
        }
        double low = sum, high = sum;
        MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_DOUBLE, MPI_MIN, comm);
        MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_DOUBLE, MPI_MAX, comm);
        test_case(&suite, positive && low == high, "predictions positive and alike on every rank");
        rc = distfft_plan_predict(plan, DISTFFT_FORWARD, seconds, 0);
        test_case(&suite, refused_alike(comm, rc, "room for 0"), "predict without room refused alike");
        /* FFT speed by active ranks: every rank of this test shares one
         * node, so each FFT step's prediction scales by the factor at the
         * plan's `size` ranks (1:0.25 8:1, in log ranks), each exchange
         * stays as it was. */
        char active_text[1024];
        model_text(active_text, sizeof active_text, library);
        strcat(active_text, "fft_active = 1:0.25 8:1\n");
        write_file(comm, path, active_text);
        double scaled[64];
        rc = distfft_model_import_file(comm, path, 0);
        if (rc == DISTFFT_SUCCESS) rc = distfft_plan_predict(plan, DISTFFT_FORWARD, scaled, 64);
        double factor = 0.25 + 0.75 * log((double)size) / log(8.0);
        int ffts = 0, others_same = 1;
        for (int s = 0; rc == DISTFFT_SUCCESS && s < steps; s++) {
            distfft_step info;
            distfft_plan_step(plan, DISTFFT_FORWARD, s, &info);
            int fft = strncmp(info.description, "fft", 3) == 0;
            if (fft && fabs(scaled[s] - factor * seconds[s]) <= 1e-12 * seconds[s]) ffts++;
            if (!fft && scaled[s] != seconds[s]) others_same = 0;
        }
        test_case(&suite, test_all(comm, rc == DISTFFT_SUCCESS && ffts > 0 && others_same),
                  "fft_active scales the FFT steps by %.3f at %d ranks on the node (%d steps)", factor, size, ffts);
        /* Steps of several axes: c2c at fft_multi_axis_factor, r2c at
         * fft_multi_axis_factor_r2c (c2c's when absent). A slab r2c plan's
         * first step transforms axes 1,2 (all three on one rank). */
        distfft_options slab;
        distfft_options_init(&slab);
        slab.kinds[2] = DISTFFT_R2C;
        slab.grid_ndims = 1;
        slab.grid_dims[0] = size;
        slab.method = DISTFFT_METHOD_ALLTOALLW;
        distfft_plan r2c = NULL;
        double same[64] = {0}, own[64] = {0};
        int multi_steps = 0, factor_ok = 1;
        rc = distfft_plan_create(comm, 3, shape, DISTFFT_DOUBLE, &slab, &r2c);
        for (int variant = 0; rc == DISTFFT_SUCCESS && variant < 2; variant++) {
            model_text(active_text, sizeof active_text, library);
            strcat(active_text, variant ? "fft_multi_axis_factor = 0.5\nfft_multi_axis_factor_r2c = 0.25\n"
                                        : "fft_multi_axis_factor = 0.5\n");
            write_file(comm, path, active_text);
            rc = distfft_model_import_file(comm, path, 0);
            if (rc == DISTFFT_SUCCESS) rc = distfft_plan_predict(r2c, DISTFFT_FORWARD, variant ? own : same, 64);
        }
        for (int s = 0; rc == DISTFFT_SUCCESS && s < distfft_plan_step_count(r2c, DISTFFT_FORWARD); s++) {
            distfft_step info;
            distfft_plan_step(r2c, DISTFFT_FORWARD, s, &info);
            int multi = strncmp(info.description, "fft r2c axes=", 13) == 0 && strchr(info.description, ',');
            multi_steps += multi;
            if (fabs(own[s] - (multi ? 0.5 : 1.0) * same[s]) > 1e-12 * same[s] || !(same[s] > 0)) factor_ok = 0;
        }
        test_case(&suite, test_all(comm, rc == DISTFFT_SUCCESS && multi_steps == 1 && factor_ok),
                  "an r2c step of several axes at fft_multi_axis_factor_r2c, c2c's when absent (%d steps)",
                  multi_steps);
        /* One rank: the backward is one fused c2r on the caller's input,
         * which it copies first (keeping it): its prediction is the
         * forward r2c's (the same family, elements and factor) plus a pass
         * over the complex input, 2 x bytes at memcpy_bandwidth (4e9). */
        if (rc == DISTFFT_SUCCESS && size == 1) {
            double forward_step[64], backward_step[64];
            rc = distfft_plan_predict(r2c, DISTFFT_FORWARD, forward_step, 64);
            if (rc == DISTFFT_SUCCESS) rc = distfft_plan_predict(r2c, DISTFFT_BACKWARD, backward_step, 64);
            double copy = 2.0 * shape[0] * shape[1] * (shape[2] / 2 + 1) * 16 / 4e9;
            test_case(&suite, rc == DISTFFT_SUCCESS && fabs(backward_step[0] - forward_step[0] - copy) <= 1e-9 * copy,
                      "one rank's fused c2r priced with the copy of its input (%.3g s = %.3g s + %.3g s)",
                      backward_step[0], forward_step[0], copy);
        }
        distfft_plan_destroy(&r2c);
        /* The pair: every step of both directions, plus a final sweep
         * over the backward output where the normalisation went into no
         * step -- a c2c slab under alltoallw (whose exchanges take no
         * factor) normalises in a pass of 2 x bytes at memcpy_bandwidth
         * (4e9); with norm none there is no sweep; alltoallv's unpack
         * takes 1/N for N a power of two (16 x 8 x 8), not 1/1920. */
        model_text(active_text, sizeof active_text, library);
        write_file(comm, path, active_text);
        rc = distfft_model_import_file(comm, path, 0);
        int pair_ok = rc == DISTFFT_SUCCESS;
        static const int64_t power_of_two[3] = {16, 8, 8};
        static const struct {
            distfft_method method;
            int norm_none, exact;
        } pair_cases[] = {{DISTFFT_METHOD_ALLTOALLW, 0, 0}, {DISTFFT_METHOD_ALLTOALLW, 1, 0},
                          {DISTFFT_METHOD_ALLTOALLV, 0, 0}, {DISTFFT_METHOD_ALLTOALLV, 0, 1},
                          {DISTFFT_METHOD_ALLTOALLW, 0, 1}};
        for (size_t c = 0; pair_ok && c < sizeof pair_cases / sizeof pair_cases[0]; c++) {
            int norm = pair_cases[c].norm_none;
            const int64_t *extent = pair_cases[c].exact ? power_of_two : shape;
            distfft_options c2c;
            distfft_options_init(&c2c);
            c2c.grid_ndims = 1;
            c2c.grid_dims[0] = size;
            c2c.method = pair_cases[c].method;
            c2c.norm = norm ? DISTFFT_NORM_NONE : DISTFFT_NORM_BACKWARD;
            distfft_plan p = NULL;
            double steps_sum = 0.0, pair = -1.0, each[64];
            rc = distfft_plan_create(comm, 3, extent, DISTFFT_DOUBLE, &c2c, &p);
            for (int direction = 0; rc == DISTFFT_SUCCESS && direction < 2; direction++) {
                int which = direction ? DISTFFT_BACKWARD : DISTFFT_FORWARD;
                rc = distfft_plan_predict(p, which, each, 64);
                for (int s = 0; rc == DISTFFT_SUCCESS && s < distfft_plan_step_count(p, which); s++)
                    steps_sum += each[s];
            }
            if (rc == DISTFFT_SUCCESS) rc = distfft_plan_predict_pair(p, &pair);
            /* the slowest rank's sweep: its output block (the backward's
             * input layout: a slab of axis 0); none where folded (an
             * exchange of alltoallv on more than one rank, 1/N exact) */
            int64_t rows = extent[0] / size + (extent[0] % size != 0);
            int folded = pair_cases[c].method == DISTFFT_METHOD_ALLTOALLV && pair_cases[c].exact && size > 1;
            double sweep = norm || folded ? 0.0 : 2.0 * (double)rows * extent[1] * extent[2] * 16 / 4e9;
            pair_ok = rc == DISTFFT_SUCCESS && fabs(pair - steps_sum - sweep) <= 1e-9 * pair;
            pair_ok = test_all(comm, pair_ok);
            test_case(&suite, pair_ok, "the pair's prediction, %s %s: steps %.3g s + sweep %.3g s = %.3g s "
                      "(norm %s)", distfft_method_name(pair_cases[c].method),
                      pair_cases[c].exact ? "16x8x8" : "16x12x10", steps_sum, sweep, pair,
                      norm ? "none" : "backward");
            distfft_plan_destroy(&p);
        }
        rc = distfft_plan_predict_pair(NULL, NULL);
        test_case(&suite, rc == DISTFFT_ERR_ARGUMENT, "predict_pair of NULL refused");
        distfft_model_forget();
        rc = distfft_plan_predict(plan, DISTFFT_FORWARD, seconds, 64);
        test_case(&suite, refused_alike(comm, rc, "no cost model"), "predict without a model refused alike");
        distfft_plan_destroy(&plan);
    }
    /* Without a model the budget changes nothing: every grid is measured. */
    distfft_wisdom_forget();
    rc = distfft_plan_create(comm, 3, shape, DISTFFT_DOUBLE, &options, &plan);
    if (rc == DISTFFT_SUCCESS) {
        char description[1024];
        distfft_plan_describe(plan, description, sizeof description);
        test_case(&suite, strstr(description, "model-ranked") == NULL, "no model: tuned as before (%s)",
                  description);
        distfft_plan_destroy(&plan);
    } else {
        test_case(&suite, 0, "no model: plan failed: %s", distfft_last_error());
    }
    if (suite.rank == 0) remove(path);
    int status = test_suite_finish(&suite);
    MPI_Finalize();
    return status;
}
