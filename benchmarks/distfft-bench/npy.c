/*
 * npy.c -- a minimal writer of NumPy .npy files, format version 1.0.
 *
 * Layout: the magic "\x93NUMPY", version bytes 1 0, a little-endian uint16
 * header length, then an ASCII Python dict literal
 *   {'descr': '<c16', 'fortran_order': False, 'shape': (6, 7, 5), }
 * padded with spaces and ended by '\n' so that the raw data that follows
 * starts at a multiple of 64 bytes (NumPy's own alignment, which lets
 * readers map the data directly).
 */
#include "npy.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define NPY_ALIGNMENT 64
#define NPY_PREAMBLE_BYTES 10 /* magic (6) + version (2) + header length (2) */
#define NPY_MAX_HEADER_BYTES 65535

/* NumPy's type code without the byte-order mark, or NULL. */
static const char *type_code(distfft_type type)
{
    switch (type) {
    case DISTFFT_COMPLEX_DOUBLE: return "c16";
    case DISTFFT_COMPLEX_FLOAT: return "c8";
    case DISTFFT_REAL_DOUBLE: return "f8";
    case DISTFFT_REAL_FLOAT: return "f4";
    }
    return NULL;
}

static char host_byte_order(void)
{
    const uint16_t probe = 1;
    unsigned char first_byte;
    memcpy(&first_byte, &probe, 1);
    return first_byte == 1 ? '<' : '>';
}

/* Build the padded header dict into `header`; returns its length (a
 * multiple of NPY_ALIGNMENT minus the preamble) or -1 if it does not fit. */
static int build_header(distfft_type type, int ndims, const int64_t *shape,
                        char *header, size_t size)
{
    int length = snprintf(header, size,
                          "{'descr': '%c%s', 'fortran_order': False, 'shape': (",
                          host_byte_order(), type_code(type));
    for (int axis = 0; axis < ndims && length >= 0 && (size_t)length < size;
         ++axis) {
        /* Python writes a one-element tuple as "(n,)". */
        const char *separator = (axis + 1 < ndims) ? ", " : (ndims == 1 ? "," : "");
        length += snprintf(header + length, size - (size_t)length,
                           "%" PRId64 "%s", shape[axis], separator);
    }
    if (length < 0 || (size_t)length >= size)
        return -1;
    length += snprintf(header + length, size - (size_t)length, "), }");
    /* Pad with spaces; the final byte is '\n'. */
    size_t total = NPY_PREAMBLE_BYTES + (size_t)length + 1;
    size_t padded = (total + NPY_ALIGNMENT - 1) / NPY_ALIGNMENT * NPY_ALIGNMENT;
    size_t header_length = padded - NPY_PREAMBLE_BYTES;
    if (header_length >= size || header_length > NPY_MAX_HEADER_BYTES)
        return -1;
    memset(header + length, ' ', header_length - (size_t)length);
    header[header_length - 1] = '\n';
    header[header_length] = '\0';
    return (int)header_length;
}

int npy_write(const char *path, distfft_type type, int ndims,
              const int64_t *shape, const void *data)
{
    if (path == NULL || type_code(type) == NULL || ndims < 0 ||
        ndims > DISTFFT_MAX_DIMS || (ndims > 0 && shape == NULL)) {
        errno = EINVAL;
        return -1;
    }
    uint64_t elements = 1;
    for (int axis = 0; axis < ndims; ++axis) {
        if (shape[axis] < 0) {
            errno = EINVAL;
            return -1;
        }
        elements *= (uint64_t)shape[axis];
    }
    size_t bytes = (size_t)elements * distfft_type_size(type);
    if (bytes > 0 && data == NULL) {
        errno = EINVAL;
        return -1;
    }

    char header[1024];
    int header_length = build_header(type, ndims, shape, header, sizeof header);
    if (header_length < 0) {
        errno = EINVAL;
        return -1;
    }
    unsigned char preamble[NPY_PREAMBLE_BYTES] = {
        0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
        (unsigned char)(header_length & 0xff),
        (unsigned char)((header_length >> 8) & 0xff)};

    FILE *file = fopen(path, "wb");
    if (file == NULL)
        return -1;
    int failed = fwrite(preamble, 1, sizeof preamble, file) != sizeof preamble ||
                 fwrite(header, 1, (size_t)header_length, file) !=
                     (size_t)header_length ||
                 (bytes > 0 && fwrite(data, 1, bytes, file) != bytes);
    int saved_errno = errno;
    if (fclose(file) != 0 && !failed) {
        failed = 1;
        saved_errno = errno;
    }
    if (failed) {
        errno = saved_errno ? saved_errno : EIO;
        return -1;
    }
    return 0;
}
