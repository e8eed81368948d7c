"""
shenfun_demo.py -- shenfun (the spectral-Galerkin framework built on
mpi4py-fft) solving two problems, run unchanged on distfft:

    mpiexec -n 2 python -m distfft.mpi4py_fft python/examples/shenfun_demo.py   # distfft
    mpiexec -n 2 python python/examples/shenfun_demo.py                         # mpi4py-fft

shenfun imports mpi4py_fft itself (its TensorProductSpace is a PFFT built
from Subcomm, Pencil and Transfer, its bases plan mpi4py_fft.fftw
transforms); `python -m distfft.mpi4py_fft` serves that name from
distfft.mpi4py_fft. Needs shenfun (pip install shenfun) and sympy.

1. Poisson in a periodic box, Fourier x Fourier x Fourier (real-to-complex
   on the last axis): -lap u = f, solved with shenfun's wavenumbers.
2. Poisson with Dirichlet walls in x, Chebyshev x Fourier x Fourier,
   solved with shenfun's Galerkin matrices (la.SolverGeneric1ND).
3. Time per forward+backward pair of a 3D Fourier space (--steps S, --n N).

Each problem prints its error against the exact solution and a checksum of
the spectral solution (both reduced over ranks), so the two runs compare
number by number; the timing line is rank 0's.
"""
import argparse
import time

import numpy as np
import sympy as sp
from mpi4py import MPI
from shenfun import (Array, Function, FunctionSpace, TensorProductSpace, TestFunction,
                     TrialFunction, div, grad, inner, la)

comm = MPI.COMM_WORLD
x, y, z = sp.symbols("x,y,z", real=True)


def _norm(a):
    return np.sqrt(comm.allreduce(float(np.sum(np.abs(a) ** 2))))


def periodic_poisson(n):
    """-lap u = f on [0, 2 pi)^3; u of zero mean."""
    exact = sp.sin(x) * sp.cos(2 * y) + sp.cos(3 * z) * sp.sin(x + y)
    forcing = -(exact.diff(x, 2) + exact.diff(y, 2) + exact.diff(z, 2))
    spaces = [FunctionSpace(n, "F", dtype="D"), FunctionSpace(n, "F", dtype="D"),
              FunctionSpace(n, "F", dtype="d")]
    T = TensorProductSpace(comm, spaces, axes=(0, 1, 2))
    f_hat = Function(T)
    f_hat = Array(T, buffer=forcing).forward(f_hat)
    k = T.local_wavenumbers(True, True)
    k2 = sum(kk.astype(float) ** 2 for kk in k)
    u_hat = Function(T)
    u_hat[...] = np.where(k2 == 0, 0, f_hat / np.where(k2 == 0, 1, k2))
    u = u_hat.backward()
    error = _norm(u - Array(T, buffer=exact)) / _norm(Array(T, buffer=exact))
    checksum = comm.allreduce(float(np.sum(np.abs(u_hat) * k2)))
    T.destroy()
    return error, checksum


def dirichlet_poisson(n):
    """lap u = f on [-1, 1] x [0, 2 pi)^2, u = 0 at x = -1, 1."""
    exact = (1 - x ** 2) * sp.sin(2 * y) * sp.cos(3 * z) + (1 - x ** 4) * sp.cos(y)
    forcing = exact.diff(x, 2) + exact.diff(y, 2) + exact.diff(z, 2)
    walls = FunctionSpace(n, "C", bc=(0, 0))
    T = TensorProductSpace(comm, (walls, FunctionSpace(n, "F", dtype="D"),
                                  FunctionSpace(n, "F", dtype="d")), axes=(0, 1, 2))
    u, v = TrialFunction(T), TestFunction(T)
    matrices = inner(v, div(grad(u)))
    f_hat = inner(v, Array(T, buffer=forcing))
    u_hat = Function(T)
    u_hat = la.SolverGeneric1ND(matrices)(f_hat, u_hat)
    ue = Array(T, buffer=exact)
    error = _norm(u_hat.backward() - ue) / _norm(ue)
    checksum = comm.allreduce(float(np.sum(np.abs(u_hat))))
    T.destroy()
    return error, checksum


def transform_time(n, steps):
    """Seconds per forward+backward pair of an n^3 Fourier space (max over ranks)."""
    spaces = [FunctionSpace(n, "F", dtype="D"), FunctionSpace(n, "F", dtype="D"),
              FunctionSpace(n, "F", dtype="d")]
    T = TensorProductSpace(comm, spaces)
    u = Array(T)
    u[...] = np.random.default_rng(comm.Get_rank()).random(u.shape)
    u_hat = Function(T)
    u_hat = u.forward(u_hat)
    u = u_hat.backward(u)
    comm.Barrier()
    start = time.perf_counter()
    for _ in range(steps):
        u_hat = u.forward(u_hat)
        u = u_hat.backward(u)
    seconds = comm.allreduce(time.perf_counter() - start, op=MPI.MAX) / steps
    T.destroy()
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=64, help="points per axis of the timing")
    parser.add_argument("--steps", type=int, default=10, help="timed pairs (0: no timing)")
    args = parser.parse_args()
    import mpi4py_fft
    library = "distfft" if mpi4py_fft.__name__.startswith("distfft") else "mpi4py-fft"
    results = [("fourier_poisson", periodic_poisson(24)),
               ("chebyshev_poisson", dirichlet_poisson(20))]
    if comm.Get_rank() == 0:
        for name, (error, checksum) in results:
            print(f"{name} error {error:.3e} checksum {checksum:.12e}")
    if args.steps:
        seconds = transform_time(args.n, args.steps)
        if comm.Get_rank() == 0:
            print(f"timing {library} ranks {comm.Get_size()} n {args.n} "
                  f"forward+backward {seconds * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
