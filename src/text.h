/*
 * text.h -- appending printf-style pieces to a fixed buffer, counting what
 * would not fit (so a caller learns the length the whole text needs, as
 * snprintf does). Used by everything that describes itself.
 */
#ifndef DISTFFT_TEXT_H
#define DISTFFT_TEXT_H

#include <stddef.h>

typedef struct {
    char *buffer;  /* may be NULL when size is 0 */
    size_t size;   /* bytes of buffer */
    size_t used;   /* length of the whole text so far (may exceed size) */
} text;

/* A text writing into buffer[size], emptied. */
text text_on(char *buffer, size_t size);

void text_append(text *out, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

#endif
