/*
 * text.c -- see text.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

text text_on(char *buffer, size_t size)
{
    if (!buffer) size = 0;
    if (size) buffer[0] = '\0';
    return (text){.buffer = buffer, .size = size, .used = 0};
}

static void append_list(text *out, const char *format, va_list args)
{
    int fits = out->used < out->size;
    int n = vsnprintf(fits ? out->buffer + out->used : NULL, fits ? out->size - out->used : 0,
                      format, args);
    if (n > 0) out->used += (size_t)n;
}

void text_append(text *out, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    append_list(out, format, args);
    va_end(args);
}

static void new_line(text *out, int depth)
{
    text_append(out, "\n%*s", 2 * depth, "");
}

void text_open(text *out, int depth)
{
    if (depth > 0) new_line(out, depth);
    else text_append(out, " ");
    text_append(out, "(");
}

void text_node(text *out, int depth, const char *format, ...)
{
    text_open(out, depth);
    va_list args;
    va_start(args, format);
    append_list(out, format, args);
    va_end(args);
    text_append(out, ")");
}

void text_lines(text *out, int depth, const char *lines)
{
    size_t length = strlen(lines);
    while (length > 0 && lines[length - 1] == '\n') length--;
    for (size_t start = 0; start < length;) {
        const char *end = memchr(lines + start, '\n', length - start);
        size_t line = end ? (size_t)(end - lines) - start : length - start;
        new_line(out, depth);
        text_append(out, "%.*s", (int)line, lines + start);
        start += line + 1;
    }
}
