/*
 * handle_counts.c -- the communicators and windows this process holds, for
 * test_fortran_lifetime.f90 (bind(C)): the PMPI counters of
 * tests/support/mpi_handle_counter.c, linked into the program and exported
 * from it, so libdistfft's MPI calls resolve to them.
 */
#include "mpi_handle_counter.h"

long distfft_test_comms(void);
long distfft_test_windows(void);

long distfft_test_comms(void) { return mpi_handle_counts_now().comms; }
long distfft_test_windows(void) { return mpi_handle_counts_now().windows; }
