#!/usr/bin/python3
"""Benchmarked pairs from 64 to 1,024 simulated ranks beside the model's
prediction made before the run (results.jsonl of campaign.py's `executed`
preset).

    table.py [strong|weak]   (default: strong)

Per point: the simulated pair (fastest of 3, slowest rank), the prediction
(--predict-only with the same model, made before any point ran), their
ratio, the parallel efficiency against the first point, the simulated plan
time over 50 simulated pairs (100 transforms), and what the simulation cost
on the host (wall seconds, peak memory).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def rows(series):
    with open(os.path.join(HERE, "results.jsonl")) as stream:
        found = [json.loads(line) for line in stream if line.strip()]
    return sorted((r for r in found if r["point"]["series"] == series), key=lambda r: r["point"]["ranks"])


def main(series):
    print("| ranks | shape | simulated pair ms | predicted before ms | simulated / predicted | "
          "efficiency | plan / 100 transforms | wall s | peak GB |")
    print("|---|---|---|---|---|---|---|---|---|")
    first = None
    for r in rows(series):
        p = r["point"]
        bench = r.get("bench") or {}
        pair, predicted = bench.get("pair_seconds"), r.get("predicted_pair_seconds")
        shape = "x".join(map(str, p["shape"]))
        predicted_text = f"{1e3 * predicted:.1f}" if predicted else "–"
        if not pair:
            why = "timed out" if r.get("timed_out") else "failed (see README)"
            print(f"| {p['ranks']} | {shape} | {why} | {predicted_text} | – | – | – | "
                  f"{r.get('wall_seconds', 0):.0f} | – |")
            continue
        if first is None:
            first = (p["ranks"], pair)
        efficiency = (first[1] * first[0] / (pair * p["ranks"]) if series == "strong" else first[1] / pair)
        plan = bench.get("plan_seconds")
        print(f"| {p['ranks']} | {shape} | {1e3 * pair:.1f} | {predicted_text} | "
              f"{pair / predicted:.2f} | {efficiency:.2f} | "
              f"{plan / (50 * pair):.2f} | {r['wall_seconds']:.0f} | "
              f"{(r.get('peak_memory_bytes') or 0) / 1e9:.2f} |" if predicted and plan else
              f"| {p['ranks']} | {shape} | {1e3 * pair:.1f} | {predicted_text} | – | {efficiency:.2f} | – | "
              f"{r['wall_seconds']:.0f} | {(r.get('peak_memory_bytes') or 0) / 1e9:.2f} |")


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else "strong"
    if which not in ("strong", "weak"):
        sys.exit(__doc__)
    main(which)
