/*
 * fuzz_check.h -- the one helper the harnesses share: an invariant that
 * does not hold aborts, which libFuzzer records as a crash with the input
 * that caused it (so a wrong answer is kept and replayed like a crash).
 */
#ifndef DISTFFT_FUZZ_CHECK_H
#define DISTFFT_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(condition, ...)                                                  \
    do {                                                                            \
        if (!(condition)) {                                                         \
            fprintf(stderr, "%s:%d: invariant failed: %s: ", __FILE__, __LINE__, #condition); \
            fprintf(stderr, __VA_ARGS__);                                           \
            fputc('\n', stderr);                                                    \
            abort();                                                                \
        }                                                                           \
    } while (0)

#endif
