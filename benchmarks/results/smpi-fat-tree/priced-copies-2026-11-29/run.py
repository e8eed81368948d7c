#!/usr/bin/python3
"""The methods' simulated ranking before and after the datatype copies are priced.

    run.py --before DIR --after DIR --rounds 5 [--first-round 0] [--out .]
    run.py --build NAME=DIR [--build ...] --points P --methods M,... --first-round R --rounds 1

Runs every fixed method SMPI can run at each point of POINTS with two SMPI
builds of distfft-bench (--before: the library without priced copies,
--after: with them), interleaved: in round r, point by point, method by
method, before then after. Every run of a round shares one sample file
(DISTFFT_SMPI_SAMPLE=3, DISTFFT_SMPI_SAMPLES=samples-POINT-ROUND.txt), so
the FFT steps of a round are charged the same seconds in every run, and in
the after build every copy too (the copying methods' and the datatype
methods' copies of one exchange share their samples). Appends one JSON line
per run to results.jsonl (the point, round, build, method, wall time and
distfft-bench's own JSON under "bench"). Memory is not folded. With
--build, the named builds run instead (a later build charged from an
earlier round's sample file: the same charges for the same keys).
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))
SMPI = [sys.executable, os.path.join(ROOT, "benchmarks", "scale", "smpi.py"), "run"]
METHODS = ["alltoallw", "vector", "alltoallv", "sendrecv", "isend-waitall", "isend-waitsome",
           "isend-waitall-blocked", "isend-waitsome-blocked", "hierarchical"]
# name: (platform, ranks, cores per node, distfft-bench arguments)
POINTS = {
    "fat-128c-64": ("fat-tree", 64, 16, "--shape 128x128x128 --kind c2c --grid pencil"),
    "fat-64c-256": ("fat-tree", 256, 16, "--shape 64x64x64 --kind c2c --grid pencil"),
}
COMMON = "--rigor measure --inner 1 --outer 3 --json"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="SMPI build directory without priced copies")
    parser.add_argument("--after", help="SMPI build directory with them")
    parser.add_argument("--build", action="append", default=[], metavar="NAME=DIR",
                        help="another build to run, under NAME (instead of --before and --after)")
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--first-round", type=int, default=0)
    parser.add_argument("--points", default=",".join(POINTS))
    parser.add_argument("--out", default=".")
    parser.add_argument("--timeout", type=int, default=900)
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    for round_ in range(args.first_round, args.first_round + args.rounds):
        for name in args.points.split(","):
            platform, ranks, cores, arguments = POINTS[name]
            samples = os.path.join(out, f"samples-{name}-{round_}.txt")
            builds = [tuple(b.split("=", 1)) for b in args.build] or [("before", args.before), ("after", args.after)]
            for method in args.methods.split(","):
                for build, directory in builds:
                    bench = os.path.join(os.path.abspath(directory), "bin", "distfft-bench")
                    command = SMPI + [platform, "--ranks", str(ranks), "--cores-per-node", str(cores), "--",
                                      bench] + arguments.split() + ["--method", method] + COMMON.split()
                    environment = dict(os.environ, DISTFFT_SMPI_SAMPLE="3", DISTFFT_SMPI_SAMPLES=samples)
                    start = time.monotonic()
                    try:
                        done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout,
                                              env=environment)
                        output, status = done.stdout + done.stderr, done.returncode
                    except subprocess.TimeoutExpired:
                        output, status = "", None
                    record = {"point": name, "round": round_, "build": build, "method": method,
                              "status": status, "wall_seconds": round(time.monotonic() - start, 1),
                              "load": os.getloadavg()[0]}
                    bench_lines = [line for line in output.splitlines() if line.startswith("{")]
                    if bench_lines:
                        record["bench"] = json.loads(bench_lines[-1])
                    else:
                        record["error"] = output.strip().splitlines()[-5:]
                    with open(os.path.join(out, "results.jsonl"), "a") as stream:
                        stream.write(json.dumps(record) + "\n")
                    pair = record.get("bench", {}).get("pair_seconds")
                    print(f"round {round_} {name} {method} {build}: "
                          f"{pair * 1e3 if pair else float('nan'):.3f} ms ({record['wall_seconds']} s)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
