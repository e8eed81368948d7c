#!/usr/bin/python3
"""The README's two node tables from campaign results (results.jsonl).

    benchmarks/node_table.py node DIR [DIR ...]
    benchmarks/node_table.py comparison DIR [DIR ...]
    benchmarks/node_table.py methods DIR [DIR ...]

`node`: runs of `scripts/benchmark quick --phases node ...` on two cores.
One row per shape, kind and precision: distfft 2 ranks x 1 thread, 1 rank x
2 threads, FFTW-MPI transposed on 2 ranks, FFTW's threaded serial transform
with 2 threads (ms: median over rounds of each run's fastest pair
[fastest-slowest round]), then the median over rounds of two same-round
ratios [range]: the faster of distfft's two layouts in that round over FFTW
with 2 threads, and distfft 2 ranks over FFTW-MPI transposed 2 ranks.

`comparison`: runs of `scripts/benchmark quick --phases comparison ...`.
One row per shape and kind: the fastest pair of each system and rank count
(median over rounds), then the same-round ratios distfft 2 ranks / FFTW-MPI
transposed, / mpi4py-fft slab, and distfft 1 rank / serial FFTW.

`methods`: runs of `scripts/benchmark methods --phases methods --rounds N`.
One row per shape, kind and rank count: the best fixed method (by median)
and auto (ms, median [range]), then the median over rounds of auto / the
fastest fixed method of that round [range], and in how many rounds auto was
within 5 % of it.
"""
import collections
import json
import os
import statistics
import sys


def load(folders):
    rows = []
    for folder in folders:
        with open(os.path.join(folder, "results.jsonl")) as f:
            rows += [json.loads(line) for line in f if line.strip()]
    return rows


def spread(values, digits):
    return (f"{statistics.median(values):.{digits}f} "
            f"[{min(values):.{digits}f}–{max(values):.{digits}f}]")


def milliseconds(values):
    """A time column: three significant digits, as the campaign prints."""
    least = min(values)
    return spread(values, 3 if least < 10 else 1 if least < 100 else 0)


def per_round(rows, name, extra_key=()):
    """{(edge, kind, *extra, round): {system name: pair ms}}."""
    cells = collections.defaultdict(dict)
    for row in rows:
        key = (row["shape"][0], row["kind"]) + tuple(row[k] for k in extra_key) + (row["round"],)
        cells[key][name(row)] = row["pair_seconds"] * 1e3
    return cells


def table(cells, times, ratios, header):
    """Rows: per key without its round, the time columns, then the ratios."""
    columns = collections.defaultdict(lambda: collections.defaultdict(list))
    for key, systems in cells.items():
        column = columns[key[:-1]]
        if not all(t in systems for t in times):
            continue
        for t in times:
            column[t].append(systems[t])
        for label, ratio in ratios:
            column[label].append(ratio(systems))
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for key in sorted(columns):
        column = columns[key]
        label = f"{key[0]}³ {key[1]}" + "".join(f" | {k}" for k in key[2:])
        cells_text = [milliseconds(column[t]) for t in times]
        cells_text += [spread(column[label_], 2) for label_, _ in ratios]
        print(f"| {label} | " + " | ".join(cells_text) + f" | {len(column[times[0]])} |")


def node(rows):
    def name(row):
        if row["program"] == "distfft-bench":
            return f"distfft {row['ranks']}x{row['threads']}"
        return f"{row['layout']} {row['ranks']}x{row['threads']}"
    times = ["distfft 2x1", "distfft 1x2", "transposed 2x1", "serial 1x2"]
    ratios = [("best/fftw", lambda s: min(s["distfft 2x1"], s["distfft 1x2"]) / s["serial 1x2"]),
              ("2 ranks/fftw-mpi", lambda s: s["distfft 2x1"] / s["transposed 2x1"])]
    table(per_round(rows, name, ("precision",)), times, ratios,
          ["shape kind", "precision", "distfft 2 ranks", "distfft 1 rank × 2 threads",
           "FFTW-MPI 2 ranks (transposed)", "FFTW, 2 threads", "best distfft / FFTW 2 threads",
           "distfft 2 ranks / FFTW-MPI", "rounds"])


def comparison(rows):
    def name(row):
        system = "distfft" if row["system"].startswith("distfft") else row["system"]
        return f"{system} {row['ranks']}"
    times = ["distfft 2", "distfft 1", "FFTW-MPI transposed 2", "mpi4py-fft slab 2", "serial FFTW 1"]
    ratios = [("d2/fftw-mpi", lambda s: s["distfft 2"] / s["FFTW-MPI transposed 2"]),
              ("d2/mpi4py-fft", lambda s: s["distfft 2"] / s["mpi4py-fft slab 2"]),
              ("d1/serial", lambda s: s["distfft 1"] / s["serial FFTW 1"])]
    table(per_round(rows, name), times, ratios,
          ["shape kind", "distfft 2 ranks", "distfft 1 rank", "FFTW-MPI 2 ranks (transposed)",
           "mpi4py-fft 2 ranks (slab)", "serial FFTW, 1 thread", "distfft 2 ranks / FFTW-MPI",
           "/ mpi4py-fft", "distfft 1 rank / serial FFTW", "rounds"])


def methods(rows):
    cells = collections.defaultdict(dict)  # (edge, kind, ranks, round): {method: ms}
    for row in rows:
        if row.get("phase") == "methods" and row.get("pair_seconds"):
            cells[(row["shape"][0], row["kind"], row["ranks"], row["round"])][row["method"]] = \
                row["pair_seconds"] * 1e3
    groups = collections.defaultdict(list)
    for key, systems in cells.items():
        if "auto" in systems and len(systems) > 1:
            groups[key[:-1]].append(systems)
    print("| shape kind | ranks | best fixed method (ms) | auto (ms) | auto / best fixed of the round | "
          "within 5 % | rounds |")
    print("|---|---|---|---|---|---|---|")
    for key in sorted(groups):
        rounds = groups[key]
        fixed = {m for systems in rounds for m in systems if m != "auto"}
        best = min(fixed, key=lambda m: statistics.median([s[m] for s in rounds if m in s]))
        ratios = [s["auto"] / min(t for m, t in s.items() if m != "auto") for s in rounds]
        print(f"| {key[0]}³ {key[1]} | {key[2]} | {best} {milliseconds([s[best] for s in rounds if best in s])} | "
              f"{milliseconds([s['auto'] for s in rounds])} | {spread(ratios, 2)} | "
              f"{sum(r <= 1.05 for r in ratios)} of {len(ratios)} | {len(rounds)} |")


def main():
    modes = {"node": node, "comparison": comparison, "methods": methods}
    if len(sys.argv) < 3 or sys.argv[1] not in modes:
        sys.exit(__doc__)
    modes[sys.argv[1]](load(sys.argv[2:]))


if __name__ == "__main__":
    main()
