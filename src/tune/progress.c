/*
 * progress.c -- the lines tuning writes as it measures (progress.h): which
 * candidate grid, which exchange, which method, and the time it took.
 * Only rank 0 of the tuning communicator ever prints, so the text is
 * written once however many ranks there are.
 */
#include "progress.h"
#include "../environment.h"
#include "../error.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


void progress_init(tune_progress *progress, int rank, int verbose)
{
    memset(progress, 0, sizeof *progress);
    progress->enabled = rank == 0 && (verbose != 0 || environment_switch("DISTFFT_VERBOSE"));
}

void progress_grid(tune_progress *progress, int index, int count, int ndims, const int *dims,
                   int exchanges)
{
    progress->grid = index + 1;
    progress->grids = count;
    progress->exchanges = exchanges;
    progress->exchange = 0;
    progress_grid_name(progress->grid_name, sizeof progress->grid_name, ndims, dims);
}

void progress_grid_name(char *buffer, size_t size, int ndims, const int *dims)
{
    size_t used = 0;
    buffer[0] = '\0';
    for (int i = 0; i < ndims && used < size; i++)
        used += (size_t)snprintf(buffer + used, size - used, i ? "x%d" : "%d", dims[i]);
}

void progress_say(const tune_progress *progress, const char *format, ...)
{
    if (!progress || !progress->enabled) return;
    char text[256];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    if (progress->grids > 0)
        fprintf(stderr, "distfft: tuning grid %d/%d (%s): %s\n", progress->grid, progress->grids,
                progress->grid_name, text);
    else
        fprintf(stderr, "distfft: tuning: %s\n", text);
    fflush(stderr);
}

void progress_method(const tune_progress *progress, const char *method, int index, int count,
                     double seconds)
{
    if (!progress || !progress->enabled) return;
    char exchange[48] = "";
    if (progress->exchanges > 0)
        snprintf(exchange, sizeof exchange, "exchange %d/%d: ", progress->exchange + 1,
                 progress->exchanges);
    if (isinf(seconds))
        progress_say(progress, "%s%s cannot be planned here (method %d/%d)", exchange, method,
                     index + 1, count);
    else
        progress_say(progress, "%s%s %.3g ms (method %d/%d)", exchange, method, seconds * 1e3,
                     index + 1, count);
}
