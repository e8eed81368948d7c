"""
poisson.py -- solve the Poisson equation  laplacian(u) = f  on the periodic
box [0, 2 pi)^3 with distfft, and compare with the analytic solution.

    u(x, y, z) = sin(x) cos(2y) sin(3z) + cos(4x + y) / 2
    f = laplacian(u) = -14 sin(x) cos(2y) sin(3z) - 17 cos(4x + y) / 2

In Fourier space the Laplacian is multiplication by -|k|^2, so
u_hat = -f_hat / |k|^2 (and the mean, k = 0, is set to zero). Real data:
an r2c plan (numpy's rfftn), distributed over every rank.

    mpiexec -n 4 python3 poisson.py [--n 32] [--grid pencil]
"""
import argparse

import numpy
from mpi4py import MPI

import distfft


def grid_coordinates(plan, n):
    """x, y, z of this rank's input block, broadcastable to its shape."""
    points = 2 * numpy.pi * numpy.arange(n) / n
    return [points[s].reshape([-1 if a == axis else 1 for a in range(3)])
            for axis, s in enumerate(plan.input_slice)]


def exact_solution(x, y, z):
    return numpy.sin(x) * numpy.cos(2 * y) * numpy.sin(3 * z) + 0.5 * numpy.cos(4 * x + y)


def right_hand_side(x, y, z):
    return -14 * numpy.sin(x) * numpy.cos(2 * y) * numpy.sin(3 * z) \
        - 8.5 * numpy.cos(4 * x + y)


def solve(comm, n=32, grid=None):
    """Return the maximum error of the spectral solution over all ranks."""
    with distfft.Plan(comm, (n, n, n), dtype=numpy.float64, grid=grid) as plan:
        x, y, z = grid_coordinates(plan, n)
        f = plan.input_array()
        f[...] = right_hand_side(x, y, z)

        f_hat = plan.forward(f)
        kx, ky, kz = plan.wavenumbers()          # integers: the box is 2 pi long
        k2 = kx ** 2 + ky ** 2 + kz ** 2
        k2[k2 == 0] = numpy.inf                  # the mean of u is zero
        u_hat = -f_hat / k2
        u = plan.backward(u_hat)

        error = numpy.max(numpy.abs(u - exact_solution(x, y, z)), initial=0.0)
        return comm.allreduce(error, op=MPI.MAX)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=32, help="points per axis")
    parser.add_argument("--grid", default=None, help="slab, pencil or auto")
    args = parser.parse_args()
    error = solve(MPI.COMM_WORLD, args.n, args.grid)
    if MPI.COMM_WORLD.Get_rank() == 0:
        print(f"Poisson {args.n}^3 on {MPI.COMM_WORLD.Get_size()} ranks: "
              f"max |u - u_exact| = {error:.3e}")


if __name__ == "__main__":
    main()
