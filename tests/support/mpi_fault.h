/*
 * mpi_fault.h -- make the k-th call of one MPI function, or the k-th memory
 * allocation, fail (tests only; tests/mpi/test_faults.c).
 *
 * mpi_fault.c wraps MPI collectives and other calls through the profiling
 * interface (PMPI), and mpi_handle_counter.c's wrappers of constructors,
 * requests and completions ask it too; an armed call returns MPI_ERR_OTHER
 * without calling MPI (out-handles set to their NULL) -- except a free or
 * release (MPI_Comm_free, _Type_free, _Win_free, _Info_free, _File_close,
 * _Win_unlock_all), which does its work and then reports the error, so that
 * what a destroy leaves after a failed free is the library's doing. Allocations are
 * distfft's malloc, calloc, realloc, strdup and fftw_malloc, through the
 * linker's --wrap (the program links the STATIC library with
 * -Wl,--wrap=malloc,...); an armed one returns NULL. Calls are counted
 * only between mpi_fault_start and mpi_fault_stop. Single-threaded.
 */
#ifndef MPI_FAULT_H
#define MPI_FAULT_H

/* Count calls from now on; if name is not NULL, make its k-th call (k >= 1)
 * fail ("MPI_Allreduce", ..., or "alloc" for any allocation). */
void mpi_fault_start(const char *name, long k);
/* Stop counting (and disarm). */
void mpi_fault_stop(void);
/* Calls of name since mpi_fault_start. */
long mpi_fault_count(const char *name);
/* Whether the armed call failed since mpi_fault_start. */
int mpi_fault_fired(void);
/* For the wrappers: count a call of name; nonzero if it must fail. */
int mpi_fault_hit(const char *name);

#endif
