#!/usr/bin/env python3
"""model_ranking.py -- does the cost model rank candidates as they run?

Tuning by the model (`--tune-budget B`) needs the model's *order* of the
candidates for one decision — the grids and methods of one transform — to
be the measured order, far more than it needs each prediction within some
band. This checks exactly that, out of sample: the configurations (a
validation set) and the model are fixed first, every prediction is written
before any run, and the runs then happen in interleaved rounds.

    # 1. predictions, before any run (distfft-bench --predict-only)
    python3 benchmarks/model_ranking.py predict SET --model MODEL --out DIR
    # 2. the runs: --rounds interleaved rounds, the order rotated each round
    python3 benchmarks/model_ranking.py run SET --model MODEL --out DIR --rounds 5
    # 3. the table, from DIR's raw data alone
    python3 benchmarks/model_ranking.py report DIR

SET is a text file, one configuration a line, RANKS:SHAPE:GRID:METHOD:KIND
(`#` starts a comment). A *decision* is every configuration of one ranks,
shape and kind: the candidates tuning would choose among. `--launcher`
(default "mpiexec -n {ranks}") and `--bench` run distfft-bench; under SMPI:
--launcher "python3 benchmarks/scale/smpi.py run fat-tree --ranks {ranks}
--cores-per-node 16 --" --bench build-smpi/bin/distfft-bench. `--bench-args`
(default "--rigor measure --inner 2 --outer 3") go to every run and
prediction alike.

`run` refuses to start without DIR/predictions.jsonl made with the same
model file (its SHA-256 is recorded), so no prediction can be made after
the runs it predicts.

The report, per decision: the candidates; Kendall's tau-b between the
predicted pairs and the measured pairs (median over rounds of each run's
fastest pair; 1 = the same order, 0 = unrelated, -1 = reversed); the
model's first choice, its measured pair over the best measured pair of the
same round (median [range]) and in how many rounds it was within 5 %; and,
secondary, each candidate's measured / predicted pair (median over the
decision's candidates [range]).
"""
import argparse
import collections
import hashlib
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model_check  # noqa: E402  (run_once: one distfft-bench run)


def read_set(path):
    configurations = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            parts = text.split(":")
            if len(parts) != 5:
                sys.exit(f"model_ranking.py: {path}:{number}: '{text}' is not RANKS:SHAPE:GRID:METHOD:KIND")
            configurations.append(tuple(parts))
    if not configurations:
        sys.exit(f"model_ranking.py: {path} holds no configuration")
    return configurations


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def bench(args, configuration, extra):
    report = model_check.run_once(args, *configuration, extra=extra)
    report["configuration"] = ":".join(configuration)
    return report


def predict(args):
    configurations = read_set(args.set)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "predictions.jsonl")
    if os.path.exists(path):
        sys.exit(f"model_ranking.py: {path} exists: predictions are made once, before the runs")
    with open(path, "w", encoding="utf-8") as out:
        for configuration in configurations:
            report = bench(args, configuration, ["--predict-only"])
            report["model_sha256"] = sha256(args.model)
            out.write(json.dumps(report) + "\n")
            print(f"predicted {report['configuration']}: {report['predicted_pair_seconds']:.4e} s", flush=True)


def run(args):
    configurations = read_set(args.set)
    predictions = os.path.join(args.out, "predictions.jsonl")
    if not os.path.exists(predictions):
        sys.exit(f"model_ranking.py: no {predictions}: run 'predict' first, before any run")
    with open(predictions, encoding="utf-8") as f:
        predicted = [json.loads(line) for line in f if line.strip()]
    if {p["model_sha256"] for p in predicted} != {sha256(args.model)}:
        sys.exit(f"model_ranking.py: {args.model} is not the model {predictions} was made with")
    missing = {":".join(c) for c in configurations} - {p["configuration"] for p in predicted}
    if missing:
        sys.exit(f"model_ranking.py: not predicted before the runs: {', '.join(sorted(missing))}")
    with open(os.path.join(args.out, "runs.jsonl"), "a", encoding="utf-8") as out:
        for round_number in range(args.first_round, args.first_round + args.rounds):
            shift = round_number % len(configurations)
            for configuration in configurations[shift:] + configurations[:shift]:
                report = bench(args, configuration, [])
                report["round"] = round_number
                out.write(json.dumps(report) + "\n")
                out.flush()
                print(f"round {round_number} {report['configuration']}: {report['pair_seconds']:.4e} s",
                      flush=True)


def kendall_tau_b(x, y):
    """Kendall's tau-b of two equally long sequences (ties counted as such)."""
    concordant = discordant = ties_x = ties_y = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                ties_x += 1
            elif dy == 0:
                ties_y += 1
            elif (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    denominator = ((concordant + discordant + ties_x) * (concordant + discordant + ties_y)) ** 0.5
    return (concordant - discordant) / denominator if denominator else float("nan")


def spread(values, digits=2):
    return (f"{statistics.median(values):.{digits}f} "
            f"[{min(values):.{digits}f}–{max(values):.{digits}f}]")


def decisions(directory):
    """{(ranks, shape, kind): {candidate 'GRID METHOD': (predicted s, {round: measured s})}}."""
    with open(os.path.join(directory, "predictions.jsonl"), encoding="utf-8") as f:
        predicted = {p["configuration"]: p["predicted_pair_seconds"] for p in map(json.loads, f)}
    measured = collections.defaultdict(dict)
    with open(os.path.join(directory, "runs.jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                report = json.loads(line)
                measured[report["configuration"]][report["round"]] = report["pair_seconds"]
    found = collections.defaultdict(dict)
    for configuration, seconds in predicted.items():
        ranks, shape, grid, method, kind = configuration.split(":")
        if configuration in measured:
            found[(int(ranks), shape, kind)][f"{grid} {method}"] = (seconds, measured[configuration])
    return found


def report(args):
    found = decisions(args.out)
    print("| ranks | shape kind | candidates | Kendall tau-b, predicted vs measured | model's first choice | "
          "its pair / the round's best | within 5 % | measured best | measured / predicted pair | rounds |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (ranks, shape, kind) in sorted(found):
        candidates = found[(ranks, shape, kind)]
        names = sorted(candidates)
        rounds = sorted(set.intersection(*(set(candidates[n][1]) for n in names)))
        if not rounds:
            continue
        medians = {n: statistics.median(candidates[n][1][r] for r in rounds) for n in names}
        tau = kendall_tau_b([candidates[n][0] for n in names], [medians[n] for n in names])
        first = min(names, key=lambda n: (candidates[n][0], n))
        best = min(names, key=lambda n: (medians[n], n))
        ratios = [candidates[first][1][r] / min(candidates[n][1][r] for n in names) for r in rounds]
        accuracy = [medians[n] / candidates[n][0] for n in names]
        print(f"| {ranks} | {shape} {kind} | {len(names)} | {tau:.2f} | {first} | {spread(ratios)} | "
              f"{sum(r <= 1.05 for r in ratios)} of {len(ratios)} | {best} | {spread(accuracy)} | {len(rounds)} |")


def self_test():
    assert kendall_tau_b([1, 2, 3], [10, 20, 30]) == 1.0
    assert kendall_tau_b([1, 2, 3], [30, 20, 10]) == -1.0
    assert abs(kendall_tau_b([1, 2, 3, 4], [1, 3, 2, 4]) - 2 / 3) < 1e-12


def main():
    self_test()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("action", choices=["predict", "run", "report"])
    parser.add_argument("set", nargs="?", help="the validation set (predict, run)")
    parser.add_argument("--out", required=True, help="the experiment's folder")
    parser.add_argument("--model", help="the model file (predict, run)")
    parser.add_argument("--launcher", default="mpiexec -n {ranks}")
    parser.add_argument("--bench", default="build/bin/distfft-bench")
    parser.add_argument("--bench-args", default="--rigor measure --inner 2 --outer 3")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--first-round", type=int, default=1)
    args = parser.parse_args()
    if args.action in ("predict", "run") and not (args.set and args.model):
        parser.error(f"{args.action} needs SET and --model")
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    {"predict": predict, "run": run, "report": report}[args.action](args)


if __name__ == "__main__":
    main()
