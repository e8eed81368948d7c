#!/usr/bin/python3
"""The manual stays a manual: docs/ holds pages, not data.

    check_manual.py REPOSITORY_ROOT

Fails when a page of docs/ (or README.md) is longer than 700 lines (README:
200; the reference pages the docs build generates from the header and the
Fortran module are not pages anyone reads top to bottom, and are exempt), when docs/ outside its build output weighs 1.5 MB or more, or when a
folder under docs/ is named by a date (results live in benchmarks/results/,
benchmarks/results/README.md). The checks are tested on a made-up tree first.
"""
import os
import re
import sys
import tempfile

PAGE_LINES = 700
README_LINES = 200
DOCS_BYTES = 1_500_000
DATED = re.compile(r"\d{4}-\d{2}-\d{2}")


def problems(root):
    found = []
    docs = os.path.join(root, "docs")
    total = 0
    for folder, subfolders, files in os.walk(docs):
        subfolders[:] = [s for s in subfolders if s != "_build"]
        for sub in subfolders:
            if DATED.search(sub):
                found.append(f"{os.path.relpath(os.path.join(folder, sub), root)}: a dated folder in the manual")
        for name in files:
            path = os.path.join(folder, name)
            total += os.path.getsize(path)
            if name.endswith((".md", ".rst")):
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                lines = text.count("\n")
                if lines > PAGE_LINES and not text.startswith(".. Generated from"):
                    found.append(f"{os.path.relpath(path, root)}: {lines} lines (at most {PAGE_LINES})")
    if total >= DOCS_BYTES:
        found.append(f"docs/: {total} bytes (less than {DOCS_BYTES})")
    readme = os.path.join(root, "README.md")
    with open(readme, encoding="utf-8") as f:
        lines = sum(1 for _ in f)
    if lines > README_LINES:
        found.append(f"README.md: {lines} lines (at most {README_LINES})")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs", "results-2026-01-01"))
        with open(os.path.join(root, "docs", "long.md"), "w") as f:
            f.write("x\n" * (PAGE_LINES + 1))
        with open(os.path.join(root, "README.md"), "w") as f:
            f.write("x\n")
        found = problems(root)
        assert len(found) == 2 and "dated" in found[0] + found[1], found


def main():
    self_test()
    found = problems(sys.argv[1])
    for line in found:
        print(line)
    print(f"manual: {len(found)} problems")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
