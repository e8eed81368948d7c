/*
 * test_big_count.c -- the size arithmetic of messages beyond an MPI count
 * (src/big_count.c), at the boundaries: INT_MAX - 1, INT_MAX, INT_MAX + 1,
 * 2^32, and far beyond, for offsets too. The derived datatypes are built
 * and measured with MPI's 64-bit queries (MPI_Type_size_x,
 * MPI_Type_get_true_extent_x) but never used to move data, so no memory is
 * needed; tests/large moves real ones. One MPI process.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "big_count.h"

static int passed, failed;

static void check(int ok, const char *what, long long a, long long b)
{
    if (ok) {
        passed++;
        return;
    }
    failed++;
    printf("test_big_count: FAIL %s (%lld, %lld)\n", what, a, b);
}

static const int64_t two31 = (int64_t)1 << 31, two32 = (int64_t)1 << 32;

static void split_and_fit(void)
{
    const int64_t counts[] = {0, 1, INT_MAX - 1, INT_MAX, two31, two32, two32 + 1,
                              3 * (int64_t)INT_MAX + 5, ((int64_t)1 << 40) + 3};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        int64_t n = counts[i], pieces, rest;
        big_count_split(n, INT_MAX, &pieces, &rest);
        check(pieces * INT_MAX + rest == n && rest >= 0 && rest < INT_MAX,
              "split recomposes", (long long)n, (long long)rest);
        check(pieces == n / INT_MAX, "split pieces", (long long)n, (long long)pieces);
        check(big_count_fits(n, INT_MAX) == (n <= INT_MAX), "fits an int", (long long)n,
              big_count_fits(n, INT_MAX));
    }
    check(big_count_fits(7, 7) && !big_count_fits(8, 7) && !big_count_fits(-1, 7),
          "fits a small limit", 7, 8);
    check(!big_count_fits(two31, INT64_MAX), "never beyond INT_MAX", two31, 0);

    int64_t square[2] = {46341, 46341};  /* 46341^2 = INT_MAX + 1 + 88094 */
    int64_t below[2] = {46340, 46340};   /* 2147395600 <= INT_MAX */
    int64_t exact[2] = {INT_MAX, 1};
    int64_t huge[3] = {two32, two32, two32};
    int64_t empty[3] = {two32, 0, two32};
    check(!big_count_product_fits(2, square, INT_MAX), "product INT_MAX + 88095", 46341, 46341);
    check(big_count_product_fits(2, below, INT_MAX), "product below INT_MAX", 46340, 46340);
    check(big_count_product_fits(2, exact, INT_MAX), "product INT_MAX", INT_MAX, 1);
    check(!big_count_product_fits(2, exact, INT_MAX - 1), "product INT_MAX vs INT_MAX-1", INT_MAX, 1);
    check(!big_count_product_fits(3, huge, INT64_MAX), "product 2^96 without overflow", two32, 3);
    check(big_count_product_fits(3, empty, 0), "product with a zero", 0, 0);
}

/* A message or region of n elements of `base` (size `element`) at offset:
 * its type signature and bounds must be exactly those of n elements. */
static void measure(int64_t n, int64_t offset, MPI_Datatype base, int element)
{
    MPI_Datatype type;
    int count = 1, owned = 1;
    if (offset == 0) {
        big_message m;
        check(big_message_create(n, base, INT_MAX, &m) == MPI_SUCCESS, "big_message_create", (long long)n, 0);
        check(m.owned == (n > INT_MAX) && m.count == (n > INT_MAX ? 1 : (int)n),
              "count or derived type", (long long)n, m.count);
        type = m.type;
        count = m.count;
        owned = m.owned;
        if (!owned) {
            big_message_free(&m);
            return;
        }
    } else {
        check(big_count_region_type(offset, n, base, INT_MAX, &type) == MPI_SUCCESS,
              "big_count_region_type", (long long)n, (long long)offset);
    }
    MPI_Count size, lower, extent;
    MPI_Type_size_x(type, &size);
    MPI_Type_get_true_extent_x(type, &lower, &extent);
    check(size * count == n * element, "type size", (long long)n, (long long)size);
    check(lower == offset * element, "true lower bound", (long long)offset, (long long)lower);
    check(extent == n * element, "true extent", (long long)n, (long long)extent);
    if (owned) MPI_Type_free(&type);
}

static void datatypes(void)
{
    const int64_t counts[] = {1, INT_MAX - 1, INT_MAX, two31, two32, two32 + 1,
                              5 * (int64_t)INT_MAX + 3};
    const int64_t offsets[] = {0, 3, INT_MAX, two31 + 1, two32 * 4};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        for (size_t j = 0; j < sizeof offsets / sizeof offsets[0]; j++) {
            measure(counts[i], offsets[j], MPI_FLOAT, 4);
            measure(counts[i], offsets[j], MPI_C_DOUBLE_COMPLEX, 16);
        }
    /* The testing limit splits small counts the same way. */
    MPI_Datatype type;
    MPI_Count size, lower, extent;
    check(big_count_region_type(10, 23, MPI_DOUBLE, 7, &type) == MPI_SUCCESS, "limit 7", 23, 7);
    MPI_Type_size_x(type, &size);
    MPI_Type_get_true_extent_x(type, &lower, &extent);
    check(size == 23 * 8 && lower == 80 && extent == 23 * 8, "limit 7 bounds", (long long)size,
          (long long)lower);
    MPI_Type_free(&type);
}

static void limit_knob(void)
{
    unsetenv("DISTFFT_MAX_MESSAGE");
    check(big_count_limit() == INT_MAX, "default limit", big_count_limit(), INT_MAX);
    const char *bad[] = {"0", "-3", "abc", "7x", "3000000000", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("DISTFFT_MAX_MESSAGE", bad[i], 1);
        check(big_count_limit() == INT_MAX, "ignored limit", (long long)i, big_count_limit());
    }
    setenv("DISTFFT_MAX_MESSAGE", "7", 1);
    check(big_count_limit() == 7, "limit 7", big_count_limit(), 7);
    unsetenv("DISTFFT_MAX_MESSAGE");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    split_and_fit();
    datatypes();
    limit_knob();
    printf("test_big_count: %d passed, %d failed\n", passed, failed);
    MPI_Finalize();
    return failed ? 1 : 0;
}
