#!/usr/bin/env python3
"""bricks_vs_heffte.py -- a brick-in / brick-out c2c transform, distfft
against heFFTe on the same boxes (issue 22).

Every rank owns one brick of a 3-D grid of ranks (MPI_Dims_create: 2x2x2 on
8); both libraries take the bricks in and return the spectrum in the same
bricks. distfft's side is build/bin/distfft-bricks-bench (plans in the
caller's layouts); heFFTe's is benchmarks/peers/heffte_bricks.cpp, built
here against a heFFTe source checkout (FFTW backend), as the scale campaign
builds its peers from checkouts it is pointed at. Without a checkout the
heFFTe side is skipped with a message and distfft's line is still printed.

    benchmarks/bricks_vs_heffte.py --ranks 8 --shape 64x64x64 \\
        [--heffte-src PATH | env HEFFTE_SRC] [--work DIR] [--repeats 10]

Prints each library's JSON line (best forward+backward pair, each the
slowest rank's time; plan time; round-trip error) and, with both, the
ratio heffte/distfft. Exit status 0 when every run that ran succeeded.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(command, **kwargs):
    print("$", " ".join(command), flush=True)
    return subprocess.run(command, check=True, **kwargs)


def mpiexec(args, ranks, program):
    return [args.mpiexec, "-n", str(ranks), "--oversubscribe"] + program


def build_heffte(source, work, mpicxx):
    """Configure, build and install heFFTe (FFTW backend) under work/, then
    compile the peer against it; returns the program's path."""
    build, prefix = os.path.join(work, "heffte-build"), os.path.join(work, "heffte-install")
    program = os.path.join(work, "heffte-bricks-bench")
    if not os.path.exists(os.path.join(prefix, "include", "heffte.h")):
        run(["cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release", "-DHeffte_ENABLE_FFTW=ON",
             "-DBUILD_SHARED_LIBS=ON", f"-DCMAKE_INSTALL_PREFIX={prefix}", f"-DCMAKE_CXX_COMPILER={mpicxx}"])
        run(["cmake", "--build", build, "--parallel", "2"])
        run(["cmake", "--install", build])
    libdir = next(d for d in (os.path.join(prefix, "lib"), os.path.join(prefix, "lib64")) if os.path.isdir(d))
    run([mpicxx, "-O2", "-std=c++14", os.path.join(ROOT, "benchmarks", "peers", "heffte_bricks.cpp"),
         "-I", os.path.join(prefix, "include"), "-L", libdir, f"-Wl,-rpath,{libdir}", "-lheffte",
         "-lfftw3", "-lfftw3f", "-o", program])
    return program


def measure(args, program, shape):
    result = run(mpiexec(args, args.ranks, [program] + [str(n) for n in shape] + [str(args.repeats)]),
                 stdout=subprocess.PIPE, text=True)
    line = [ln for ln in result.stdout.splitlines() if ln.startswith("{")][-1]
    print(line, flush=True)
    return json.loads(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, default=8)
    parser.add_argument("--shape", default="64x64x64")
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--heffte-src", default=os.environ.get("HEFFTE_SRC"))
    parser.add_argument("--work", default=os.path.join(ROOT, "build", "heffte-peer"))
    parser.add_argument("--distfft-bench", default=os.path.join(ROOT, "build", "bin", "distfft-bricks-bench"))
    parser.add_argument("--mpiexec", default="mpiexec.openmpi")
    parser.add_argument("--mpicxx", default="mpicxx.openmpi")
    args = parser.parse_args()
    shape = [int(n) for n in args.shape.lower().split("x")]
    if len(shape) != 3:
        parser.error("--shape needs three extents, e.g. 64x64x64")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")

    ours = measure(args, args.distfft_bench, shape)
    if not args.heffte_src or not os.path.exists(os.path.join(args.heffte_src, "include", "heffte.h")):
        print(f"bricks_vs_heffte: heFFTe skipped: no heFFTe source checkout (give --heffte-src PATH or set "
              f"HEFFTE_SRC; got {args.heffte_src!r})", flush=True)
        return 0
    os.makedirs(args.work, exist_ok=True)
    theirs = measure(args, build_heffte(os.path.abspath(args.heffte_src), args.work, args.mpicxx), shape)
    print(json.dumps({"comparison": "bricks", "shape": shape, "ranks": args.ranks,
                      "distfft_pair_seconds": ours["pair_seconds"], "heffte_pair_seconds": theirs["pair_seconds"],
                      "heffte_over_distfft": theirs["pair_seconds"] / ours["pair_seconds"]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
