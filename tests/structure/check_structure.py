#!/usr/bin/env python3
"""check_structure.py -- the shape of the library's sources (docs/ARCHITECTURE.md):

  * every file of src/ belongs to a layer, and includes only files of its
    own group or of lower layers (public API -> tuning -> plan -> steps ->
    redistribution methods / serial FFT / grids -> base);
  * no include circle between files;
  * no source file longer than 600 lines, no function longer than 70;
  * the simulator only behind the platform door: no file but
    platform_smpi.c tests DISTFFT_SMPI or includes SMPI's headers (the
    core asks platform.h what the platform can do).

Usage: check_structure.py SRC_DIR. Exits 1 naming every violation.
"""
import os
import re
import sys

# (group, layer) by path relative to src/; the first matching pattern wins.
LAYERS = [
    (r"^api/", ("api", 6)),
    (r"^fortran/", ("api", 6)),
    (r"^tune/", ("tune", 5)),
    (r"^model/", ("model", 4)),
    (r"^plan/", ("plan", 3)),
    (r"^(step\.h|serial/fft_step\.c|serial/weights_step\.c|redist/exchange_step\.c)$", ("steps", 2)),
    # the per-plan backend makes local steps and says where exchanges run
    (r"^backend(_\w+)?\.[ch]$", ("steps", 2)),
    (r"^cuda/", ("steps", 2)),  # the CUDA backend's library (built apart: cmake/DistfftCuda.cmake)
    (r"^serial/", ("serial", 1)),
    (r"^redist/", ("redist", 1)),
    (r"^(grid|placement|gather)\.[ch]$", ("grid", 1)),
    (r"^array_(io|header)\.[ch]$", ("io", 1)),
    (r"^halo/", ("halo", 1)),
    # the layout value is vocabulary: gather, array files and halos take one
    (r"^layouts/layout_value\.[ch]$", ("base", 0)),
    (r"^layouts/", ("layouts", 1)),
    (r"^(error|types|vocabulary|decomp|big_count|text|layout|node|parallel|platform|platform_native|platform_smpi|lifetime|environment|device_memory)\.[ch]$", ("base", 0)),
    (r"^kinds\.(c|h|def)$", ("base", 0)),  # the kind table: names for vocabulary, FFTW kinds for serial/
]
# The one file that may know the simulator (CMake compiles it instead of
# platform_native.c in an SMPI build).
SIMULATOR_DOOR = "platform_smpi.c"
SIMULATOR_WORDS = re.compile(r"^\s*#.*(DISTFFT_SMPI\b|[<\"]smpi/)", re.M)  # preprocessor lines
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 70


def layer_of(path):
    for pattern, layer in LAYERS:
        if re.search(pattern, path):
            return layer
    return None


def sources(src):
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if name.endswith((".c", ".h", ".def")):
                yield os.path.relpath(os.path.join(root, name), src)


def includes(src, path):
    """The src/ files a file includes (relative to its folder, then src/)."""
    found = []
    with open(os.path.join(src, path)) as f:
        for line in f:
            match = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not match:
                continue
            for base in (os.path.dirname(path), ""):
                target = os.path.normpath(os.path.join(base, match.group(1)))
                if os.path.exists(os.path.join(src, target)):
                    found.append(target)
                    break
    return found


def long_functions(text):
    """(first line, length) of every top-level brace block over the limit."""
    lines = text.split("\n")
    start = None
    for number, line in enumerate(lines, 1):
        if line.startswith("{"):
            start = number
        elif line.startswith("}") and start is not None:
            if number - start + 1 > MAX_FUNCTION_LINES and not lines[start - 2].rstrip().endswith("="):
                yield lines[start - 2].strip(), number - start + 1
            start = None


def main(src):
    problems = []
    graph = {}
    for path in sources(src):
        graph[path] = includes(src, path)
        layer = layer_of(path)
        if layer is None and not path.endswith(".def"):
            problems.append(f"{path}: in no layer (add it to LAYERS in {__file__})")
        with open(os.path.join(src, path)) as f:
            text = f.read()
        if path != SIMULATOR_DOOR and SIMULATOR_WORDS.search(text):
            problems.append(f"{path}: knows the simulator (#if DISTFFT_SMPI, smpi/): only {SIMULATOR_DOOR} may; "
                            "ask platform.h what the platform can do")
        if text.count("\n") > MAX_FILE_LINES:
            problems.append(f"{path}: {text.count(chr(10))} lines (at most {MAX_FILE_LINES})")
        for head, length in long_functions(text):
            problems.append(f"{path}: {head[:60]}... is {length} lines (at most {MAX_FUNCTION_LINES})")
    for path, targets in graph.items():
        mine = layer_of(path)
        for target in targets:
            theirs = layer_of(target)
            if mine and theirs and (theirs[1] > mine[1] or (theirs[1] == mine[1] and theirs[0] != mine[0])):
                problems.append(f"{path} ({mine[0]}) includes {target} ({theirs[0]}): "
                                "a lower layer must not know a higher one or a sibling")
    problems += circles(graph)
    for problem in problems:
        print("check_structure:", problem)
    print(f"check_structure: {len(graph)} files, {len(problems)} problems")
    return 1 if problems else 0


def circles(graph):
    """An include circle, as one message each (depth-first search)."""
    found, state = [], {}

    def visit(node, stack):
        state[node] = "open"
        for target in graph.get(node, []):
            if state.get(target) == "open":
                found.append("include circle: " + " -> ".join(stack[stack.index(target):] + [target]))
            elif target not in state:
                visit(target, stack + [target])
        state[node] = "done"

    for node in graph:
        if node not in state:
            visit(node, [node])
    return found


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../src")))
