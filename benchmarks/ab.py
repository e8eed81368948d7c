"""ab.py -- is a change of the library speed-neutral? Two builds, same runs.

    /usr/bin/python3 benchmarks/ab.py --base BUILD_A --new BUILD_B
        [--sizes 64,128,256] [--kinds c2c,r2c] [--layouts 2x1,1x2]
        [--method alltoallw] [--rounds 7] [--outer 20] [--inner 3]
        [--mpiexec mpiexec.openmpi] [--raw FILE.jsonl] [--summarize FILE.jsonl]

BUILD_A and BUILD_B are CMake build folders (bin/distfft-bench) of the two
revisions, e.g. a worktree of the base revision built beside the tree under
test. Each case is a shape, a kind and a layout PxT (P ranks of T threads,
each rank given T cores: suite.systems.binding), always with one fixed
method (no `auto`: tuning would measure, not the code) and FFTW `measure`.
Rounds are interleaved: in each round every case runs A and B back to
back, in an order that alternates between rounds, so the host's drift hits
both alike.

The table gives per case the median over rounds of the same-round ratio
B / A [range] of the fastest pair, of plan creation, and of every step (the
step's time on the slowest rank), and flags a case whose pair ratio's median
is outside +-3 % or where a step's B median falls outside A's range over
rounds (the speed guard of a refactoring: both must hold). --raw appends
one JSON line per run (round, case, build, distfft-bench's JSON line, load
average); --summarize FILE prints the table of such a file without running.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import one_rank  # noqa: E402  (its run: one program, its last JSON line)
from suite import systems  # noqa: E402

BUILDS = ("A", "B")
TOLERANCE = 0.03


def parse_layout(text):
    ranks, _, threads = text.partition("x")
    return int(ranks), int(threads or 1)


def run_case(options, build, case):
    size, kind, layout = case
    ranks, threads = parse_layout(layout)
    tools = systems.Tools(build, options.mpiexec, "/usr/bin/python3")
    command = [options.mpiexec, "-n", str(ranks)] + systems.binding(tools, ranks, threads) + [
        tools.program("distfft-bench"), "--shape", f"{size}x{size}x{size}", "--kind", kind,
        "--threads", str(threads), "--method", options.method, "--rigor", "measure",
        "--outer", str(options.outer), "--inner", str(options.inner), "--json", "--quiet"]
    return one_rank.run(command)


def case_name(case):
    size, kind, layout = case
    return f"{size}^3 {kind} {layout}"


def ratio_text(values):
    return f"{statistics.median(values):.3f} [{min(values):.3f}–{max(values):.3f}]"


def summarize(runs):
    """The table (a list of lines) and whether every case passed."""
    by_case = {}
    for run in runs:
        by_case.setdefault(run["case"], {}).setdefault(run["round"], {})[run["build"]] = run["result"]
    lines = ["| case | rounds | pair B/A | plan B/A | steps outside A's range | verdict |",
             "|---|---|---|---|---|---|"]
    every = True
    for name, rounds in by_case.items():
        pairs = [r for r in rounds.values() if set(r) == set(BUILDS)]
        if not pairs:
            continue
        pair = [r["B"]["pair_seconds"] / r["A"]["pair_seconds"] for r in pairs]
        plan = [r["B"]["plan_seconds"] / r["A"]["plan_seconds"] for r in pairs]
        outside = []
        for s, step in enumerate(pairs[0]["A"]["steps"]):
            a = [r["A"]["steps"][s]["seconds"] for r in pairs]
            b = statistics.median(r["B"]["steps"][s]["seconds"] for r in pairs)
            if not min(a) <= b <= max(a):
                outside.append(f"{step['direction'][0]}{s} {step['step']} ({b / statistics.median(a):.2f})")
        good = abs(statistics.median(pair) - 1) <= TOLERANCE and not outside
        every = every and good
        lines.append(f"| {name} | {len(pairs)} | {ratio_text(pair)} | {ratio_text(plan)} | "
                     f"{'; '.join(outside) or 'none'} | {'ok' if good else 'CHECK'} |")
    return lines, every


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base", help="build folder A (the revision before)")
    parser.add_argument("--new", help="build folder B (the revision under test)")
    parser.add_argument("--sizes", default="64,128,256")
    parser.add_argument("--kinds", default="c2c,r2c")
    parser.add_argument("--layouts", default="2x1,1x2", help="PxT: ranks x threads per rank")
    parser.add_argument("--method", default="alltoallw")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--outer", type=int, default=20)
    parser.add_argument("--inner", type=int, default=3)
    parser.add_argument("--mpiexec", default="mpiexec.openmpi")
    parser.add_argument("--raw", help="append one JSON line per run to this file")
    parser.add_argument("--summarize", help="print the table of a --raw file and exit")
    options = parser.parse_args(argv)
    if options.summarize:
        with open(options.summarize) as raw:
            lines, every = summarize([json.loads(line) for line in raw if line.strip()])
        print("\n".join(lines))
        return 0 if every else 1
    if not options.base or not options.new:
        parser.error("--base and --new are needed (or --summarize)")
    builds = {"A": os.path.abspath(options.base), "B": os.path.abspath(options.new)}
    cases = [(int(size), kind, layout) for size in options.sizes.split(",") for kind in options.kinds.split(",")
             for layout in options.layouts.split(",")]
    runs = []
    raw = open(options.raw, "a") if options.raw else None
    for round_index in range(1, options.rounds + 1):
        order = BUILDS if round_index % 2 else BUILDS[::-1]
        for case in cases:
            for build in order:
                result = run_case(options, builds[build], case)
                run = {"round": round_index, "case": case_name(case), "build": build, "folder": builds[build],
                       "result": result, "load": os.getloadavg()[0]}
                runs.append(run)
                if raw:
                    raw.write(json.dumps(run) + "\n")
                    raw.flush()
        print(f"round {round_index} of {options.rounds} done", file=sys.stderr)
    lines, every = summarize(runs)
    print("\n".join(lines))
    return 0 if every else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
