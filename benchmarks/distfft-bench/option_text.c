/*
 * option_text.c -- text helpers of distfft-bench's option parsers (see
 * option_text.h). Numbers are plain decimal digits, so "64x-1" or " 8" are
 * rejected rather than read as something else.
 */
#include "option_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "options.h"

int bench_fail(char *message, size_t message_size, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    if (message != NULL && message_size > 0)
        vsnprintf(message, message_size, format, arguments);
    va_end(arguments);
    return BENCH_OPTIONS_BAD;
}

int bench_parse_integer(const char *text, size_t length, int64_t minimum,
                        int64_t maximum, int64_t *value)
{
    if (length == 0)
        return -1;
    int64_t result = 0;
    for (size_t position = 0; position < length; ++position) {
        char digit = text[position];
        if (digit < '0' || digit > '9')
            return -1;
        if (result > (INT64_MAX - (digit - '0')) / 10)
            return -1;
        result = result * 10 + (digit - '0');
    }
    if (result < minimum || result > maximum)
        return -1;
    *value = result;
    return 0;
}

int bench_parse_extents(const char *text, int max_count, int64_t minimum,
                        int64_t maximum, int64_t *extents)
{
    int count = 0;
    const char *piece = text;
    for (;;) {
        const char *separator = strchr(piece, 'x');
        size_t length = separator ? (size_t)(separator - piece) : strlen(piece);
        if (count == max_count)
            return -1;
        if (bench_parse_integer(piece, length, minimum, maximum,
                                &extents[count]) != 0)
            return -1;
        ++count;
        if (separator == NULL)
            return count;
        piece = separator + 1;
    }
}

int bench_split_list(const char *text, int max_count, char pieces[][16],
                     size_t piece_size)
{
    int count = 0;
    const char *piece = text;
    for (;;) {
        const char *separator = strchr(piece, ',');
        size_t length = separator ? (size_t)(separator - piece) : strlen(piece);
        if (count == max_count || length == 0 || length >= piece_size)
            return -1;
        memcpy(pieces[count], piece, length);
        pieces[count][length] = '\0';
        ++count;
        if (separator == NULL)
            return count;
        piece = separator + 1;
    }
}

void bench_join_names(bench_name_at name_at, char *buffer, size_t size)
{
    buffer[0] = '\0';
    for (int index = 0; name_at(index) != NULL; ++index) {
        size_t used = strlen(buffer);
        snprintf(buffer + used, size - used, "%s%s", index ? " | " : "",
                 name_at(index));
    }
}
