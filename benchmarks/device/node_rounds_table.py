#!/usr/bin/python3
"""node_rounds_table.py -- the tables of a node_rounds.py run (stdlib only).

    benchmarks/device/node_rounds_table.py [--section NAME] rounds.jsonl [more.jsonl ...]

Times are each run's fastest pair (ms): the median over rounds [fastest
round - slowest round]. Ratios are taken between runs of the same round and
given as the median [min-max] (n): per round, one ratio of the runs'
fastest pairs; per repetition, repetition j of one run over repetition j of
the other in the same round (pair_seconds_each; each run's first
repetition left out, a warm-up), rounds x (outer - 1) ratios. The targets
are judged on the per-repetition ratios.
"Best distfft" is, in each round, the fastest of distfft's layouts with the
defaults a user gets (not --destroy-input); "best FFTW" the faster of
FFTW-MPI C x 1 and FFTW's C threads in that round. Tables:
  1. the issue's table: best distfft against the best FFTW option
  2. the targets: best distfft / best FFTW <= 1.0, distfft C x 1 / FFTW-MPI
     C x 1 <= 0.95, distfft 1 x C / FFTW's C threads <= 1.05 (r2c: distfft
     with --destroy-input, FFTW's c2r destroying its input too)
  3. every contender: time, and plan_seconds in round 1 (planned from
     scratch: distfft's auto tuning, FFTW measuring) and later (from wisdom)
  4. where the time goes: each step of distfft C x 1 and 1 x C, slowest and
     fastest rank, and each exchange over one memcpy of the rank's share
     (distfft-bench's copy_seconds, as benchmarks/copy_floor.py)
  5. scaling: best distfft and best FFTW on k cores
  6. overlap: a batch of N against N separate transforms (N x the one-field
     pair of the same round), and what auto chose
Failed checks and runs are listed first. --section issue|targets|contenders|
steps|scaling|overlap prints that table alone, without its title (for a
README's generated table: benchmarks/results/tables.py).
"""
import collections
import json
import re
import statistics
import sys


def spread(values, digits=2):
    if not values:
        return "-"
    return f"{statistics.median(values):.{digits}f} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


def load(paths):
    records = []
    for path in paths:
        with open(path) as f:
            records += [json.loads(line) for line in f if line.strip()]
    return records


def timed(records):
    """(stage, shape, kind, precision) -> contender -> round -> record."""
    table = collections.defaultdict(lambda: collections.defaultdict(dict))
    for record in records:
        report = record.get("report")
        if record["check"] or record["returncode"] != 0 or not report or not report.get("pair_seconds"):
            continue
        case = (record["stage"], record["shape"], record["kind"], record["precision"])
        table[case][record["contender"]][record["round"]] = record
    return table


def pair_ms(record):
    return record["report"]["pair_seconds"] * 1e3


def is_default_distfft(name):
    return name.startswith("distfft ") and len(name.split()) == 2


def is_fftw(name):
    return name.startswith("FFTW")


def best_per_round(contenders, choose):
    """round -> (time ms, contender) of the fastest chosen contender."""
    best = {}
    for name, rounds in contenders.items():
        if not choose(name):
            continue
        for round_index, record in rounds.items():
            if round_index not in best or pair_ms(record) < best[round_index][0]:
                best[round_index] = (pair_ms(record), name)
    return best


def ratios(numerator, denominator):
    return [numerator[r][0] / denominator[r][0] for r in sorted(numerator) if r in denominator]


def repetitions(record):
    """Each repetition's pair (ms) but the first, in the order run."""
    return [seconds * 1e3 for seconds in (record["report"].get("pair_seconds_each") or [])[1:]]


def best_per_repetition(contenders, choose):
    """(round, j) -> fastest chosen contender's repetition j (ms)."""
    best = {}
    for name, rounds in contenders.items():
        if not choose(name):
            continue
        for round_index, record in rounds.items():
            for j, value in enumerate(repetitions(record)):
                key = (round_index, j)
                best[key] = min(best.get(key, value), value)
    return best


def repetition_ratios(numerator, denominator):
    return [numerator[key] / denominator[key] for key in sorted(numerator) if key in denominator]


def named(name):
    return lambda other: other == name


def times_of(contenders, name):
    return [pair_ms(record) for record in contenders.get(name, {}).values()]


def fastest_name(contenders, choose):
    names = [name for name in contenders if choose(name)]
    return min(names, key=lambda name: statistics.median(times_of(contenders, name)), default=None)


def cores_of(records):
    return max((r["ranks"] * r["threads"] for r in records if r["stage"] == "double"), default=1)


def failures(records):
    lines = []
    for record in records:
        if record["returncode"] != 0 or (record.get("report") or {}).get("check_passed") is False:
            lines.append(f"- {record['stage']} round {record['round']} {record['contender']} {record['kind']} "
                         f"{record['shape']}{' (check)' if record['check'] else ''}: "
                         f"exit {record['returncode']}")
    return ["Failed runs:"] + lines + [""] if lines else []


def issue_table(table):
    lines = ["| case | best distfft (P × T) ms | best FFTW option ms | best distfft / best FFTW, per round "
             "| per repetition |", "|---|---|---|---|---|"]
    for (stage, shape, kind, precision), contenders in sorted(table.items()):
        if stage not in ("double", "float", "large"):
            continue
        distfft_name = fastest_name(contenders, is_default_distfft)
        fftw_name = fastest_name(contenders, is_fftw)
        if not distfft_name or not fftw_name:
            continue
        per_round = ratios(best_per_round(contenders, is_default_distfft), best_per_round(contenders, is_fftw))
        per_repetition = repetition_ratios(best_per_repetition(contenders, is_default_distfft),
                                           best_per_repetition(contenders, is_fftw))
        lines.append(f"| {shape} {kind} {precision} | {spread(times_of(contenders, distfft_name))} "
                     f"({distfft_name.split()[1]}) | {fftw_name}: {spread(times_of(contenders, fftw_name))} | "
                     f"{spread(per_round)} (n = {len(per_round)}) | "
                     f"{spread(per_repetition)} (n = {len(per_repetition)}) |")
    return lines


def targets_table(table, cores):
    lines = ["| case | target | limit | per repetition: median [range] (n) | per round (n) | met |",
             "|---|---|---|---|---|---|"]
    for (stage, shape, kind, precision), contenders in sorted(table.items()):
        if stage not in ("double", "float", "large"):
            continue
        one_rank = f"distfft 1x{cores} destroy" if kind == "r2c" else f"distfft 1x{cores}"
        targets = [("best distfft / best FFTW", 1.0, is_default_distfft, is_fftw),
                   (f"distfft {cores}x1 / FFTW-MPI {cores}x1", 0.95, named(f"distfft {cores}x1"),
                    named(f"FFTW-MPI {cores}x1")),
                   (f"{one_rank} / FFTW {cores} threads", 1.05, named(one_rank), named(f"FFTW {cores} threads"))]
        for name, limit, top, bottom in targets:
            values = repetition_ratios(best_per_repetition(contenders, top), best_per_repetition(contenders, bottom))
            per_round = ratios(best_per_round(contenders, top), best_per_round(contenders, bottom))
            met = "-" if not values else ("yes" if statistics.median(values) <= limit else
                                          f"no: gap {statistics.median(values) / limit - 1:+.0%}")
            lines.append(f"| {shape} {kind} {precision} | {name} | ≤ {limit} | {spread(values)} "
                         f"(n = {len(values)}) | {spread(per_round)} (n = {len(per_round)}) | {met} |")
    return lines


def contenders_table(table):
    lines = ["| case | contender | pair ms | plan s, round 1 | plan s, later rounds | grid, method |",
             "|---|---|---|---|---|---|"]
    for (stage, shape, kind, precision), contenders in sorted(table.items()):
        for name, rounds in contenders.items():
            first = [r["report"].get("plan_seconds") for i, r in rounds.items() if i == 1]
            later = [r["report"].get("plan_seconds") for i, r in rounds.items() if i > 1]
            report = next(iter(rounds.values()))["report"]
            layout = f"{report.get('grid')} {report.get('method')}" if name.startswith("distfft") else "-"
            lines.append(f"| {stage} {shape} {kind} {precision} | {name} | {spread(times_of(contenders, name))} | "
                         f"{spread([v for v in first if v is not None], 3)} | "
                         f"{spread([v for v in later if v is not None], 3)} | {layout} |")
    return lines


def steps_table(table, cores):
    lines = ["| case | contender | step | slowest rank ms | fastest rank ms | exchange / memcpy |",
             "|---|---|---|---|---|---|"]
    for (stage, shape, kind, precision), contenders in sorted(table.items()):
        if stage != "double":
            continue
        for name in (f"distfft {cores}x1", f"distfft 1x{cores}"):
            by_step = collections.defaultdict(lambda: ([], [], []))
            for record in contenders.get(name, {}).values():
                for index, step in enumerate(record["report"].get("steps") or []):
                    slowest, fastest, copies = by_step[(index, step["direction"], step["step"])]
                    slowest.append(step["seconds"] * 1e3)
                    if step.get("seconds_fastest_rank") is not None:
                        fastest.append(step["seconds_fastest_rank"] * 1e3)
                    if step["step"].startswith("redist") and step.get("copy_seconds"):
                        copies.append(step["seconds"] / step["copy_seconds"])
            for (_, direction, step), (slowest, fastest, copies) in sorted(by_step.items()):
                lines.append(f"| {shape} {kind} | {name} | {direction} {step} | {spread(slowest, 3)} | "
                             f"{spread(fastest, 3)} | {spread(copies)} |")
    return lines


def scaling_table(table):
    lines = ["| case | cores | best distfft ms | best FFTW ms | best distfft / best FFTW, per round |",
             "|---|---|---|---|---|"]
    for (stage, shape, kind, precision), contenders in sorted(table.items()):
        if stage != "scaling":
            continue
        by_cores = collections.defaultdict(dict)
        for name, rounds in contenders.items():
            layout = re.search(r"(\d+)x(\d+)|(\d+) threads", name)
            count = int(layout.group(3)) if layout.group(3) else int(layout.group(1)) * int(layout.group(2))
            by_cores[count][name] = rounds
        for count, group in sorted(by_cores.items()):
            d, f = fastest_name(group, is_default_distfft), fastest_name(group, is_fftw)
            if not d or not f:
                continue
            per_round = ratios(best_per_round(group, is_default_distfft), best_per_round(group, is_fftw))
            lines.append(f"| {shape} {kind} | {count} | {spread(times_of(group, d))} ({d.split()[1]}) | "
                         f"{spread(times_of(group, f))} ({f}) | {spread(per_round)} |")
    return lines


def chosen_overlap(record):
    found = re.search(r"overlap=(\w+)", record["report"].get("plan") or "")
    return found.group(1) if found else "off"


def overlap_table(table):
    lines = ["| case | batch | overlap | pair ms | batch / separate transforms, per round | chosen |",
             "|---|---|---|---|---|---|"]
    for (stage, shape, kind, precision), contenders in sorted(table.items()):
        if stage != "overlap":
            continue
        single = next((rounds for name, rounds in contenders.items() if name.endswith("batch 1")), {})
        for name, rounds in contenders.items():
            words = name.split()
            if words[-2] == "batch" and words[-1] == "1":
                continue
            fields, overlap = int(words[-2]), words[-1]
            per_round = [pair_ms(record) / (fields * pair_ms(single[r])) for r, record in sorted(rounds.items())
                         if r in single]
            chosen = sorted({chosen_overlap(record) for record in rounds.values()})
            lines.append(f"| {shape} {kind} {words[1]} | {fields} | {overlap} | "
                         f"{spread(times_of(contenders, name))} | {spread(per_round)} | {', '.join(chosen)} |")
    return lines


def main(argv):
    only = None
    if argv[:1] == ["--section"] and len(argv) > 1:
        only, argv = argv[1], argv[2:]
    if not argv:
        sys.exit(__doc__)
    records = load(argv)
    table, cores = timed(records), cores_of(records)
    sections = [("issue", "Best distfft against the best FFTW option", lambda: issue_table(table)),
                ("targets", "Targets", lambda: targets_table(table, cores)),
                ("contenders", "Every contender", lambda: contenders_table(table)),
                ("steps", f"Steps of distfft {cores}x1 and 1x{cores} (double)", lambda: steps_table(table, cores)),
                ("scaling", "Scaling", lambda: scaling_table(table)),
                ("overlap", "Overlap", lambda: overlap_table(table))]
    if only:
        found = [make for name, _, make in sections if name == only]
        if not found:
            sys.exit(f"node_rounds_table.py: no section {only}")
        print("\n".join(found[0]()))
        return 0
    print("\n".join(failures(records)))
    for _, title, make in sections:
        lines = make()
        if len(lines) > 2:
            print(f"## {title}\n\n" + "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
