#!/usr/bin/python3
"""distfft and heFFTe under SMPI, like for like: the same statistics, FFTW rigor, memory and FFTs.

    run.py --bench DIR/bin/distfft-bench --heffte DIR/benchmarks/speed3d_r2c --rounds 5 [--out .]

For each point of POINTS and each round, interleaved: distfft-bench with
`--rigor estimate` (heFFTe's FFTW backend plans with FFTW_ESTIMATE), for
each of METHODS twice -- `--inner 1 --outer 3` (the fastest of 3 pairs)
and `--inner 3 --outer 2` (twice 3 pairs between two barriers, divided by
3, the faster of the two sets: the mean of 3 pairs, heFFTe's statistic,
once the first set has paid first touch, as heFFTe's warm-up pair does;
distfft-bench runs no warm-up of its own) --; then heFFTe's speed3d_r2c (FFTW backend,
its defaults: pencils, MPI_Alltoallv reshapes) once with `-nruns3` (the
mean of 3 pairs after a warm-up, as it reports: the slowest rank's time
between two barriers) and three times with `-nruns1` (each one pair after
a warm-up; their fastest is heFFTe's fastest of 3 pairs). No sampling,
no folding: every rank's FFTs run for real on its own memory, in both
libraries, and SMPI charges their host time. Appends one JSON line per run
to results.jsonl.
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "benchmarks", "scale"))
import smpi  # noqa: E402  (the platforms and the smpirun command line the lab uses)

METHODS = ["alltoallv", "alltoallw"]
# name: (platform, ranks, cores per node, shape)
POINTS = {
    "fat-128r2c-64": ("fat-tree", 64, 16, (128, 128, 128)),
    "fat-128r2c-256": ("fat-tree", 256, 16, (128, 128, 128)),
}


def launch(platform, ranks, cores, program_arguments, timeout, directory):
    xml, hosts = smpi.write_platform(platform, ranks, cores, directory)
    command = smpi.smpirun_command(xml, hosts, ranks, []) + program_arguments
    start = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=directory,
                              env=smpi.scratch_environment(directory))
        return done.returncode, done.stdout + done.stderr, time.monotonic() - start
    except subprocess.TimeoutExpired:
        return None, "", time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bench", required=True)
    parser.add_argument("--heffte", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--first-round", type=int, default=0)
    parser.add_argument("--points", default=",".join(POINTS))
    parser.add_argument("--out", default=".")
    parser.add_argument("--timeout", type=int, default=900)
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    scratch = os.path.join(out, "scratch")
    os.makedirs(scratch, exist_ok=True)
    for round_ in range(args.first_round, args.first_round + args.rounds):
        for name in args.points.split(","):
            platform, ranks, cores, shape = POINTS[name]
            runs = []
            for method in METHODS:
                for statistic, repeats in (("fastest", ["--inner", "1", "--outer", "3"]),
                                           ("mean", ["--inner", "3", "--outer", "2"])):
                    runs.append(("distfft", method, statistic,
                                 [os.path.abspath(args.bench), "--shape", "x".join(map(str, shape)), "--kind", "r2c",
                                  "--grid", "pencil", "--method", method, "--rigor", "estimate", "--json"] + repeats))
            heffte = [os.path.abspath(args.heffte), "fftw", "double"] + [str(n) for n in shape] \
                + ["-pencils", "-io_pencils", "-no-error"]
            runs.append(("heffte", "alltoallv", "mean", heffte + ["-nruns3"]))
            runs += [("heffte", "alltoallv", "single", heffte + ["-nruns1"])] * 3
            for library, method, statistic, arguments in runs:
                status, output, wall = launch(platform, ranks, cores, arguments, args.timeout, scratch)
                record = {"point": name, "round": round_, "library": library, "method": method,
                          "statistic": statistic, "status": status, "wall_seconds": round(wall, 1),
                          "load": os.getloadavg()[0], "arguments": " ".join(arguments[1:])}
                if library == "distfft":
                    lines = [line for line in output.splitlines() if line.startswith("{")]
                    if lines:
                        record["bench"] = json.loads(lines[-1])
                        record["pair_seconds"] = record["bench"]["pair_seconds"]
                else:
                    for line in output.splitlines():
                        if line.startswith("Time per run:"):  # per transform: forward and backward averaged
                            record["pair_seconds"] = 2.0 * float(line.split()[3])
                if "pair_seconds" not in record:
                    record["error"] = output.strip().splitlines()[-5:]
                with open(os.path.join(out, "results.jsonl"), "a") as stream:
                    stream.write(json.dumps(record) + "\n")
                print(f"round {round_} {name} {library} {method} {statistic}: "
                      f"{record.get('pair_seconds', float('nan')) * 1e3:.3f} ms ({record['wall_seconds']} s)",
                      flush=True)


if __name__ == "__main__":
    sys.exit(main())
