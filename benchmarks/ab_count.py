#!/usr/bin/env python3
"""Instructions, not seconds: an A/B of two builds of distfft-bench that a
noisy host cannot blur.

Each case runs under valgrind's callgrind (one process per rank) twice per
build: with 1 timed repetition and with 1 + PAIRS, each repetition one
forward+backward pair (--inner 1). Callgrind counts the instructions each
shared object executes itself (exclusive Ir). The counts of distfft's own
library and of FFTW are deterministic where the work is: a fixed method
(no tuning), FFTW `estimate` (its plans do not depend on timings), one
thread per rank. MPI's are not -- a rank waiting for another spins in
libmpi / libopen-pal, as many times as the host's scheduling makes it --
so MPI's objects and the C library (memcpy, which MPI calls too) are
reported apart and left out of the verdict.

    per pair  = (Ir(1 + PAIRS) - Ir(1)) / PAIRS     the transforms
    setup     = Ir(1)                                MPI_Init, the plan, one pair

Usage:
    benchmarks/ab_count.py --base BUILD_A --new BUILD_B [--cases 64:c2c:2,128:r2c:1,...]
                           [--pairs 4] [--raw FILE.jsonl]
A case is SIZE:KIND:RANKS[:METHOD] (a cube, pencil grid, method alltoallw
unless named: alltoallv, say, whose pack and unpack are distfft's copies).
Prints a Markdown table: per pair and setup, distfft's library and FFTW,
B/A. Needs valgrind (Debian's `valgrind` package).
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import systems  # noqa: E402  (the project's MPI environment for a launch)

GROUPS = (("distfft", re.compile(r"libdistfft|distfft-bench")),
          ("fftw", re.compile(r"libfftw3")),
          ("mpi", re.compile(r"libmpi|libopen-|mca_|libpmix|libhwloc|libevent|libucs|libuct|libucp")),
          ("libc", re.compile(r"libc[.-]|ld-linux|libm[.-]|libgomp|libpthread")))


def group_of(name):
    for group, pattern in GROUPS:
        if pattern.search(name):
            return group
    return "other"


def exclusive_by_object(path):
    """Exclusive Ir per shared object from a callgrind output file."""
    objects, counts = {}, collections.Counter()
    current, skip_next = None, False
    for line in open(path, errors="replace"):
        if skip_next:  # the inclusive cost of a call: not this function's own
            skip_next = False
            continue
        if line.startswith(("ob=", "cob=")):  # a name is given once, where its id first appears
            match = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.strip())
            if match and match.group(2):
                objects[match.group(1)] = match.group(2)
            if match and line.startswith("ob="):
                current = objects.get(match.group(1), "?")
            continue
        if line.startswith("calls="):
            skip_next = True
            continue
        if line[:1].isdigit() or line[:1] in "+-*":
            fields = line.split()
            if len(fields) >= 2 and current is not None:
                counts[current] += int(fields[1])
    return counts


def run_case(build, size, kind, ranks, method, outer, workdir):
    """Exclusive Ir per group, summed over ranks, for one run."""
    bench = os.path.join(build, "bin", "distfft-bench")
    out = os.path.join(workdir, "callgrind.%p")
    command = ["mpiexec.openmpi", "-n", str(ranks), "valgrind", "--tool=callgrind", "--quiet", f"--callgrind-out-file={out}", bench,
        "--shape", f"{size}x{size}x{size}", "--kind", kind, "--grid", "pencil" if ranks > 1 else "auto",
        "--method", method, "--rigor", "estimate", "--threads", "1", "--inner", "1",
        "--outer", str(outer)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, **systems.MPI_ENVIRONMENT))
    totals = collections.Counter()
    for name in os.listdir(workdir):
        if name.startswith("callgrind."):
            path = os.path.join(workdir, name)
            for obj, count in exclusive_by_object(path).items():
                totals[group_of(obj)] += count
            os.remove(path)
    return totals


def print_row(case, result):
    """One table row from both builds' setup and per-pair counts."""
    size, kind, ranks, *method = case.split(":")
    method = f" {method[0]}" if method else ""

    def ratio(part, group):
        a, b = result["A"][part].get(group, 0), result["B"][part].get(group, 0)
        return f"{b / a:.4f}" if a else "-"

    noisy = [sum(result[x]["pair"].get(g, 0) for g in ("mpi", "libc")) for x in ("A", "B")]
    print(f"| {size}^3 {kind} {ranks} rank(s){method} | {ratio('pair', 'distfft')} | {ratio('pair', 'fftw')} "
          f"| {ratio('setup', 'distfft')} | {ratio('setup', 'fftw')} "
          f"| {result['A']['pair'].get('distfft', 0):.3g}, {result['B']['pair'].get('distfft', 0):.3g} "
          f"| {noisy[1] / noisy[0]:.3f} |" if noisy[0] else "| - |", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="build directory A (bin/distfft-bench)")
    parser.add_argument("--new", required=True, help="build directory B")
    parser.add_argument("--cases", default="64:c2c:1,64:r2c:1,64:c2c:2,64:r2c:2,128:c2c:2,128:r2c:2")
    parser.add_argument("--pairs", type=int, default=4)
    parser.add_argument("--raw", help="append every run's counts here (JSON lines)")
    parser.add_argument("--summarize", help="print the table of a --raw file, running nothing")
    args = parser.parse_args()
    print("| case | distfft per pair B/A | FFTW per pair B/A | distfft setup B/A | FFTW setup B/A "
          "| distfft per pair (A, B) | MPI+libc per pair B/A (not deterministic) |")
    print("|---|---|---|---|---|---|---|")
    if args.summarize:
        results = collections.OrderedDict()
        for line in open(args.summarize):
            row = json.loads(line)
            results.setdefault(row["case"], {})[row["build"]] = {"setup": row["setup"], "pair": row["per_pair"]}
        for case, result in results.items():
            print_row(case, result)
        return
    if not shutil.which("valgrind"):
        sys.exit("ab_count.py: valgrind is not installed (apt-get install valgrind)")
    for case in args.cases.split(","):
        size, kind, ranks, *method = case.split(":")
        size, ranks, method = int(size), int(ranks), method[0] if method else "alltoallw"
        result = {}
        for label, build in (("A", args.base), ("B", args.new)):
            with tempfile.TemporaryDirectory() as workdir:
                one = run_case(build, size, kind, ranks, method, 1, workdir)
                more = run_case(build, size, kind, ranks, method, 1 + args.pairs, workdir)
            pair = {g: (more[g] - one[g]) / args.pairs for g in set(one) | set(more)}
            result[label] = {"setup": dict(one), "pair": pair}
            if args.raw:
                with open(args.raw, "a") as raw:
                    raw.write(json.dumps({"case": case, "build": label, "path": build, "pairs": args.pairs,
                                          "setup": dict(one), "per_pair": pair}) + "\n")

        print_row(case, result)

if __name__ == "__main__":
    main()
