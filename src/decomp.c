/*
 * decomp.c -- balanced block-contiguous decomposition (paper Sec. 3.1,
 * Alg. 1, Eq. 9): n elements in M parts, the first n mod M parts one element
 * longer. Parts past n are empty; this is what lets more ranks than points
 * along an axis work. 64-bit arithmetic throughout.
 */
#include "distfft.h"

void distfft_decompose(int64_t n, int parts, int part, int64_t *local_n,
                       int64_t *start)
{
    int64_t quotient = n / parts;
    int64_t remainder = n % parts;
    int64_t length = quotient + (remainder > part ? 1 : 0);
    int64_t first = quotient * part + (remainder < part ? remainder : part);
    if (local_n) *local_n = length;
    if (start) *start = first;
}
