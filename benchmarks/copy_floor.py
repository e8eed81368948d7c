#!/usr/bin/python3
"""How close each exchange comes to one memcpy, per method (issue 25 item 2).

    benchmarks/copy_floor.py [--build build] [--baseline-build DIR]
        [--methods shm,alltoallw] [--sizes 128,256] [--kinds c2c,r2c]
        [--grids slab,pencil] [--ranks 2] [--rounds 5] [--rigor measure]
        [--out FILE.jsonl]

distfft-bench's step table times every exchange and, beside it, one
memcpy of the rank's share (the "/copy" column, `copy_seconds` in --json).
This runs each method of --methods (and, with --baseline-build, the same
methods from a second build, e.g. an older revision, labelled "base") on
each case, rounds interleaved with the order reversed every other round,
and prints per case and system the median over rounds [range] of the
forward+backward pair, the exchanges' sum, and each exchange's time over
its memcpy, plus each system's pair over the first system's in the same
round. Open MPI, one rank per core (`--bind-to core` as the campaign).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def spread(values, digits=2):
    return f"{statistics.median(values):.{digits}f} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--baseline-build", help="a second build whose methods run too, as 'base METHOD'")
    parser.add_argument("--methods", default="shm,alltoallw")
    parser.add_argument("--sizes", default="128,256")
    parser.add_argument("--kinds", default="c2c,r2c")
    parser.add_argument("--grids", default="slab,pencil")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rigor", default="measure")
    parser.add_argument("--mpiexec", default="mpiexec.openmpi")
    parser.add_argument("--out", help="append every run's JSON here")
    options = parser.parse_args()

    systems = [(m, options.build, m) for m in options.methods.split(",")]
    if options.baseline_build:
        systems += [(f"base {m}", options.baseline_build, m) for m in options.methods.split(",")]
    cases = [(int(n), kind, grid) for n in options.sizes.split(",")
             for kind in options.kinds.split(",") for grid in options.grids.split(",")]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    log = open(options.out, "a") if options.out else None
    runs = {}  # (case, system) -> [(round, pair, exchanges, [exchange / copy])]
    for r in range(options.rounds):
        for case in cases:
            n, kind, grid = case
            order = systems if r % 2 == 0 else systems[::-1]
            for name, build, method in order:
                command = [options.mpiexec, "-n", str(options.ranks), "--bind-to", "core",
                           os.path.join(build, "bin", "distfft-bench"), "--shape", f"{n}x{n}x{n}",
                           "--kind", kind, "--grid", grid, "--method", method, "--rigor", options.rigor,
                           "--inner", "3" if n <= 128 else "2", "--outer", "3", "--json", "--quiet"]
                done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
                lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
                if done.returncode != 0 or not lines:
                    sys.exit(f"failed: {' '.join(command)}\n{done.stderr[-2000:]}")
                result = json.loads(lines[-1])
                result.update(system=name, round=r, command=" ".join(command))
                if log:
                    log.write(json.dumps(result) + "\n")
                    log.flush()
                exchanges = [s for s in result["steps"] if s["step"].startswith("redist")]
                runs.setdefault((case, name), []).append(
                    (r, result["pair_seconds"], sum(s["seconds"] for s in exchanges),
                     [s["seconds"] / s["copy_seconds"] for s in exchanges if s["copy_seconds"]]))
            print(f"round {r + 1}/{options.rounds} {n}^3 {kind} {grid} done", file=sys.stderr, flush=True)

    first = systems[0][0]
    print(f"| case | system | pair (ms) | exchanges (ms) | exchange / memcpy | pair / {first} |")
    print("|---|---|---|---|---|---|")
    for case in cases:
        reference = {r: pair for r, pair, _, _ in runs[(case, first)]}
        for name, _, _ in systems:
            rows = runs[(case, name)]
            ratios = [pair / reference[r] for r, pair, _, _ in rows]
            print(f"| {case[0]}³ {case[1]} {case[2]} | {name} | {spread([x[1] * 1e3 for x in rows], 1)} | "
                  f"{spread([x[2] * 1e3 for x in rows], 1)} | {spread([v for x in rows for v in x[3]])} | "
                  f"{spread(ratios)} |")


if __name__ == "__main__":
    main()
