/*
 * test_determinism.c -- the same plan on the same input gives bit-identical
 * output, run after run, whatever the redistribution method.
 *
 * For every method and a few plans (c2c pencil, r2c slab in float with a
 * batch, mixed real-to-real on a 4-D array): execute forward and backward
 * several times and compare the bytes with the first run. With FFTW_ESTIMATE
 * the serial FFTW plans are the same whatever the method, and methods only
 * move data, so every method must also give exactly the bytes alltoallw
 * gives -- but shm, whose plans run the FFT after each exchange out of
 * place (reading the exchange's output in its window), which FFTW may
 * plan differently: within rounding of them ("auto" included, which measures with rigor MEASURE: it is checked
 * run against run only, since FFTW may then pick other serial algorithms).
 * --quick (busy-polling MPIs, oversubscribed): the first two plans only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_support.h"

enum { RUNS = 4 };

static test_suite suite;

typedef struct {
    const char *name;
    int ndims;
    int64_t shape[4];
    distfft_kind kinds[4];
    int grid_ndims;
    distfft_precision precision;
    int64_t batch;
} config;

static const config configs[] = {
    {"c2c 9x8x7 pencil double", 3, {9, 8, 7}, {0}, 2, DISTFFT_DOUBLE, 1},
    {"r2c 10x6x9 slab float batch 3", 3, {10, 6, 9},
     {DISTFFT_C2C, DISTFFT_C2C, DISTFFT_R2C}, 1, DISTFFT_FLOAT, 3},
    {"dct2,dst3,c2c,r2c 5x6x4x7 3-D grid double", 4, {5, 6, 4, 7},
     {DISTFFT_DCT2, DISTFFT_DST3, DISTFFT_C2C, DISTFFT_R2C}, 3,
     DISTFFT_DOUBLE, 1},
};
#define CONFIG_COUNT (int)(sizeof configs / sizeof configs[0])

typedef struct {
    size_t in_bytes, out_bytes;
    unsigned char *forward, *backward; /* first run's results */
} result;

/* Run the plan RUNS times; 1 if every run matched the first bit for bit.
 * Keeps the first run's bytes in *first. */
static int repeatable(distfft_plan plan, const config *c, result *first)
{
    int64_t in_shape[4], in_start[4], out_shape[4];
    distfft_type in_type, out_type;
    distfft_plan_input_block(plan, in_shape, in_start);
    distfft_plan_output_block(plan, out_shape, NULL);
    distfft_plan_types(plan, &in_type, &out_type);
    first->in_bytes = (size_t)(c->batch * test_product(c->ndims, in_shape)) *
                      distfft_type_size(in_type);
    first->out_bytes = (size_t)(c->batch *
                                test_product(c->ndims, out_shape)) *
                       distfft_type_size(out_type);
    unsigned char *x = test_guarded_alloc(first->in_bytes, 0);
    unsigned char *y = test_guarded_alloc(first->out_bytes, 0);
    unsigned char *z = test_guarded_alloc(first->in_bytes, 0);
    first->forward = malloc(first->out_bytes + 1);
    first->backward = malloc(first->in_bytes + 1);
    test_fill(in_type, c->ndims, c->shape, in_shape, in_start, c->batch, 0, x);
    int ok = 1;
    for (int run = 0; run < RUNS && ok; run++) {
        /* fresh garbage in the outputs each time */
        memset(y, 0x5A + run, first->out_bytes);
        memset(z, 0xA5 - run, first->in_bytes);
        ok = distfft_plan_execute(plan, x, y, DISTFFT_FORWARD) == DISTFFT_SUCCESS &&
             distfft_plan_execute(plan, y, z, DISTFFT_BACKWARD) == DISTFFT_SUCCESS;
        if (!ok) {
            test_detail(&suite, "%s: %s", c->name, distfft_last_error());
        } else if (run == 0) {
            memcpy(first->forward, y, first->out_bytes);
            memcpy(first->backward, z, first->in_bytes);
        } else {
            ok = memcmp(first->forward, y, first->out_bytes) == 0 &&
                 memcmp(first->backward, z, first->in_bytes) == 0;
            if (!ok)
                test_detail(&suite, "%s: run %d differs from run 0", c->name,
                            run);
        }
    }
    distfft_free(x);
    distfft_free(y);
    distfft_free(z);
    return ok;
}

static void result_free(result *r)
{
    free(r->forward);
    free(r->backward);
    r->forward = r->backward = NULL;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_suite_init(&suite, "test_determinism", MPI_COMM_WORLD);
    int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;

    for (int k = 0; k < (quick ? 2 : CONFIG_COUNT); k++) {
        const config *c = &configs[k];
        result reference = {0};
        for (int m = 0; distfft_method_name((distfft_method)m); m++) {
            distfft_method method = (distfft_method)m;
            if (!test_method_serves_host(method)) continue; /* device memory only */
            distfft_options o;
            distfft_options_init(&o);
            o.grid_ndims = c->grid_ndims;
            o.method = method;
            o.batch = c->batch;
            o.rigor = method == DISTFFT_METHOD_AUTO ? DISTFFT_MEASURE
                                                    : DISTFFT_ESTIMATE;
            for (int a = 0; a < c->ndims; a++) o.kinds[a] = c->kinds[a];
            distfft_plan plan = NULL;
            int rc = distfft_plan_create(MPI_COMM_WORLD, c->ndims, c->shape,
                                         c->precision, &o, &plan);
            /* vector needs equal blocks (test_methods predicts where) */
            if (method == DISTFFT_METHOD_VECTOR &&
                test_all(MPI_COMM_WORLD, rc == DISTFFT_ERR_UNSUPPORTED && !plan)) {
                test_case(&suite, 1, "%s, vector: refused (unequal blocks)", c->name);
                continue;
            }
            if (!test_all(MPI_COMM_WORLD, rc == DISTFFT_SUCCESS)) {
                test_detail(&suite, "%s: %s", c->name, distfft_last_error());
                test_case(&suite, 0, "%s, %s: plan_create", c->name,
                          distfft_method_name(method));
                continue;
            }
            result mine = {0};
            int ok = repeatable(plan, c, &mine);
            test_case(&suite, ok, "%s, %s: %d runs bit-identical", c->name,
                      distfft_method_name(method), RUNS);
            if (method == DISTFFT_METHOD_ALLTOALLW) {
                reference = mine;
            } else {
                if (method == DISTFFT_METHOD_SHM) { /* its FFTs after exchanges out of place */
                    int64_t points = test_product(c->ndims, c->shape);
                    int close = reference.forward && ok &&
                                test_close(c->precision, mine.out_bytes, reference.forward, mine.forward,
                                           points) &&
                                test_close(c->precision, mine.in_bytes, reference.backward, mine.backward,
                                           points);
                    test_case(&suite, close, "%s, shm: alltoallw's result within rounding", c->name);
                } else if (method != DISTFFT_METHOD_AUTO) {
                    int same = reference.forward && ok &&
                               memcmp(reference.forward, mine.forward,
                                      mine.out_bytes) == 0 &&
                               memcmp(reference.backward, mine.backward,
                                      mine.in_bytes) == 0;
                    test_case(&suite, same,
                              "%s, %s: same bits as alltoallw", c->name,
                              distfft_method_name(method));
                }
                result_free(&mine);
            }
            distfft_plan_destroy(&plan);
        }
        result_free(&reference);
    }

    int code = test_suite_finish(&suite);
    MPI_Finalize();
    return code;
}
