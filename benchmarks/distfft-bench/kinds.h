/*
 * kinds.h -- --kind and --axes of distfft-bench: one kind per array axis.
 *
 * --kind is checked as soon as it is read (its syntax and the library's
 * kind names); it is applied, with --axes, once the whole command line is
 * read, because --shape may come after them.
 */
#ifndef BENCH_KINDS_H
#define BENCH_KINDS_H

#include <stddef.h>

#include "options.h"

/* The library's kind names, index = distfft_kind (NULL past the last). */
const char *bench_kind_at(int index);

/* --kind TEXT: one kind, or a comma-separated list, each a library name.
 * BENCH_OPTIONS_OK, or BENCH_OPTIONS_BAD with the message. */
int bench_kinds_check(const char *text, char *message, size_t message_size);

/* Turn options->kind and options->axes into options->kinds[0..ndims-1]:
 *   one kind K      K on every transformed axis; but "r2c" means r2c on the
 *                   last transformed axis and c2c on the others (rfftn);
 *   ndims kinds     one per axis, as given;
 *   --axes A,B,...  the transformed axes; the others get none (a per-axis
 *                   list must then say none exactly there). */
int bench_kinds_resolve(bench_options *options, char *message,
                        size_t message_size);

#endif /* BENCH_KINDS_H */
