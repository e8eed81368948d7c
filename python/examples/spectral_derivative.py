"""
spectral_derivative.py -- the gradient of a smooth periodic function on the
box [0, 2 pi)^3 by spectral differentiation (multiply by i k), compared
with the analytic gradient.

    u = exp(sin x) cos(y) sin(2z)
    du/dx = cos(x) exp(sin x) cos(y) sin(2z)
    du/dy = -exp(sin x) sin(y) sin(2z)
    du/dz = 2 exp(sin x) cos(y) cos(2z)

A complex-to-complex plan with the three gradient components as one batch
of 3 fields: one backward transform (each exchange moving all three) gives
the whole gradient.

    mpiexec -n 4 python3 spectral_derivative.py [--n 32] [--grid pencil]
"""
import argparse

import numpy
from mpi4py import MPI

import distfft


def coordinates(shape_slices, n):
    points = 2 * numpy.pi * numpy.arange(n) / n
    return [points[s].reshape([-1 if a == axis else 1 for a in range(3)])
            for axis, s in enumerate(shape_slices)]


def exact_gradient(x, y, z):
    e = numpy.exp(numpy.sin(x))
    return [numpy.cos(x) * e * numpy.cos(y) * numpy.sin(2 * z),
            -e * numpy.sin(y) * numpy.sin(2 * z),
            2 * e * numpy.cos(y) * numpy.cos(2 * z)]


def gradient_error(comm, n=32, grid=None):
    """Return the maximum error of the spectral gradient over all ranks."""
    with distfft.Plan(comm, (n, n, n), grid=grid) as scalar, \
            distfft.Plan(comm, (n, n, n), grid=grid, batch=3) as vector:
        x, y, z = coordinates(scalar.input_slice, n)
        u = scalar.input_array()
        u[...] = numpy.exp(numpy.sin(x)) * numpy.cos(y) * numpy.sin(2 * z)
        u_hat = scalar.forward(u)

        grad_hat = vector.output_array()          # shape (3,) + u_hat.shape
        for axis, k in enumerate(scalar.wavenumbers()):
            k = numpy.where(numpy.abs(k) == n // 2, 0, k)   # no odd derivative at Nyquist
            grad_hat[axis] = 1j * k * u_hat
        grad = vector.backward(grad_hat)

        exact = exact_gradient(x, y, z)
        error = max((numpy.max(numpy.abs(grad[a] - exact[a]), initial=0.0) for a in range(3)))
        return comm.allreduce(error, op=MPI.MAX)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=32, help="points per axis")
    parser.add_argument("--grid", default=None, help="slab, pencil or auto")
    args = parser.parse_args()
    error = gradient_error(MPI.COMM_WORLD, args.n, args.grid)
    if MPI.COMM_WORLD.Get_rank() == 0:
        print(f"gradient {args.n}^3 on {MPI.COMM_WORLD.Get_size()} ranks: "
              f"max error = {error:.3e}")


if __name__ == "__main__":
    main()
