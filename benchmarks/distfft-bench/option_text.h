/*
 * option_text.h -- the small text helpers behind distfft-bench's option
 * parsers (options.c, kinds.c): strict decimal integers, "AxBxC" extents,
 * comma-separated lists, "a | b | c" listings of the library's names, and
 * the one way a parser reports a bad value. Pure: no MPI, no output.
 */
#ifndef BENCH_OPTION_TEXT_H
#define BENCH_OPTION_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Write a formatted message into the caller's buffer (message_size bytes);
 * always returns BENCH_OPTIONS_BAD, so parsers can `return bench_fail(...)`. */
int bench_fail(char *message, size_t message_size, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The decimal digits in [text, text+length) (no sign, no spaces) as a value
 * in [minimum, maximum]. Returns 0 on success, -1 otherwise. */
int bench_parse_integer(const char *text, size_t length, int64_t minimum,
                        int64_t maximum, int64_t *value);

/* Split "AxBxC" into at most max_count integers in [minimum, maximum].
 * Returns the count, or -1 if the text is malformed or has too many parts. */
int bench_parse_extents(const char *text, int max_count, int64_t minimum,
                        int64_t maximum, int64_t *extents);

/* Split a comma-separated list into at most `max_count` pieces of at most
 * piece_size-1 characters. Returns the count, or -1 (too many, too long, or
 * an empty piece). */
int bench_split_list(const char *text, int max_count, char pieces[][16],
                     size_t piece_size);

/* A vocabulary: the name at index 0, 1, ..., NULL past the last one. */
typedef const char *(*bench_name_at)(int index);

/* "a | b | c": every name of a vocabulary, into buffer (size bytes). */
void bench_join_names(bench_name_at name_at, char *buffer, size_t size);

#endif /* BENCH_OPTION_TEXT_H */
