/*
 * serial_fft.h -- serial transforms along chosen axes of a local, C-ordered,
 * strided block, by FFTW's guru64 interface. Knows nothing of MPI.
 *
 * One serial_fft transforms a set of axes of an array (with a leading batch
 * dimension) in one FFTW plan; every other axis becomes an FFTW "howmany"
 * loop dimension with its own stride, so no copies or loops of ours are
 * involved. Families: complex DFT (C2C), real-to-complex along one axis
 * (R2C, the array's length n there becomes n/2+1) and its inverse (C2R), and
 * real-to-real (R2R: DCT/DST types), on real data or on the real and
 * imaginary parts of complex data. Precision is a runtime argument: fftw_,
 * fftwf_ or fftwl_ is chosen inside (long double: plans of the public
 * serial API only; the scaling helpers below, for plan steps, know double
 * and float).
 */
#ifndef DISTFFT_SERIAL_FFT_H
#define DISTFFT_SERIAL_FFT_H

#include <stdbool.h>
#include <stdint.h>

#include "distfft.h"

typedef enum { SERIAL_C2C, SERIAL_R2C, SERIAL_C2R, SERIAL_R2R } serial_family;

typedef struct {
    distfft_precision precision;
    serial_family family;
    int ndims;
    int64_t shape[DISTFFT_MAX_DIMS]; /* local shape; real-space for R2C/C2R */
    int64_t batch;
    int naxes;
    /* R2C/C2R: the halved axis (n -> n/2+1) is the LAST listed; the others
     * are complex axes transformed in the same FFTW plan (one pass). */
    int axes[DISTFFT_MAX_DIMS];
    int sign;                        /* C2C: DISTFFT_FORWARD or _BACKWARD */
    distfft_kind r2r_kinds[DISTFFT_MAX_DIMS]; /* R2R: per listed axis (its FFTW kind: kinds.def) */
    bool complex_data;               /* R2R on complex elements */
    distfft_rigor rigor;
    bool preserve_input;             /* out of place: leave the input alone */
    int threads;                     /* FFTW threads of the plan (>= 1) */
    /* Padding (serial/padding.h): per array axis, the retained spectral
     * length N of a padded axis whose shape[] is the padded length M > N;
     * 0 where not padded. serial_fft_create ignores it (it plans the
     * length-M transform); the FFT step pads or truncates around it. */
    int64_t retained[DISTFFT_MAX_DIMS];
    /* The public serial API (api/serial.c) only; zero in plan steps. Per
     * array: its strides in elements, per array axis, instead of C order
     * (in_strided, out_strided); FFTW planner flags added to those of
     * rigor and preserve_input (FFTW_UNALIGNED, _CONSERVE_MEMORY,
     * _WISDOM_ONLY). */
    bool in_strided, out_strided;
    int64_t in_strides[DISTFFT_MAX_DIMS], out_strides[DISTFFT_MAX_DIMS];
    unsigned planner_flags;
} serial_spec;

typedef struct serial_fft serial_fft;

/* Plan the transform on the planning arrays in/out (overwritten unless
 * rigor is ESTIMATE; in == out plans in place). An empty block plans a
 * no-op. With spec->threads > 1 the plan is FFTW's threaded one: FFTW's
 * thread count is global planner state, so it is set right before this
 * plan is made and restored after (plans of different thread counts
 * coexist; other FFTW users of the process are not affected). FFTW cannot
 * preserve the input of a multi-axis C2R: the caller copies it (see
 * serial_needs_copy). Not thread-safe (FFTW's planner is not). Local. */
int serial_fft_create(const serial_spec *spec, void *in, void *out,
                      serial_fft **fft);

/* Execute on new arrays with the planned alignment and in-placeness. */
void serial_fft_execute(const serial_fft *fft, void *in, void *out);

void serial_fft_destroy(serial_fft *fft);

/* FFTW's plan as FFTW prints it (fftw_sprint_plan): malloc'd, for the
 * caller to free(); NULL for an empty block's no-op or out of memory. */
char *serial_fft_sprint(const serial_fft *fft);

/* Is `pointer` aligned as FFTW's own allocator aligns (so a plan made on
 * distfft_malloc'ed arrays may run on it)? NULL counts as aligned. */
bool serial_fft_aligned(distfft_precision precision, const void *pointer);

/* Does the transform need its input copied to be preserved (a multi-axis
 * C2R with preserve_input)? It is then planned destroying its input. */
bool serial_needs_copy(const serial_spec *spec);

/* Multiply `count` real numbers by `factor`, with up to `threads` threads. */
void serial_scale(distfft_precision precision, void *data, int64_t count,
                  double factor, int threads);

/* out = in * factor over `count` reals (a scaled copy), with up to
 * `threads` threads. */
void serial_scaled_copy(distfft_precision precision, void *out, const void *in, int64_t count,
                        double factor, int threads);

/* out = in * weights[i] where i is the index along `axis` of a C-ordered
 * array of `shape` with a leading batch dimension, of real (components 1)
 * or complex (components 2) elements; in == out is allowed. */
void serial_scale_axis(distfft_precision precision, int components, int ndims,
                       const int64_t *shape, int64_t batch, int axis,
                       const double *weights, const void *in, void *out,
                       int threads);

#endif
