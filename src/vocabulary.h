/*
 * vocabulary.h -- looking a name up in a table of enum words (vocabulary.c
 * holds the public enums' tables; redist.c the methods').
 */
#ifndef DISTFFT_VOCABULARY_H
#define DISTFFT_VOCABULARY_H

typedef struct {
    int value;
    const char *name;
} word;

/* The value of `name` in table[count]; an unknown name fails with
 * DISTFFT_ERR_ARGUMENT and a message listing the known ones ("unknown
 * WHAT \"name\" (known: ...)"), and *value is left alone. */
int vocabulary_lookup(const word *table, int count, const char *what, const char *name, int *value);

#endif
