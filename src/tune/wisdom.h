/*
 * wisdom.h -- what plan-time tuning learnt, kept so later plans skip it
 * (FFTW's wisdom, for the choices distfft measures: the process grid, the
 * method of every exchange and, for batches, how the fields run).
 *
 * Wisdom is a process-local table of lines "KEY -> CHOICE". The key names
 * everything the choice depends on: the MPI library, the number of ranks,
 * the global shape, kinds, precision, batch, the requested grid and the
 * placement. Lookups are exact string matches of canonical keys, so wisdom
 * from another configuration or another MPI library never applies: such
 * plans are tuned again (the documented fallback).
 */
#ifndef DISTFFT_WISDOM_H
#define DISTFFT_WISDOM_H

#include <stddef.h>

#include "distfft.h"

#define WISDOM_MAX_EXCHANGES (4 * DISTFFT_MAX_DIMS)
/* Room for any key wisdom_key builds: the MPI library's banner line plus
 * at most ~1,100 bytes of fields for 16 axes (a truncated key could match
 * another configuration's). */
#define WISDOM_KEY_SIZE (MPI_MAX_LIBRARY_VERSION_STRING + 2048)

typedef struct {
    int grid_ndims;
    int grid_dims[DISTFFT_MAX_DIMS];
    int exchanges;                              /* forward, then backward */
    distfft_method methods[WISDOM_MAX_EXCHANGES];
    distfft_overlap overlap;                    /* OFF (written only if not), ON, FIELDS, PROGRESS */
} wisdom_choice;

/* The canonical key of a plan configuration (options as requested). */
void wisdom_key(int ranks, int ndims, const int64_t *shape,
                distfft_precision precision, const distfft_options *options,
                char *key, size_t size);

/* The stored choice for key: 1 if found, 0 if not. Local. */
int wisdom_lookup(const char *key, wisdom_choice *choice);

/* Remember a choice (replacing an older one for the same key). Local;
 * returns DISTFFT_SUCCESS or DISTFFT_ERR_MEMORY. */
int wisdom_store(const char *key, const wisdom_choice *choice);

#endif
