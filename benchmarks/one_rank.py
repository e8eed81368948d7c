"""one_rank.py -- distfft on one rank against FFTW's own serial plan with
the same threads (issue 25: "one rank is one FFTW plan").

    /usr/bin/python3 benchmarks/one_rank.py [--build build] [--sizes 64,128,256]
        [--kinds r2c] [--threads 1,2] [--rounds 5] [--outer 4] [--inner 3]
        [--precision double] [--rigor measure] [--other NAME=PATH ...]
        [--mpiexec mpiexec.openmpi] [--norm backward] [--raw FILE.jsonl]
        [--max-others CORES] [--retries 3]

Per shape, kind and thread count T, one round runs back to back:
fftw-mpi-bench --layout serial --threads T (FFTW's multi-dimensional plan,
its c2r overwriting its input as FFTW's c2r does by default), distfft-bench
on one rank keeping its input (the default), distfft-bench --destroy-input,
and each --other distfft-bench (another build, e.g. an older revision, for
an A/B of two implementations). Every program scales the backward by 1/N
(--norm none: none does) and each rank gets T cores (systems.binding). Rounds are interleaved; the
table gives, per system, the median over rounds of each run's fastest pair
[fastest-slowest round] in ms and the median [range] over rounds of its
same-round ratio to FFTW (the machine drifts between rounds; within one
they see the same state).

--raw appends one JSON line per run (round, case, system, the program's
own JSON line, the load average after it) and one per round (the load
average, and the cores other processes kept busy during the round: the
machine's busy time from /proc/stat less this script's children's CPU
time, over the round's wall time). With --max-others a round whose others
took more cores than that is recorded as discarded and run again, up to
--retries times (then kept, and marked so).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import time
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from suite import systems  # noqa: E402

FFTW = "FFTW serial"
KEEP = "distfft"
DESTROY = "distfft --destroy-input"


def run(command):
    finished = subprocess.run(command, capture_output=True, text=True,
                              env=dict(os.environ, **systems.MPI_ENVIRONMENT))
    lines = [line for line in finished.stdout.splitlines() if line.startswith("{")]
    if finished.returncode != 0 or not lines:
        raise RuntimeError(f"{' '.join(command)}: exit {finished.returncode}: {finished.stderr[-400:]}")
    return json.loads(lines[-1])


def busy_seconds():
    """CPU seconds the whole machine spent busy (all cores), from /proc/stat."""
    with open("/proc/stat") as stat:
        fields = [int(field) for field in stat.readline().split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def children_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def record(raw, **fields):
    if raw:
        raw.write(json.dumps(fields) + "\n")
        raw.flush()


def median_range(values, scale=1.0):
    values = [value * scale for value in values]
    digits = 3 if max(values) < 10 else 1
    return (f"{statistics.median(values):.{digits}f} "
            f"[{min(values):.{digits}f}–{max(values):.{digits}f}]")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--sizes", default="64,128,256")
    parser.add_argument("--kinds", default="r2c")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--outer", type=int, default=4)
    parser.add_argument("--inner", type=int, default=3)
    parser.add_argument("--precision", default="double", choices=["double", "float"])
    parser.add_argument("--rigor", default="measure")
    parser.add_argument("--other", action="append", default=[], metavar="NAME=PATH",
                        help="another distfft-bench to run beside (its name in the table)")
    parser.add_argument("--mpiexec", default="mpiexec.openmpi")
    parser.add_argument("--norm", choices=["backward", "none"], default="backward",
                        help="every program's normalisation (none: FFTW's convention, no 1/N)")
    parser.add_argument("--raw", help="append the runs and rounds to this JSONL file")
    parser.add_argument("--max-others", type=float, default=None, metavar="CORES",
                        help="run a round again when other processes kept more cores busy")
    parser.add_argument("--retries", type=int, default=3)
    options = parser.parse_args(argv)
    raw = open(options.raw, "a") if options.raw else None
    tools = systems.Tools(os.path.abspath(options.build), options.mpiexec, "/usr/bin/python3")
    others = dict(item.split("=", 1) for item in options.other)
    names = [FFTW, KEEP, DESTROY] + list(others)
    cases = [(int(size), kind, int(threads)) for size in options.sizes.split(",")
             for kind in options.kinds.split(",") for threads in options.threads.split(",")]
    times = {(case, name): {} for case in cases for name in names}
    for round_index in range(options.rounds):
        for attempt in range(options.retries + 1):
            start = (time.monotonic(), busy_seconds(), children_seconds())
            round_times = run_round(options, tools, others, names, cases, round_index, attempt, raw)
            wall = time.monotonic() - start[0]
            others_cores = ((busy_seconds() - start[1]) - (children_seconds() - start[2])) / wall
            quiet = options.max_others is None or others_cores <= options.max_others
            kept = quiet or attempt == options.retries
            record(raw, round=round_index, attempt=attempt, wall_seconds=wall, others_cores=others_cores,
                   loadavg=os.getloadavg(), kept=kept, quiet=quiet)
            print(f"round {round_index} attempt {attempt}: others kept {others_cores:.2f} cores busy, "
                  f"load {os.getloadavg()[0]:.2f}{'' if kept else ', run again'}", file=sys.stderr, flush=True)
            if kept:
                for key, seconds in round_times.items():
                    times[key][round_index] = seconds
                break
    print_table(options, names, cases, times)
    return 0


def run_round(options, tools, others, names, cases, round_index, attempt, raw):
    """One round: every case, every system; {(case, name): pair seconds}."""
    round_times = {}
    for case in cases:
        size, kind, threads = case
        launch = [options.mpiexec, "-n", "1"] + systems.binding(tools, 1, threads)
        common = ["--shape", f"{size}x{size}x{size}", "--kind", kind, "--precision", options.precision,
                  "--rigor", options.rigor, "--outer", str(options.outer), "--inner",
                  str(options.inner), "--threads", str(threads), "--norm", options.norm, "--json"]
        commands = {FFTW: launch + [tools.program("fftw-mpi-bench"), "--layout", "serial"] + common,
                    KEEP: launch + [tools.program("distfft-bench"), "--method", "alltoallw"] + common,
                    DESTROY: launch + [tools.program("distfft-bench"), "--method", "alltoallw",
                                       "--destroy-input"] + common}
        for name, path in others.items():
            commands[name] = launch + [path, "--method", "alltoallw"] + common
        for name in names:
            result = run(commands[name])
            seconds = result["pair_seconds"]
            round_times[(case, name)] = seconds
            record(raw, round=round_index, attempt=attempt, size=size, kind=kind, threads=threads,
                   system=name, pair_seconds=seconds, loadavg=os.getloadavg(), result=result)
            print(f"r{round_index} {size}^3 {kind} T={threads} {name:28} {seconds * 1e3:9.3f} ms",
                  file=sys.stderr, flush=True)
    return round_times


def print_table(options, names, cases, times):
    print(f"{options.precision}, norm {options.norm}, FFTW {options.rigor}, one rank, fastest of {options.outer} x "
          f"{options.inner} pairs per run, {options.rounds} interleaved rounds: median "
          f"[range] over rounds; ratio: same-round time over FFTW's\n")
    print("| shape kind | T | system | pair (ms) | / FFTW serial |")
    print("|---|---|---|---|---|")
    for case in cases:
        size, kind, threads = case
        floor = times[(case, FFTW)]
        for name in names:
            mine = times[(case, name)]
            ratios = [mine[r] / floor[r] for r in mine if r in floor]
            ratio = median_range(ratios) if name != FFTW else "1"
            print(f"| {size}³ {kind} | {threads} | {name} | {median_range(list(mine.values()), 1e3)} | "
                  f"{ratio} |")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
