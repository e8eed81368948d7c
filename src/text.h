/*
 * text.h -- appending printf-style pieces to a fixed buffer, counting what
 * would not fit (so a caller learns the length the whole text needs, as
 * snprintf does). Used by everything that describes itself.
 *
 * Trees print as FFTW's plans do: a node is "(what children...)". At depth
 * 0 a child follows its parent on the same line (" (child)"); at depth
 * d > 0 it starts a line of its own, 2 d spaces in.
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

/* Open a child node at `depth` (" (" or a new indented line and "("); the
 * caller appends its text and children and closes it with ")". */
void text_open(text *out, int depth);

/* A whole child node without children: open, the text, ")". */
void text_node(text *out, int depth, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* A tree printed by someone else, one node per line (FFTW's plans), as a
 * child at `depth` > 0: every line indented by the depth. */
void text_lines(text *out, int depth, const char *lines);

#endif
