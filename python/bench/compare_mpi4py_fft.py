"""
compare_mpi4py_fft.py -- time distfft from Python against the same plan
called straight through ctypes (the C library's own cost, in-process) and
against mpi4py_fft.PFFT, side by side in one run.

Timing as in the paper (Sec. 4) and distfft-bench: a barrier, `inner`
forward+backward pairs, the maximum over ranks, the fastest of `outer`
repetitions, divided by `inner`. The three contenders take turns, in a
shuffled order, within every repetition, so machine noise hits them alike.

    mpiexec -n 2 python3 python/bench/compare_mpi4py_fft.py --shape 128x128x128 --kind c2c r2c
    mpiexec -n 2 python3 python/bench/compare_mpi4py_fft.py --shape 64x64x64 --kind c2c --outer 200

Columns: "distfft C" calls distfft_plan_forward/backward directly through
ctypes with prepared pointers (no Python checks); "distfft Python" is
plan.forward(u, u_hat) / plan.backward(u_hat, u); "mpi4py-fft" is
PFFT(comm, shape, axes=(0, 1, 2), dtype, grid=(-1,), collapse=True) (a
slab, FFTW backend) with forward(u, u_hat) / backward(u_hat, u).
"Python/C - 1" compares the first two: fastest against fastest ("best"),
and the median over repetitions of their ratio within one repetition
("median paired"); "Python work/pair" times, alone and without MPI, what
the Python methods do besides the C call (argument checks, pointers), and
"work/C" divides it by the C time.
"""
import argparse
import json
import sys
import timeit

import numpy
from mpi4py import MPI

import distfft
from distfft import _lib


def parse():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", default="128x128x128")
    parser.add_argument("--kind", nargs="+", default=["c2c", "r2c"], choices=["c2c", "r2c"])
    parser.add_argument("--precision", default="double", choices=["double", "float"])
    parser.add_argument("--method", default="alltoallw",
                        help="distfft redistribution method (mpi4py-fft uses Alltoallw)")
    parser.add_argument("--inner", type=int, default=3)
    parser.add_argument("--outer", type=int, default=50)
    parser.add_argument("--no-mpi4py-fft", action="store_true")
    parser.add_argument("--json", action="store_true", help="one JSON line per kind")
    return parser.parse_args()


def timed(comm, inner, pair):
    """Seconds per forward+backward pair of one repetition, max over ranks."""
    comm.Barrier()
    start = MPI.Wtime()
    for _ in range(inner):
        pair()
    elapsed = (MPI.Wtime() - start) / inner
    return comm.allreduce(elapsed, op=MPI.MAX)


def contenders(comm, shape, dtype, method, with_mpi4py_fft):
    """name -> (pair function, forward output for the check)."""
    plan = distfft.Plan(comm, shape, dtype=dtype, grid="slab", method=method)
    u = plan.input_array()
    u[...] = numpy.random.default_rng(comm.Get_rank()).standard_normal(u.shape)
    u_hat = plan.output_array()

    def python_pair():
        plan.forward(u, u_hat)
        plan.backward(u_hat, u)

    forward, backward = _lib.lib.distfft_plan_forward, _lib.lib.distfft_plan_backward
    # The same arrays as the Python path: where the data sits in memory
    # changes the time by a few percent, which is not Python's doing.
    handle = plan._handle
    c_u, c_hat = u.ctypes.data, u_hat.ctypes.data

    def c_pair():
        forward(handle, c_u, c_hat)
        backward(handle, c_hat, c_u)

    _lib.check(forward(handle, c_u, c_hat))    # the pointers are right
    _lib.check(backward(handle, c_hat, c_u))

    def python_work():
        """What plan.forward/backward do besides the C call (local)."""
        for a, b, forward in ((u, u_hat, True), (u_hat, u, False)):
            plan._require_live()
            plan._prepare(a, b, forward)   # checks, and the data pointers

    plan.python_work = python_work
    result = {"distfft C": c_pair, "distfft Python": python_pair}
    checks = {"distfft Python": lambda: plan.forward(u).gather(root=0)}
    if with_mpi4py_fft:
        from mpi4py_fft import PFFT, newDistArray
        pfft = PFFT(comm, shape, axes=tuple(range(len(shape))), dtype=dtype, grid=(-1,),
                    collapse=True)
        pu = newDistArray(pfft, False)
        pu_hat = newDistArray(pfft, True)
        pu[...] = u

        def mpi4py_fft_pair():
            pfft.forward(pu, pu_hat)
            pfft.backward(pu_hat, pu)

        def mpi4py_fft_output():
            # Its collapsed slab output is split along the last axis, ours
            # along axis 1: compare the gathered global arrays.
            block = pfft.forward(pu, pu_hat, normalize=False)
            theirs = distfft.DistArray(plan.global_output_shape, pfft.local_slice(True),
                                       plan.output_dtype, comm)
            theirs[...] = block
            return theirs.gather(root=0)

        result["mpi4py-fft"] = mpi4py_fft_pair
        checks["mpi4py-fft"] = mpi4py_fft_output
    return plan, result, checks


def run_kind(comm, args, shape, kind):
    real = kind == "r2c"
    dtype = {("double", False): numpy.complex128, ("double", True): numpy.float64,
             ("float", False): numpy.complex64, ("float", True): numpy.float32}[
        (args.precision, real)]
    plan, pairs, checks = contenders(comm, shape, dtype, args.method, not args.no_mpi4py_fft)

    # Same transform? (both unnormalised forward of the same data)
    outputs = {name: check() for name, check in checks.items()}
    difference = None
    if "mpi4py-fft" in outputs and comm.Get_rank() == 0:
        ours = outputs["distfft Python"]
        difference = float(numpy.max(numpy.abs(outputs["mpi4py-fft"] - ours)) /
                           numpy.max(numpy.abs(ours)))

    for pair in pairs.values():   # warm-up
        pair()
    samples = {name: [] for name in pairs}
    order = list(pairs)
    shuffle = numpy.random.default_rng(7)   # the same order on every rank
    for _ in range(args.outer):
        shuffle.shuffle(order)              # no contender always runs first
        for name in order:
            samples[name].append(timed(comm, args.inner, pairs[name]))
    best = {name: min(times) for name, times in samples.items()}
    # Each repetition times the contenders back to back, so their ratio
    # within a repetition sees the same machine state: its median is a
    # second estimate of the Python overhead, robust to a noisy machine.
    paired = float(numpy.median(numpy.array(samples["distfft Python"]) /
                                numpy.array(samples["distfft C"]))) - 1
    description = plan.describe()
    # Many short timings, the fastest kept: a busy machine interrupts some.
    python_work = min(timeit.repeat(plan.python_work, number=100, repeat=300)) / 100
    python_work = comm.allreduce(python_work, op=MPI.MAX)
    plan.destroy()
    return {"shape": "x".join(map(str, shape)), "kind": kind, "precision": args.precision,
            "ranks": comm.Get_size(), "method": args.method, "inner": args.inner,
            "outer": args.outer, "seconds_per_pair": best,
            "python_work_seconds_per_pair": python_work,
            "python_over_c_median_paired": paired,
            "relative_difference_vs_mpi4py_fft": difference, "plan": description}


def main():
    args = parse()
    comm = MPI.COMM_WORLD
    shape = tuple(int(n) for n in args.shape.split("x"))
    rows = [run_kind(comm, args, shape, kind) for kind in args.kind]
    if comm.Get_rank() != 0:
        return
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return
    print(f"{comm.Get_size()} ranks, {args.precision}, slab, method {args.method}, "
          f"best of {args.outer} x {args.inner} forward+backward pairs (max over ranks)")
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
    sys.stdout.flush()


if __name__ == "__main__":
    main()
