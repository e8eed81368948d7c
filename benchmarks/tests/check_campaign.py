"""check_campaign.py DIR -- a campaign's outputs exist and parse: every line
of results.jsonl is JSON with a time or an error, the three phases ran, no
run failed, summary.md has the comparison and node tables, and each plot is
a PNG."""
import json
import os
import sys

PLOTS = ["strong_scaling.png", "efficiency.png", "breakdown.png", "ratio.png"]


def main(folder):
    with open(os.path.join(folder, "results.jsonl")) as results:
        records = [json.loads(line) for line in results if line.strip()]
    if not records:
        sys.exit("results.jsonl is empty")
    failed = [r for r in records if "error" in r]
    if failed:
        sys.exit(f"{len(failed)} failed runs, first: {failed[0]['system']}: {failed[0]['error']}")
    phases = {r["phase"] for r in records}
    if phases != {"methods", "comparison", "node"}:
        sys.exit(f"phases {sorted(phases)}")
    systems = {r["system"] for r in records}
    for wanted in ("serial FFTW", "FFTW-MPI transposed", "FFTW-MPI natural",
                   "mpi4py-fft slab", "mpi4py-fft pencil", "serial FFTW threaded T=2",
                   "distfft alltoallw T=2", "distfft auto T=1", "FFTW-MPI transposed T=2"):
        if wanted not in systems:
            sys.exit(f"no runs of {wanted}")
    if not any(r["pair_seconds"] > 0 and r["check_passed"] is True for r in records):
        sys.exit("no run with a positive time and a passed check")
    summary = open(os.path.join(folder, "summary.md")).read()
    for heading in ("## distfft against the peers", "## Parallel efficiency",
                    "## distfft's redistribution methods", "| ours / best peer |",
                    "## One node: P ranks × T threads", "| distfft / serial threaded |"):
        if heading not in summary:
            sys.exit(f"summary.md lacks '{heading}'")
    for plot in PLOTS:
        with open(os.path.join(folder, plot), "rb") as image:
            if image.read(8) != b"\x89PNG\r\n\x1a\n":
                sys.exit(f"{plot} is not a PNG")
    print(f"ok: {len(records)} runs, {len(systems)} systems, {len(PLOTS)} plots")


if __name__ == "__main__":
    main(sys.argv[1])
