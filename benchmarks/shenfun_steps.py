"""shenfun_steps.py -- time per step of a shenfun Navier-Stokes solver on
mpi4py-fft and on distfft (issue 23's benchmark).

    scripts/shenfun-on-distfft --bench --ranks 2 --n 64 --steps 10 --rounds 7

(that script makes shenfun's environment, then runs this file with its
Python). Each round runs the same program twice, under

    mpiexec -n R PYTHON shenfun_steps.py --solve ...                       # mpi4py-fft
    mpiexec -n R PYTHON -m distfft.mpi4py_fft shenfun_steps.py --solve ... # distfft

alternating which goes first, and prints per library the median time per
step over rounds with its range, and the median over rounds of the
same-round ratio distfft / mpi4py-fft with its range.

The solver (--solve) is the Taylor-Green vortex in a periodic box [0, 2 pi)^3
in rotational form, Fourier x Fourier x Fourier (real-to-complex on the last
axis), dealiased by the 2/3 rule, classical RK4. Everything goes through
shenfun: a TensorProductSpace and its VectorSpace, Array/Function, the
vector transforms (6 backward and 3 forward transforms per stage, 24 + 12
per step) and the wavenumbers; the pressure is eliminated by projecting the
right-hand side onto divergence-free fields. A step is timed from barrier to
barrier on every rank (the maximum over ranks), after `--warmup` untimed
steps; rank 0 prints "step_seconds S energy E" (E: the kinetic energy at
the end, so the two libraries' runs can be compared number by number).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def solve(options):
    import numpy as np
    from mpi4py import MPI
    from shenfun import Array, Function, FunctionSpace, TensorProductSpace, VectorSpace

    comm = MPI.COMM_WORLD
    n, nu, dt = options.n, options.nu, options.dt
    spaces = [FunctionSpace(n, "F", dtype="D"), FunctionSpace(n, "F", dtype="D"),
              FunctionSpace(n, "F", dtype="d")]
    T = TensorProductSpace(comm, spaces, planner_effort="FFTW_MEASURE")
    TV = VectorSpace(T)
    x = T.local_mesh(True)
    k = [np.asarray(kk, dtype=float) for kk in T.local_wavenumbers(True, True)]
    k2 = sum(kk ** 2 for kk in k)
    k2_nonzero = np.where(k2 == 0, 1, k2)
    # 2/3 rule: keep |k_i| < n/3 on every axis
    keep = (np.abs(k[0]) < n / 3) & (np.abs(k[1]) < n / 3) & (np.abs(k[2]) < n / 3)

    u = Array(TV)
    u[0] = np.sin(x[0]) * np.cos(x[1]) * np.cos(x[2])
    u[1] = -np.cos(x[0]) * np.sin(x[1]) * np.cos(x[2])
    u[2] = 0
    u_hat = Function(TV)
    u_hat = TV.forward(u, u_hat)
    velocity, vorticity, product = Array(TV), Array(TV), Array(TV)
    vorticity_hat, rhs = Function(TV), Function(TV)

    def right_hand_side(state):
        # vorticity in spectral space: i k x u_hat
        vorticity_hat[0] = 1j * (k[1] * state[2] - k[2] * state[1])
        vorticity_hat[1] = 1j * (k[2] * state[0] - k[0] * state[2])
        vorticity_hat[2] = 1j * (k[0] * state[1] - k[1] * state[0])
        TV.backward(state, velocity)
        TV.backward(vorticity_hat, vorticity)
        product[0] = velocity[1] * vorticity[2] - velocity[2] * vorticity[1]
        product[1] = velocity[2] * vorticity[0] - velocity[0] * vorticity[2]
        product[2] = velocity[0] * vorticity[1] - velocity[1] * vorticity[0]
        TV.forward(product, rhs)
        rhs[:] *= keep
        divergence = (k[0] * rhs[0] + k[1] * rhs[1] + k[2] * rhs[2]) / k2_nonzero
        for i in range(3):
            rhs[i] -= k[i] * divergence + nu * k2 * state[i]
        return rhs

    weights = (1 / 6, 1 / 3, 1 / 3, 1 / 6)
    shifts = (0.5, 0.5, 1.0)
    stage, total = u_hat.copy(), u_hat.copy()

    def step():
        total[:] = u_hat
        stage[:] = u_hat
        for s in range(4):
            derivative = right_hand_side(stage)
            total[:] += dt * weights[s] * derivative
            if s < 3:
                stage[:] = u_hat + dt * shifts[s] * derivative
        u_hat[:] = total

    for _ in range(options.warmup):
        step()
    comm.Barrier()
    start = time.perf_counter()
    for _ in range(options.steps):
        step()
    seconds = comm.allreduce(time.perf_counter() - start, op=MPI.MAX) / options.steps
    u = TV.backward(u_hat, u)
    energy = comm.allreduce(float(np.sum(u * u))) / 2 / n ** 3
    if comm.Get_rank() == 0:
        print(f"step_seconds {seconds:.6f} energy {energy:.15e}", flush=True)
    T.destroy()


def run_once(library, options):
    command = ["mpiexec.openmpi", "-n", str(options.ranks)]
    if options.ranks > (os.cpu_count() or 1):
        command.append("--oversubscribe")
    command.append(options.python)
    if library == "distfft":
        command += ["-m", "distfft.mpi4py_fft"]
    command += [os.path.abspath(__file__), "--solve", "--n", str(options.n), "--steps",
                str(options.steps), "--warmup", str(options.warmup), "--dt", str(options.dt),
                "--nu", str(options.nu)]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1", PYTHONWARNINGS="ignore",
               PYTHONPATH=os.pathsep.join(filter(None, [os.path.join(ROOT, "python"),
                                                        os.environ.get("PYTHONPATH")])))
    finished = subprocess.run(command, capture_output=True, text=True, env=env)
    lines = [line.split() for line in finished.stdout.splitlines() if line.startswith("step_seconds")]
    if finished.returncode != 0 or not lines:
        sys.exit(f"{library} failed ({' '.join(command)}):\n{finished.stdout}\n{finished.stderr}")
    return float(lines[-1][1]), float(lines[-1][3])


def spread(values, scale=1.0, digits=1):
    values = [v * scale for v in values]
    return (f"{statistics.median(values):.{digits}f} "
            f"[{min(values):.{digits}f}-{max(values):.{digits}f}]")


def compare(options):
    libraries = ("mpi4py-fft", "distfft")
    seconds = {name: [] for name in libraries}
    energies = {name: [] for name in libraries}
    for r in range(options.rounds):
        order = libraries if r % 2 == 0 else libraries[::-1]
        for name in order:
            s, energy = run_once(name, options)
            seconds[name].append(s)
            energies[name].append(energy)
            if options.raw:
                with open(options.raw, "a") as raw:
                    raw.write(json.dumps({"round": r + 1, "library": name, "n": options.n,
                                          "ranks": options.ranks, "steps": options.steps,
                                          "step_seconds": s, "energy": energy,
                                          "load1": os.getloadavg()[0]}) + "\n")
        print(f"round {r + 1}: " + ", ".join(f"{name} {seconds[name][-1] * 1e3:.1f} ms"
                                            for name in libraries), flush=True)
    ratios = [d / m for d, m in zip(seconds["distfft"], seconds["mpi4py-fft"])]
    print(f"\nshenfun Navier-Stokes (Taylor-Green, RK4) {options.n}^3, {options.ranks} rank(s), "
          f"{options.steps} timed steps after {options.warmup}, {options.rounds} interleaved rounds")
    print("| library | ms per step, median [range] | energy at the end |")
    print("|---|---|---|")
    for name in libraries:
        print(f"| {name} | {spread(seconds[name], 1e3)} | {statistics.median(energies[name]):.12f} |")
    print(f"| distfft / mpi4py-fft | {spread(ratios, digits=3)} | |")
    # round-off only (FFTW_MEASURE may pick other algorithms run to run)
    every = energies["distfft"] + energies["mpi4py-fft"]
    if max(every) - min(every) > 1e-10 * max(every):
        sys.exit(f"the energies differ beyond round-off: {energies}")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--solve", action="store_true", help="run the solver (inside mpiexec)")
    parser.add_argument("--n", type=int, default=64, help="points per axis")
    parser.add_argument("--steps", type=int, default=10, help="timed steps")
    parser.add_argument("--warmup", type=int, default=2, help="untimed steps first")
    parser.add_argument("--dt", type=float, default=0.01)
    parser.add_argument("--nu", type=float, default=0.000625)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--raw", help="append one JSON line per run (round, library, seconds, energy, load)")
    parser.add_argument("--python", default=os.path.join(ROOT, ".cache", "shenfun-venv", "bin", "python"),
                        help="a Python with shenfun and mpi4py-fft (scripts/shenfun-on-distfft makes it)")
    options = parser.parse_args(argv)
    if options.solve:
        solve(options)
    else:
        compare(options)


if __name__ == "__main__":
    main(sys.argv[1:])
