/*
 * backend_host.c -- the host backend (backend.h): arrays in host memory
 * from the platform's allocator (distfft_malloc), local steps from
 * serial/ (FFTW), the exchanges' copies and the runner's sweeps as the
 * host's loops (redist/copies.c, serial_scale), and every exchange method
 * whose applicable() takes host memory.
 */
#include "backend.h"
#include "error.h"
#include "types.h"

static int host_local_step(const step_spec *spec, void *plan_in, void *plan_out, void *scratch, void *stream,
                           step **out)
{
    (void)stream;
    *out = NULL;
    if (spec->kind == STEP_FFT) return fft_step_create(spec, plan_in, plan_out, scratch, out);
    if (spec->kind == STEP_WEIGHTS) return weights_step_create(spec, out);
    return error_fail(DISTFFT_ERR_ARGUMENT, "host backend: step kind %d is not a local step", (int)spec->kind);
}

static void host_scale(distfft_precision precision, void *data, int64_t count, double factor, int threads,
                       void *stream)
{
    (void)stream;
    serial_scale(precision, data, count, factor, threads);
}

static const backend host = {.name = "host", .memory = REDIST_MEMORY_HOST, .allocate = distfft_malloc,
                             .release = distfft_free, .local_step = host_local_step, .copies = &redist_host_copies,
                             .scale = host_scale};

const backend *backend_host(void) { return &host; }
