/*
 * kinds.c -- the kind table (kinds.def) as rows indexed by distfft_kind.
 */
#include <fftw3.h>

#include "kinds.h"

/* Designated by the constant: a row sits at its kind's value whatever the
 * order of the file, and a kind without a row is all zeros (name NULL),
 * which the kind table's test finds. */
static const kind_row rows[] = {
#define KIND(id, name, role, fftw, backward, min, factor, offset, weights, pads) \
    [DISTFFT_##id] = {name, role, fftw, DISTFFT_##backward, min, factor, offset, weights, pads},
#include "kinds.def"
#undef KIND
};
#define ROW_COUNT ((int)(sizeof rows / sizeof rows[0]))

const kind_row *kind_row_of(distfft_kind kind)
{
    if ((int)kind < 0 || (int)kind >= ROW_COUNT || !rows[kind].name) return NULL;
    return &rows[kind];
}

int kind_count(void)
{
    return ROW_COUNT;
}

double distfft_kind_logical_length(distfft_kind kind, int64_t n)
{
    const kind_row *row = kind_row_of(kind);
    if (!row) return 0.0;
    if (row->length_factor == 0) return 1.0;
    return (double)row->length_factor * (double)(n + row->length_offset);
}
