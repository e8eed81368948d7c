/*
 * cufft_step.cu -- the device's serial transform step: one cuFFT plan
 * (cufftMakePlanMany64: 64-bit sizes) over a run of consecutive axes of
 * the local block, laid out by cufft_layout.h, executed `loops` times on
 * the plan's stream. C2C, R2C and C2R in double (Z2Z, D2Z, Z2D) and float
 * (C2C, R2C, C2R); what cuFFT lacks is refused at create, never run by a
 * host fallback. The plan allocates no work area of its own: every step
 * uses the process's one area (cuda_backend.h), set before each execution.
 * cuFFT's C2R may overwrite its input; a step whose input must be kept
 * (serial_needs_copy's case, and any out-of-place C2R that preserves its
 * input) copies it into the plan's scratch first, or, for a one-axis C2R
 * (FFTW keeps that input itself, so the plan has no scratch for it), into
 * a buffer of its own.
 */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <stdlib.h>

#include <cuda_runtime.h>
#include <cufft.h>

#include "cuda/cuda_backend.h"
#include "cuda/cufft_layout.h"

typedef struct {
    step base;
    cufftHandle handle;
    bool planned;
    cufft_layout layout;
    cufftType type;
    int direction;                 /* C2C: CUFFT_FORWARD or CUFFT_INVERSE */
    size_t in_element, out_element;
    cudaStream_t stream;
    void *copy;                    /* the input's copy (C2R keeping its input): the plan's scratch */
    bool owns_copy;                /* ... or the step's own buffer (no scratch) */
    size_t copy_bytes;
    size_t work_bytes;             /* cuFFT's work area need (cufftMakePlanMany64's workSize) */
} cufft_step;

static int cufft_failed(cufftResult result, const char *what)
{
    int code = result == CUFFT_ALLOC_FAILED ? DISTFFT_ERR_MEMORY : DISTFFT_ERR_UNSUPPORTED;
    return cuda_services->fail(code, "memory cuda: %s failed (cufftResult %d)", what, (int)result);
}

static cufftResult run_once(const cufft_step *s, const char *in, char *out)
{
    switch (s->type) {
    case CUFFT_Z2Z: return cufftExecZ2Z(s->handle, (cufftDoubleComplex *)in, (cufftDoubleComplex *)out, s->direction);
    case CUFFT_C2C: return cufftExecC2C(s->handle, (cufftComplex *)in, (cufftComplex *)out, s->direction);
    case CUFFT_D2Z: return cufftExecD2Z(s->handle, (cufftDoubleReal *)in, (cufftDoubleComplex *)out);
    case CUFFT_R2C: return cufftExecR2C(s->handle, (cufftReal *)in, (cufftComplex *)out);
    case CUFFT_Z2D: return cufftExecZ2D(s->handle, (cufftDoubleComplex *)in, (cufftDoubleReal *)out);
    case CUFFT_C2R: return cufftExecC2R(s->handle, (cufftComplex *)in, (cufftReal *)out);
    default: return CUFFT_INVALID_TYPE;
    }
}

static int cufft_execute(const step *self, const void *in, void *out)
{
    const cufft_step *s = (const cufft_step *)self;
    if (!s->planned) return DISTFFT_SUCCESS; /* an empty block */
    const char *from = (const char *)in;
    if (s->copy) {
        cudaError_t status = cudaMemcpyAsync(s->copy, in, s->copy_bytes, cudaMemcpyDeviceToDevice, s->stream);
        if (status != cudaSuccess) {
            cudaGetLastError(); /* reported here, not again by the next synchronisation */
            return cuda_services->fail(DISTFFT_ERR_UNSUPPORTED, "memory cuda: copying a c2r's input failed (%s)",
                                       cudaGetErrorName(status));
        }
        from = (const char *)s->copy;
    }
    cufftResult result = cufftSetWorkArea(s->handle, cuda_work_area());
    for (long long e = 0; e < s->layout.loops && result == CUFFT_SUCCESS; e++)
        result = run_once(s, from + e * s->layout.in_loop * (long long)s->in_element,
                          (char *)out + e * s->layout.out_loop * (long long)s->out_element);
    return result == CUFFT_SUCCESS ? DISTFFT_SUCCESS : cufft_failed(result, "cufftExec");
}

static void cufft_describe(const step *self, text *out)
{
    static const char *const families[] = {"c2c", "r2c", "c2r", "r2r"};
    const serial_spec *spec = &self->spec.fft;
    cuda_services->append(out, "fft %s axes=", families[spec->family]);
    for (int j = 0; j < spec->naxes; j++) cuda_services->append(out, j ? ",%d" : "%d", spec->axes[j]);
    cuda_services->append(out, " cufft");
}

static int cufft_destroy(step *self)
{
    cufft_step *s = (cufft_step *)self;
    int rc = DISTFFT_SUCCESS;
    if (s->planned) {
        cufftResult result = cufftDestroy(s->handle);
        if (result != CUFFT_SUCCESS) rc = cufft_failed(result, "cufftDestroy");
    }
    if (s->owns_copy) cuda_release(s->copy);
    free(s);
    return rc;
}

static const step_ops cufft_ops = {cufft_execute, cufft_describe, NULL, cufft_destroy, NULL, NULL, NULL};

static cufftType type_of(const serial_spec *spec)
{
    bool dbl = spec->precision == DISTFFT_DOUBLE;
    if (spec->family == SERIAL_R2C) return dbl ? CUFFT_D2Z : CUFFT_R2C;
    if (spec->family == SERIAL_C2R) return dbl ? CUFFT_Z2D : CUFFT_C2R;
    return dbl ? CUFFT_Z2Z : CUFFT_C2C;
}

/* The cuFFT plan of s->layout, without a work area of its own: the
 * process's area grown to its need. */
static int plan(cufft_step *s)
{
    cufft_layout *l = &s->layout;
    size_t work_bytes = 0;
    cufftResult result = cufftCreate(&s->handle);
    if (result != CUFFT_SUCCESS) return cufft_failed(result, "cufftCreate");
    s->planned = true;
    result = cufftSetAutoAllocation(s->handle, 0);
    if (result == CUFFT_SUCCESS) result = cufftSetStream(s->handle, s->stream);
    if (result == CUFFT_SUCCESS)
        result = cufftMakePlanMany64(s->handle, l->rank, l->n, l->inembed, l->istride, l->idist, l->onembed,
                                     l->ostride, l->odist, s->type, l->batch, &work_bytes);
    if (result != CUFFT_SUCCESS) return cufft_failed(result, "cufftMakePlanMany64");
    s->work_bytes = work_bytes;
    return cuda_work_area_reserve(work_bytes);
}

size_t cufft_step_work_bytes(const step *local, size_t *held)
{
    *held = 0;
    if (!local || local->ops != &cufft_ops) return 0;
    const cufft_step *s = (const cufft_step *)local;
    if (s->owns_copy) *held = s->copy_bytes;
    return s->work_bytes;
}

int cufft_step_create(const step_spec *spec, void *scratch, void *stream, step **out)
{
    *out = NULL;
    const char *why = "";
    cufft_layout layout;
    if (!cufft_layout_of(&spec->fft, &layout, &why))
        return cuda_services->fail(DISTFFT_ERR_UNSUPPORTED, "memory cuda: %s", why);
    cufft_step *s = (cufft_step *)calloc(1, sizeof *s);
    if (!s) return cuda_services->fail(DISTFFT_ERR_MEMORY, "cufft step");
    s->base.ops = &cufft_ops;
    s->base.spec = *spec;
    s->layout = layout;
    s->type = type_of(&spec->fft);
    s->direction = spec->fft.sign == DISTFFT_FORWARD ? CUFFT_FORWARD : CUFFT_INVERSE;
    size_t real = spec->fft.precision == DISTFFT_DOUBLE ? sizeof(double) : sizeof(float);
    s->in_element = spec->fft.family == SERIAL_R2C ? real : 2 * real;
    s->out_element = spec->fft.family == SERIAL_C2R ? real : 2 * real;
    s->stream = (cudaStream_t)stream;
    bool keeps_input = spec->fft.preserve_input && spec->out_of_place;
    if (spec->fft.family == SERIAL_C2R && keeps_input && spec->in_count > 0) {
        s->copy = scratch;
        s->copy_bytes = (size_t)spec->in_count * s->in_element;
        if (!scratch) { /* a one-axis c2r: the plan made no scratch for it */
            s->copy = cuda_allocate(s->copy_bytes);
            s->owns_copy = true;
        }
        if (!s->copy) {
            size_t bytes = s->copy_bytes;
            free(s);
            return cuda_services->fail(DISTFFT_ERR_MEMORY, "memory cuda: a copy of a c2r's input of %zu bytes "
                                       "(options.destroy_input avoids the copy)", bytes);
        }
    }
    int rc = layout.loops > 0 ? plan(s) : DISTFFT_SUCCESS;
    if (rc != DISTFFT_SUCCESS) {
        cufft_destroy(&s->base);
        return rc;
    }
    *out = &s->base;
    return DISTFFT_SUCCESS;
}
