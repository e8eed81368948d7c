/*
 * array_header.h -- the header of a NumPy .npy file, built and parsed
 * without MPI or I/O (array_io.c does the file work).
 *
 * A .npy file is the magic "\x93NUMPY", two version bytes, a little-endian
 * header length (2 bytes in version 1.0, 4 in 2.0), then an ASCII Python
 * dict literal such as
 *   {'descr': '<c16', 'fortran_order': False, 'shape': (6, 7, 5), }
 * padded with spaces and ended by '\n' so that the raw C-ordered data that
 * follows starts at a multiple of 64 bytes. We write version 1.0 (headers
 * up to 65535 bytes, far more than 17 axes need) and read 1.0 and 2.0.
 */
#ifndef DISTFFT_ARRAY_HEADER_H
#define DISTFFT_ARRAY_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "distfft.h"

/* Axes a file may have: the array's, plus a leading batch axis. */
#define ARRAY_HEADER_MAX_AXES (DISTFFT_MAX_DIMS + 1)
/* Room for a whole header (preamble included) of that many axes. */
#define ARRAY_HEADER_MAX_BYTES 1024
/* Bytes read to parse a header: enough for any header we accept. */
#define ARRAY_HEADER_PROBE_BYTES 4096

/* The whole header of an array of `type` and `shape` (preamble, dict,
 * padding, '\n') into buffer (ARRAY_HEADER_MAX_BYTES). Returns its length,
 * a multiple of 64 and the data's offset in the file, or -1 if it does not
 * fit (an unknown type). */
int array_header_build(distfft_type type, int naxes, const int64_t *shape,
                       unsigned char *buffer);

/* What a header says. */
typedef struct {
    int64_t data_offset;          /* bytes before the data */
    char descr[16];               /* "<c16", ... */
    int fortran_order;
    int naxes;
    int64_t shape[ARRAY_HEADER_MAX_AXES];
    int64_t file_bytes;           /* the file's size: set by the reader */
} array_header;

/* Parse the first `size` bytes of a file. Returns DISTFFT_SUCCESS, or
 * DISTFFT_ERR_ARGUMENT with a description of what is wrong in `why` (a
 * sentence fragment: "not a .npy file (no magic string)"). */
int array_header_parse(const unsigned char *bytes, size_t size,
                       array_header *header, char *why, size_t why_size);

/* The .npy descr of an element type in this machine's byte order
 * ("<c16" on little-endian machines), into descr (16 bytes); 0 on success,
 * -1 for an unknown type. */
int array_header_descr(distfft_type type, char *descr);

#endif
