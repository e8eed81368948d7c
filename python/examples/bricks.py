"""
bricks.py -- a brick-decomposed 3-D field through a parallel FFT and a
reshape, with distfft.Layout (docs/guide/layout-values.md):

    mpiexec -n 8 --oversubscribe .venv/bin/python python/examples/bricks.py

Each rank owns one brick of a 3-D grid of ranks (2x2x2 on 8 ranks). The
plan takes the bricks in and gives the spectrum in the same bricks; a
Reshape moves the bricks to slabs. Both are checked against numpy on the
gathered arrays.
"""
import numpy
from mpi4py import MPI

import distfft

comm = MPI.COMM_WORLD
shape = (32, 24, 16)
bricks = distfft.Layout.from_grid(comm, shape, MPI.Compute_dims(comm.size, 3), (0, 1, 2))
slabs = distfft.Layout.from_grid(comm, shape, (comm.size,), (0, -1, -1))

rng = numpy.random.default_rng(0)
U = rng.random(shape) + 1j * rng.random(shape)   # the same global field on every rank

plan = distfft.Plan(comm, shape, input_layout=bricks, output_layout=bricks, rigor="estimate")
u = plan.input_array()                            # this rank's brick (u.layout == bricks)
u[...] = U[bricks.local_slice]
u_hat = plan.forward(u)

with distfft.Reshape(bricks, slabs, numpy.complex128) as reshape:
    slab = reshape.forward(u_hat)                 # the spectrum, now in slabs

spectrum = slabs.gather(slab)
if comm.rank == 0:
    print(plan.describe())
    error = abs(spectrum - numpy.fft.fftn(U)).max() / abs(spectrum).max()
    print(f"bricks {MPI.Compute_dims(comm.size, 3)} on {comm.size} ranks: "
          f"max relative error against numpy.fft.fftn {error:.1e}")
    assert error < 1e-12
plan.destroy()
bricks.destroy()
slabs.destroy()
