"""mpi4py_fft_bench.py -- distfft against mpi4py-fft: the campaign's
mpi4py-fft peer, and (--with-distfft) distfft from Python and from C beside
mpi4py-fft in one process.

    mpiexec -n 2 /usr/bin/python3 benchmarks/peers/mpi4py_fft_bench.py \\
        --shape 128x128x128 --kind r2c --mode slab --json
    mpiexec -n 2 .venv/bin/python benchmarks/peers/mpi4py_fft_bench.py \\
        --with-distfft --shape 64x64x64 --kind c2c r2c --outer 100

Timing, in both modes, is distfft-bench's (the paper's Sec. 4): `outer`
repetitions of MPI_Barrier + `inner` forward+backward pairs, the elapsed
time max over ranks; the fastest repetition / inner is reported.

Peer mode (the default; benchmarks/campaign.py runs it) times mpi4py-fft's
PFFT alone (Debian's python3-mpi4py-fft, FFTW backend) with the median
beside the fastest. Modes: slab = grid (-1,) with collapse=True (one
distributed axis, the other axes in one FFTW call: mpi4py-fft's fastest
mode on few ranks); pencil = mpi4py-fft's default grid (MPI_Dims_create
over all but the last axis) with one serial FFT per axis -- on a prime rank
count that grid is a slab too. Used the way that costs least: the plan's
own arrays (passing arrays to forward/backward copies them),
normalize=False on both directions, and one scaling by 1/N of the backward
output -- the same work as distfft's default norm "backward" and
fftw-mpi-bench. One untimed pair is checked first: max|backward(forward(x))
/N - x| / max|x| must be within 8 eps log2 N (exit status 1 otherwise). The
JSON line has distfft-bench --json's field names; fft_seconds and
redistribute_seconds are null (mpi4py-fft has no timers).

--with-distfft (needs the distfft Python package) times, on the same ranks
and data, taking turns in a shuffled order within every repetition so
machine noise hits them alike: "distfft C", distfft_plan_execute
called straight through ctypes with prepared pointers (no Python checks);
"distfft Python", plan.forward(u, u_hat) / plan.backward(u_hat, u); and
"mpi4py-fft", PFFT(comm, shape, axes=all, dtype, grid=(-1,), collapse=True)
with forward(u, u_hat) / backward(u_hat, u), as a user calls it (slab
only; distfft uses a slab and --method, alltoallw by default, so both make
the same exchange). "Python/C - 1" compares the first two: fastest against
fastest ("best"), and the median over repetitions of their ratio within
one repetition ("median paired"); "Python work/pair" times, alone and
without MPI, what the Python methods do besides the C call (argument
checks, pointers), and "work/C" divides it by the C time. It also gives
the largest relative difference between distfft's and mpi4py-fft's spectra.
"""
import argparse
import json
import math
import sys
import timeit

import numpy as np
from mpi4py import MPI

RIGOR = {"estimate": "FFTW_ESTIMATE", "measure": "FFTW_MEASURE",
         "patient": "FFTW_PATIENT", "exhaustive": "FFTW_EXHAUSTIVE"}


def parse_shape(text):
    try:
        shape = [int(part) for part in text.split("x")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad shape '{text}'")
    if len(shape) < 2 or min(shape) < 1:
        raise argparse.ArgumentTypeError(f"bad shape '{text}'")
    return shape


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be positive: {text}")
    return value


def parse_options(argv):
    parser = argparse.ArgumentParser(
        description="Time forward+backward pairs of mpi4py-fft as "
                    "distfft-bench does (--with-distfft: beside distfft).")
    parser.add_argument("--shape", type=parse_shape, default=[64, 64, 64],
                        help="global shape N0xN1[x...] (default 64x64x64)")
    parser.add_argument("--kind", nargs="+", choices=["c2c", "r2c"], default=["c2c"],
                        help="one or more kinds, each timed in turn (default c2c)")
    parser.add_argument("--precision", choices=["double", "float"],
                        default="double")
    parser.add_argument("--mode", choices=["slab", "pencil"], default="slab")
    parser.add_argument("--rigor", choices=list(RIGOR), default="measure")
    parser.add_argument("--inner", type=positive, default=3)
    parser.add_argument("--outer", type=positive, default=50)
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per kind, one per line")
    side = parser.add_argument_group("side by side with distfft")
    side.add_argument("--with-distfft", action="store_true",
                      help="time distfft (C via ctypes, and Python) beside mpi4py-fft")
    side.add_argument("--method", default="alltoallw",
                      help="distfft redistribution method (mpi4py-fft uses Alltoallw)")
    side.add_argument("--no-mpi4py-fft", action="store_true",
                      help="only distfft C against distfft Python")
    options = parser.parse_args(argv)
    if options.with_distfft and options.mode != "slab":
        parser.error("--with-distfft compares slabs: --mode slab")
    return options


def real_dtype(precision):
    return np.float32 if precision == "float" else np.float64


def input_dtype(kind, precision):
    if kind == "r2c":
        return real_dtype(precision)
    return np.complex64 if precision == "float" else np.complex128


def timed(comm, inner, pair):
    """Seconds per forward+backward pair of one repetition, max over ranks."""
    comm.Barrier()
    start = MPI.Wtime()
    for _ in range(inner):
        pair()
    elapsed = (MPI.Wtime() - start) / inner
    return comm.allreduce(elapsed, op=MPI.MAX)


def make_pfft(comm, shape, dtype, mode, rigor):
    """mpi4py-fft's plan: slab (grid (-1,), collapsed) or its default pencil."""
    from mpi4py_fft import PFFT
    slab = mode == "slab"
    return PFFT(comm, shape, axes=tuple(range(len(shape))), dtype=dtype,
                grid=(-1,) if slab else None, collapse=slab,
                planner_effort=RIGOR[rigor])


# ---- peer mode: mpi4py-fft alone, the cheapest way ---------------------------

def mix64(values):
    """splitmix64's finaliser on uint64 arrays (wrapping arithmetic)."""
    with np.errstate(over="ignore"):
        values = values + np.uint64(0x9e3779b97f4a7c15)
        values = (values ^ (values >> np.uint64(30))) * np.uint64(0xbf58476d1ce4e5b9)
        values = (values ^ (values >> np.uint64(27))) * np.uint64(0x94d049bb133111eb)
        return values ^ (values >> np.uint64(31))


def fill_input(fft, shape, kind, array):
    """Deterministic values in [-1, 1) from each element's global index."""
    local = fft.local_slice(False)
    index = np.zeros(array.shape, dtype=np.uint64)
    stride = 1
    for axis in reversed(range(len(shape))):
        positions = np.arange(local[axis].start, local[axis].stop, dtype=np.uint64)
        view = [1] * len(shape)
        view[axis] = -1
        index = index + positions.reshape(view) * np.uint64(stride)
        stride *= shape[axis]

    def unit(bits):
        return (bits >> np.uint64(11)).astype(np.float64) * 2.0 ** -52 - 1.0

    if kind == "c2c":
        array[...] = unit(mix64(2 * index)) + 1j * unit(mix64(2 * index + np.uint64(1)))
    else:
        array[...] = unit(mix64(2 * index))


def relative_error(comm, result, reference):
    """max |result - reference| / max |reference| over all ranks."""
    local = np.array([np.max(np.abs(result - reference), initial=0.0),
                      np.max(np.abs(reference), initial=0.0)], dtype=np.float64)
    largest = np.empty(2)
    comm.Allreduce(local, largest, op=MPI.MAX)
    error = float(largest[0] / largest[1] if largest[1] > 0 else largest[0])
    return error if math.isfinite(error) else float("inf")


def run_peer(comm, options, kind):
    """Check one round trip, time the pairs; the JSON record (rank 0: full)."""
    import mpi4py_fft
    shape, elements = options.shape, math.prod(options.shape)
    fft = make_pfft(comm, shape, input_dtype(kind, options.precision),
                    options.mode, options.rigor)
    # The plan's own arrays: forward reads `physical`, writes `spectral`;
    # backward reads `spectral`, writes `physical`.
    physical, spectral = fft.forward.input_array, fft.forward.output_array
    assert fft.backward.input_array is spectral
    assert fft.backward.output_array is physical
    scale = 1.0 / elements

    def pair():
        fft.forward(normalize=False)
        fft.backward(normalize=False)
        physical[...] *= scale

    fill_input(fft, shape, kind, physical)
    reference = physical.copy()
    pair()
    error = relative_error(comm, physical, reference)
    epsilon = np.finfo(real_dtype(options.precision)).eps
    tolerance = 8.0 * float(epsilon) * math.log2(max(elements, 2))
    seconds = [timed(comm, options.inner, pair) for _ in range(options.outer)]
    work_bytes = comm.allreduce(
        sum(array.nbytes for array in {id(a): a for stage in fft.xfftn
            for a in (stage.forward.input_array, stage.forward.output_array)}.values()),
        op=MPI.MAX)
    fastest = min(seconds)
    record = {
        "program": "mpi4py-fft-bench", "mpi4py_fft_version": mpi4py_fft.__version__,
        "shape": shape, "ranks": comm.Get_size(),
        "grid": [sub.Get_size() for sub in fft.subcomm],
        "precision": options.precision, "kind": kind,
        "method": "mpi4py-fft", "mode": options.mode,
        "collapse": options.mode == "slab", "rigor": options.rigor, "norm": "backward",
        "inner": options.inner, "outer": options.outer,
        "pair_seconds": fastest, "pair_seconds_median": float(np.median(seconds)),
        "fft_seconds": None, "redistribute_seconds": None,
        "gflops": 2 * 5 * elements * math.log2(max(elements, 2)) / fastest * 1e-9,
        "work_bytes": int(work_bytes),
        "roundtrip_error": error if math.isfinite(error) else None,
        "tolerance": tolerance, "check_passed": bool(error <= tolerance),
        "mpi_library": MPI.Get_library_version().splitlines()[0].strip(),
        "plan": " -> ".join(f"fft axes={axes}" for axes in fft.axes),
    }
    fft.destroy()
    return record


def report_peer(records, as_json):
    for record in records:
        if as_json:
            print(json.dumps(record), flush=True)
        else:
            for key, value in record.items():
                print(f"{key:22}: {value}")
        if not record["check_passed"]:
            print(f"mpi4py_fft_bench.py: {record['kind']} round-trip error "
                  f"{record['roundtrip_error']} exceeds {record['tolerance']:.3e}",
                  file=sys.stderr)


# ---- --with-distfft: distfft C, distfft Python and mpi4py-fft, in turns -----

def distfft_contenders(comm, options, dtype):
    """The plan, and name -> pair function for distfft from C and Python."""
    import distfft
    from distfft import _lib
    plan = distfft.Plan(comm, options.shape, dtype=dtype, grid=options.mode,
                        method=options.method, rigor=options.rigor)
    u = plan.input_array()
    u[...] = np.random.default_rng(comm.Get_rank()).standard_normal(u.shape)
    u_hat = plan.output_array()

    def python_pair():
        plan.forward(u, u_hat)
        plan.backward(u_hat, u)

    execute = _lib.lib.distfft_plan_execute
    # The same arrays as the Python path: where the data sits in memory
    # changes the time by a few percent, which is not Python's doing.
    handle, c_u, c_hat = plan._handle, u.ctypes.data, u_hat.ctypes.data

    def c_pair():
        execute(handle, c_u, c_hat, _lib.FORWARD)
        execute(handle, c_hat, c_u, _lib.BACKWARD)

    _lib.check(execute(handle, c_u, c_hat, _lib.FORWARD))    # the pointers are right
    _lib.check(execute(handle, c_hat, c_u, _lib.BACKWARD))

    def python_work():
        """What plan.forward/backward do besides the C call (local)."""
        for a, b, is_forward in ((u, u_hat, True), (u_hat, u, False)):
            plan._require_live()
            plan._prepare(a, b, is_forward)   # checks, and the data pointers

    plan.python_work = python_work
    plan.bench_input = u
    return plan, {"distfft C": c_pair, "distfft Python": python_pair}


def mpi4py_fft_contender(comm, options, dtype, plan):
    """mpi4py-fft's pair on distfft's input, and its spectrum gathered."""
    import distfft
    from mpi4py_fft import newDistArray
    pfft = make_pfft(comm, options.shape, dtype, "slab", options.rigor)
    pu, pu_hat = newDistArray(pfft, False), newDistArray(pfft, True)
    pu[...] = plan.bench_input

    def pair():
        pfft.forward(pu, pu_hat)
        pfft.backward(pu_hat, pu)

    def output():
        # Its collapsed slab output is split along the last axis, ours
        # along axis 1: compare the gathered global arrays.
        block = pfft.forward(pu, pu_hat, normalize=False)
        theirs = distfft.DistArray(plan.global_output_shape, pfft.local_slice(True),
                                   plan.output_dtype, comm)
        theirs[...] = block
        return theirs.gather(root=0)

    return pair, output


def spectra_difference(comm, plan, mpi4py_fft_output):
    """Largest relative difference of the unnormalised forward outputs
    (rank 0; None elsewhere)."""
    ours = plan.forward(plan.bench_input).gather(root=0)
    theirs = mpi4py_fft_output()
    if comm.Get_rank() != 0:
        return None
    return float(np.max(np.abs(theirs - ours)) / np.max(np.abs(ours)))


def run_side_by_side(comm, options, kind):
    dtype = input_dtype(kind, options.precision)
    plan, pairs = distfft_contenders(comm, options, dtype)
    difference = None
    if not options.no_mpi4py_fft:
        pairs["mpi4py-fft"], output = mpi4py_fft_contender(comm, options, dtype, plan)
        difference = spectra_difference(comm, plan, output)
    for pair in pairs.values():   # warm-up
        pair()
    samples = {name: [] for name in pairs}
    order = list(pairs)
    shuffle = np.random.default_rng(7)   # the same order on every rank
    for _ in range(options.outer):
        shuffle.shuffle(order)           # no contender always runs first
        for name in order:
            samples[name].append(timed(comm, options.inner, pairs[name]))
    # Each repetition times the contenders back to back, so their ratio
    # within a repetition sees the same machine state: its median is a
    # second estimate of the Python overhead, robust to a noisy machine.
    paired = float(np.median(np.array(samples["distfft Python"]) /
                             np.array(samples["distfft C"]))) - 1
    description = plan.describe()
    # Many short timings, the fastest kept: a busy machine interrupts some.
    python_work = min(timeit.repeat(plan.python_work, number=100, repeat=300)) / 100
    python_work = comm.allreduce(python_work, op=MPI.MAX)
    plan.destroy()
    return {"shape": "x".join(map(str, options.shape)), "kind": kind,
            "precision": options.precision, "ranks": comm.Get_size(),
            "method": options.method, "inner": options.inner, "outer": options.outer,
            "seconds_per_pair": {name: min(times) for name, times in samples.items()},
            "python_work_seconds_per_pair": python_work,
            "python_over_c_median_paired": paired,
            "relative_difference_vs_mpi4py_fft": difference, "plan": description}


def report_side_by_side(comm, options, rows):
    if options.json:
        for row in rows:
            print(json.dumps(row))
        return
    print(f"{comm.Get_size()} ranks, {options.precision}, slab, method {options.method}, "
          f"best of {options.outer} x {options.inner} forward+backward pairs (max over ranks)")
    names = list(rows[0]["seconds_per_pair"])
    header = ["shape", "kind"] + [f"{n} (ms)" for n in names] + [
        "Python/C - 1 (best)", "(median paired)", "Python work/pair (µs)", "work/C"]
    if "mpi4py-fft" in names:
        header.append("mpi4py-fft/distfft")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        t = row["seconds_per_pair"]
        cells = [row["shape"], row["kind"]] + [f"{1e3 * t[n]:.3f}" for n in names]
        cells.append(f"{100 * (t['distfft Python'] / t['distfft C'] - 1):+.2f}%")
        cells.append(f"{100 * row['python_over_c_median_paired']:+.2f}%")
        work = row["python_work_seconds_per_pair"]
        cells += [f"{1e6 * work:.1f}", f"{100 * work / t['distfft C']:.2f}%"]
        if "mpi4py-fft" in t:
            cells.append(f"{t['mpi4py-fft'] / t['distfft Python']:.2f}")
        print("| " + " | ".join(cells) + " |")
    for row in rows:
        if row["relative_difference_vs_mpi4py_fft"] is not None:
            print(f"{row['kind']}: max relative difference distfft vs mpi4py-fft "
                  f"{row['relative_difference_vs_mpi4py_fft']:.1e}")


def main(argv):
    options = parse_options(argv)
    comm = MPI.COMM_WORLD
    run = run_side_by_side if options.with_distfft else run_peer
    results = [run(comm, options, kind) for kind in options.kind]
    if comm.Get_rank() == 0:
        if options.with_distfft:
            report_side_by_side(comm, options, results)
        else:
            report_peer(results, options.json)
        sys.stdout.flush()
    if options.with_distfft:
        return 0
    return 0 if all(record["check_passed"] for record in results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
