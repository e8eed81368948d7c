"""batch_overlap.py -- a batch of fields against as many single transforms
(issue 15's target: batch 3 at 128^3 <= 0.95 x three separate transforms).

    /usr/bin/python3 benchmarks/batch_overlap.py [--build build] [--ranks 2]
        [--shape 128x128x128] [--kind c2c] [--batch 3] [--rounds 3] [--outer 10]
        [--method alltoallw] [--mpiexec mpiexec.openmpi]

Runs distfft-bench on the same shape as: --batch B --overlap on (field k's
exchange in flight while field k-1's FFTs run), --batch B --overlap off
(all fields in one exchange per step), --batch B --overlap fields (each
field through the whole transform in turn), --batch B --overlap progress
(on, with a helper thread per rank testing the exchange in flight; MPI
initialised MPI_THREAD_MULTIPLE), --batch B --overlap on --thread-multiple
(what MULTIPLE alone costs), and --batch 1 (one field; times B for B
separate transforms), interleaved over `rounds` rounds. Each round's time
is the fastest of `outer` repetitions; prints per variant the fastest and
the median over rounds, the range (slowest round / fastest - 1), and both
as ratios to B separate transforms (fastest to fastest, median to median).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import systems  # noqa: E402


def run(arguments, options):
    command = [options.mpiexec, "-n", str(options.ranks),
               os.path.join(options.build, "bin", "distfft-bench"), "--shape", options.shape,
               "--kind", options.kind, "--method", options.method, "--outer", str(options.outer), "--json",
               "--quiet"] + arguments
    finished = subprocess.run(command, capture_output=True, text=True, check=True,
                              env=dict(os.environ, **systems.MPI_ENVIRONMENT))
    return json.loads(finished.stdout.strip().splitlines()[-1])["pair_seconds"]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--shape", default="128x128x128")
    parser.add_argument("--batch", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--outer", type=int, default=10)
    parser.add_argument("--kind", default="c2c")
    parser.add_argument("--method", default="alltoallw")
    parser.add_argument("--mpiexec", default="mpiexec.openmpi")
    options = parser.parse_args(argv)
    variants = {f"batch {options.batch}, overlap on": ["--batch", str(options.batch), "--overlap", "on"],
                f"batch {options.batch}, overlap off": ["--batch", str(options.batch), "--overlap", "off"],
                f"batch {options.batch}, overlap fields": ["--batch", str(options.batch), "--overlap",
                                                           "fields"],
                f"batch {options.batch}, overlap progress": ["--batch", str(options.batch), "--overlap",
                                                             "progress"],
                f"batch {options.batch}, overlap on, MPI_THREAD_MULTIPLE": ["--batch", str(options.batch),
                                                                       "--overlap", "on",
                                                                       "--thread-multiple"],
                f"{options.batch} x batch 1": ["--batch", "1"]}
    times = {name: [] for name in variants}
    for _ in range(options.rounds):
        for name, arguments in variants.items():
            seconds = run(arguments, options)
            times[name].append(seconds * (options.batch if name.endswith("batch 1") else 1))
    separate = times[f"{options.batch} x batch 1"]
    print(f"{options.shape} {options.kind} double, {options.ranks} ranks, method {options.method}: "
          f"forward+backward over {options.rounds} rounds, each the fastest of {options.outer} repetitions (ms)")
    print(f"| variant | fastest | median | range | fastest / {options.batch} separate | "
          f"median / {options.batch} separate |")
    print("|---|---|---|---|---|---|")
    for name, values in times.items():
        spread = (max(values) - min(values)) / min(values)
        print(f"| {name} | {min(values) * 1e3:.2f} | {statistics.median(values) * 1e3:.2f} | "
              f"{min(values) * 1e3:.2f}-{max(values) * 1e3:.2f} (+{spread * 100:.0f} %) | "
              f"{min(values) / min(separate):.2f} | "
              f"{statistics.median(values) / statistics.median(separate):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
