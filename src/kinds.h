/*
 * kinds.h -- what each transform kind is, read from its row of the kind
 * table (kinds.def): the one place a kind's properties are written down.
 */
#ifndef DISTFFT_KINDS_H
#define DISTFFT_KINDS_H

#include <stdbool.h>
#include <stdint.h>

#include "distfft.h"

/* Which family of serial transform carries the kind (plan/algebra.c
 * groups a stage's axes by it). */
typedef enum {
    KIND_COMPLEX,          /* complex DFT */
    KIND_REAL_TO_COMPLEX,  /* the halving real DFT (one axis at most) */
    KIND_REAL,             /* real-to-real: one FFTW r2r kind */
    KIND_UNTRANSFORMED
} kind_role;

typedef struct {
    const char *name;
    kind_role role;
    int fftw_kind;           /* FFTW's fftw_r2r_kind, or -1 */
    distfft_kind backward;   /* the kind that inverts it (up to scale) */
    int64_t min_length;
    int length_factor, length_offset; /* logical N = factor * (n + offset); factor 0: 1 */
    bool weights;            /* followed by the Chebyshev weights step */
    bool pads;               /* options.padding may pad an axis of it */
} kind_row;

/* The row of a kind, or NULL for a value that is not one. Local. */
const kind_row *kind_row_of(distfft_kind kind);

/* Rows in the table (the kinds are 0 .. count-1). distfft.h's
 * distfft_kind_logical_length is the table's normalisation column. */
int kind_count(void);

#endif
