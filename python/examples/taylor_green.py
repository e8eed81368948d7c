"""
taylor_green.py -- the Taylor-Green vortex at Re = 1600: a pseudo-spectral
Navier-Stokes solver on distfft, dealiased by padding (the 3/2 rule) or by
truncation (the 2/3 rule).

    box [0, 2 pi)^3, u = sin x cos y cos z, v = -cos x sin y cos z, w = 0,
    nu = 1/1600; du/dt = u x omega - grad P + nu lap u, div u = 0.

Rotational form, as spectralDNS: the spectrum U_hat (r2c, the three
components as one batch of 3 fields) advances by classical RK4; the
nonlinear term u x omega is formed on the physical grid and projected onto
divergence-free fields in spectral space. Dealiasing:

  3/2   a plan with padding=1.5: backward returns u and omega on the
        (3N/2)^3 grid, forward truncates u x omega back to the N retained
        modes (the padded zeros never cross the network). In-place plans: u
        and u_hat share one buffer, omega and the product another, which
        saves the separate physical and spectral arrays.
  2/3   the plain N^3 plan; modes with |k_i| >= 2/3 (N/2 + 1) of u x omega
        are zeroed (spectralDNS's mask).
With 3/2 the Nyquist modes (|k_i| = N/2) of u x omega are zeroed too: i k
has no consistent sign there, and left in they feed a spurious enstrophy
that grows without bound (seen at 64^3 from t = 3 on).

Prints the kinetic energy E = <|u|^2>/2 (computed spectrally, equal to the
mean over the N^3 grid), the dissipation epsilon = 2 nu Omega from the
enstrophy and -dE/dt, and optionally writes a PNG of epsilon(t) beside the
512^3 reference (/work/shared/data, README "Taylor-Green").

    mpiexec -n 4 python3 taylor_green.py --n 32 --t-end 0.1 --dt 0.01
    mpiexec -n 2 python3 taylor_green.py --n 64 --t-end 20 --dt 0.02 --png tg.png
"""
import argparse
import time

import numpy
from mpi4py import MPI

import distfft

NU = 1.0 / 1600.0


class TaylorGreen:
    """The solver state on one communicator; run() advances it."""

    def __init__(self, comm, n, dealias="3/2", grid=None, method="auto"):
        if dealias not in ("3/2", "2/3"):
            raise ValueError("dealias is '3/2' or '2/3'")
        self.comm, self.n, self.dealias = comm, n, dealias
        common = dict(dtype=numpy.float64, batch=3, norm="forward", grid=grid, method=method)
        self.plan = distfft.Plan(comm, (n, n, n), **common)         # the N^3 grid
        common["grid"] = self.plan.grid      # the same spectral blocks in both plans
        self.rhs_plan = distfft.Plan(comm, (n, n, n), inplace=True,
                                     padding=1.5 if dealias == "3/2" else None, **common)
        assert self.rhs_plan.output_slice == self.plan.output_slice
        self.u, self.u_hat_buffer = self.rhs_plan.inplace_arrays()
        self.product, self.product_hat = self.rhs_plan.inplace_arrays()

        k = self.plan.wavenumbers()
        self.k = [numpy.broadcast_to(ki, self.plan.output_shape[1:]) for ki in k]
        self.k2 = sum(ki * ki for ki in self.k)
        self.k_over_k2 = [ki / numpy.where(self.k2 == 0, 1, self.k2) for ki in self.k]
        # 2/3: spectralDNS's mask. 3/2: the padding dealiases; the mask only
        # keeps the Nyquist modes (|k_i| = N/2) at zero, where i k has no
        # consistent sign (a real field's Nyquist derivative) and would feed
        # a spurious, growing enstrophy.
        kmax = 2.0 / 3.0 * (n // 2 + 1) if dealias == "2/3" else n // 2
        self.mask = (abs(self.k[0]) < kmax) & (abs(self.k[1]) < kmax) & (abs(self.k[2]) < kmax)
        # r2c: modes 0 < kz < N/2 stand for two (kz and -kz) in Parseval's sum
        kz = numpy.abs(self.k[2])
        self.weight = numpy.where((kz == 0) | (kz == n // 2), 1.0, 2.0)

        x = [2 * numpy.pi * numpy.arange(n)[s] / n for s in self.plan.input_slice[1:]]
        x, y, z = numpy.meshgrid(*x, indexing="ij", sparse=True)
        u0 = self.plan.input_array()
        u0[0] = numpy.sin(x) * numpy.cos(y) * numpy.cos(z)
        u0[1] = -numpy.cos(x) * numpy.sin(y) * numpy.cos(z)
        self.u_hat = self.plan.forward(u0)

    def destroy(self):
        self.plan.destroy()
        self.rhs_plan.destroy()

    def curl(self, u_hat, out):
        k = self.k
        out[0] = 1j * (k[1] * u_hat[2] - k[2] * u_hat[1])
        out[1] = 1j * (k[2] * u_hat[0] - k[0] * u_hat[2])
        out[2] = 1j * (k[0] * u_hat[1] - k[1] * u_hat[0])
        return out

    def rhs(self, u_hat):
        """d u_hat / dt: P(FFT(u x omega)) - nu k^2 u_hat, dealiased."""
        self.u_hat_buffer[...] = u_hat
        self.rhs_plan.backward(self.u_hat_buffer, self.u)          # u on the (padded) grid
        self.curl(u_hat, self.product_hat)
        self.rhs_plan.backward(self.product_hat, self.product)     # omega, same grid
        u, w = self.u, self.product
        cross = (u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0])
        for i in range(3):
            w[i] = cross[i]
        du = self.rhs_plan.forward(w, self.product_hat).copy()     # truncated to N modes
        du *= self.mask
        p = sum(self.k_over_k2[i] * du[i] for i in range(3))
        for i in range(3):
            du[i] -= p * self.k[i] + NU * self.k2 * u_hat[i]
        return du

    def step(self, dt):
        """One classical RK4 step (spectralDNS's coefficients)."""
        u0, u1 = self.u_hat.copy(), self.u_hat.copy()
        for a, b in zip((1 / 6, 1 / 3, 1 / 3, 1 / 6), (0.5, 0.5, 1.0, None)):
            du = self.rhs(self.u_hat)
            if b is not None:
                self.u_hat[...] = u0 + b * dt * du
            u1 += a * dt * du
        self.u_hat[...] = u1

    def energy(self):
        """E = <|u|^2>/2 = sum |u_hat|^2 / 2 (Parseval on the N^3 grid)."""
        local = 0.5 * float(numpy.sum(self.weight * numpy.abs(self.u_hat) ** 2))
        return self.comm.allreduce(local)

    def enstrophy(self):
        """Omega = <|omega|^2>/2 = sum k^2 |u_hat|^2 / 2 (div u = 0)."""
        local = 0.5 * float(numpy.sum(self.weight * self.k2 * numpy.abs(self.u_hat) ** 2))
        return self.comm.allreduce(local)


def run(comm, n=32, t_end=0.1, dt=0.01, dealias="3/2", grid=None, every=None, report=None,
        method="auto"):
    """Advance to t_end; return a list of (t, E, epsilon = 2 nu Omega)
    every `every` steps (and at the end). `report(t, E, eps)` is called on
    each record."""
    solver = TaylorGreen(comm, n, dealias, grid, method)
    try:
        steps = int(round(t_end / dt))
        history = []

        def record(t):
            entry = (t, solver.energy(), 2 * NU * solver.enstrophy())
            history.append(entry)
            if report:
                report(*entry)

        record(0.0)
        for s in range(1, steps + 1):
            solver.step(dt)
            if s == steps or (every and s % every == 0):
                record(s * dt)
        return history
    finally:
        solver.destroy()


def write_png(history, path, n, dealias, reference_path=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    t = numpy.array([h[0] for h in history])
    e = numpy.array([h[1] for h in history])
    eps = numpy.array([h[2] for h in history])
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(t, eps, label=f"distfft {n}$^3$, {dealias} rule: 2$\\nu\\Omega$")
    ax.plot(0.5 * (t[1:] + t[:-1]), -numpy.diff(e) / numpy.diff(t), "--",
            label=f"distfft {n}$^3$: $-dE/dt$")
    if reference_path:
        ref = numpy.array(read_reference(reference_path))
        ax.plot(ref[:, 0], ref[:, 2], "k.", label="512$^3$ spectral reference")
    ax.set_xlabel("t")
    ax.set_ylabel("dissipation $\\varepsilon$")
    ax.set_title("Taylor-Green vortex, Re = 1600")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def read_reference(path):
    """(t, E, eps) rows of the markdown table in the reference file."""
    rows = []
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 4:
                try:
                    rows.append(tuple(float(c) for c in cells[:3]))
                except ValueError:
                    pass
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=32, help="modes per axis (N)")
    parser.add_argument("--t-end", type=float, default=0.1)
    parser.add_argument("--dt", type=float, default=0.01)
    parser.add_argument("--dealias", choices=("3/2", "2/3"), default="3/2")
    parser.add_argument("--grid", default=None, help="slab, pencil or None (automatic)")
    parser.add_argument("--every", type=int, default=10, help="print every this many steps")
    parser.add_argument("--png", default=None, help="write epsilon(t) here")
    parser.add_argument("--reference", default="/work/shared/data/taylor_green_re1600_reference.md")
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    start = time.time()

    def report(t, e, eps):
        if comm.rank == 0:
            print(f"t = {t:7.3f}  E = {e:.12f}  eps = {eps:.6e}  ({time.time() - start:.0f} s)",
                  flush=True)

    history = run(comm, args.n, args.t_end, args.dt, args.dealias, args.grid, args.every, report)
    if comm.rank == 0 and args.png:
        import os
        reference = args.reference if os.path.exists(args.reference) else None
        write_png(history, args.png, args.n, args.dealias, reference)
        print(f"wrote {args.png}")


if __name__ == "__main__":
    main()
