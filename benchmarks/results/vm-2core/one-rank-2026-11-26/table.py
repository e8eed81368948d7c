#!/usr/bin/python3
"""distfft on one rank against FFTW's own plan, from the runs' printed lines.

Each line of *.txt is `rK EDGE^3 KIND T=THREADS SYSTEM TIME ms` (round K, as
benchmarks/one_rank.py prints them). Per shape, kind and threads: the median
over rounds of distfft's time over FFTW's in the same round [range], keeping
the input and with --destroy-input.
"""
import collections
import glob
import os
import re
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
LINE = re.compile(r"^r(\d+) (\d+)\^3 (\w+) T=(\d+) (.+?)\s+([\d.]+) ms$")


def spread(values):
    return f"{statistics.median(values):.3f} [{min(values):.3f}–{max(values):.3f}]"


def main():
    times = collections.defaultdict(dict)   # (kind, edge, threads, round): {system: ms}
    for path in sorted(glob.glob(os.path.join(HERE, "*.txt"))):
        with open(path) as f:
            for line in f:
                match = LINE.match(line.strip())
                if match:
                    rnd, edge, kind, threads, system, ms = match.groups()
                    times[(kind, int(edge), int(threads), int(rnd))][system.strip()] = float(ms)
    ratios = collections.defaultdict(lambda: ([], []))
    for (kind, edge, threads, _), systems in times.items():
        fftw = systems["FFTW serial"]
        ratios[(kind, edge, threads)][0].append(systems["distfft"] / fftw)
        ratios[(kind, edge, threads)][1].append(systems["distfft --destroy-input"] / fftw)
    print("| shape kind | T | distfft (keeps its input) / FFTW | distfft --destroy-input / FFTW | rounds |")
    print("|---|---|---|---|---|")
    for kind, edge, threads in sorted(ratios, key=lambda k: (k[0] != "r2c", k[1], k[2])):
        keep, destroy = ratios[(kind, edge, threads)]
        print(f"| {edge}³ {kind} | {threads} | {spread(keep)} | {spread(destroy)} | {len(keep)} |")


if __name__ == "__main__":
    main()
