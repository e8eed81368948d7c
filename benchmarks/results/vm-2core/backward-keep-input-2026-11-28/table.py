"""table.py -- the markdown tables of this experiment from its raw data.

    python3 table.py        (from any directory)

Reads every *.jsonl beside this file (benchmarks/one_rank.py --raw: one
line per run, one per round), keeps the rounds marked kept, and prints per
file, shape and kind each system's fastest pair (median over rounds
[fastest-slowest round], ms) and its same-round ratio to FFTW's serial
plan (median [range] over rounds). Standard library only.
"""
import glob
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
FFTW = "FFTW serial"


def median_range(values, digits):
    return (f"{statistics.median(values):.{digits}f} "
            f"[{min(values):.{digits}f}–{max(values):.{digits}f}]")


def load(path):
    runs, rounds = [], {}
    with open(path) as raw:
        for line in raw:
            entry = json.loads(line)
            if "system" in entry:
                runs.append(entry)
            else:
                rounds[(entry["round"], entry["attempt"])] = entry
    kept = {key for key, entry in rounds.items() if entry["kept"]}
    return [run for run in runs if (run["round"], run["attempt"]) in kept], rounds, kept


def table(path):
    runs, rounds, kept = load(path)
    first = runs[0]["result"]
    norm = first.get("norm", "backward")
    print(f"### {os.path.basename(path)}: norm {norm}, {first.get('threads')} threads, "
          f"{len(kept)} rounds kept of {len(rounds)} run\n")
    others = [rounds[key]["others_cores"] for key in kept]
    loads = [rounds[key]["loadavg"][0] for key in kept]
    print(f"Kept rounds: other processes' cores busy {median_range(others, 2)}, "
          f"1-min load average at round end {median_range(loads, 2)}.\n")
    systems = list(dict.fromkeys(run["system"] for run in runs))
    cases = list(dict.fromkeys((run["size"], run["kind"]) for run in runs))
    times = {}
    for run in runs:
        times[(run["size"], run["kind"], run["system"], run["round"])] = run["pair_seconds"]
    print(f"| shape kind | system | pair (ms) | / {FFTW} |")
    print("|---|---|---|---|")
    for size, kind in cases:
        for system in systems:
            mine = {r: t for (s, k, n, r), t in times.items() if (s, k, n) == (size, kind, system)}
            floor = {r: t for (s, k, n, r), t in times.items() if (s, k, n) == (size, kind, FFTW)}
            ms = [t * 1e3 for t in mine.values()]
            ratio = "1" if system == FFTW else median_range(
                [mine[r] / floor[r] for r in mine if r in floor], 2)
            print(f"| {size}³ {kind} | {system} | {median_range(ms, 2 if max(ms) < 10 else 1)} | {ratio} |")
    print()


def main():
    for path in sorted(glob.glob(os.path.join(HERE, "*.jsonl"))):
        table(path)


if __name__ == "__main__":
    main()
