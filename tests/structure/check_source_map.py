#!/usr/bin/env python3
"""check_source_map.py -- docs/source-map.md names every file of src/, and
no file that is not there.

The map is a code block of entries: a path at the start of a line
(`src/plan/`, `src/grid.c`), then what it holds, on lines indented below
it. A file is in the map when its path appears in it whole, or relative
to the folder of an entry in that entry's text (`run.c` in the entry
`src/plan/`, `kinds.c` in the entry `src/kinds.def`, `layouts/reshape.c`
in an entry of `src/`; `grid.{c,h}` names both). A name in an entry of src/ that looks like a
source file must be one: relative to the entry's folder, to src/, or to
the repository.

The checker first runs on a small map of its own, and refuses to judge
the real one if it does not find that map's one missing file and one
stale name, and only them.

Usage: check_source_map.py [ROOT]. Exits 1 naming every file missing from
the map and every name in it that is no file.
"""
import os
import re
import sys

BRACES = re.compile(r"([\w/-]+)\.\{([\w,]+)\}")
SOURCE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.(?:c|h|def|f90|inc|map|cu))(?![\w/])")

SELF_TEST_MAP = """\
Some prose about src/ that is not the map.
```
src/plan/             the plan: plan.{c,h}, run.c
                      (run.c runs it), old.c
src/kinds.{def,h}     the table; kinds.c reads it, tests/unit/test_kinds.c
                      checks it; layouts/reshape.c is elsewhere
src/api/              the public calls: reshape.c
tests/                unit/ (no MPI), gone.c
```
"""
SELF_TEST_FILES = ["src/plan/plan.c", "src/plan/plan.h", "src/plan/run.c", "src/plan/ends.c",
                   "src/kinds.def", "src/kinds.h", "src/kinds.c", "src/layouts/reshape.c",
                   "src/api/reshape.c", "tests/unit/test_kinds.c"]
SELF_TEST_PROBLEMS = ["src/plan/ends.c: not in docs/source-map.md",
                      "docs/source-map.md: src/plan/ names old.c, which is no file"]


def entries(text):
    """(path, text) of every entry of the map's first code block."""
    block = text.split("```")[1] if text.count("```") >= 2 else ""
    found = []
    for line in block.split("\n"):
        match = re.match(r"(\S+)(.*)", line)
        if match:
            found.append([match.group(1), match.group(2)])
        elif found and line.strip():
            found[-1][1] += "\n" + line
    return [(path, body) for path, body in found]


def expand(text):
    """`name.{c,h}` written out: `name.c name.h`."""
    return BRACES.sub(lambda m: " ".join(f"{m[1]}.{e}" for e in m[2].split(",")), text)


def folder_of(path):
    return path if path.endswith("/") else os.path.dirname(path) + "/"


def problems(text, files):
    """What is wrong with the map `text` for the repository's `files`
    (paths relative to the root, '/'-separated)."""
    exists = set(files)
    mentioned, found = set(), []
    for path, body in entries(text):
        folder = folder_of(path)
        mentioned.update(expand(path).split())
        body = expand(body)
        for name in SOURCE.findall(body):
            candidates = [folder + name, "src/" + name, name]
            hits = [c for c in candidates if c in exists]
            mentioned.update(hits)
            if path.startswith("src/") and not hits:
                found.append(f"docs/source-map.md: {path} names {name}, which is no file")
    for name in sorted(f for f in files if f.startswith("src/")):
        if name not in mentioned:
            found.append(f"{name}: not in docs/source-map.md")
    return sorted(found, key=lambda p: (not p.startswith("src/"), p))


def self_test():
    found = problems(SELF_TEST_MAP, SELF_TEST_FILES)
    if found != SELF_TEST_PROBLEMS:
        print(f"check_source_map: the checker is broken: it finds {found} in its self-test, "
              f"expected {SELF_TEST_PROBLEMS}")
        return False
    return True


def repository_files(root):
    files = []
    for top in ("src", "include", "tests", "python", "examples", "benchmarks"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                files.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    return files


def main(root):
    if not self_test():
        return 1
    with open(os.path.join(root, "docs", "source-map.md")) as f:
        text = f.read()
    files = repository_files(root)
    found = problems(text, files)
    for problem in found:
        print("check_source_map:", problem)
    count = sum(1 for f in files if f.startswith("src/"))
    print(f"check_source_map: {count} files in src/, {len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1
                  else os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")))
