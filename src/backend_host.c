/*
 * backend_host.c -- the host backend (backend.h): arrays in host memory
 * from the platform's allocator (distfft_malloc), local steps from
 * serial/ (FFTW), and every exchange method whose applicable() takes host
 * memory.
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

static const backend host = {.name = "host", .memory = REDIST_MEMORY_HOST, .allocate = distfft_malloc,
                             .release = distfft_free, .local_step = host_local_step};

const backend *backend_host(void) { return &host; }
