"""
lifetime_exit.py -- objects still alive, or released by garbage collection
on some ranks only, when the program ends: distfft frees them all before
MPI_Finalize, in the same order on every rank (newest first), so the
shared-memory windows of the shm method cannot deadlock the exit.
Run by scripts/test (test_python) under a time limit:
  mpiexec -n 3 python python/tests/scripts/lifetime_exit.py
It passes when every rank exits with 0.
"""
import gc

import numpy
from mpi4py import MPI

import distfft

comm = MPI.COMM_WORLD
rank = comm.rank
half = comm.Split(rank % 2, rank)

objects = [distfft.Plan(comm, (12, 12, 4), method="shm", rigor="estimate") for _ in range(3)]
objects.append(distfft.Redistribution.for_global_shape(comm, (12, 12, 4), 0, 1, method="shm"))
objects.append(distfft.Plan(half, (6, 6, 4), method="shm", rigor="estimate"))
plan = distfft.Plan(comm, (7, 6, 5), dtype=numpy.float64, rigor="estimate")
objects.append(distfft.Halo(comm, (7, 6, 5), plan.input_slice, 1))
objects.append(plan)
# Rank r releases every object whose index is r modulo 3, in its own order;
# the rest stay alive until exit.
mine = [i for i in range(len(objects)) if i % 3 == rank % 3]
for i in reversed(mine):
    objects[i] = None
    gc.collect()
# and keeps the others in a rank-dependent order (the exit order must not
# depend on it)
objects = objects[rank:] + objects[:rank]
comm.Barrier()
if rank == 0:
    print("lifetime_exit: leaving with", sum(o is not None for o in objects),
          "objects alive on rank 0 and", distfft._lifetime.pending_count(), "released",
          flush=True)
