#!/usr/bin/env python3
"""model_median.py -- one cost model from several calibrations of one machine.

Two calibrations run one after the other on a shared or virtual machine can
differ by up to 1.9 times in single figures (docs/guide/scale.md: a lent
16-core machine; 15 % on this 2-core one), and a prediction inherits that.
This writes a model whose every number is the median of the files' (a
scalar; each point of a table, whose points must be the same in every file):

  for i in 1 2 3; do mpiexec -n 16 build/bin/distfft-bench --calibrate m$i.txt; done
  python3 benchmarks/model_median.py model.txt m1.txt m2.txt m3.txt

The files must come from one machine kind (the same mpi_library and
node_size lines) and carry the same keys; network_levels, written by hand
or by the scale lab, must be the same in each. Anything else is refused
with a message naming the file and key, and nothing is written.
"""
import statistics
import sys

HEADER = "distfft-model 1"
SAME = ("mpi_library", "node_size", "network_levels")


def read(path):
    """The (key, value) lines of a model file, in order."""
    with open(path, encoding="utf-8") as stream:
        lines = [line.strip() for line in stream]
    body = [line for line in lines if line and not line.startswith("#")]
    if not body or body[0] != HEADER:
        raise ValueError(f"{path}: not a distfft model (no '{HEADER}' header)")
    pairs = []
    for line in body[1:]:
        key, equals, value = line.partition("=")
        if not equals:
            raise ValueError(f"{path}: '{line}' is not 'key = value'")
        pairs.append((key.strip(), value.strip()))
    return pairs


def table(path, key, value):
    """A table's points as (x text, y) pairs."""
    points = []
    for item in value.split():
        x, colon, y = item.partition(":")
        if not colon:
            raise ValueError(f"{path}: {key}: '{item}' is not X:Y")
        points.append((x, float(y)))
    return points


def median_model(paths):
    """The text of the median model of the files at paths."""
    if len(paths) < 2:
        raise ValueError("give at least two calibrations")
    models = [dict(read(path)) for path in paths]
    order = [key for key, _ in read(paths[0])]
    for path, model in zip(paths[1:], models[1:]):
        if set(model) != set(order):
            raise ValueError(f"{path}: keys differ from {paths[0]}'s: "
                             f"{sorted(set(model) ^ set(order))}")
    out = [HEADER, f"# median of {len(paths)} calibrations: {' '.join(paths)}"]
    for key in order:
        values = [model[key] for model in models]
        if key == "machine":
            out.append(f"machine = {values[0]}")
        elif key in SAME:
            for path, value in zip(paths[1:], values[1:]):
                if value != values[0]:
                    raise ValueError(f"{path}: {key} differs from {paths[0]}'s: another machine kind")
            out.append(f"{key} = {values[0]}")
        elif ":" in values[0]:
            tables = [table(path, key, value) for path, value in zip(paths, values)]
            xs = [x for x, _ in tables[0]]
            for path, points in zip(paths[1:], tables[1:]):
                if [x for x, _ in points] != xs:
                    raise ValueError(f"{path}: {key} has other points than {paths[0]}'s")
            medians = [statistics.median(points[i][1] for points in tables) for i in range(len(xs))]
            out.append(f"{key} = " + " ".join(f"{x}:{y:.6g}" for x, y in zip(xs, medians)))
        else:
            try:
                numbers = [float(value) for value in values]
            except ValueError:
                raise ValueError(f"{key}: not a number in every file: {values}") from None
            out.append(f"{key} = {statistics.median(numbers):.6g}")
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    try:
        text = median_model(argv[1:])
    except (OSError, ValueError) as error:
        sys.exit(f"model_median.py: {error}")
    with open(argv[0], "w", encoding="utf-8") as stream:
        stream.write(text)
    print(f"model_median.py: {argv[0]}: the median of {len(argv) - 1} calibrations")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
