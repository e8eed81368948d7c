#!/usr/bin/python3
"""auto against every fixed method at two latency-bound points, 2026-11-28
(and the second again with SMPI's MPI_Alltoall set to basic_linear).

    table.py            one row per point: auto / the best fixed method of
                        each complete round, auto's exchanges, its failures;
                        where auto chose one method for every exchange, its
                        pair / that fixed method's pair in the same round
                        (the same plan twice: the runs' own noise)
    table.py methods    one row per method: its simulated pair per point,
                        median over rounds [fastest–slowest round], and in
                        how many complete rounds it was the fastest fixed method

A complete round is one in which every fixed method that ran at the point
at all has a result (a method that fails in every round, as `vector` does
under SMPI's small-message alltoall, is left out of the comparison).
"""
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scale"))
import report  # noqa: E402

POINTS = [
    ("fat tree, 256 ranks, 64³ c2c", "fat-64c-256"),
    ("Dragonfly, 128 ranks, 32³ c2c", "dragonfly-32c-128"),
    ("the same, MPI_Alltoall linear (added)", "dragonfly-32c-128-linear"),
]


def load(sub):
    return report.load(os.path.join(HERE, sub, "results.jsonl"))


def complete_rounds(rows):
    """round -> {method: row} of the rounds where every fixed method that
    ever succeeded at this point has a result."""
    by_round = report.rounds_point(rows)
    seen = set().union(*by_round.values()) - {"auto"}
    return {n: this for n, this in by_round.items() if seen <= set(this)}


def failure(rows, method):
    """'k of n: reason' for a method's failed runs, or '0 of n'."""
    runs = [r for r in rows if r["method"] == method]
    failed = [r for r in runs if not report.pair(r)]
    reason = failed[0].get("error", ["timed out"])[-2] if failed and failed[0].get("error") else ""
    return f"{len(failed)} of {len(runs)}" + (f" ({reason})" if reason else "")


def rounds_table():
    out = []
    for label, sub in POINTS:
        rows = load(sub)
        rounds = complete_rounds(rows)
        ratios, chosen, plans, same = [], {}, [], []
        for this in rounds.values():
            if "auto" not in this:
                continue
            fixed = min(report.pair(r) for m, r in this.items() if m != "auto")
            ratios.append(report.pair(this["auto"]) / fixed)
            what = report.exchange_methods(report.bench(this["auto"]).get("plan", ""))
            chosen[what] = chosen.get(what, 0) + 1
            if what in this:  # one method everywhere: the same plan as that fixed run
                same.append(report.pair(this["auto"]) / report.pair(this[what]))
            plans.append(report.bench(this["auto"]).get("plan_seconds"))
        out.append([label, len(rounds), failure(rows, "auto"),
                    report.spread(ratios) if ratios else "–",
                    f"{sum(x <= 1.05 for x in ratios)} of {len(ratios)}" if ratios else "–",
                    ", ".join(f"{m} ({k})" for m, k in sorted(chosen.items())) or "–",
                    f"{report.spread(same)} ({len(same)})" if same else "–",
                    f"{statistics.median(plans):.2f}" if plans else "–",
                    failure(rows, "vector"), report.revisions(rows)])
    return report.table(["point", "complete rounds", "auto failed", "auto / best fixed of the round",
                         "within 5 %", "auto's exchanges (rounds)",
                         "auto / the same plan's fixed run (rounds)", "auto's plan s (simulated)",
                         "vector failed", "revision"], out)


def methods_table():
    times, wins = [], []
    for _, sub in POINTS:
        per_method, won = {}, {}
        for this in report.rounds_point(load(sub)).values():
            for m, row in this.items():
                per_method.setdefault(m, []).append(report.pair(row))
        for this in complete_rounds(load(sub)).values():
            fixed = {m: report.pair(r) for m, r in this.items() if m != "auto"}
            fastest = min(fixed, key=fixed.get)
            won[fastest] = won.get(fastest, 0) + 1
        times.append(per_method)
        wins.append(won)
    first = times[0]
    order = sorted(first, key=lambda m: (m != "auto", statistics.median(first[m]), m))
    order += sorted(set().union(*times) - set(order))
    rows = []
    for m in order:
        row = [m]
        for per_method, won in zip(times, wins):
            values = per_method.get(m)
            row.append(report.spread([1e3 * v for v in values], 3) if values else "failed")
            row.append("–" if m == "auto" else str(won.get(m, 0)))
        rows.append(row)
    header = ["method"]
    for label, _ in POINTS:
        header += [f"{label}: pair ms", "fastest fixed in rounds"]
    return report.table(header, rows)


if __name__ == "__main__":
    report.main(sys.argv, {"rounds": rounds_table, "methods": methods_table}, "rounds")
