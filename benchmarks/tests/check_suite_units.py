"""check_suite_units.py -- the campaign's pieces without running anything:
the distfft command lines carry --model / --tune-budget as asked, ranks get
hardware threads where cores have several, the node table's ratios are
medians of same-round ratios with their range, and the node phase runs every
precision asked (--precisions double,float), each system of it given the
case's precision, one table row per precision."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import campaign  # noqa: E402
from suite import presets, runs, summary, systems  # noqa: E402


def fail(message):
    sys.exit("check_suite_units: " + message)


def check_commands():
    tools = systems.Tools("/b", "mpiexec.openmpi", "/usr/bin/python3")
    preset = presets.make("smoke")
    case = presets.Case((16, 16, 16), "c2c", 2)
    plain = systems.command(tools, "distfft auto", case, preset)
    if "--model" in plain or "--tune-budget" in plain:
        fail(f"no model asked, yet {plain}")
    preset.model, preset.tune_budget = "/m.txt", 6
    auto = systems.command(tools, "distfft auto", case, preset)
    fixed = systems.command(tools, "distfft alltoallw", case, preset)
    fftw = systems.command(tools, systems.FFTW_TRANSPOSED, case, preset)
    if auto[auto.index("--model") + 1] != "/m.txt" or auto[auto.index("--tune-budget") + 1] != "6":
        fail(f"auto: {auto}")
    if "--model" not in fixed or "--tune-budget" in fixed:
        fail(f"a fixed method gets the model, not the budget: {fixed}")
    if "--model" in fftw:
        fail(f"FFTW-MPI got distfft's model: {fftw}")


def check_binding():
    tools = systems.Tools("/b", "mpiexec.openmpi", "/usr/bin/python3")
    original = systems.threads_per_core
    try:
        systems.threads_per_core = lambda: 2
        smt = systems.binding(tools, 1, 2)
        systems.threads_per_core = lambda: 1
        plain = systems.binding(tools, 1, 2)
    finally:
        systems.threads_per_core = original
    if (os.cpu_count() or 1) >= 2:
        if smt[:1] != ["--use-hwthread-cpus"] or smt[-1] != "hwthread":
            fail(f"hyper-threaded binding {smt}")
        if plain != ["--map-by", "slot:PE=2", "--bind-to", "core"]:
            fail(f"binding {plain}")
    one_each = systems.binding(tools, 2, 1)
    if (os.cpu_count() or 1) >= 2 and one_each != ["--map-by", "slot:PE=1", "--bind-to", "core"]:
        fail(f"one thread per rank: each rank bound to its core, got {one_each}")
    if systems.binding(tools, 4 * (os.cpu_count() or 1), 1) != ["--bind-to", "none"]:
        fail("more ranks than cores: no binding")
    if systems.threads_per_core() < 1:
        fail("threads_per_core below 1")


def record(system, ranks, round_index, seconds, precision=None):
    made = {"phase": "node", "system": system, "case_shape": [8, 8, 8], "case_kind": "c2c",
            "case_ranks": ranks, "round": round_index, "pair_seconds": seconds,
            "pair_seconds_median": seconds, "precision": "double"}
    if precision:
        made.update(case_precision=precision, precision=precision)
    return made


def check_node_table():
    # Round 1 is slow for everyone: the same-round ratio stays 0.5 while the
    # ratio of fastest pairs (0.1 / 0.4) would say 0.25.
    records = [record("serial FFTW threaded T=2", 1, 0, 0.4), record("serial FFTW threaded T=2", 1, 1, 2.0),
               record("distfft auto T=1", 2, 0, 0.2), record("distfft auto T=1", 2, 1, 1.0),
               record("FFTW-MPI transposed T=1", 2, 0, 0.4), record("FFTW-MPI transposed T=1", 2, 2, 9.0)]
    lines = summary.node_table(summary.Results(records))
    row = [line for line in lines if "2 = 2 × 1" in line]
    if len(row) != 1:
        fail(f"no row for 2 = 2 x 1 in {lines}")
    cells = [cell.strip() for cell in row[0].strip("|").split("|")]
    # shape, precision, C = P x T, rounds, distfft, FFTW-MPI, serial, ours/serial,
    # ours/FFTW-MPI, FFTW-MPI/serial; records without case_precision (older
    # campaigns) take the precision the program printed
    if cells[1] != "double" or cells[3] != "2" or cells[7] != "0.50 [0.50–0.50]":
        fail(f"distfft / serial threaded: {cells}")
    if cells[8] != "0.50":   # only round 0 has both
        fail(f"distfft / FFTW-MPI over the rounds both ran: {cells}")
    if cells[4] != "600.0 [200.0–1000.0]":
        fail(f"distfft's median [range] in ms: {cells}")
    if summary.median_range([]) != "–":
        fail("no values")


def check_precisions():
    """--precisions double,float: the node phase runs each system in each
    precision, the command lines say which, results.jsonl records it, and
    summary.md has one row per precision; other phases keep the preset's."""
    if campaign.parse(["smoke", "--precisions", "double,float"]).precisions != ["double", "float"]:
        fail("--precisions double,float not parsed")
    if campaign.parse(["smoke"]).precisions is not None:
        fail("the default must leave the node phase in the preset's precision")
    tools = systems.Tools("/b", "mpiexec.openmpi", "/usr/bin/python3")
    preset = presets.make("smoke")
    plain = runs.Campaign(preset, tools, "/nonexistent").node_plan()
    if {case.precision for case, _ in plain} != {"double"}:
        fail(f"default node phase: {[case.label() for case, _ in plain]}")
    preset.node_precisions = ["double", "float"]
    plan = runs.Campaign(preset, tools, "/nonexistent").node_plan()
    if len(plan) != 2 * len(plain):
        fail(f"two precisions: {len(plan)} runs, not twice {len(plain)}")
    for case, system in plan:
        command = systems.command(tools, system, case, preset)
        if command[command.index("--precision") + 1] != case.precision:
            fail(f"{system} {case.label()}: {command}")
    floats = {systems.split_threads(system)[0] for case, system in plan if case.precision == "float"}
    for wanted in (systems.SERIAL_THREADED, systems.FFTW_TRANSPOSED, "distfft alltoallw", "distfft auto"):
        if wanted not in floats:
            fail(f"no float run of {wanted}: {sorted(floats)}")
    if "float" not in plan[-1][0].label():
        fail(f"a float case's label: {plan[-1][0].label()}")
    comparison = systems.command(tools, systems.SERIAL, presets.Case((16, 16, 16), "c2c", 1), preset)
    if comparison[comparison.index("--precision") + 1] != preset.precision:
        fail(f"a case without a precision takes the preset's: {comparison}")
    records = [record("serial FFTW threaded T=2", 1, 0, 0.4, "double"),
               record("distfft auto T=1", 2, 0, 0.2, "double"),
               record("serial FFTW threaded T=2", 1, 0, 0.2, "float"),
               record("distfft auto T=1", 2, 0, 0.15, "float")]
    results = summary.Results(records)
    if summary.case_of(records[-1]).precision != "float":
        fail("case_of drops case_precision")
    rows = [[cell.strip() for cell in line.strip("|").split("|")]
            for line in summary.node_table(results) if "2 = 2 × 1" in line]
    if sorted((row[1], row[7]) for row in rows) != [("double", "0.50"),
                                                     ("float", "0.75")]:
        fail(f"one row per precision, each against its own baseline: {rows}")


def main():
    check_commands()
    check_binding()
    check_node_table()
    check_precisions()
    print("ok")


if __name__ == "__main__":
    main()
