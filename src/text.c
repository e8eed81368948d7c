/*
 * text.c -- see text.h.
 */
#include <stdarg.h>
#include <stdio.h>

#include "text.h"

text text_on(char *buffer, size_t size)
{
    if (!buffer) size = 0;
    if (size) buffer[0] = '\0';
    return (text){.buffer = buffer, .size = size, .used = 0};
}

void text_append(text *out, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int fits = out->used < out->size;
    int n = vsnprintf(fits ? out->buffer + out->used : NULL, fits ? out->size - out->used : 0,
                      format, args);
    va_end(args);
    if (n > 0) out->used += (size_t)n;
}
