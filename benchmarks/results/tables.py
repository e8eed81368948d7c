#!/usr/bin/python3
"""Every results table of the README and the manual, regenerated from raw data.

    benchmarks/results/tables.py            each embedded table and whether it matches
    benchmarks/results/tables.py --check    exit 1 if any table differs from its script
    benchmarks/results/tables.py --write    rewrite the tables from their scripts

A page (README.md, docs/**/*.md, benchmarks/results/**/README.md) embeds a
table between two marker lines:

    <!-- table: smpi-fat-tree/small-2026-11-27b strong -->
    | ... |
    <!-- end table -->

The first word names an experiment folder under benchmarks/results/; the
table between the markers is exactly what that folder's table.py prints,
given the remaining words as arguments. A figure in prose cites such a
table or its folder; a number typed by hand into a table cannot drift from
its raw data, because this check runs in scripts/test.

Stdlib only: it runs under Debian's /usr/bin/python3 and in the venv.
"""
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
BEGIN = re.compile(r"^<!-- table: (\S+)((?: \S+)*) -->$")
END = "<!-- end table -->"


def pages(root):
    found = [os.path.join(root, "README.md")]
    found += glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True)
    found += glob.glob(os.path.join(root, "benchmarks", "results", "**", "*.md"),
                       recursive=True)
    return sorted(p for p in found if "_build" not in p and os.path.isfile(p))


def blocks(text):
    """(first line index, last line index, experiment, arguments) of each table."""
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        match = BEGIN.match(lines[i])
        if match:
            end = next((j for j in range(i + 1, len(lines)) if lines[j] == END), None)
            if end is None:
                raise ValueError(f"line {i + 1}: '{lines[i]}' has no '{END}'")
            found.append((i, end, match.group(1), match.group(2).split()))
            i = end
        i += 1
    return found


def generate(results, experiment, arguments):
    script = os.path.join(results, experiment, "table.py")
    if not os.path.isfile(script):
        raise FileNotFoundError(f"{experiment}: no table.py in {os.path.join(results, experiment)}")
    done = subprocess.run([sys.executable, script] + arguments, capture_output=True,
                          text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"{experiment} {' '.join(arguments)}: table.py failed:\n{done.stderr}")
    return done.stdout.rstrip("\n")


def process(path, results, write):
    """The number of tables in path that differ from their scripts (rewritten if write)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.split("\n")
    differing = 0
    for first, last, experiment, arguments in reversed(blocks(text)):
        fresh = generate(results, experiment, arguments)
        kept = "\n".join(lines[first + 1:last])
        label = f"{os.path.relpath(path, ROOT)}:{first + 1}: {experiment} {' '.join(arguments)}".rstrip()
        if kept == fresh:
            print(f"same      {label}")
            continue
        differing += 1
        print(f"{'rewritten' if write else 'DIFFERS  '} {label}")
        if not write:
            for number, (old, new) in enumerate(zip(kept.split("\n") + [""] * 999, fresh.split("\n"))):
                if old != new:
                    print(f"    first difference, table line {number + 1}:\n    page:   {old}\n    script: {new}")
                    break
        lines[first + 1:last] = fresh.split("\n")
    if write and differing:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
    return differing


def self_test():
    """The scanner must find a block, its arguments and its end, and refuse an unclosed one."""
    sample = "x\n<!-- table: a/b c d -->\n| 1 |\n<!-- end table -->\ny\n<!-- table: e -->\n<!-- end table -->"
    assert blocks(sample) == [(1, 3, "a/b", ["c", "d"]), (5, 6, "e", [])], blocks(sample)
    try:
        blocks("<!-- table: a -->\n| 1 |")
    except ValueError:
        return
    raise AssertionError("an unclosed table was not refused")


def main(argv):
    write = "--write" in argv
    check = "--check" in argv or not write
    self_test()
    results = HERE
    total = differing = 0
    for page in pages(ROOT):
        with open(page, encoding="utf-8") as f:
            total += len(blocks(f.read()))
        differing += process(page, results, write)
    print(f"{total} tables, {differing} {'rewritten' if write else 'differing'}")
    if check and not write and differing:
        print("regenerate them with benchmarks/results/tables.py --write, or fix the script")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
