/*
 * applicable.c -- the applicable() answers that several rows of the method
 * table share (redist.h): host memory anywhere, and pencils of one grid
 * only. A file of its own so that the methods' files, which name these, and
 * redist.c, which names the methods' rows, do not call each other.
 */
#include "redist.h"

bool redist_applies_everywhere(const redist_problem *problem, text *why)
{
    if (problem->memory == REDIST_MEMORY_HOST) return true;
    if (why) text_append(why, "it moves host memory only");
    return false;
}

bool redist_applies_to_pencils(const redist_problem *problem, text *why)
{
    if (!redist_applies_everywhere(problem, why)) return false;
    if (problem->pencils) return true;
    if (why) text_append(why, "it exchanges aligned pencils of a grid, not the boxes of arbitrary layouts "
                         "(those take a method that applies everywhere, e.g. alltoallw, or auto)");
    return false;
}
