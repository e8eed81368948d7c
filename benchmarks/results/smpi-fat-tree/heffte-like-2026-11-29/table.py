#!/usr/bin/python3
"""distfft and heFFTe under SMPI, like for like: the fastest and the mean of 3 pairs for both.

    python3 table.py

From results.jsonl (run.py). distfft's fastest: one run's fastest of 3
pairs (--inner 1 --outer 3); its mean: 3 pairs between two barriers / 3,
the faster of two such sets (--inner 3 --outer 2; the first set pays first
touch). Runs labelled mean-cold (--inner 3 --outer 1: the first 3 pairs,
first touch included) are raw data of the first rounds, not in the table. heFFTe's mean: speed3d_r2c -nruns3 (2 x its "Time
per run"); its fastest: the fastest of the round's three -nruns1 runs.
Each figure is the median over the complete rounds [fastest-slowest
round]; the ratio is heFFTe / distfft within each round. Stdlib only.
"""
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
POINTS = {"fat-128r2c-64": "64 ranks, 128³ r2c", "fat-128r2c-256": "256 ranks, 128³ r2c"}
SYSTEMS = [("distfft", "alltoallv"), ("distfft", "alltoallw"), ("heffte", "alltoallv")]


def load():
    values = {}  # (point, library, method, statistic, round) -> ms
    with open(os.path.join(HERE, "results.jsonl")) as stream:
        for line in stream:
            run = json.loads(line)
            pair = run.get("pair_seconds")
            if pair is None:
                continue
            statistic = "fastest" if run["statistic"] == "single" else run["statistic"]
            key = (run["point"], run["library"], run["method"], statistic, run["round"])
            values[key] = min(values.get(key, float("inf")), 1e3 * pair)
    return values


def summary(values):
    return f"{statistics.median(values):.2f} [{min(values):.2f}–{max(values):.2f}]"


def main():
    values = load()
    print("| point (fat tree, pencils, FFTW estimate, unsampled, unfolded) | system | fastest of 3 pairs, ms "
          "| mean of 3 pairs, ms | heFFTe / this, fastest | heFFTe / this, mean | rounds |")
    print("|---|---|---|---|---|---|---|")
    for point, title in POINTS.items():
        rounds = sorted(set.intersection(*({k[4] for k in values if k[:4] == (point, library, method, statistic)}
                                           for library, method in SYSTEMS for statistic in ("fastest", "mean"))))
        if not rounds:
            continue
        for library, method in SYSTEMS:
            cells = []
            for statistic in ("fastest", "mean"):
                cells.append(summary([values[(point, library, method, statistic, r)] for r in rounds]))
            ratios = []
            for statistic in ("fastest", "mean"):
                if library == "heffte":
                    ratios.append("–")
                    continue
                ratio = [values[(point, "heffte", "alltoallv", statistic, r)] / values[(point, library, method,
                                                                                        statistic, r)]
                         for r in rounds]
                ratios.append(f"{statistics.median(ratio):.2f} [{min(ratio):.2f}–{max(ratio):.2f}]")
            name = f"heFFTe 2.4.1 (its default: {method})" if library == "heffte" else f"distfft {method}"
            print(f"| {title} | {name} | {cells[0]} | {cells[1]} | {ratios[0]} | {ratios[1]} | {len(rounds)} |")


if __name__ == "__main__":
    main()
