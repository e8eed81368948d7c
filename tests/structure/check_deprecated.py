#!/usr/bin/env python3
"""check_deprecated.py -- nothing the project ships calls a deprecated C call.

The deprecated calls are the declarations of include/distfft.h that follow a
comment saying "Deprecated:" (the old triplet calls, thin wrappers over the
layout calls). Only their own definitions and the Fortran module's
deprecated array-file calls (which exist to serve them) may call them; the
library, the examples, the benchmarks and the Python package use the layout
calls. The tests are exempt: they check the wrappers still work.

Usage: check_deprecated.py ROOT. Exits 1 naming every call found.
"""
import os
import re
import sys

ALLOWED = {
    # the Fortran module's distfft_array_write / _read, deprecated themselves
    ("src/fortran/distfft_f.c", "distfft_array_write"),
    ("src/fortran/distfft_f.c", "distfft_array_read"),
}
SCANNED = ("src", "examples", "benchmarks", "python/distfft")
SUFFIXES = (".c", ".h", ".cpp", ".f90", ".inc", ".py")


def deprecated_calls(header):
    """Names declared right after a comment that says 'Deprecated:'."""
    with open(header) as f:
        text = f.read()
    names = []
    for match in re.finditer(r"/\*((?:(?!\*/).)*?)\*/(.*?)(?=/\*|\Z)", text, re.S):
        comment, declarations = match.groups()
        if "Deprecated:" in comment:
            names += re.findall(r"^\s*\w[\w\s\*]*?\b(distfft_\w+)\s*\(", declarations, re.M)
    return sorted(set(names))


def definitions(path, name):
    """Lines of `path` that define `name` (a C function definition)."""
    with open(path, errors="replace") as f:
        return {i for i, line in enumerate(f, 1) if re.match(rf"^\w[\w\s\*]*\b{name}\s*\(", line)}


def main(root):
    names = deprecated_calls(os.path.join(root, "include", "distfft.h"))
    if len(names) < 5:
        print(f"check_deprecated: found only {names} in distfft.h; the parser is wrong")
        return 1
    problems = []
    for top in SCANNED:
        for directory, _, files in os.walk(os.path.join(root, top)):
            if "/build" in directory or "__pycache__" in directory:
                continue
            for file in files:
                if not file.endswith(SUFFIXES):
                    continue
                path = os.path.join(directory, file)
                relative = os.path.relpath(path, root)
                with open(path, errors="replace") as f:
                    lines = f.readlines()
                for name in names:
                    if (relative, name) in ALLOWED:
                        continue
                    defined = definitions(path, name)
                    for number, line in enumerate(lines, 1):
                        code = line.split("//")[0]
                        if number not in defined and re.search(rf"\b{name}\s*\(", code) \
                                and not code.lstrip().startswith(("*", "/*", "#", "!")):
                            problems.append(f"{relative}:{number}: calls deprecated {name}")
    for problem in problems:
        print(problem)
    print(f"check_deprecated: {len(names)} deprecated calls ({', '.join(names)}); "
          f"{len(problems)} uses outside their definitions")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
