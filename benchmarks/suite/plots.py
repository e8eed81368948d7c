"""plots.py -- the campaign's PNG figures (matplotlib, no display needed).

  strong_scaling.png  time per forward+backward pair vs ranks, one panel per
                      shape and kind, every system, with the ideal
                      T_serial / P line from the serial FFTW floor;
  efficiency.png      parallel efficiency T_serial / (P T_P) per case;
  breakdown.png       distfft's pair time per redistribution method split
                      into serial FFTs and redistribution (as the paper's
                      Figs. 6-10), one panel per case of the methods phase;
  ratio.png           distfft's time over each peer's, and over the best
                      peer's, per case (below 1: distfft is faster).
"""
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from . import systems  # noqa: E402

COLOURS = {"distfft": "tab:red", systems.FFTW_TRANSPOSED: "tab:blue",
           systems.FFTW_NATURAL: "tab:cyan", systems.MPI4PY_SLAB: "tab:green",
           systems.MPI4PY_PENCIL: "tab:olive", systems.SERIAL: "black"}


def shape_label(shape, kind):
    return f"{'×'.join(map(str, shape))} {kind}"


def panel_grid(count, width=4.6, height=3.6):
    columns = min(count, 3)
    rows = math.ceil(count / columns)
    figure, axes = plt.subplots(rows, columns, figsize=(width * columns, height * rows),
                                squeeze=False)
    for extra in axes.flat[count:]:
        extra.set_visible(False)
    return figure, list(axes.flat)


def strong_scaling(results, path, subtitle):
    cases = results.comparison_cases()
    groups = sorted({(case.shape, case.kind) for case in cases},
                    key=lambda g: (len(g[0]), g[0], g[1]))
    if not groups:
        return None
    figure, axes = panel_grid(len(groups))
    for axis, (shape, kind) in zip(axes, groups):
        group = [case for case in cases if (case.shape, case.kind) == (shape, kind)]
        ranks = sorted(case.ranks for case in group)
        series = [("distfft", lambda case: results.ours(case)[1])]
        series += [(name, lambda case, name=name: results.get("comparison", name, case))
                   for name in systems.PEER_NAMES]
        for name, lookup in series:
            points = [(case.ranks, lookup(case)) for case in group]
            points = [(p, stats.fastest * 1e3) for p, stats in sorted(points, key=lambda x: x[0])
                      if stats is not None]
            if points:
                axis.plot(*zip(*points), marker="o", color=COLOURS[name], label=name)
        floor = results.serial(group[0])
        if floor is not None:
            axis.plot(ranks, [floor.fastest * 1e3 / p for p in ranks], "k--",
                      label="serial FFTW / P (ideal)")
        axis.set_xscale("log", base=2)
        axis.set_yscale("log")
        axis.set_xticks(ranks)
        axis.set_xticklabels([str(p) for p in ranks])
        axis.set_xlabel("MPI ranks P")
        axis.set_ylabel("time per forward+backward pair (ms)")
        axis.set_title(shape_label(shape, kind))
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=7)
    figure.suptitle(f"Strong scaling, fastest repetition\n{subtitle}", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def headroom(axis, factor=1.35):
    """Room above the tallest bar for the legend."""
    bottom, top = axis.get_ylim()
    axis.set_ylim(bottom, top * factor)


def grouped_bars(axis, labels, series, colours):
    """series: list of (name, [value or None per label]); None: no bar."""
    width = 0.8 / max(len(series), 1)
    for index, (name, values) in enumerate(series):
        positions = [i + (index - (len(series) - 1) / 2) * width for i in range(len(labels))]
        present = [(x, v) for x, v in zip(positions, values) if v is not None]
        axis.bar([x for x, _ in present], [v for _, v in present], width,
                 label=name, color=colours.get(name))
    axis.set_xticks(range(len(labels)))
    axis.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)


def efficiency(results, path, subtitle):
    cases = results.comparison_cases()
    if not cases:
        return None
    labels = [f"{shape_label(c.shape, c.kind)}\nP={c.ranks}" for c in cases]
    series = [("distfft", [results.efficiency(c, results.ours(c)[1]) for c in cases])]
    series += [(name, [results.efficiency(c, results.get("comparison", name, c)) for c in cases])
               for name in systems.PEER_NAMES]
    figure, axis = plt.subplots(figsize=(max(6.0, 1.3 * len(cases)), 4.2))
    grouped_bars(axis, labels, series, COLOURS)
    axis.axhline(1.0, color="black", linewidth=0.8)
    axis.axhline(0.8, color="grey", linestyle=":", linewidth=1, label="target 0.8")
    headroom(axis)
    axis.set_ylabel("parallel efficiency  T_serial / (P · T_P)")
    axis.set_title(f"Parallel efficiency against serial FFTW on one core\n{subtitle}", fontsize=10)
    axis.legend(fontsize=7, ncol=3)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def breakdown(results, path, subtitle):
    cases = results.cases("methods")
    if not cases:
        return None
    figure, axes = panel_grid(len(cases), width=5.2, height=4.2)
    for axis, case in zip(axes, cases):
        rows = []
        for (phase, name, c), stats in results.stats.items():
            if phase == "methods" and c == case and stats.ok:
                rows.append((name.split(" ", 1)[1], stats))
        rows.sort(key=lambda row: row[1].fastest)
        names = [name for name, _ in rows]
        fft = [(stats.fft or 0.0) * 1e3 for _, stats in rows]
        redistribute = [(stats.redistribute or 0.0) * 1e3 for _, stats in rows]
        other = [max(stats.fastest * 1e3 - f - r, 0.0)
                 for (_, stats), f, r in zip(rows, fft, redistribute)]
        positions = range(len(rows))
        axis.bar(positions, fft, label="serial FFTs", color="tab:blue")
        axis.bar(positions, redistribute, bottom=fft, label="redistribution",
                 color="tab:orange")
        axis.bar(positions, other, bottom=[f + r for f, r in zip(fft, redistribute)],
                 label="other (outside distfft's timers)", color="tab:grey")
        axis.set_xticks(list(positions))
        axis.set_xticklabels(names, rotation=35, ha="right", fontsize=8)
        axis.set_xlabel("redistribution method (fastest first)")
        headroom(axis)
        axis.set_ylabel("time per forward+backward pair (ms)")
        axis.set_title(case.label())
        axis.legend(fontsize=7)
    figure.suptitle(f"distfft: serial FFTs vs redistribution per method, fastest repetition\n{subtitle}", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def ratio(results, path, subtitle):
    cases = results.comparison_cases()
    if not cases:
        return None
    labels = [f"{shape_label(c.shape, c.kind)}\nP={c.ranks}" for c in cases]
    best = []
    for case in cases:
        name, _ = results.best_peer(case)
        best.append(results.ratio(case, name) if name else None)
    series = [("vs FFTW-MPI transposed", [results.ratio(c, systems.FFTW_TRANSPOSED) for c in cases]),
              ("vs mpi4py-fft slab", [results.ratio(c, systems.MPI4PY_SLAB) for c in cases]),
              ("vs the best peer", best)]
    colours = {"vs FFTW-MPI transposed": COLOURS[systems.FFTW_TRANSPOSED],
               "vs mpi4py-fft slab": COLOURS[systems.MPI4PY_SLAB],
               "vs the best peer": "tab:purple"}
    figure, axis = plt.subplots(figsize=(max(6.0, 1.3 * len(cases)), 4.2))
    grouped_bars(axis, labels, series, colours)
    axis.axhline(1.0, color="black", linewidth=0.8, label="equal time")
    axis.axhline(0.85, color="grey", linestyle=":", linewidth=1,
                 label="target vs mpi4py-fft (0.85)")
    headroom(axis)
    axis.set_ylabel("distfft time / peer time  (< 1: distfft faster)")
    axis.set_title(f"distfft relative to the peers, fastest repetitions\n{subtitle}", fontsize=10)
    axis.legend(fontsize=7, ncol=2)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def write_all(results, out_dir, subtitle=""):
    made = []
    for name, draw in (("strong_scaling.png", strong_scaling), ("efficiency.png", efficiency),
                       ("breakdown.png", breakdown), ("ratio.png", ratio)):
        path = draw(results, os.path.join(out_dir, name), subtitle)
        if path:
            made.append(path)
    return made
