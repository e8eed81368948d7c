/*
 * calibrate.h -- what the two halves of the calibration share:
 * calibrate.c measures copies, messages and datatypes and writes the
 * model file (distfft_model_calibrate); calibrate_fft.c measures the FFT
 * rates. Every measurement runs on every rank at once and keeps the
 * slowest rank's time.
 */
#ifndef DISTFFT_MODEL_CALIBRATE_H
#define DISTFFT_MODEL_CALIBRATE_H

#include <mpi.h>

#include "model.h"

/* The slowest rank's `seconds` (MPI_MAX over comm), as every measurement
 * keeps it; an MPI failure is kept in *rc (keep_mpi), so every rank makes
 * the same calls whatever fails. Collective on comm. */
double calibration_slowest(MPI_Comm comm, double seconds, int *rc);

/* The model's FFT rates, by block size and by axis length, measured on
 * every rank of comm at once (`runs` runs each, the fastest kept; quick:
 * fewer and smaller), into model->fft, model->fft_length and
 * model->fft_multi_axis_factor; and with fewer ranks of each node
 * computing (member: this rank's index on its node of node_size ranks)
 * into model->fft_active. Collective; an agreed error. */
int calibrate_ffts(MPI_Comm comm, distfft_rigor rigor, int quick, int runs, int member, int node_size,
                   cost_model *model);

#endif
