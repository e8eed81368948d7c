/*
 * array_header.c -- .npy headers built and parsed (see array_header.h).
 * The parser reads the dict NumPy writes (and any dict with the same three
 * keys in another order or spacing); it does not evaluate Python.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_header.h"

#define ALIGNMENT 64
static const unsigned char magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

int array_header_descr(distfft_type type, char *descr)
{
    const char *code = NULL;
    switch (type) {
    case DISTFFT_COMPLEX_DOUBLE: code = "c16"; break;
    case DISTFFT_COMPLEX_FLOAT: code = "c8"; break;
    case DISTFFT_REAL_DOUBLE: code = "f8"; break;
    case DISTFFT_REAL_FLOAT: code = "f4"; break;
    }
    if (!code) return -1;
    const uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    snprintf(descr, 16, "%c%s", first == 1 ? '<' : '>', code);
    return 0;
}

int array_header_build(distfft_type type, int naxes, const int64_t *shape,
                       unsigned char *buffer)
{
    char descr[16];
    if (array_header_descr(type, descr) != 0 || naxes < 0 || naxes > ARRAY_HEADER_MAX_AXES) return -1;
    char *text = (char *)buffer + 10;
    size_t room = ARRAY_HEADER_MAX_BYTES - 10;
    int used = snprintf(text, room, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
    for (int i = 0; i < naxes; i++)
        /* Python writes a one-element tuple as "(n,)". */
        used += snprintf(text + used, room - (size_t)used, "%lld%s", (long long)shape[i],
                         i + 1 < naxes ? ", " : (naxes == 1 ? "," : ""));
    used += snprintf(text + used, room - (size_t)used, "), }");
    size_t total = (10 + (size_t)used + 1 + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    if (total > ARRAY_HEADER_MAX_BYTES) return -1;
    size_t dict_bytes = total - 10;
    memset(text + used, ' ', dict_bytes - (size_t)used);
    text[dict_bytes - 1] = '\n';
    memcpy(buffer, magic, sizeof magic);
    buffer[6] = 1;
    buffer[7] = 0;
    buffer[8] = (unsigned char)(dict_bytes & 0xff);
    buffer[9] = (unsigned char)(dict_bytes >> 8);
    return (int)total;
}

/* The value after 'key': in the dict text, or NULL. */
static const char *find_value(const char *dict, const char *key)
{
    char quoted[32];
    snprintf(quoted, sizeof quoted, "'%s'", key);
    const char *at = strstr(dict, quoted);
    if (!at) {
        snprintf(quoted, sizeof quoted, "\"%s\"", key);
        at = strstr(dict, quoted);
    }
    if (!at) return NULL;
    at += strlen(quoted);
    while (isspace((unsigned char)*at)) at++;
    if (*at != ':') return NULL;
    at++;
    while (isspace((unsigned char)*at)) at++;
    return at;
}

/* "(3, 4, 5)", "(7,)" or "()" into header->shape; 0 on success. */
static int parse_shape(const char *at, array_header *header)
{
    if (*at++ != '(') return -1;
    header->naxes = 0;
    for (;;) {
        while (isspace((unsigned char)*at)) at++;
        if (*at == ')') return 0;
        if (!isdigit((unsigned char)*at) || header->naxes == ARRAY_HEADER_MAX_AXES) return -1;
        char *end;
        errno = 0;
        long long value = strtoll(at, &end, 10);
        if (errno) return -1;
        header->shape[header->naxes++] = value;
        at = end;
        while (isspace((unsigned char)*at)) at++;
        if (*at == ',') at++;
        else if (*at != ')') return -1;
    }
}

/* The dict's three entries into header; 0 or -1 with `why` filled. */
static int parse_dict(const char *dict, array_header *header, char *why, size_t why_size)
{
    const char *descr = find_value(dict, "descr");
    const char *order = find_value(dict, "fortran_order");
    const char *shape = find_value(dict, "shape");
    if (!descr || !order || !shape) {
        snprintf(why, why_size, "its header lacks %s", !descr ? "'descr'" : !order ? "'fortran_order'" : "'shape'");
        return -1;
    }
    size_t length = 0;
    char quote = *descr;
    if (quote == '\'' || quote == '"') {
        const char *end = strchr(descr + 1, quote);
        length = end ? (size_t)(end - descr - 1) : 0;
    }
    if (length == 0 || length >= sizeof header->descr) {
        snprintf(why, why_size, "its 'descr' is not a simple type string");
        return -1;
    }
    memcpy(header->descr, descr + 1, length);
    header->descr[length] = '\0';
    if (strncmp(order, "True", 4) == 0) header->fortran_order = 1;
    else if (strncmp(order, "False", 5) == 0) header->fortran_order = 0;
    else {
        snprintf(why, why_size, "its 'fortran_order' is neither True nor False");
        return -1;
    }
    if (parse_shape(shape, header) != 0) {
        snprintf(why, why_size, "its 'shape' is not a tuple of at most %d integers", ARRAY_HEADER_MAX_AXES);
        return -1;
    }
    return 0;
}

int array_header_parse(const unsigned char *bytes, size_t size,
                       array_header *header, char *why, size_t why_size)
{
    memset(header, 0, sizeof *header);
    if (size < 10 || memcmp(bytes, magic, sizeof magic) != 0) {
        snprintf(why, why_size, "not a .npy file (no \\x93NUMPY magic string)");
        return DISTFFT_ERR_ARGUMENT;
    }
    int major = bytes[6];
    size_t preamble = major == 1 ? 10 : 12;
    if (major < 1 || major > 3 || size < preamble) {
        snprintf(why, why_size, "unknown .npy format version %d.%d", major, bytes[7]);
        return DISTFFT_ERR_ARGUMENT;
    }
    size_t dict_bytes = (size_t)bytes[8] | (size_t)bytes[9] << 8;
    if (major > 1) dict_bytes |= (size_t)bytes[10] << 16 | (size_t)bytes[11] << 24;
    if (preamble + dict_bytes > size || dict_bytes > ARRAY_HEADER_PROBE_BYTES) {
        snprintf(why, why_size, "its header (%zu bytes) is truncated or too long", preamble + dict_bytes);
        return DISTFFT_ERR_ARGUMENT;
    }
    char dict[ARRAY_HEADER_PROBE_BYTES + 1];
    memcpy(dict, bytes + preamble, dict_bytes);
    dict[dict_bytes] = '\0';
    if (parse_dict(dict, header, why, why_size) != 0) return DISTFFT_ERR_ARGUMENT;
    header->data_offset = (int64_t)(preamble + dict_bytes);
    return DISTFFT_SUCCESS;
}
