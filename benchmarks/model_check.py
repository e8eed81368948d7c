#!/usr/bin/env python3
"""model_check.py -- the cost model against measured (or simulated) runs.

Runs distfft-bench --model FILE --json for each configuration REPEATS
times and prints, per configuration, the medians over the runs of the
measured pair (fastest of --outer in each run), of the FFT steps and of the
exchange steps beside the model's predictions and the ratio
measured/predicted. A step's time is its slowest rank's; for exchanges the
last column takes the fastest rank's too ("arrived last"): a rank's time
in an exchange includes waiting for the last rank to come from the step
before, so the slowest rank's overstates what the exchange itself costs
and the fastest rank's (the last to arrive, who waits for no one) is that
cost (runs recorded before distfft-bench reported it show "-").

  python3 benchmarks/model_check.py --model m.txt --repeats 5 \\
      --launcher "mpiexec -n {ranks}" --bench build/bin/distfft-bench \\
      2:64x64x64:slab:alltoallw 2:64x64x64:slab:sendrecv

  # under SMPI (a model calibrated on the same platform):
  python3 benchmarks/model_check.py --model smpi.txt \\
      --launcher "smpirun -np {ranks} -platform p.xml -hostfile hosts \\
                  --cfg=smpi/host-speed:10Gf" --bench build-smpi/bin/distfft-bench \\
      16:64x64x64:pencil:alltoallw 64:128x128x128:pencil:alltoallv

A configuration is RANKS:SHAPE:GRID:METHOD[:KIND]. Extra distfft-bench
options follow --bench-args (default: --rigor estimate --inner 1 --outer 5).

  # the runs a --json-out file recorded (on another machine, say), against
  # this checkout's predictions with MODEL (distfft-bench --predict-only
  # here; no configurations):
  python3 benchmarks/model_check.py --model m.txt --replay runs.jsonl \
      --launcher "mpiexec --oversubscribe -n {ranks}"

  # on a machine whose speed drifts (a shared host): calibration and runs
  # interleaved -- each of --repeats rounds calibrates a model first
  # (distfft-bench --calibrate on --calibrate-ranks ranks, into
  # --calibrate-dir) and predicts that round's runs with it; the table
  # then adds each configuration's median ratio over the rounds and its
  # range:
  python3 benchmarks/model_check.py --calibrate-each --calibrate-dir out \
      --repeats 5 --launcher "mpiexec -n {ranks}" 1:128x128x128:slab:alltoallw
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys


def run_once(args, ranks, shape, grid, method, kind, model=None, extra=()):
    """One distfft-bench --json run of a configuration, its report. Absolute
    paths: a launcher may run the program in a scratch folder (smpi.py does)."""
    command = shlex.split(args.launcher.format(ranks=ranks)) + [
        os.path.abspath(args.bench), "--model", os.path.abspath(model or args.model), "--json",
        "--shape", shape, "--grid", grid, "--method", method, "--kind", kind] + \
        shlex.split(args.bench_args) + list(extra)
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if result.returncode != 0 or not lines:
        sys.exit("%s: %s failed (%d): %s" % (os.path.basename(sys.argv[0]), " ".join(command),
                                             result.returncode, result.stderr[-2000:]))
    return json.loads(lines[-1])


def calibrated(args, round_number):
    """A model calibrated now (round ROUND_NUMBER's), its path."""
    path = os.path.join(args.calibrate_dir, "model-round-%d.txt" % round_number)
    command = shlex.split(args.launcher.format(ranks=args.calibrate_ranks)) + [
        args.bench, "--calibrate", path]
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode != 0 or not os.path.exists(path):
        sys.exit("model_check.py: %s failed (%d): %s" % (" ".join(command), result.returncode,
                                                          result.stderr[-2000:]))
    return path


def interleaved(args, configurations):
    """Rounds of a calibration then one run of every configuration with
    its model; each run keeps its own round's predictions."""
    runs = {configuration: [] for configuration in configurations}
    for round_number in range(1, args.repeats + 1):
        model = calibrated(args, round_number)
        for configuration in configurations:
            runs[configuration].append(run_once(args, *configuration, model=model))
    return runs.items()


def replayed(args):
    """The recorded runs of --replay grouped by configuration (first seen
    first), each run's predictions replaced by this checkout's with
    --model (one --predict-only run per configuration)."""
    groups = {}
    with open(args.replay, encoding="utf-8") as recorded:
        for line in recorded:
            report = json.loads(line)
            grid = "slab" if len(report["grid"]) == 1 else "pencil" if len(report["grid"]) == 2 else "3d"
            key = (report["ranks"], "x".join(map(str, report["shape"])), grid, report["method"], report["kind"])
            groups.setdefault(key, []).append(report)
    for (ranks, shape, grid, method, kind), reports in groups.items():
        command = shlex.split(args.launcher.format(ranks=ranks)) + [
            args.bench, "--model", args.model, "--model-force", "--predict-only", "--json", "--shape", shape,
            "--grid", grid, "--method", method, "--kind", kind, "--rigor", "estimate"]
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
        if result.returncode != 0 or not lines:
            sys.exit("model_check.py: %s failed (%d): %s" % (" ".join(command), result.returncode,
                                                              result.stderr[-2000:]))
        predicted = json.loads(lines[-1])
        if [step["step"] for step in predicted["steps"]] != [step["step"] for step in reports[0]["steps"]]:
            sys.exit("model_check.py: %s: this checkout plans other steps than the recorded runs" % command)
        for report in reports:
            report["predicted_pair_seconds"] = predicted["predicted_pair_seconds"]
            for step, new in zip(report["steps"], predicted["steps"]):
                step["predicted_seconds"] = new["predicted_seconds"]
        yield (ranks, shape, grid, method, kind), reports


def summarise(reports):
    """Medians over the runs: pair, FFT steps, exchange steps; predictions."""
    def total(report, exchange, key):
        return sum(step[key] for step in report["steps"]
                   if step["step"].startswith("redist") == exchange)
    first = reports[0]
    return {
        "pair": statistics.median(r["pair_seconds"] for r in reports),
        "fft": statistics.median(total(r, False, "seconds") for r in reports),
        "exchange": statistics.median(total(r, True, "seconds") for r in reports),
        "exchange_last": (statistics.median(total(r, True, "seconds_fastest_rank") for r in reports)
                          if all("seconds_fastest_rank" in step for r in reports for step in r["steps"])
                          else None),
        # predictions: the same for every run, or each its round's model's
        "pair_predicted": statistics.median(r["predicted_pair_seconds"] for r in reports),
        "fft_predicted": statistics.median(total(r, False, "predicted_seconds") for r in reports),
        "exchange_predicted": statistics.median(total(r, True, "predicted_seconds") for r in reports),
        "plan": first["plan"],
        # each run against its own prediction (they differ only when the
        # runs were predicted by models calibrated in between)
        "ratios": [r["pair_seconds"] / r["predicted_pair_seconds"] for r in reports
                   if r["predicted_pair_seconds"] > 0],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", help="the model file (not with --calibrate-each)")
    parser.add_argument("--launcher", default="mpiexec -n {ranks}")
    parser.add_argument("--bench", default="build/bin/distfft-bench")
    parser.add_argument("--bench-args", default="--rigor estimate --inner 1 --outer 5")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json-out", help="append every run's JSON line to this file")
    parser.add_argument("--replay", help="recorded runs (a --json-out file) to predict again, instead of "
                        "running configurations")
    parser.add_argument("--calibrate-each", action="store_true",
                        help="calibrate a model before each round of runs and predict the round with it")
    parser.add_argument("--calibrate-ranks", type=int,
                        help="ranks of each calibration (default: the most of any configuration)")
    parser.add_argument("--calibrate-dir", help="where each round's model is written (with --calibrate-each)")
    parser.add_argument("configurations", nargs="*", help="RANKS:SHAPE:GRID:METHOD[:KIND]")
    args = parser.parse_args()
    if bool(args.replay) == bool(args.configurations):
        parser.error("give configurations or --replay FILE, not both")
    if args.calibrate_each == bool(args.model):
        parser.error("give --model FILE or --calibrate-each, one of them")
    if args.calibrate_each and (args.replay or not args.calibrate_dir):
        parser.error("--calibrate-each runs configurations and needs --calibrate-dir")
    if args.repeats < 1:
        parser.error("--repeats must be 1 or more")
    configurations = []
    for configuration in args.configurations:
        parts = configuration.split(":")
        if len(parts) not in (4, 5):
            parser.error("'%s' is not RANKS:SHAPE:GRID:METHOD[:KIND]" % configuration)
        configurations.append(tuple(parts[:4]) + (parts[4] if len(parts) > 4 else "c2c",))
    if args.calibrate_each:
        os.makedirs(args.calibrate_dir, exist_ok=True)
        if args.calibrate_ranks is None:
            args.calibrate_ranks = max(int(c[0]) for c in configurations)
    print("%-6s %-12s %-7s %-10s %5s | %10s %10s %6s | %10s %10s %6s | %10s %10s %6s | %12s %6s" % (
        "ranks", "shape", "grid", "method", "kind", "pair", "predicted", "ratio",
        "fft", "predicted", "ratio", "exchange", "predicted", "ratio", "arrived last", "ratio"))
    def measured():
        for configuration in configurations:
            yield configuration, [run_once(args, *configuration) for _ in range(args.repeats)]
    everything = (replayed(args) if args.replay else interleaved(args, configurations) if args.calibrate_each
                  else measured())
    for (ranks, shape, grid, method, kind), reports in everything:
        if args.json_out:
            with open(args.json_out, "a", encoding="utf-8") as out:
                for report in reports:
                    out.write(json.dumps(report) + "\n")
        s = summarise(reports)

        def ratio(measured, predicted):
            return measured / predicted if predicted > 0 else float("nan")
        last = s["exchange_last"]
        print("%-6s %-12s %-7s %-10s %5s | %10.3e %10.3e %6.2f | %10.3e %10.3e %6.2f | %10.3e %10.3e %6.2f | %s" % (
            ranks, shape, grid, method, kind,
            s["pair"], s["pair_predicted"], ratio(s["pair"], s["pair_predicted"]),
            s["fft"], s["fft_predicted"], ratio(s["fft"], s["fft_predicted"]),
            s["exchange"], s["exchange_predicted"], ratio(s["exchange"], s["exchange_predicted"]),
            "%12.3e %6.2f" % (last, ratio(last, s["exchange_predicted"])) if last is not None
            else "%12s %6s" % ("-", "-")), flush=True)
        if args.calibrate_each and s["ratios"]:
            print("%-6s %-46s pair / its round's prediction: median %.2f [%.2f-%.2f] over %d rounds" % (
                "", "", statistics.median(s["ratios"]), min(s["ratios"]), max(s["ratios"]), len(s["ratios"])),
                flush=True)


if __name__ == "__main__":
    main()
