"""mpi4py_fft_bench.py -- the mpi4py-fft peer of distfft-bench.

    mpiexec -n 2 /usr/bin/python3 benchmarks/peers/mpi4py_fft_bench.py \\
        --shape 128x128x128 --kind r2c --mode slab --json

Times mpi4py-fft's PFFT (Debian's python3-mpi4py-fft, FFTW backend) the way
distfft-bench times distfft: `outer` repetitions of MPI_Barrier + `inner`
forward+backward pairs, the elapsed time max over ranks, the fastest
repetition / inner reported with the median beside it.

Modes: slab = grid (-1,) with collapse=True (one distributed axis, the other
axes in one FFTW call: mpi4py-fft's fastest mode on few ranks); pencil =
mpi4py-fft's default grid (MPI_Dims_create over all but the last axis) with
one serial FFT per axis -- on a prime rank count that grid is a slab too.

Used the way that costs least: the plan's own arrays (passing arrays to
forward/backward copies them), normalize=False on both directions, and one
scaling by 1/N of the backward output -- the same work as distfft's default
norm "backward" and fftw-mpi-bench. One untimed pair is checked first:
max|backward(forward(x))/N - x| / max|x| must be within 8 eps log2 N (exit
status 1 otherwise). The JSON line has distfft-bench --json's field names;
fft_seconds and redistribute_seconds are null (mpi4py-fft has no timers).
"""
import argparse
import json
import math
import sys

import numpy as np
from mpi4py import MPI
from mpi4py_fft import PFFT
import mpi4py_fft

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
                    "distfft-bench does.")
    parser.add_argument("--shape", type=parse_shape, default=[64, 64, 64],
                        help="global shape N0xN1[x...] (default 64x64x64)")
    parser.add_argument("--kind", choices=["c2c", "r2c"], default="c2c")
    parser.add_argument("--precision", choices=["double", "float"],
                        default="double")
    parser.add_argument("--mode", choices=["slab", "pencil"], default="slab")
    parser.add_argument("--rigor", choices=list(RIGOR), default="measure")
    parser.add_argument("--inner", type=positive, default=3)
    parser.add_argument("--outer", type=positive, default=50)
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object on one line")
    return parser.parse_args(argv)


def real_dtype(options):
    return np.float32 if options.precision == "float" else np.float64


def mix64(values):
    """splitmix64's finaliser on uint64 arrays (wrapping arithmetic)."""
    with np.errstate(over="ignore"):
        values = values + np.uint64(0x9e3779b97f4a7c15)
        values = (values ^ (values >> np.uint64(30))) * np.uint64(0xbf58476d1ce4e5b9)
        values = (values ^ (values >> np.uint64(27))) * np.uint64(0x94d049bb133111eb)
        return values ^ (values >> np.uint64(31))


def fill_input(fft, options, array):
    """Deterministic values in [-1, 1) from each element's global index."""
    local = fft.local_slice(False)
    shape = options.shape
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

    if options.kind == "c2c":
        array[...] = unit(mix64(2 * index)) + 1j * unit(mix64(2 * index + np.uint64(1)))
    else:
        array[...] = unit(mix64(2 * index))


def main(argv):
    options = parse_options(argv)
    comm = MPI.COMM_WORLD
    elements = math.prod(options.shape)
    dtype = real_dtype(options)
    if options.kind == "c2c":
        dtype = np.complex64 if options.precision == "float" else np.complex128
    slab = options.mode == "slab"
    fft = PFFT(comm, options.shape, dtype=dtype,
               grid=(-1,) if slab else None, collapse=slab,
               planner_effort=RIGOR[options.rigor])
    # The plan's own arrays: forward reads `physical`, writes `spectral`;
    # backward reads `spectral`, writes `physical`.
    physical = fft.forward.input_array
    spectral = fft.forward.output_array
    assert fft.backward.input_array is spectral
    assert fft.backward.output_array is physical
    scale = 1.0 / elements

    def pair():
        fft.forward(normalize=False)
        fft.backward(normalize=False)
        physical[...] *= scale

    fill_input(fft, options, physical)
    reference = physical.copy()
    pair()
    local = np.array([np.max(np.abs(physical - reference), initial=0.0),
                      np.max(np.abs(reference), initial=0.0)], dtype=np.float64)
    largest = np.empty(2)
    comm.Allreduce(local, largest, op=MPI.MAX)
    error = float(largest[0] / largest[1] if largest[1] > 0 else largest[0])
    if not math.isfinite(error):
        error = float("inf")
    epsilon = np.finfo(real_dtype(options)).eps
    tolerance = 8.0 * float(epsilon) * math.log2(max(elements, 2))

    seconds = []
    for _ in range(options.outer):
        comm.Barrier()
        start = MPI.Wtime()
        for _ in range(options.inner):
            pair()
        elapsed = MPI.Wtime() - start
        seconds.append(comm.allreduce(elapsed, op=MPI.MAX) / options.inner)

    work_bytes = comm.allreduce(
        sum(array.nbytes for array in {id(a): a for stage in fft.xfftn
            for a in (stage.forward.input_array, stage.forward.output_array)}.values()),
        op=MPI.MAX)
    passed = bool(error <= tolerance)
    if comm.Get_rank() == 0:
        fastest = min(seconds)
        record = {
            "program": "mpi4py-fft-bench",
            "mpi4py_fft_version": mpi4py_fft.__version__,
            "shape": options.shape, "ranks": comm.Get_size(),
            "grid": [sub.Get_size() for sub in fft.subcomm],
            "precision": options.precision, "kind": options.kind,
            "method": "mpi4py-fft", "mode": options.mode,
            "collapse": slab, "rigor": options.rigor, "norm": "backward",
            "inner": options.inner, "outer": options.outer,
            "pair_seconds": fastest,
            "pair_seconds_median": float(np.median(seconds)),
            "fft_seconds": None, "redistribute_seconds": None,
            "gflops": 2 * 5 * elements * math.log2(max(elements, 2)) / fastest * 1e-9,
            "work_bytes": int(work_bytes),
            "roundtrip_error": error if math.isfinite(error) else None,
            "tolerance": tolerance, "check_passed": passed,
            "mpi_library": MPI.Get_library_version().splitlines()[0].strip(),
            "plan": " -> ".join(f"fft axes={axes}" for axes in fft.axes),
        }
        if options.json:
            print(json.dumps(record), flush=True)
        else:
            for key, value in record.items():
                print(f"{key:22}: {value}")
        if not passed:
            print(f"mpi4py_fft_bench.py: round-trip error {error:.3e} exceeds "
                  f"{tolerance:.3e}", file=sys.stderr)
    fft.destroy()
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
