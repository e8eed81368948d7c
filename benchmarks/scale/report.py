"""Markdown tables of the simulation lab's recorded results (stdlib only).

The table.py of each experiment folder under benchmarks/results/smpi-*/
imports this module (benchmarks/scale on sys.path) and prints one of these
tables; docs pages embed that output verbatim between table markers, so
every table here is deterministic: rows in a fixed order, fixed formats.

Two record shapes are read:
  - a campaign's results.jsonl (benchmarks/scale/campaign.py): one row per
    point, {"point": {...}, "bench": {...}, "predicted_pair_seconds": ...};
  - a series of auto_rounds.py (benchmarks/scale/auto_rounds.py): one row per
    run, {"round", "method", "ranks", ..., "bench": {...}}, one folder per
    point.
A revision recorded with "-dirty" was built from an unclean tree: the
tables print it as it is, and the folder's README labels it legacy.
"""
import json
import os
import statistics


def load(path):
    with open(path, encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


def bench(row):
    return row.get("bench") or {}


def pair(row):
    return bench(row).get("pair_seconds")


def ms(seconds, digits=1):
    return "–" if seconds is None else f"{1e3 * seconds:.{digits}f}"


def spread(values, digits=2):
    values = sorted(values)
    return f"{statistics.median(values):.{digits}f} [{values[0]:.{digits}f}–{values[-1]:.{digits}f}]"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def revisions(rows):
    """The distinct revisions of the runs, in sorted order."""
    found = {bench(r).get("git_revision") for r in rows}
    return ", ".join(sorted(str(r) for r in found if r))


# ---- auto_rounds.py series: one folder per point ------------------------------

def exchange_methods(plan):
    """The methods of a plan's exchanges, forward and backward, as 'a+b'."""
    used = set(part.split(" ")[0] for part in plan.split("(redist ")[1:])
    if "(backward " in plan:
        used |= {m.strip() for m in plan.split("(backward ")[1].split(")")[0].split(",")}
    return "+".join(sorted(used))


def rounds_point(rows):
    """One point's figures: method -> pair seconds per round, auto's choices
    and plan seconds per round."""
    done = [r for r in rows if pair(r)]
    by_round = {}
    for r in done:
        by_round.setdefault(r["round"], {})[r["method"]] = r
    return by_round


def rounds_row(name, rows):
    by_round = rounds_point(rows)
    ratios, plans, costs, chosen = [], [], [], {}
    fixed_times = {}
    for n in sorted(by_round):
        this = by_round[n]
        fixed = {m: pair(r) for m, r in this.items() if m != "auto"}
        for m, t in fixed.items():
            fixed_times.setdefault(m, []).append(t)
        if "auto" in this and fixed:
            best = min(fixed.values())
            ratios.append(pair(this["auto"]) / best)
            plan = bench(this["auto"]).get("plan_seconds")
            plans.append(plan)
            costs.append(plan / (50 * best))
            what = exchange_methods(bench(this["auto"]).get("plan", ""))
            chosen[what] = chosen.get(what, 0) + 1
    autos = [pair(by_round[n]["auto"]) for n in sorted(by_round) if "auto" in by_round[n]]
    ranked = sorted(fixed_times, key=lambda m: (statistics.median(fixed_times[m]), m))
    best, second = ranked[0], (ranked[1] if len(ranked) > 1 else None)
    sample = next(iter(rows))
    return [name, sample.get("ranks"), sample.get("tune_budget") or "full",
            f"{ms(statistics.median(autos), 2)}",
            f"{best} {ms(statistics.median(fixed_times[best]), 2)}",
            f"{second} {ms(statistics.median(fixed_times[second]), 2)}" if second else "–",
            spread(ratios), f"{sum(x <= 1.05 for x in ratios)} of {len(ratios)}",
            ", ".join(f"{m} ({k})" for m, k in sorted(chosen.items())),
            f"{statistics.median(plans):.2f}", f"{statistics.median(costs):.2f}",
            revisions(rows)]


ROUNDS_HEADER = ["point", "ranks", "tuning budget", "auto ms (median)", "best fixed ms (median)",
                 "next fixed ms", "auto / best fixed of the round, median [range]", "within 5 %",
                 "auto's exchanges (rounds)", "auto's plan s", "plan / 100 transforms", "revision"]


def rounds_table(directory, points):
    """points: (label, subfolder) pairs, in the order to print."""
    rows = []
    for label, sub in points:
        rows.append(rounds_row(label, load(os.path.join(directory, sub, "results.jsonl"))))
    return table(ROUNDS_HEADER, rows)


# ---- a campaign's results.jsonl -------------------------------------------------

def point_label(p):
    return f"{p['series']}: {p['ranks']} {p['grid']} {p['method']} {p['platform']} {p['placement']}"


def campaign_rows(path):
    return load(path)


def find(rows, **want):
    for r in rows:
        if all(r["point"].get(k) == v for k, v in want.items()):
            return r
    return None


def cell(row):
    if row is None:
        return "–"
    if row.get("timed_out"):
        return f"timed out ({row['wall_seconds']:.0f} s)"
    if pair(row) is None:
        return "not applicable" if "not applicable" in " ".join(row.get("error", [])) else "failed"
    return ms(pair(row))


def strong_table(rows):
    columns = [("pencil", "alltoallw"), ("pencil", "sendrecv"), ("slab", "alltoallw"), ("slab", "sendrecv")]
    strong = [r for r in rows if r["point"]["series"] == "strong"]
    out, first = [], None
    for p in sorted({r["point"]["ranks"] for r in strong}):
        cells, best = [], None
        for g, m in columns:
            row = find(strong, ranks=p, grid=g, method=m)
            cells.append(cell(row))
            if row and pair(row) and (best is None or pair(row) < best):
                best = pair(row)
        first = first or (p, best)
        out.append([p] + cells + [f"{first[1] * first[0] / (best * p):.2f}"])
    return table(["ranks"] + [f"{g} {m} ms" for g, m in columns] + ["best distfft efficiency"], out)


def weak_table(rows):
    weak = sorted((r for r in rows if r["point"]["series"] == "weak"), key=lambda r: r["point"]["ranks"])
    first = pair(weak[0])
    return table(["ranks", "shape", "pair ms", "efficiency"],
                 [[r["point"]["ranks"], "x".join(map(str, r["point"]["shape"])), cell(r),
                   f"{first / pair(r):.2f}"] for r in weak])


def methods_table(rows, repredicted=None, label="re-predicted"):
    """Every method at one point, simulated beside each model's prediction."""
    strong = [r for r in rows if r["point"]["series"] in ("strong", "methods")]
    ranks = min(r["point"]["ranks"] for r in rows if r["point"]["series"] == "methods")
    chosen = [r for r in strong if r["point"]["ranks"] == ranks and r["point"]["grid"] == "pencil"]
    chosen.sort(key=lambda r: (pair(r) is None, pair(r) or 0, r["point"]["method"]))
    header = ["method", "simulated ms", "predicted ms, as run"]
    if repredicted:
        header.append(f"predicted ms, {label}")
    out = []
    for r in chosen:
        line = [r["point"]["method"], cell(r), ms(r.get("predicted_pair_seconds"))]
        if repredicted:
            again = find(repredicted, **{k: r["point"][k] for k in ("series", "ranks", "grid", "method")})
            line.append(ms(again.get("predicted_pair_seconds")) if again else "–")
        out.append(line)
    return table(header, out)


def placement_table(rows):
    chosen = [r for r in rows if r["point"]["series"] == "placement"]
    chosen.sort(key=lambda r: r["point"]["placement"])
    return table(["platform", "ranks", "placement", "pair ms"],
                 [[r["point"]["platform"], r["point"]["ranks"], r["point"]["placement"], cell(r)]
                  for r in chosen])


def auto_table(rows):
    out = []
    for r in sorted((r for r in rows if r["point"]["series"] == "auto" and pair(r)),
                    key=lambda r: r["point"]["ranks"]):
        p = r["point"]
        fixed = [f for f in rows if f["point"]["series"] == "strong" and f["point"]["ranks"] == p["ranks"]
                 and f["point"]["grid"] == p["grid"] and pair(f)]
        best = min(fixed, key=pair)
        plan = bench(r).get("plan_seconds")
        out.append([p["ranks"], ms(pair(r)), f"{best['point']['method']} {ms(pair(best))}",
                    f"{pair(r) / pair(best):.2f}", exchange_methods(bench(r).get("plan", "")),
                    f"{plan:.2f}", f"{plan / (50 * pair(r)):.2f}"])
    return table(["ranks", "auto ms", "best fixed ms", "auto / best fixed", "auto's exchanges",
                  "plan s (tuning)", "plan / 100 transforms"], out)


def model_table(rows, predictions):
    """Simulated / predicted for every simulated point, one column per
    prediction: predictions is a list of (title, rows) whose rows hold
    predicted_pair_seconds for the same points. The last line counts the
    points within 25 %."""
    checked = [r for r in rows if r["point"]["series"] != "model" and pair(r)
               and r["point"]["series"] != "heffte" and r.get("predicted_pair_seconds")]
    out, counts = [], [[] for _ in predictions]
    for r in checked:
        line = [point_label(r["point"]), ms(pair(r))]
        for i, (_, other) in enumerate(predictions):
            again = next((o for o in other if o["label"] == r["label"]), None)
            predicted = again.get("predicted_pair_seconds") if again else None
            if predicted:
                counts[i].append(pair(r) / predicted)
                line += [ms(predicted), f"{pair(r) / predicted:.2f}"]
            else:
                line += ["–", "–"]
        out.append(line)
    total = ["**within 25 %**", ""]
    for ratios in counts:
        within = sum(abs(x - 1) <= 0.25 for x in ratios)
        total += ["", f"**{within} of {len(ratios)}** ({min(ratios):.2f}–{max(ratios):.2f})"]
    out.append(total)
    header = ["point", "simulated ms"]
    for title, _ in predictions:
        header += [f"predicted ms, {title}", "sim / pred"]
    return table(header, out)


def beyond_table(predictions):
    """The campaign's model series, predicted only (nothing executed), one
    column per prediction: (title, rows) pairs."""
    first = predictions[0][1]
    chosen = sorted((r for r in first if r["point"]["series"] == "model"),
                    key=lambda r: (r["point"]["shape"], r["point"]["ranks"]))
    out = []
    for r in chosen:
        line = ["x".join(map(str, r["point"]["shape"])), r["point"]["ranks"],
                f"{r['point']['grid']} {r['point']['method']}"]
        for _, other in predictions:
            again = next((o for o in other if o["label"] == r["label"]), None)
            line.append(ms(again.get("predicted_pair_seconds")) if again else "–")
        out.append(line)
    return table(["shape", "ranks", "grid, method"] + [f"predicted pair ms, {t}" for t, _ in predictions],
                 out)


def main(argv, tables, default):
    """table.py [NAME]: print the table NAME (default: `default`)."""
    name = argv[1] if len(argv) > 1 else default
    if name not in tables:
        raise SystemExit(f"table.py: no table {name!r} (known: {', '.join(sorted(tables))})")
    print(tables[name]())
