/*
 * test_decomp.c -- unit test of distfft_decompose (paper Alg. 1), no MPI.
 *
 * The decomposition must be the paper's exactly: the first n mod M parts
 * hold floor(n/M)+1 elements and the rest floor(n/M); parts are contiguous
 * and in order (start of part p+1 = end of part p), so their sizes sum to n;
 * parts beyond n are empty. Arithmetic is 64-bit: sizes beyond 2^31 and up
 * to INT64_MAX must not overflow.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>

#include "distfft.h"

static int passed, failed;

static void check(int ok, const char *what, int64_t n, int parts, int part,
                  int64_t got_n, int64_t got_start)
{
    if (ok) {
        passed++;
        return;
    }
    if (failed++ < 30)
        printf("test_decomp: FAIL %s: n=%" PRId64 " parts=%d part=%d -> "
               "local_n=%" PRId64 " start=%" PRId64 "\n",
               what, n, parts, part, got_n, got_start);
}

/* The paper's formula, for comparison (exact in 64 bits for parts > 0). */
static void paper(int64_t n, int parts, int part, int64_t *local_n,
                  int64_t *start)
{
    int64_t q = n / parts, r = n % parts;
    *local_n = q + (part < r ? 1 : 0);
    *start = q * part + (part < r ? part : r);
}

/* Every part of (n, parts): sum, contiguity, balance, formula. */
static void check_all_parts(int64_t n, int parts)
{
    int64_t next_start = 0, smallest = INT64_MAX, largest = -1;
    int ok_formula = 1, ok_contiguous = 1, ok_order = 1;
    int64_t previous_n = INT64_MAX;
    int bad_part = -1;
    int64_t bad_n = 0, bad_start = 0;
    for (int p = 0; p < parts; p++) {
        int64_t local_n = -1, start = -1, want_n, want_start;
        distfft_decompose(n, parts, p, &local_n, &start);
        paper(n, parts, p, &want_n, &want_start);
        if (local_n != want_n || start != want_start) {
            if (ok_formula) {
                bad_part = p;
                bad_n = local_n;
                bad_start = start;
            }
            ok_formula = 0;
        }
        if (start != next_start || local_n < 0)
            ok_contiguous = 0;
        if (local_n > previous_n) /* larger parts come first */
            ok_order = 0;
        previous_n = local_n;
        next_start = start + local_n;
        if (local_n < smallest)
            smallest = local_n;
        if (local_n > largest)
            largest = local_n;
    }
    check(ok_formula, "matches Alg. 1", n, parts, bad_part, bad_n, bad_start);
    check(ok_contiguous, "parts contiguous from 0", n, parts, -1, 0, 0);
    check(next_start == n, "sizes sum to n", n, parts, -1, next_start, 0);
    check(largest - smallest <= 1, "balanced (sizes differ by <= 1)", n,
          parts, -1, largest, smallest);
    check(ok_order, "larger parts first", n, parts, -1, 0, 0);
    if (parts > n) { /* parts beyond n are empty */
        int64_t local_n = -1, start = -1;
        distfft_decompose(n, parts, parts - 1, &local_n, &start);
        check(local_n == 0, "part beyond n is empty", n, parts, parts - 1,
              local_n, start);
    }
}

/* Selected parts of a huge decomposition (too many parts to walk). */
static void check_some_parts(int64_t n, int parts)
{
    int picks[] = {0, 1, 2, parts / 3, parts / 2, parts - 2, parts - 1};
    for (size_t k = 0; k < sizeof picks / sizeof picks[0]; k++) {
        int p = picks[k];
        if (p < 0 || p >= parts)
            continue;
        int64_t local_n = -1, start = -1, want_n, want_start;
        distfft_decompose(n, parts, p, &local_n, &start);
        paper(n, parts, p, &want_n, &want_start);
        check(local_n == want_n && start == want_start, "64-bit formula", n,
              parts, p, local_n, start);
        if (p + 1 < parts) {
            int64_t next_n, next_start;
            distfft_decompose(n, parts, p + 1, &next_n, &next_start);
            check(start + local_n == next_start, "64-bit contiguity", n,
                  parts, p, local_n, start);
        } else {
            check(start + local_n == n, "64-bit last part ends at n", n,
                  parts, p, local_n, start);
        }
    }
}

int main(void)
{
    /* Exhaustive over small sizes, including n = 0 and parts > n. */
    for (int64_t n = 0; n <= 130; n++)
        for (int parts = 1; parts <= 40; parts++)
            check_all_parts(n, parts);

    /* Larger n, non-powers of two. */
    const int64_t medium[] = {1000, 4097, 65535, 1 << 20, 3 * 5 * 7 * 11 * 13};
    const int medium_parts[] = {1, 3, 6, 7, 64, 1000, 1023};
    for (size_t i = 0; i < sizeof medium / sizeof medium[0]; i++)
        for (size_t j = 0; j < sizeof medium_parts / sizeof medium_parts[0];
             j++)
            check_all_parts(medium[i], medium_parts[j]);

    /* 64-bit sizes: beyond int, up to INT64_MAX. */
    const int64_t huge[] = {(INT64_C(1) << 31) + 1, (INT64_C(1) << 40) + 7,
                            INT64_C(6000000000000000001), INT64_MAX - 1,
                            INT64_MAX};
    const int huge_parts[] = {1, 2, 3, 7, 1000, 65537, INT_MAX - 1, INT_MAX};
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++)
        for (size_t j = 0; j < sizeof huge_parts / sizeof huge_parts[0]; j++)
            check_some_parts(huge[i], huge_parts[j]);
    check_all_parts((INT64_C(1) << 40) + 7, 1000);
    check_all_parts(INT64_MAX, 97);

    printf("test_decomp: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
