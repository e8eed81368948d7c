/*
 * fuzz_wisdom.c -- libFuzzer harness of the wisdom text parser: the public
 * distfft_wisdom_import (src/tune/wisdom.c) on any text.
 *
 * No MPI_Init: import and export are local and make no MPI call (only a
 * plan's key-building asks MPI for its library's name, and import never
 * builds a key), so the harness calls the public function itself, at full
 * speed, without an Open MPI singleton to start. distfft_wisdom_import_file
 * adds to it only the file read and a broadcast of the same text.
 *
 * Beyond "no crash": an accepted text exports to a text that is accepted
 * again and exports to itself (export is canonical, so what one run writes
 * the next reads); importing the same text twice changes nothing (a key
 * replaces its own entry); a refused text leaves the table as it was and
 * says why.
 */
#include <stdint.h>
#include <string.h>

#include "distfft.h"
#include "fuzz_check.h"

static const char empty_export[] = "distfft-wisdom 1\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The API takes a C string: the text is what precedes a NUL. */
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    distfft_wisdom_forget();
    int rc = distfft_wisdom_import(text);
    /* (before export, which clears the message) */
    FUZZ_CHECK(rc == DISTFFT_SUCCESS || strstr(distfft_last_error(), "distfft_wisdom_import") != NULL,
               "refused, message '%s'", distfft_last_error());
    char *first = distfft_wisdom_export();
    FUZZ_CHECK(first != NULL, "export failed");
    if (rc != DISTFFT_SUCCESS) {
        FUZZ_CHECK(rc == DISTFFT_ERR_ARGUMENT, "refused with code %d", rc);
        FUZZ_CHECK(strcmp(first, empty_export) == 0, "a refused text changed the table:\n%s", first);
    } else {
        FUZZ_CHECK(strncmp(first, empty_export, sizeof empty_export - 1) == 0, "export lacks the header");
        FUZZ_CHECK(distfft_wisdom_import(text) == DISTFFT_SUCCESS, "accepted once, refused twice");
        char *again = distfft_wisdom_export();
        FUZZ_CHECK(again && strcmp(first, again) == 0, "a second import changed the table");
        free(again);

        distfft_wisdom_forget();
        FUZZ_CHECK(distfft_wisdom_import(first) == DISTFFT_SUCCESS, "own export refused: %s\n%s",
                   distfft_last_error(), first);
        char *second = distfft_wisdom_export();
        FUZZ_CHECK(second && strcmp(first, second) == 0, "export not canonical:\n%s\n---\n%s", first,
                   second ? second : "(null)");
        free(second);
    }
    free(first);
    free(text);
    distfft_wisdom_forget();
    return 0;
}
