"""python_calls.py -- the per-call cost of the Python layer, in microseconds:
one serial execute, one Transfer, one small plan's forward, written once
against mpi4py-fft's API and run on distfft (its drop-in, distfft.mpi4py_fft)
and on mpi4py-fft itself (Cython over FFTW).

    python3 benchmarks/python_calls.py [--ranks 1 2] [--rounds 7] [--calls 2000]
        [--repeats 5] [--python .venv/bin/python]
        [--reference-python /usr/bin/python3] [--launcher mpiexec.openmpi]

Each round launches, for each rank count, one run per library, alternating
which goes first from round to round, so drifts of the machine fall on
both. distfft runs as `PYTHON -m distfft.mpi4py_fft python_calls.py
--measure` (mpi4py_fft served by distfft), mpi4py-fft as
`REFERENCE_PYTHON python_calls.py --measure` (Debian's python3-mpi4py-fft
under /usr/bin/python3 by default). Every result is one JSON line on
stdout: round, ranks, library and its version, call, microseconds per call,
and the context to compare it later (git revision, MPI library, Python,
NumPy, host).

The calls are tiny on purpose, so their time is what each layer costs
around its C or Cython call:
  serial_execute  fftw.fftn's planned FFT object called on an 8x8 complex
                  array (FFTW_MEASURE), input and output given;
  transfer        Pencil((8, 8), axis=1).transfer(pencil(0), complex)'s
                  forward, collective on its sub-communicator;
  plan_forward    PFFT(comm, (8, 8, 8), complex).forward(u, u_hat), the
                  output array given, no normalisation.
A measurement is `--calls` calls between two barriers on every rank, the
slowest rank's time divided by the calls; the fastest of `--repeats` such
batches is reported, after one untimed batch.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from suite.systems import MPI_ENVIRONMENT  # noqa: E402  (Open MPI as root, oversubscribed)
CALLS = ("serial_execute", "transfer", "plan_forward")
LIBRARIES = ("distfft", "mpi4py-fft")

# ---- one run (--measure): every rank times the calls ----------------------------


def setups(comm):
    """{call: the function making one call}, through mpi4py_fft's API (the
    real one, or distfft's under `python -m distfft.mpi4py_fft`)."""
    import numpy
    from mpi4py_fft import PFFT, fftw, newDistArray
    from mpi4py_fft.pencil import Pencil, Subcomm

    a = fftw.aligned((8, 8), dtype=complex)
    b = fftw.aligned((8, 8), dtype=complex)
    a[...] = numpy.arange(64).reshape(8, 8)
    serial = fftw.fftn(a, axes=(0, 1), flags=(fftw.FFTW_MEASURE,), output_array=b)

    pencil = Pencil(Subcomm(comm, [0, 1]), (8, 8), axis=1)
    other = pencil.pencil(0)
    transfer = pencil.transfer(other, complex)
    source = numpy.ones(pencil.subshape, dtype=complex)
    target = numpy.zeros(other.subshape, dtype=complex)

    plan = PFFT(comm, (8, 8, 8), dtype=complex)
    u, u_hat = newDistArray(plan, False), newDistArray(plan, True)
    u[...] = 1
    return {"serial_execute": lambda: serial(a, b),
            "transfer": lambda: transfer.forward(source, target),
            "plan_forward": lambda: plan.forward(u, u_hat, normalize=False)}


def time_call(comm, call, calls, repeats):
    """Microseconds per call: the fastest batch of the slowest rank."""
    from mpi4py import MPI
    best = float("inf")
    for batch in range(repeats + 1):
        comm.Barrier()
        start = time.perf_counter()
        for _ in range(calls):
            call()
        elapsed = comm.allreduce(time.perf_counter() - start, op=MPI.MAX)
        if batch > 0:   # the first batch warms up
            best = min(best, elapsed)
    return 1e6 * best / calls


def measure(comm, library, calls, repeats):
    """The records of one run: one per call, the same on every rank."""
    import mpi4py_fft
    import numpy
    from mpi4py import MPI
    served = mpi4py_fft.__name__ == "distfft.mpi4py_fft"
    if served != (library == "distfft"):
        raise SystemExit(f"python_calls: --library {library} but mpi4py_fft is {mpi4py_fft.__name__} "
                         "(distfft runs under `python -m distfft.mpi4py_fft`)")
    context = {"library": library, "library_version": getattr(mpi4py_fft, "__version__", None),
               "ranks": comm.Get_size(), "calls": calls, "repeats": repeats,
               "mpi": MPI.Get_library_version().splitlines()[0].strip("\x00 "),
               "python": platform.python_version(), "numpy": numpy.__version__}
    if library == "distfft":
        import distfft
        context["library_version"] = distfft.__version__
    records = []
    for name, call in setups(comm).items():
        records.append(dict(context, call=name, us_per_call=time_call(comm, call, calls, repeats)))
    return records


def run_measure(options):
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    for record in measure(comm, options.library, options.calls, options.repeats):
        if comm.Get_rank() == 0:
            print(json.dumps(record), flush=True)
    return 0

# ---- the driver: interleaved rounds of runs ----------------------------------------


def git_revision():
    try:
        revision = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                                  text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return revision + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return None


def command(options, library, ranks):
    """The command line of one run of `library` on `ranks` ranks."""
    measure_args = [os.path.abspath(__file__), "--measure", "--library", library,
                    "--calls", str(options.calls), "--repeats", str(options.repeats)]
    if library == "distfft":
        program = [options.python, "-m", "distfft.mpi4py_fft"] + measure_args
    else:
        program = [options.reference_python] + measure_args
    return [options.launcher, "-n", str(ranks)] + program


def run_driver(options):
    revision, host, status = git_revision(), platform.node(), 0
    for round_number in range(options.rounds):
        for ranks in options.ranks:
            order = LIBRARIES if round_number % 2 == 0 else LIBRARIES[::-1]
            for library in order:
                result = subprocess.run(command(options, library, ranks), capture_output=True,
                                        text=True, timeout=options.timeout,
                                        env=dict(os.environ, **MPI_ENVIRONMENT))
                lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
                if result.returncode != 0 or len(lines) != len(CALLS):
                    sys.stderr.write(f"python_calls: {library} on {ranks} rank(s) failed "
                                     f"(exit {result.returncode}):\n{result.stderr[-2000:]}\n")
                    status = 1
                    continue
                for line in lines:
                    record = dict(json.loads(line), benchmark="python_calls", round=round_number,
                                  git_revision=revision, host=host)
                    print(json.dumps(record), flush=True)
    return status


def add_launch_options(parser):
    """How runs are launched: the two Pythons, mpiexec, the time limit
    (taylor_green_steps.py takes them too)."""
    parser.add_argument("--python", default=os.path.join(ROOT, ".venv", "bin", "python"),
                        help="the Python with distfft installed")
    parser.add_argument("--reference-python", default="/usr/bin/python3",
                        help="the Python whose mpi4py_fft is the reference")
    parser.add_argument("--launcher", default="mpiexec.openmpi")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per run")


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=2000, help="calls per timed batch")
    parser.add_argument("--repeats", type=int, default=5, help="timed batches per run")
    add_launch_options(parser)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--library", choices=LIBRARIES, default="distfft", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if min(options.ranks) < 1 or options.rounds < 1 or options.calls < 1 or options.repeats < 1:
        parser.error("--ranks, --rounds, --calls and --repeats must be positive")
    return options


def main(argv):
    options = parse(argv)
    return run_measure(options) if options.measure else run_driver(options)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
