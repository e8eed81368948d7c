/*
 * vocabulary.c -- every name of the public enums, in one place: element
 * types, precisions, kinds (the name column of the kind table, kinds.def),
 * norms, rigors, placements, halo variants, and methods (whose names are
 * the rows of the method table, src/redist/methods.def, and which redist.c
 * looks up with the same vocabulary_lookup).
 *
 * These names are the words the bench's options, wisdom lines, describe
 * trees and the Python package use; all of them ask here, none keeps a
 * copy.
 */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "vocabulary.h"

#define COUNT_OF(table) ((int)(sizeof(table) / sizeof((table)[0])))

static const word type_words[] = {
    {DISTFFT_COMPLEX_DOUBLE, "complex-double"}, {DISTFFT_COMPLEX_FLOAT, "complex-float"},
    {DISTFFT_REAL_DOUBLE, "real-double"},       {DISTFFT_REAL_FLOAT, "real-float"},
};
static const word precision_words[] = {
    {DISTFFT_DOUBLE, "double"}, {DISTFFT_FLOAT, "float"}, {DISTFFT_LONG_DOUBLE, "long-double"},
};
static const word kind_words[] = { /* the name column of the kind table */
#define KIND(id, name, ...) {DISTFFT_##id, name},
#include "kinds.def"
#undef KIND
};
static const word norm_words[] = {
    {DISTFFT_NORM_BACKWARD, "backward"}, {DISTFFT_NORM_ORTHO, "ortho"}, {DISTFFT_NORM_FORWARD, "forward"},
    {DISTFFT_NORM_NONE, "none"},
};
static const word overlap_words[] = {
    {DISTFFT_OVERLAP_AUTO, "auto"}, {DISTFFT_OVERLAP_OFF, "off"}, {DISTFFT_OVERLAP_ON, "on"},
    {DISTFFT_OVERLAP_FIELDS, "fields"}, {DISTFFT_OVERLAP_PROGRESS, "progress"},
};
static const word rigor_words[] = {
    {DISTFFT_ESTIMATE, "estimate"}, {DISTFFT_MEASURE, "measure"},
    {DISTFFT_PATIENT, "patient"},   {DISTFFT_EXHAUSTIVE, "exhaustive"},
};
static const word placement_words[] = {
    {DISTFFT_PLACEMENT_ROW, "row"}, {DISTFFT_PLACEMENT_MORTON, "morton"}, {DISTFFT_PLACEMENT_NODE, "node"},
};

static const char *name_of(const word *table, int count, int value)
{
    for (int i = 0; i < count; i++)
        if (table[i].value == value) return table[i].name;
    return NULL;
}

int vocabulary_lookup(const word *table, int count, const char *what, const char *name, int *value)
{
    error_clear();
    if (!name || !value) return error_fail(DISTFFT_ERR_ARGUMENT, "%s from name: NULL argument", what);
    for (int i = 0; i < count; i++)
        if (strcmp(table[i].name, name) == 0) {
            *value = table[i].value;
            return DISTFFT_SUCCESS;
        }
    char known[256] = "";
    size_t used = 0;
    for (int i = 0; i < count && used < sizeof known; i++) {
        int n = snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", table[i].name);
        if (n < 0) break;
        used += (size_t)n;
    }
    return error_fail(DISTFFT_ERR_ARGUMENT, "unknown %s \"%s\" (known: %s)", what, name, known);
}

/* One pair of public functions per enum. */
#define VOCABULARY(enum_type, prefix, table, what)                                   \
    const char *distfft_##prefix##_name(enum_type value)                             \
    {                                                                                \
        return name_of(table, COUNT_OF(table), (int)value);                          \
    }                                                                                \
    int distfft_##prefix##_from_name(const char *name, enum_type *value)             \
    {                                                                                \
        int found = 0;                                                               \
        int rc = vocabulary_lookup(table, COUNT_OF(table), what, name, value ? &found : NULL);\
        if (rc == DISTFFT_SUCCESS) *value = (enum_type)found;                        \
        return rc;                                                                   \
    }

VOCABULARY(distfft_type, type, type_words, "element type")
VOCABULARY(distfft_precision, precision, precision_words, "precision")
VOCABULARY(distfft_kind, kind, kind_words, "transform kind")
VOCABULARY(distfft_norm, norm, norm_words, "norm")
VOCABULARY(distfft_rigor, rigor, rigor_words, "rigor")
VOCABULARY(distfft_overlap, overlap, overlap_words, "overlap")
VOCABULARY(distfft_placement, placement, placement_words, "placement")

static const word memory_words[] = {
    {DISTFFT_MEMORY_HOST, "host"}, {DISTFFT_MEMORY_CUDA, "cuda"},
};
VOCABULARY(distfft_memory, memory, memory_words, "memory kind")

static const word halo_variant_words[] = {
    {DISTFFT_HALO_DATATYPES, "datatypes"}, {DISTFFT_HALO_PACK, "pack"},
};
VOCABULARY(distfft_halo_variant, halo_variant, halo_variant_words, "halo variant")
