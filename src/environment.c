/*
 * environment.c -- the rules for reading environment variables (see
 * environment.h). strtoll does the whole-string decimal parse: it skips
 * the blanks isspace() names, takes a sign, and saturates at the ends of
 * long long, which lie outside every range asked for here.
 */
#include "environment.h"

#include <stdlib.h>

/* The value of `name` as a whole decimal integer; false when unset or not
 * one. */
static bool whole_integer(const char *name, long long *value)
{
    const char *text = getenv(name);
    if (!text) return false;
    char *end = NULL;
    *value = strtoll(text, &end, 10);
    return end != text && *end == '\0';
}

int64_t environment_integer(const char *name, int64_t low, int64_t high, int64_t otherwise)
{
    long long value = 0;
    return whole_integer(name, &value) && value >= low && value <= high ? (int64_t)value : otherwise;
}

bool environment_switch(const char *name)
{
    long long value = 0;
    return whole_integer(name, &value) && value != 0;
}
