"""check_campaign.py DIR [methods] -- a campaign's outputs exist and parse: every line
of results.jsonl is JSON with a time or an error, the four phases ran, no
run failed, summary.md has the comparison and node tables, and each plot is
a PNG. With `methods`: the methods preset's phases and tables."""
import json
import os
import sys

PLOTS = ["strong_scaling.png", "efficiency.png", "breakdown.png", "ratio.png"]


def check_methods(folder, records):
    """The methods preset: the methods and halo phases only, the vector
    method and both halo variants measured (or vector said not applicable),
    and both tables in summary.md."""
    phases = {r["phase"] for r in records}
    if phases != {"methods", "halo"}:
        sys.exit(f"phases {sorted(phases)}")
    systems = {r["system"] for r in records}
    for wanted in ("distfft alltoallw", "distfft vector", "distfft auto", "halo datatypes",
                   "halo pack"):
        if wanted not in systems:
            sys.exit(f"no runs of {wanted}")
    summary = open(os.path.join(folder, "summary.md")).read()
    for heading in ("## distfft's redistribution methods", "| / alltoallw |",
                    "## Halo exchange", "| datatypes / pack |"):
        if heading not in summary:
            sys.exit(f"summary.md lacks '{heading}'")
    print(f"ok: {len(records)} runs, {len(systems)} systems")


def main(folder, preset="smoke"):
    with open(os.path.join(folder, "results.jsonl")) as results:
        records = [json.loads(line) for line in results if line.strip()]
    if not records:
        sys.exit("results.jsonl is empty")
    failed = [r for r in records if "error" in r]
    if failed:
        sys.exit(f"{len(failed)} failed runs, first: {failed[0]['system']}: {failed[0]['error']}")
    if preset == "methods":
        return check_methods(folder, records)
    phases = {r["phase"] for r in records}
    if phases != {"methods", "comparison", "node", "halo"}:
        sys.exit(f"phases {sorted(phases)}")
    systems = {r["system"] for r in records}
    for wanted in ("serial FFTW", "FFTW-MPI transposed", "FFTW-MPI natural",
                   "mpi4py-fft slab", "mpi4py-fft pencil", "serial FFTW threaded T=2",
                   "distfft alltoallw T=2", "distfft auto T=1", "FFTW-MPI transposed T=2",
                   "halo datatypes", "halo pack"):
        if wanted not in systems:
            sys.exit(f"no runs of {wanted}")
    if not any(r["pair_seconds"] > 0 and r.get("check_passed") is True for r in records):
        sys.exit("no run with a positive time and a passed check")
    summary = open(os.path.join(folder, "summary.md")).read()
    for heading in ("## distfft against the peers", "## Parallel efficiency",
                    "## distfft's redistribution methods", "| ours / best peer |",
                    "## One node: P ranks × T threads", "| distfft / serial threaded |", "| 2 = 2 × 1 |",
                    "## Halo exchange", "| datatypes / pack |", "| / alltoallw |"):
        if heading not in summary:
            sys.exit(f"summary.md lacks '{heading}'")
    for plot in PLOTS:
        with open(os.path.join(folder, plot), "rb") as image:
            if image.read(8) != b"\x89PNG\r\n\x1a\n":
                sys.exit(f"{plot} is not a PNG")
    print(f"ok: {len(records)} runs, {len(systems)} systems, {len(PLOTS)} plots")


if __name__ == "__main__":
    main(*sys.argv[1:3])
