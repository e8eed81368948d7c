/*
 * fuzz_npy_header.c -- libFuzzer harness of the .npy header parser,
 * array_header_parse (src/array_header.c), on any bytes as the start of a
 * file.
 *
 * The internal function, not the public distfft_array_file_info /
 * distfft_layout_array_read: those are collective MPI-IO calls on a file
 * whose only input-dependent step is this parse of the first 4096 bytes
 * (on rank 0), so fuzzing it directly reaches the same code some thousand
 * times faster and needs neither MPI nor a file per input.
 *
 * Beyond "no crash": an accepted header's fields are sane (axes within the
 * limit, extents non-negative, a NUL-terminated dtype, a data offset
 * inside the bytes read, the preamble plus the announced length); a
 * refused one says why; and a header of a dtype distfft writes, rebuilt by
 * array_header_build from what was parsed, parses back to the same
 * fields, 64-byte aligned.
 */
#define _POSIX_C_SOURCE 200809L /* strnlen */

#include <stdint.h>
#include <string.h>

#include "array_header.h"
#include "fuzz_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    array_header header;
    char why[200];
    memset(why, 0, sizeof why);
    int rc = array_header_parse(data, size, &header, why, sizeof why);
    if (rc != DISTFFT_SUCCESS) {
        FUZZ_CHECK(rc == DISTFFT_ERR_ARGUMENT, "refused with code %d", rc);
        FUZZ_CHECK(why[0] != '\0' && memchr(why, '\0', sizeof why), "no reason given");
        return 0;
    }
    FUZZ_CHECK(header.naxes >= 0 && header.naxes <= ARRAY_HEADER_MAX_AXES, "naxes %d", header.naxes);
    for (int i = 0; i < header.naxes; i++) FUZZ_CHECK(header.shape[i] >= 0, "shape[%d] = %lld", i, (long long)header.shape[i]);
    size_t descr_length = strnlen(header.descr, sizeof header.descr);
    FUZZ_CHECK(descr_length > 0 && descr_length < sizeof header.descr, "descr of %zu bytes", descr_length);
    FUZZ_CHECK(header.fortran_order == 0 || header.fortran_order == 1, "fortran_order %d", header.fortran_order);
    size_t preamble = data[6] == 1 ? 10 : 12;
    size_t announced = (size_t)data[8] | (size_t)data[9] << 8;
    if (preamble == 12) announced |= (size_t)data[10] << 16 | (size_t)data[11] << 24;
    FUZZ_CHECK(header.data_offset == (int64_t)(preamble + announced) && (size_t)header.data_offset <= size,
               "data offset %lld for %zu + %zu bytes of %zu", (long long)header.data_offset, preamble, announced,
               size);

    /* The dtypes distfft writes: rebuild the header and read it back. */
    for (int type = DISTFFT_COMPLEX_DOUBLE; type <= DISTFFT_REAL_FLOAT; type++) {
        char descr[16];
        if (array_header_descr((distfft_type)type, descr) != 0 || strcmp(descr, header.descr) != 0) continue;
        unsigned char built[ARRAY_HEADER_MAX_BYTES];
        int length = array_header_build((distfft_type)type, header.naxes, header.shape, built);
        FUZZ_CHECK(length > 0 && length % 64 == 0, "built a header of %d bytes", length);
        array_header again;
        FUZZ_CHECK(array_header_parse(built, (size_t)length, &again, why, sizeof why) == DISTFFT_SUCCESS,
                   "own header refused: %s", why);
        FUZZ_CHECK(again.naxes == header.naxes && strcmp(again.descr, header.descr) == 0 && !again.fortran_order &&
                   again.data_offset == length &&
                   memcmp(again.shape, header.shape, (size_t)header.naxes * sizeof *header.shape) == 0,
                   "own header read back differently");
    }
    return 0;
}
