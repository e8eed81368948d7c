"""taylor_green_steps.py -- time per RK4 step of a pseudo-spectral
Navier-Stokes solver (the Taylor-Green vortex) on mpi4py-fft and on three
ways of calling distfft.

    python3 benchmarks/taylor_green_steps.py [--n 64] [--ranks 2] [--steps 10]
        [--warmup 2] [--rounds 3] [--variants ...] [--python .venv/bin/python]
        [--reference-python /usr/bin/python3] [--launcher mpiexec.openmpi]
    python3 benchmarks/taylor_green_steps.py --summarize raw.jsonl   # its table, on stdout
    .venv/bin/python benchmarks/taylor_green_steps.py --arithmetic --steps 15 \
        --variants batched distarray                                  # without transforms

The solver is the one of spectralDNS-style demos: the periodic box
[0, 2 pi)^3, u = (sin x cos y cos z, -cos x sin y cos z, 0), rotational
form du/dt = u x omega - grad P + nu lap u, Fourier^3 with r2c on the last
axis, forward transforms divided by N^3, the nonlinear term dealiased by the
2/3 rule, the pressure eliminated by projecting onto divergence-free fields,
classical RK4. Each stage makes 6 backward and 3 forward scalar transforms
(velocity and vorticity to the grid, u x omega back). The variants differ
only in how those transforms are called and what the arrays are:

  mpi4py-fft       PFFT and newDistArray(rank=1) (Debian's python3-mpi4py-fft
                   under /usr/bin/python3 by default), one call per component;
  per-component    a distfft.Plan of one scalar field, one call per component,
                   plain numpy arrays;
  batched          a distfft.Plan with batch=3, one call for the three
                   components, plain numpy arrays;
  distarray        the batched plan with its own arrays (plan.input_array(),
                   plan.output_array(): DistArrays) for every vector field.

The arithmetic between the transforms is the same numpy code in every
variant. Each round launches one run per variant, the order rotated from
round to round so drifts of the machine fall on all of them. A run times
every step from barrier to barrier (the slowest rank's time) after
`--warmup` untimed steps, and the time each rank spends inside the
transform calls; it prints one JSON line: per-step ms (min and median over
the run's steps), the share of a step inside transform calls, CPU ms and
minor page faults per step (means over ranks: figures a loaded host
disturbs less than time), the kinetic energy at the end (the variants must
agree to round-off; the driver checks) and the host's load average before
and after, with the context (git revision, MPI library, versions), and
the plan's description (the methods and overlap it measured). The driver
then prints a table on stderr (--summarize: on stdout): per variant the
median over rounds [range] of each run's minimum and of its CPU time per
step, and the same-round ratios of both.

--arithmetic separates the two things the variants differ in: it steps
each variant's solver in this process with the transforms replaced by
nothing (made once, so the arrays hold the vortex), in turn, and prints
per variant the fastest step's CPU ms and its ratio to the first variant's:
the cost of the arithmetic on plain arrays against DistArrays, with less
of the noise that a loaded host puts into the whole step.
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from python_calls import add_launch_options, git_revision  # noqa: E402
from shenfun_steps import spread  # noqa: E402
from suite.systems import MPI_ENVIRONMENT  # noqa: E402

ROOT = os.path.dirname(HERE)
VARIANTS = ("mpi4py-fft", "per-component", "batched", "distarray")

# ---- the transforms of each variant ------------------------------------------------


class Transforms:
    """The variant's vector transforms and arrays. forward(u, u_hat) and
    backward(u_hat, u) move the three components of a vector field, by
    default one call of the scalar transform `self.fft` (a PFFT or a
    distfft.Plan: both have forward(a, out) and backward(a, out)) per
    component; the time inside them is added to `seconds`."""

    seconds = 0.0

    def forward(self, u, u_hat):
        start = time.perf_counter()
        self._forward(u, u_hat)
        self.seconds += time.perf_counter() - start

    def backward(self, u_hat, u):
        start = time.perf_counter()
        self._backward(u_hat, u)
        self.seconds += time.perf_counter() - start

    def _forward(self, u, u_hat):
        for i in range(3):
            self.fft.forward(u[i], u_hat[i])

    def _backward(self, u_hat, u):
        for i in range(3):
            self.fft.backward(u_hat[i], u[i])

    def destroy(self):
        self.fft.destroy()


class Mpi4pyFFT(Transforms):
    def __init__(self, comm, n):
        import mpi4py_fft
        from mpi4py_fft import PFFT, newDistArray
        if mpi4py_fft.__name__ != "mpi4py_fft":
            raise SystemExit("taylor_green_steps: the mpi4py-fft variant needs mpi4py-fft itself, "
                             f"not {mpi4py_fft.__name__}")
        import numpy
        self.version, self.description = mpi4py_fft.__version__, None
        self.fft = PFFT(comm, (n, n, n), axes=(0, 1, 2), dtype=numpy.float64,
                        planner_effort="FFTW_MEASURE")
        self.physical_slice = self.fft.local_slice(False)
        self.spectral_slice = self.fft.local_slice(True)
        self.physical = lambda: newDistArray(self.fft, False, rank=1)
        self.spectral = lambda: newDistArray(self.fft, True, rank=1)


class Distfft(Transforms):
    def __init__(self, comm, n, variant):
        import distfft
        import numpy
        self.version = distfft.__version__
        batched = variant != "per-component"
        self.fft = distfft.Plan(comm, (n, n, n), dtype=numpy.float64, norm="forward",
                                batch=3 if batched else None)
        self.description = self.fft.describe()   # the measured choices (methods, overlap)
        lead = 1 if batched else 0
        self.physical_slice = self.fft.input_slice[lead:]
        self.spectral_slice = self.fft.output_slice[lead:]
        physical_shape = (3,) + self.fft.input_shape[lead:]
        spectral_shape = (3,) + self.fft.output_shape[lead:]
        if variant == "distarray":
            self.physical, self.spectral = self.fft.input_array, self.fft.output_array
        else:   # numpy's allocations are 16-byte aligned, as FFTW needs
            self.physical = lambda: numpy.zeros(physical_shape, numpy.float64)
            self.spectral = lambda: numpy.zeros(spectral_shape, numpy.complex128)
        if batched:   # one call for the three components
            self._forward, self._backward = self.fft.forward, self.fft.backward


def transforms_of(variant, comm, n):
    if variant == "mpi4py-fft":
        return Mpi4pyFFT(comm, n)
    return Distfft(comm, n, variant)

# ---- the solver ---------------------------------------------------------------------


class TaylorGreen:
    """The solver's state: the spectrum u_hat, the work arrays, the
    wavenumbers of this rank's spectral block."""

    def __init__(self, transforms, n, nu):
        import numpy
        self.fft, self.n, self.nu = transforms, n, nu
        kx = numpy.fft.fftfreq(n, 1.0 / n)
        kz = numpy.fft.rfftfreq(n, 1.0 / n)
        sx, sy, sz = transforms.spectral_slice
        self.k = (kx[sx].reshape(-1, 1, 1), kx[sy].reshape(1, -1, 1), kz[sz].reshape(1, 1, -1))
        self.k2 = self.k[0] ** 2 + self.k[1] ** 2 + self.k[2] ** 2
        self.k_over_k2 = [k / numpy.where(self.k2 == 0, 1, self.k2) for k in self.k]
        limit = 2.0 / 3.0 * (n // 2 + 1)
        self.dealias = (abs(self.k[0]) < limit) & (abs(self.k[1]) < limit) & (abs(self.k[2]) < limit)

        x = [numpy.arange(n)[s] * 2 * numpy.pi / n for s in transforms.physical_slice]
        x, y, z = x[0].reshape(-1, 1, 1), x[1].reshape(1, -1, 1), x[2].reshape(1, 1, -1)
        self.u, self.omega, self.product = (transforms.physical() for _ in range(3))
        self.u[0] = numpy.sin(x) * numpy.cos(y) * numpy.cos(z)
        self.u[1] = -numpy.cos(x) * numpy.sin(y) * numpy.cos(z)
        self.u[2] = 0
        self.u_hat, self.omega_hat, self.rhs, self.u_hat0, self.u_hat1 = \
            (transforms.spectral() for _ in range(5))
        transforms.forward(self.u, self.u_hat)

    def right_hand_side(self, u_hat):
        """du_hat/dt at u_hat, into self.rhs."""
        k, u, omega, product, rhs = self.k, self.u, self.omega, self.product, self.rhs
        self.fft.backward(u_hat, u)
        self.omega_hat[0] = 1j * (k[1] * u_hat[2] - k[2] * u_hat[1])
        self.omega_hat[1] = 1j * (k[2] * u_hat[0] - k[0] * u_hat[2])
        self.omega_hat[2] = 1j * (k[0] * u_hat[1] - k[1] * u_hat[0])
        self.fft.backward(self.omega_hat, omega)
        product[0] = u[1] * omega[2] - u[2] * omega[1]
        product[1] = u[2] * omega[0] - u[0] * omega[2]
        product[2] = u[0] * omega[1] - u[1] * omega[0]
        self.fft.forward(product, rhs)
        rhs *= self.dealias
        pressure = sum(self.k_over_k2[i] * rhs[i] for i in range(3))
        for i in range(3):
            rhs[i] -= pressure * k[i] + self.nu * self.k2 * u_hat[i]
        return rhs

    def step(self, dt):
        """One classical RK4 step; u_hat holds each stage's state in turn."""
        weights, shifts = (1 / 6, 1 / 3, 1 / 3, 1 / 6), (0.5, 0.5, 1.0)
        u_hat, u_hat0, u_hat1 = self.u_hat, self.u_hat0, self.u_hat1
        u_hat0[...] = u_hat
        u_hat1[...] = u_hat
        for stage in range(4):
            rhs = self.right_hand_side(u_hat)
            if stage < 3:
                u_hat[...] = u_hat0 + shifts[stage] * dt * rhs
            u_hat1 += weights[stage] * dt * rhs
        u_hat[...] = u_hat1

    def energy(self, comm):
        """<|u|^2>/2 over the grid, from u_hat transformed back."""
        import numpy
        self.fft.backward(self.u_hat, self.u)
        return comm.allreduce(float(numpy.sum(numpy.square(self.u)))) / 2 / self.n ** 3


def solve(comm, variant, n, steps, warmup=0, dt=0.01, nu=0.000625):
    """Run the solver; the same record on every rank: per-step ms (min and
    median, the slowest rank per step); the share of a step inside the
    transform calls, CPU ms and minor page faults per step (means over
    ranks); the energy at the end."""
    import resource
    import numpy
    from mpi4py import MPI
    transforms = transforms_of(variant, comm, n)
    try:
        solver = TaylorGreen(transforms, n, nu)
        for _ in range(warmup):
            solver.step(dt)
        seconds = numpy.zeros(steps)
        transforms.seconds = 0.0
        before = resource.getrusage(resource.RUSAGE_SELF)
        for s in range(steps):
            comm.Barrier()
            start = time.perf_counter()
            solver.step(dt)
            seconds[s] = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_SELF)
        share = transforms.seconds / max(float(numpy.sum(seconds)), 1e-30)
        cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / steps
        faults = (after.ru_minflt - before.ru_minflt) / steps
        slowest = numpy.empty_like(seconds)
        comm.Allreduce(seconds, slowest, op=MPI.MAX)
        energy = solver.energy(comm)
        return {"variant": variant, "library_version": transforms.version,
                "plan": transforms.description, "n": n,
                "ranks": comm.Get_size(), "steps": steps, "warmup": warmup, "dt": dt, "nu": nu,
                "step_ms_min": 1e3 * float(numpy.min(slowest)),
                "step_ms_median": 1e3 * float(numpy.median(slowest)),
                "transform_share": comm.allreduce(share) / comm.Get_size(),
                "cpu_ms_per_step": 1e3 * comm.allreduce(cpu) / comm.Get_size(),
                "page_faults_per_step": comm.allreduce(faults) / comm.Get_size(),
                "energy": energy}
    finally:
        transforms.destroy()


def run_solve(options):
    from mpi4py import MPI
    import numpy
    comm = MPI.COMM_WORLD
    record = solve(comm, options.variant, options.n, options.steps, options.warmup, options.dt,
                   options.nu)
    record.update(mpi=MPI.Get_library_version().splitlines()[0].strip("\x00 "),
                  python=platform.python_version(), numpy=numpy.__version__)
    if comm.Get_rank() == 0:
        print(json.dumps(record), flush=True)
    return 0

def arithmetic(variants, n, steps, dt=0.01, nu=0.000625):
    """The steps' work outside the transforms alone, on this process (the
    transforms, made and applied once, then replaced by nothing): one
    record per variant with its fastest step in CPU ms, the variants
    stepped in turn so that drifts of the machine fall on all of them."""
    from mpi4py import MPI
    solvers = {}
    for variant in variants:
        transforms = transforms_of(variant, MPI.COMM_SELF, n)
        solvers[variant] = TaylorGreen(transforms, n, nu)
        transforms._forward = transforms._backward = lambda a, b: None
    best = dict.fromkeys(variants, float("inf"))
    try:
        for _ in range(steps):
            for variant, solver in solvers.items():
                start = time.process_time()
                solver.step(dt)
                best[variant] = min(best[variant], time.process_time() - start)
    finally:
        for solver in solvers.values():
            solver.fft.destroy()
    return [{"benchmark": "taylor_green_arithmetic", "variant": v, "n": n, "steps": steps,
             "cpu_ms_min": 1e3 * best[v], "ratio_to_first": best[v] / best[variants[0]]}
            for v in variants]


def run_arithmetic(options):
    for record in arithmetic(options.variants, options.n, options.steps, options.dt, options.nu):
        print(json.dumps(dict(record, load1=os.getloadavg()[0], git_revision=git_revision())),
              flush=True)
    return 0

# ---- the driver: interleaved rounds of runs -------------------------------------------


def command(options, variant):
    """The command line of one run of `variant`."""
    python = options.reference_python if variant == "mpi4py-fft" else options.python
    return [options.launcher, "-n", str(options.ranks), python, os.path.abspath(__file__),
            "--solve", "--variant", variant, "--n", str(options.n), "--steps", str(options.steps),
            "--warmup", str(options.warmup), "--dt", repr(options.dt), "--nu", repr(options.nu)]


def summarize(records, variants):
    """The table of the runs (markdown) and whether the energies agree.
    Each figure is the median over rounds [range]; a ratio is taken within
    each round."""
    rounds = sorted({r["round"] for r in records})
    by_round = {(r["variant"], r["round"]): r for r in records}
    lines = ["| variant | ms per step (each run's min) | CPU ms per step (mean) "
             "| share in transform calls | page faults per step | energy at the end |",
             "|---|---|---|---|---|---|"]
    for v in variants:
        runs = [r for r in records if r["variant"] == v]
        if runs:
            lines.append(f"| {v} | {spread([r['step_ms_min'] for r in runs], digits=2)} | "
                         f"{spread([r['cpu_ms_per_step'] for r in runs], digits=2)} | "
                         f"{statistics.median(r['transform_share'] for r in runs):.2f} | "
                         f"{statistics.median(r['page_faults_per_step'] for r in runs):.0f} | "
                         f"{statistics.median(r['energy'] for r in runs):.14f} |")
    for top, bottom in (("batched", "per-component"), ("distarray", "batched"),
                        ("per-component", "mpi4py-fft"), ("distarray", "mpi4py-fft")):
        pairs = [(by_round[top, r], by_round[bottom, r]) for r in rounds
                 if (top, r) in by_round and (bottom, r) in by_round]
        if pairs:
            wall = spread([a["step_ms_min"] / b["step_ms_min"] for a, b in pairs], digits=3)
            cpu = spread([a["cpu_ms_per_step"] / b["cpu_ms_per_step"] for a, b in pairs], digits=3)
            lines.append(f"| {top} / {bottom}, same round | {wall} | {cpu} | | | |")
    energies = [r["energy"] for r in records]
    agree = not energies or max(energies) - min(energies) <= 1e-10 * max(energies)
    return "\n".join(lines), agree


def report(records, options, stream=sys.stderr):
    """Print the table; 1 if the energies differ beyond round-off."""
    table, agree = summarize(records, options.variants)
    stream.write(f"\nTaylor-Green, RK4, {options.n}^3 on {options.ranks} rank(s), "
                     f"{options.steps} timed steps after {options.warmup}, {options.rounds} "
                     f"interleaved rounds\n{table}\n")
    if not agree:
        sys.stderr.write("taylor_green_steps: the variants' energies differ beyond round-off\n")
    return 0 if agree else 1


def run_summarize(options):
    """The table of a saved run (its JSON lines), with that run's settings."""
    with open(options.summarize) as f:
        records = [json.loads(line) for line in f if line.startswith("{")]
    if not records:
        sys.exit(f"taylor_green_steps: no records in {options.summarize}")
    first = records[0]
    options.n, options.ranks, options.steps, options.warmup = \
        first["n"], first["ranks"], first["steps"], first["warmup"]
    options.rounds = len({r["round"] for r in records})
    options.variants = [v for v in VARIANTS if any(r["variant"] == v for r in records)]
    return report(records, options, sys.stdout)


def run_driver(options):
    revision, host, records, status = git_revision(), platform.node(), [], 0
    for round_number in range(options.rounds):
        shift = round_number % len(options.variants)
        for variant in options.variants[shift:] + options.variants[:shift]:
            load = os.getloadavg()
            result = subprocess.run(command(options, variant), capture_output=True, text=True,
                                    timeout=options.timeout, env=dict(os.environ, **MPI_ENVIRONMENT))
            lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
            if result.returncode != 0 or len(lines) != 1:
                sys.stderr.write(f"taylor_green_steps: {variant} failed (exit {result.returncode}):"
                                 f"\n{result.stderr[-2000:]}\n")
                status = 1
                continue
            record = dict(json.loads(lines[0]), benchmark="taylor_green_steps", round=round_number,
                          load1_before=load[0], load1_after=os.getloadavg()[0],
                          git_revision=revision, host=host)
            records.append(record)
            print(json.dumps(record), flush=True)
    return max(status, report(records, options))


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=64, help="points per axis")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--steps", type=int, default=10, help="timed steps per run")
    parser.add_argument("--warmup", type=int, default=2, help="untimed steps first")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dt", type=float, default=0.01)
    parser.add_argument("--nu", type=float, default=0.000625)
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    add_launch_options(parser)
    parser.add_argument("--summarize", metavar="JSONL", help="print the table of a saved run")
    parser.add_argument("--arithmetic", action="store_true",
                        help="time the work outside the transforms alone, in this process")
    parser.add_argument("--solve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--variant", choices=VARIANTS, default="batched", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if min(options.n, options.ranks, options.steps, options.rounds) < 1 or options.warmup < 0:
        parser.error("--n, --ranks, --steps and --rounds must be positive, --warmup >= 0")
    return options


def main(argv):
    options = parse(argv)
    if options.summarize:
        return run_summarize(options)
    if options.arithmetic:
        return run_arithmetic(options)
    return run_solve(options) if options.solve else run_driver(options)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
