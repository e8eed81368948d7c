/*
 * test_kind_table.c -- every constant of the public enum distfft_kind,
 * read from include/distfft.h (the path is the first argument), against
 * the kind table (src/kinds.def): the row at the constant's value is its
 * own (its name is the constant's suffix), names round-trip through the
 * public vocabulary, the backward of the backward is the kind itself, the
 * FFTW kinds and logical lengths are as the header documents them. Parsed from the
 * header, so a constant added without its row fails here. No MPI.
 */
#include <ctype.h>
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds.h"

static int failures;

static void expect(int condition, const char *what, const char *constant)
{
    if (!condition) {
        printf("FAIL: %s: %s\n", constant, what);
        failures++;
    }
}

/* The body of "typedef enum { ... } distfft_kind;", comments blanked. */
static char *kind_enum_body(const char *path)
{
    FILE *file = fopen(path, "r");
    if (!file) return NULL;
    static char text[1 << 20];
    size_t length = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[length] = '\0';
    for (char *c = strstr(text, "/*"); c; c = strstr(c, "/*")) {
        char *end = strstr(c + 2, "*/");
        if (!end) return NULL;
        memset(c, ' ', (size_t)(end + 2 - c));
    }
    char *close = strstr(text, "} distfft_kind;");
    if (!close) return NULL;
    *close = '\0';
    char *open = strrchr(text, '{');
    return open ? open + 1 : NULL;
}

/* FFTW's kind of each real-to-real constant, as distfft.h's comment on
 * distfft_kind names it (CHEB is a DCT-I). */
static int documented_fftw_kind(const char *constant)
{
    static const struct { const char *constant; int fftw; } documented[] = {
        {"DISTFFT_DCT1", FFTW_REDFT00}, {"DISTFFT_DCT2", FFTW_REDFT10}, {"DISTFFT_DCT3", FFTW_REDFT01},
        {"DISTFFT_DCT4", FFTW_REDFT11}, {"DISTFFT_DST1", FFTW_RODFT00}, {"DISTFFT_DST2", FFTW_RODFT10},
        {"DISTFFT_DST3", FFTW_RODFT01}, {"DISTFFT_DST4", FFTW_RODFT11}, {"DISTFFT_CHEB", FFTW_REDFT00},
        {"DISTFFT_R2HC", FFTW_R2HC},     {"DISTFFT_HC2R", FFTW_HC2R},     {"DISTFFT_DHT", FFTW_DHT},
    };
    for (size_t i = 0; i < sizeof documented / sizeof documented[0]; i++)
        if (strcmp(documented[i].constant, constant) == 0) return documented[i].fftw;
    return -1;
}

/* FFTW's inverse of an r2r kind up to scale: REDFT10 <-> REDFT01 (the
 * transpose), R2HC <-> HC2R, the others their own. */
static int fftw_inverse(int fftw)
{
    switch (fftw) {
    case FFTW_REDFT10: return FFTW_REDFT01;
    case FFTW_REDFT01: return FFTW_REDFT10;
    case FFTW_RODFT10: return FFTW_RODFT01;
    case FFTW_RODFT01: return FFTW_RODFT10;
    case FFTW_R2HC: return FFTW_HC2R;
    case FFTW_HC2R: return FFTW_R2HC;
    default: return fftw;
    }
}

static void check_constant(const char *constant, int value)
{
    const kind_row *row = kind_row_of((distfft_kind)value);
    expect(row != NULL, "no row at its value in kinds.def", constant);
    if (!row) return;
    char suffix[32] = "";
    for (size_t i = 0; constant[8 + i] && i < sizeof suffix - 1; i++)
        suffix[i] = (char)tolower((unsigned char)constant[8 + i]);
    expect(strcmp(row->name, suffix) == 0, "the row at its value is another kind's", constant);
    const char *name = distfft_kind_name((distfft_kind)value);
    distfft_kind back = (distfft_kind)-1;
    expect(name && distfft_kind_from_name(name, &back) == DISTFFT_SUCCESS && (int)back == value,
           "its name does not round-trip", constant);
    const kind_row *backward = kind_row_of(row->backward);
    expect(backward && (int)backward->backward == value, "the backward of its backward is not itself", constant);
    expect(row->fftw_kind == documented_fftw_kind(constant), "FFTW kind is not the documented one", constant);
    if (backward)
        expect(backward->fftw_kind == fftw_inverse(row->fftw_kind), "the backward's FFTW kind does not invert it",
               constant);
    expect((row->role == KIND_REAL) == (row->fftw_kind >= 0), "real-to-real exactly with an FFTW kind", constant);
    expect(row->min_length >= 1, "minimum length below 1", constant);
    expect(!row->weights || row->role == KIND_REAL, "weights on a kind that is not real-to-real", constant);
    /* padding keeps a prefix of the spectrum: not FFTW's halfcomplex or Hartley order */
    bool prefix_spectrum = row->role != KIND_UNTRANSFORMED && row->fftw_kind != FFTW_R2HC &&
                           row->fftw_kind != FFTW_HC2R && row->fftw_kind != FFTW_DHT;
    expect(row->pads == prefix_spectrum, "padding allowed exactly where the spectrum's low modes lead",
           constant);
}

int main(int argc, char **argv)
{
    char *body = argc > 1 ? kind_enum_body(argv[1]) : NULL;
    if (!body) {
        printf("FAIL: no distfft_kind enum in %s\n", argc > 1 ? argv[1] : "(no header given)");
        return 1;
    }
    int value = 0, constants = 0;
    for (char *entry = strtok(body, ","); entry; entry = strtok(NULL, ",")) {
        char constant[64];
        if (sscanf(entry, " %63[A-Z0-9_]", constant) != 1) continue;
        const char *equals = strchr(entry, '=');
        if (equals) value = atoi(equals + 1);
        check_constant(constant, value++);
        constants++;
    }
    expect(constants == kind_count(), "the table has rows for no constant of the header", "kinds.def");
    expect(kind_row_of((distfft_kind)kind_count()) == NULL && kind_row_of((distfft_kind)-1) == NULL,
           "a row beyond the kinds", "kind_row_of");
    /* the normalisation column, as distfft.h documents it, on n = 5 */
    const struct { distfft_kind kind; double length; } lengths[] = {
        {DISTFFT_C2C, 5}, {DISTFFT_R2C, 5}, {DISTFFT_DCT1, 8}, {DISTFFT_DCT2, 10}, {DISTFFT_DST1, 12},
        {DISTFFT_DST4, 10}, {DISTFFT_CHEB, 1}, {DISTFFT_NONE, 1}, {DISTFFT_R2HC, 5}, {DISTFFT_HC2R, 5},
        {DISTFFT_DHT, 5},   {(distfft_kind)-1, 0}, {(distfft_kind)99, 0},
    };
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
        expect(distfft_kind_logical_length(lengths[i].kind, 5) == lengths[i].length,
               "logical length on 5 points", distfft_kind_name(lengths[i].kind) ? distfft_kind_name(lengths[i].kind)
                                                                                  : "(not a kind)");
    printf("%d kinds checked, %d failures\n", constants, failures);
    return failures != 0;
}
