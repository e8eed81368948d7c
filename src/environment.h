/*
 * environment.h -- the rules by which the library reads its environment
 * variables (docs/guide/tuning.md, "Environment variables"), one function per rule, so every
 * variable of a kind means the same and tests/fuzz/fuzz_environment.c can
 * check each against a reference of the written rule.
 *
 * The one thing to know: a value that is not what the rule asks for is
 * taken as unset, never half read ("12abc" is not 12, "1abc" is not on).
 */
#ifndef DISTFFT_ENVIRONMENT_H
#define DISTFFT_ENVIRONMENT_H

#include <stdbool.h>
#include <stdint.h>

/* The variable `name` as a whole decimal integer -- optional blanks, an
 * optional sign, decimal digits and nothing after them -- when it lies in
 * low..high; `otherwise` when unset, empty, not such an integer, or out of
 * the range (values beyond 64 bits included: they saturate, never wrap).
 * Read at every call. */
int64_t environment_integer(const char *name, int64_t low, int64_t high, int64_t otherwise);

/* A switch: on when the variable is a whole decimal integer (the rule
 * above, any size) other than 0; off when unset, empty, 0 or anything
 * else ("yes", "1abc", "0x1"). */
bool environment_switch(const char *name);

#endif
