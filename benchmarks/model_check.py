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
"""
import argparse
import json
import shlex
import statistics
import subprocess
import sys


def run_once(args, ranks, shape, grid, method, kind):
    command = shlex.split(args.launcher.format(ranks=ranks)) + [
        args.bench, "--model", args.model, "--json", "--shape", shape, "--grid", grid,
        "--method", method, "--kind", kind] + shlex.split(args.bench_args)
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = [line for line in result.stdout.splitlines() if line.startswith("{")]
    if result.returncode != 0 or not lines:
        sys.exit("model_check.py: %s failed (%d): %s" % (" ".join(command), result.returncode,
                                                          result.stderr[-2000:]))
    return json.loads(lines[-1])


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
        "pair_predicted": first["predicted_pair_seconds"],
        "fft_predicted": total(first, False, "predicted_seconds"),
        "exchange_predicted": total(first, True, "predicted_seconds"),
        "plan": first["plan"],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--launcher", default="mpiexec -n {ranks}")
    parser.add_argument("--bench", default="build/bin/distfft-bench")
    parser.add_argument("--bench-args", default="--rigor estimate --inner 1 --outer 5")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json-out", help="append every run's JSON line to this file")
    parser.add_argument("--replay", help="recorded runs (a --json-out file) to predict again, instead of "
                        "running configurations")
    parser.add_argument("configurations", nargs="*", help="RANKS:SHAPE:GRID:METHOD[:KIND]")
    args = parser.parse_args()
    if bool(args.replay) == bool(args.configurations):
        parser.error("give configurations or --replay FILE, not both")
    print("%-6s %-12s %-7s %-10s %5s | %10s %10s %6s | %10s %10s %6s | %10s %10s %6s | %12s %6s" % (
        "ranks", "shape", "grid", "method", "kind", "pair", "predicted", "ratio",
        "fft", "predicted", "ratio", "exchange", "predicted", "ratio", "arrived last", "ratio"))
    def measured():
        for configuration in args.configurations:
            parts = configuration.split(":")
            ranks, shape, grid, method = parts[:4]
            kind = parts[4] if len(parts) > 4 else "c2c"
            yield ((ranks, shape, grid, method, kind),
                   [run_once(args, ranks, shape, grid, method, kind) for _ in range(args.repeats)])
    for (ranks, shape, grid, method, kind), reports in replayed(args) if args.replay else measured():
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


if __name__ == "__main__":
    main()
