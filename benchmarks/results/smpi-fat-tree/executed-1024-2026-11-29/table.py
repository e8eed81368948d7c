#!/usr/bin/python3
"""Benchmarked pairs from 64 to 1,024 simulated ranks beside the model's
prediction made before the run, and the SimGrid setting that lets them fit
checked against SimGrid's defaults at 256 ranks.

    table.py [strong|weak|validation]   (default: strong)

strong, weak: results.jsonl of campaign.py's `executed` preset. Per point:
the simulated pair (fastest of the run's pairs, slowest rank), the
prediction (--predict-only with the same model, made before any point
ran), their ratio, the parallel efficiency against the first point, the
simulated plan time over 50 simulated pairs (100 transforms), and what the
simulation cost on the host: wall and CPU seconds, peak memory (Pss), the
load average before and after.

validation: validation.jsonl, the same 256-rank point under each SimGrid
setting; the runs marked shared_samples read one sample file
(DISTFFT_SMPI_SAMPLES), so they are charged the same FFT and copy times and
differ in their simulated network only.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    with open(os.path.join(HERE, name)) as stream:
        return [json.loads(line) for line in stream if line.strip()]


def rows(series):
    found = load("results.jsonl")
    return sorted((r for r in found if r["point"]["series"] == series), key=lambda r: r["point"]["ranks"])


def cost(r):
    """The host's side of one point: wall s, CPU s, peak GB, load."""
    cpu = r.get("cpu_seconds")
    memory = r.get("peak_memory_bytes")
    return (f"{r.get('wall_seconds', 0):.0f} | {'–' if cpu is None else f'{cpu:.0f}'} | "
            f"{'–' if not memory else f'{memory / 1e9:.2f}'} | "
            f"{r.get('load_before', 0):.1f}–{r.get('load_after', 0):.1f}")


def scaling(series):
    print("| ranks | shape | simulated pair ms | predicted before ms | simulated / predicted | "
          "efficiency | plan / 100 transforms | wall s | CPU s | peak GB | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    first = None
    for r in rows(series):
        p = r["point"]
        bench = r.get("bench") or {}
        pair, predicted, plan = bench.get("pair_seconds"), r.get("predicted_pair_seconds"), bench.get("plan_seconds")
        shape = "x".join(map(str, p["shape"]))
        predicted_text = f"{1e3 * predicted:.1f}" if predicted else "–"
        if not pair:
            why = f"timed out ({r['wall_seconds']:.0f} s)" if r.get("timed_out") else "failed (see README)"
            print(f"| {p['ranks']} | {shape} | {why} | {predicted_text} | – | – | – | {cost(r)} |")
            continue
        if first is None:
            first = (p["ranks"], pair)
        efficiency = first[1] * first[0] / (pair * p["ranks"]) if series == "strong" else first[1] / pair
        ratio = f"{pair / predicted:.2f}" if predicted else "–"
        per_transforms = f"{plan / (50 * pair):.2f}" if plan else "–"
        print(f"| {p['ranks']} | {shape} | {1e3 * pair:.1f} | {predicted_text} | {ratio} | "
              f"{efficiency:.2f} | {per_transforms} | {cost(r)} |")


def validation():
    print("| ranks | SimGrid setting | samples | pair ms | exchanges ms | FFTs ms | pair / default | "
          "wall s | CPU s | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    found = load("validation.jsonl")
    default = [r["bench"]["pair_seconds"] for r in found if r["setting"] == "(default)" and r["shared_samples"]]
    reference = min(default) if default else None
    for r in found:
        bench = r["bench"]
        ratio = f"{bench['pair_seconds'] / reference:.3f}" if reference and r["shared_samples"] else "–"
        print(f"| {r['ranks']} | {r['setting']} | {'shared' if r['shared_samples'] else 'own'} | "
              f"{1e3 * bench['pair_seconds']:.2f} | {1e3 * bench['redistribute_seconds']:.2f} | "
              f"{1e3 * bench['fft_seconds']:.2f} | {ratio} | {r['wall_seconds']:.0f} | {r['cpu_seconds']:.0f} | "
              f"{r['load_before']:.1f}–{r['load_after']:.1f} |")


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "strong"
    if which == "validation":
        validation()
    elif which in ("strong", "weak"):
        scaling(which)
    else:
        sys.exit(__doc__)
