#!/usr/bin/python3
"""Is `auto` within 5 % of the best fixed method at scale? Repeated rounds.

    benchmarks/scale/auto_rounds.py [--ranks 64,256] [--rounds 5]
        [--shape 512x512x512] [--kind r2c|c2c] [--methods alltoallw,sendrecv,...]
        [--grid pencil|slab|3d] [--platform fat-tree|dragonfly|nodes]
        [--placement row|morton|node]
        [--tune-budget B --model FILE] [--out DIR] [--timeout S]
        [--first-round K] [--cfg NAME:VALUE ...]
    benchmarks/scale/auto_rounds.py --summarize DIR

One simulated point (the campaign's, benchmarks/scale/campaign.py: r2c,
pencil grid, fat tree, row placement unless told otherwise, 16 cores per
node, memory folded, computation sampled, FFTW measure, 3 timed pairs) for
`auto` and for each fixed method, per rank count, in rounds; each round
runs them in a rotated order, so drift of the host hits all alike (the
network is simulated, the local FFTs are measured on this host: their noise
is what differs between rounds).
Appends every run to DIR/results.jsonl and prints, per rank count, each
method's median simulated pair over rounds [range], auto's, the median over
rounds of auto / the best fixed method of that round [range], and auto's
plan time (tuning included). With --tune-budget, auto times only the cost
model's B best candidates (the model: --model FILE).

Common random numbers: the runs of one round share one sample file
(DISTFFT_SMPI_SAMPLES=DIR/samples-RANKS-ROUND.txt, src/platform_smpi.c): a
sampling run of alltoallw (not recorded) measures each local step first,
then every recorded run is charged the same seconds for the same step from
the file, so within a round auto and the fixed methods differ only in
their exchanges (and auto's tuning sees that too); the host's noise moves
whole rounds, not one method against another. --private-samples gives each
run its own samples, as before.

--first-round K numbers this invocation's rounds from K + 1 (rotation and
sample file included), so a series can be continued later into the same
DIR, or split over two invocations side by side (one per core: rounds
1-3 and --first-round 3 --rounds 2 make rounds 1-5).

--cfg NAME:VALUE (repeatable) passes a SimGrid setting to every run and is
recorded in each record's "smpi_settings", e.g. smpi/alltoall:basic_linear
to replace SMPI's size-based choice of MPI_Alltoall algorithm.
"""
import argparse
import dataclasses
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import campaign  # noqa: E402

FIXED = ("alltoallw", "alltoallv", "sendrecv", "vector", "isend-waitall")


def bench_command(point, bench, options):
    command = campaign.bench_command(point, bench)
    if point.method == "auto" and options.tune_budget:
        command += ["--model", options.model, "--tune-budget", str(options.tune_budget)]
    return command


def run(point, bench, options, samples=None):
    environment = {"DISTFFT_SMPI_SAMPLE": "3", "DISTFFT_SMPI_FOLD": "1"}
    if samples:
        environment["DISTFFT_SMPI_SAMPLES"] = samples
    wall, done, memory = campaign.simulate(point.platform, point.ranks, point.cores_per_node,
                                           bench_command(point, bench, options), options.timeout,
                                           environment, options.cfg)
    record = {"wall_seconds": wall, "peak_memory_bytes": memory, "timed_out": done is None}
    if getattr(done, "maxmin_precision", None):
        record["maxmin_precision"] = done.maxmin_precision
    for line in (done.stdout.splitlines() if done else []):
        if line.startswith("{"):
            try:
                record["bench"] = json.loads(line)
            except ValueError:
                pass
    if done is not None and "bench" not in record:
        record["error"] = (done.stdout + done.stderr).strip().splitlines()[-3:]
    return record


def spread(values, scale=1.0, digits=2):
    values = [v * scale for v in values]
    return f"{statistics.median(values):.{digits}f} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


def summarize(rows):
    pair = lambda r: (r.get("bench") or {}).get("pair_seconds")  # noqa: E731
    lines = []
    for ranks in sorted({r["ranks"] for r in rows}):
        mine = [r for r in rows if r["ranks"] == ranks and pair(r)]
        methods = sorted({r["method"] for r in mine})
        rounds = sorted({r["round"] for r in mine})
        where = (f"{mine[0].get('grid', 'pencil')}, {mine[0].get('platform', 'fat-tree')}, "
                 f"{mine[0].get('placement', 'row')} placement") if mine else ""
        kind = mine[0].get("kind", "r2c") if mine else ""
        lines += [f"## {ranks} ranks, {mine[0]['shape']} {kind} {where} ({len(rounds)} rounds)" if mine
                  else f"## {ranks} ranks: no completed run", ""]
        if not mine:
            continue
        lines += ["| method | simulated pair ms, median [range] | runs |", "|---|---|---|"]
        for method in methods:
            times = [pair(r) for r in mine if r["method"] == method]
            lines.append(f"| {method} | {spread(times, 1e3, 2)} | {len(times)} |")
        ratios, plans, chosen = [], [], []
        for n in rounds:
            this = {r["method"]: r for r in mine if r["round"] == n}
            fixed = [pair(r) for m, r in this.items() if m != "auto"]
            if "auto" in this and fixed:
                ratios.append(pair(this["auto"]) / min(fixed))
                plans.append(this["auto"]["bench"].get("plan_seconds"))
                chosen.append(this["auto"]["bench"].get("plan", ""))
        if ratios:
            lines += ["", f"auto / best fixed of the round: {spread(ratios)} over {len(ratios)} rounds "
                      f"(within 5 %: {sum(r <= 1.05 for r in ratios)} of {len(ratios)}); auto's plan time "
                      f"(tuning included, simulated): {spread([p for p in plans if p], digits=3)} s"]
            lines += [f"- round plan: {c}" for c in chosen]
        lines.append("")
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ranks", default="64,256")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--first-round", type=int, default=0,
                        help="number this invocation's rounds from K + 1 (continue or split a series)")
    parser.add_argument("--shape", default="512x512x512")
    parser.add_argument("--kind", default="r2c", choices=("r2c", "c2c"))
    parser.add_argument("--methods", default=",".join(FIXED))
    parser.add_argument("--grid", default="pencil", choices=("pencil", "slab", "3d"))
    parser.add_argument("--platform", default="fat-tree", choices=("fat-tree", "dragonfly", "nodes"))
    parser.add_argument("--placement", default="row", choices=("row", "morton", "node"))
    parser.add_argument("--tune-budget", type=int, default=0)
    parser.add_argument("--model", help="cost model file (with --tune-budget)")
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument("--out", default="auto-rounds")
    parser.add_argument("--private-samples", action="store_true",
                        help="each run samples its own FFT steps (no shared sample file per round)")
    parser.add_argument("--cfg", action="append", default=[], metavar="NAME:VALUE",
                        help="a SimGrid setting for every run (repeatable)")
    parser.add_argument("--build-smpi", default=os.path.join(campaign.ROOT, "build-smpi"))
    parser.add_argument("--summarize", metavar="DIR")
    options = parser.parse_args(argv)
    if options.summarize:
        with open(os.path.join(options.summarize, "results.jsonl")) as stream:
            print(summarize([json.loads(line) for line in stream]))
        return
    if options.tune_budget and not options.model:
        raise SystemExit("auto_rounds.py: --tune-budget needs --model FILE")
    bench = os.path.join(options.build_smpi, "bin", "distfft-bench")
    shape = tuple(int(n) for n in options.shape.split("x"))
    methods = ["auto"] + options.methods.split(",")
    where = {"grid": options.grid, "platform": options.platform, "placement": options.placement,
             "kind": options.kind}
    os.makedirs(options.out, exist_ok=True)
    results = os.path.join(options.out, "results.jsonl")
    if options.first_round < 0:
        raise SystemExit("auto_rounds.py: --first-round must be 0 or more")
    for n in range(options.first_round, options.first_round + options.rounds):
        for ranks in (int(p) for p in options.ranks.split(",")):
            order = methods[n % len(methods):] + methods[:n % len(methods)]
            samples = None if options.private_samples else \
                os.path.abspath(os.path.join(options.out, f"samples-{ranks}-{n + 1}.txt"))
            if samples and not os.path.exists(samples):  # the round's sampling run
                run(campaign.Point("auto", shape, ranks, method="alltoallw", **where), bench, options, samples)
            for method in order:
                point = campaign.Point("auto", shape, ranks, method=method, **where)
                record = run(point, bench, options, samples)
                record.update(where)
                record.update({"round": n, "ranks": ranks, "method": method, "shape": options.shape,
                               "tune_budget": options.tune_budget, "shared_samples": samples is not None})
                if options.cfg:
                    record["smpi_settings"] = options.cfg
                with open(results, "a") as stream:
                    stream.write(json.dumps(record) + "\n")
                pair = (record.get("bench") or {}).get("pair_seconds")
                print(f"round {n + 1} {ranks} ranks {method}: "
                      f"{'%.2f ms' % (pair * 1e3) if pair else 'no result'} "
                      f"({record['wall_seconds']:.0f} s wall)", flush=True)
    with open(results) as stream:
        text = summarize([json.loads(line) for line in stream])
    with open(os.path.join(options.out, "summary.md"), "w") as stream:
        stream.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main(sys.argv[1:])
