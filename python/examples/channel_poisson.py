"""
channel_poisson.py -- a Helmholtz problem between two walls, in paper 002's
Chebyshev-Fourier-Fourier layout: Chebyshev in the wall-normal axis y
(axis 0, y in [-1, 1]), Fourier in the periodic axes x (axis 1) and z
(axis 2, r2c):

    u_xx + u_yy + u_zz - alpha u = f,   u(x, +-1, z) = 0,

with the manufactured solution
    u = (1 - y^2) e^y (cos x + sin 2z),
    f = [(-1 - 4y - y^2) e^y - alpha (1 - y^2) e^y] (cos x + sin 2z)
        - (1 - y^2) e^y (cos x + 4 sin 2z).

One forward transform (kinds cheb, c2c, r2c) gives f's Chebyshev
coefficients for every Fourier mode (kx, kz); the output is complete along
y on every rank, so each rank solves its modes' Chebyshev-tau systems
locally (N - 2 rows of u'' - (kx^2 + kz^2 + alpha) u = f in coefficient
space, two rows for u(+-1) = 0: all the modes in one batched numpy solve);
one backward transform returns u on the Gauss-Lobatto points
y_j = cos(pi j / (N - 1)). The error against the exact u is at round-off
level once N resolves e^y (spectral accuracy).

    mpiexec -n 4 python3 channel_poisson.py [--n 24 32 32] [--alpha 1]
"""
import argparse

import numpy
from mpi4py import MPI
from numpy.polynomial import chebyshev

import distfft


def profile(y):
    g = (1 - y * y) * numpy.exp(y)
    g2 = (-1 - 4 * y - y * y) * numpy.exp(y)
    return g, g2


def tau_matrices(ny, kappa):
    """The Chebyshev-tau matrices (one per kappa = kx^2 + kz^2 + alpha):
    rows 0..ny-3 of D2 - kappa I, then the rows of u(1) and u(-1)."""
    d2 = numpy.zeros((ny, ny))
    for p in range(ny):
        e = numpy.zeros(ny)
        e[p] = 1
        c = chebyshev.chebder(e, 2)
        d2[:len(c), p] = c
    a = d2[None, :, :] - kappa[:, None, None] * numpy.eye(ny)[None]
    a[:, ny - 2, :] = 1.0                              # sum a_k T_k(1)
    a[:, ny - 1, :] = (-1.0) ** numpy.arange(ny)       # sum a_k T_k(-1)
    return a


def solve(comm, shape=(24, 32, 32), alpha=1.0, grid=None):
    """Return the maximum error of the computed u over all ranks."""
    ny, nx, nz = shape
    with distfft.Plan(comm, shape, dtype=numpy.float64, kinds=("cheb", "c2c", "r2c"),
                      grid=grid) as plan:
        y = numpy.cos(numpy.pi * numpy.arange(ny) / (ny - 1))[plan.input_slice[0]]
        x = (2 * numpy.pi * numpy.arange(nx) / nx)[plan.input_slice[1]]
        z = (2 * numpy.pi * numpy.arange(nz) / nz)[plan.input_slice[2]]
        y, x, z = y[:, None, None], x[None, :, None], z[None, None, :]
        g, g2 = profile(y)
        f = plan.input_array()
        f[...] = (g2 - alpha * g) * (numpy.cos(x) + numpy.sin(2 * z)) \
            - g * (numpy.cos(x) + 4 * numpy.sin(2 * z))
        f_hat = plan.forward(f)                        # (ny, local kx, local kz), y complete

        kx = numpy.fft.fftfreq(nx, 1.0 / nx)[plan.output_slice[1]][:, None]
        kz = numpy.fft.rfftfreq(nz, 1.0 / nz)[plan.output_slice[2]][None, :]
        kappa = kx ** 2 + kz ** 2 + alpha              # (local kx, local kz)
        modes = kappa.size
        rhs = numpy.moveaxis(f_hat, 0, -1).reshape(modes, ny).copy()
        rhs[:, ny - 2:] = 0                            # the boundary rows
        if modes:
            a = tau_matrices(ny, kappa.reshape(modes))
            coefficients = numpy.linalg.solve(a, rhs[..., None])[..., 0]
        else:
            coefficients = rhs
        u_hat = plan.output_array()
        u_hat[...] = numpy.moveaxis(coefficients.reshape(kappa.shape + (ny,)), -1, 0)
        u = plan.backward(u_hat)

        exact = g * (numpy.cos(x) + numpy.sin(2 * z))
        error = float(numpy.max(numpy.abs(u - exact), initial=0.0))
        return comm.allreduce(error, op=MPI.MAX)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, nargs=3, default=(24, 32, 32),
                        help="points in y (Chebyshev), x, z")
    parser.add_argument("--alpha", type=float, default=1.0)
    parser.add_argument("--grid", default=None)
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    for ny in sorted({8, 12, 16, args.n[0]}):
        error = solve(comm, (ny,) + tuple(args.n[1:]), args.alpha, args.grid)
        if comm.rank == 0:
            print(f"N_y = {ny:3d}: max |u - exact| = {error:.3e}")


if __name__ == "__main__":
    main()
