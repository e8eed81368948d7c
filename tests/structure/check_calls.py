#!/usr/bin/env python3
"""check_calls.py -- no circle of calls between the library's files.

check_structure.py sees includes; a circle of calls needs no include
circle (two .c files that both include one header can call each other).
This reads the compiled objects instead: `nm` gives each object's defined
and undefined symbols, and file A calls file B when A leaves undefined a
global symbol that B defines. A reference to data counts as a call too: a
table of function pointers (src/redist/methods.def) is a way to call, and
a pointer in a table must not hide a circle that a direct call would show.
The check fails on every strongly connected group of files, printing one
circle through it and the symbols each step of it uses.

The checker first runs on a tiny case of its own (three files calling in a
circle, two more in a circle through a table of function pointers, one
beside them), compiled when a C compiler is given, and refuses to judge
the library if it does not find those two circles and only them.

Usage: check_calls.py [--nm NM] [--cc CC] OBJECT... (the object files of
the library: CMake's $<TARGET_OBJECTS:distfft_objects>). A file is named
by its object's path below the objects' common folder, less `.o`.
"""
import argparse
import os
import subprocess
import sys
import tempfile

# nm's types of undefined references (undefined, weak undefined); a
# defined global is any other upper-case type but absolute and debugging
# ones, or i (indirect function) or u (unique global).
UNDEFINED_TYPES = set("Uw")
NOT_DEFINITIONS = set("AN")

# The self-test: a.c -> b.c -> c.c -> a.c is a circle of calls; e.c's
# table points to f.c's function, which calls back through the table: a
# circle that only the reference to data shows; d.c calls a.c and reads
# b.c's table, and is in no circle.
SELF_TEST = {
    "a.c": "int b(int); int a(int x) { return x > 0 ? b(x - 1) : 0; }\n",
    "b.c": "int c(int); int b(int x) { return c(x); }\n"
           "int table[2] = {1, 2};\n",
    "c.c": "int a(int); static int helper(int x) { return x; }\n"
           "int c(int x) { return a(helper(x)); }\n",
    "d.c": "int a(int); extern int table[2];\n"
           "int d(void) { return a(table[0]); }\n",
    "e.c": "int f(int); int (*const e_table[1])(int) = {f};\n",
    "f.c": "extern int (*const e_table[1])(int);\n"
           "int f(int x) { return x > 0 ? e_table[0](x - 1) : 0; }\n",
}
SELF_TEST_NM = {  # what nm -P says of them (used without a compiler)
    "a.c": "a T 0 1\nb U\n",
    "b.c": "b T 0 1\nc U\ntable D 0 8\n",
    "c.c": "c T 0 1\nhelper t 0 1\na U\n",
    "d.c": "d T 0 1\na U\ntable U\n",
    "e.c": "e_table R 0 8\nf U\n",
    "f.c": "f T 0 1\ne_table U\n",
}
SELF_TEST_CIRCLES = [["a.c", "b.c", "c.c"], ["e.c", "f.c"]]


def parse_nm(text):
    """(defined globals, undefined names) of one object from `nm -P`."""
    defined, undefined = set(), set()
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind in UNDEFINED_TYPES:
            undefined.add(name)
        elif (kind.isupper() and kind not in NOT_DEFINITIONS) or kind in "iu":
            defined.add(name)
    return defined, undefined


def call_graph(symbols):
    """{file: {callee file: [symbols]}} from {file: (defined, undefined)}."""
    owner = {}
    for path, (defined, _) in symbols.items():
        for name in defined:
            owner.setdefault(name, path)
    graph = {}
    for path, (_, undefined) in symbols.items():
        edges = graph.setdefault(path, {})
        for name in sorted(undefined):
            callee = owner.get(name)
            if callee and callee != path:
                edges.setdefault(callee, []).append(name)
    return graph


def groups(graph):
    """The strongly connected groups of more than one file (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, {})):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def one_circle(graph, group):
    """A circle through the group's first file, by a breadth-first search inside it."""
    start, members = group[0], set(group)
    previous, frontier = {start: None}, [start]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph.get(node, {})):
                if target == start:
                    path = [node]
                    while previous[path[-1]] is not None:
                        path.append(previous[path[-1]])
                    return path[::-1] + [start]
                if target in members and target not in previous:
                    previous[target] = node
                    following.append(target)
        frontier = following
    return group + [start]


def describe(graph, group):
    circle = one_circle(graph, group)
    steps = [f"{a} -> {b} ({', '.join(graph[a][b])})" for a, b in zip(circle, circle[1:])]
    return (f"call circle among {', '.join(group)}:\n    " + "\n    ".join(steps))


def run_nm(nm, path):
    result = subprocess.run([nm, "-P", path], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{nm} -P {path} failed: {result.stderr.strip()}")
    return result.stdout


def names(objects):
    """Each object's name: its path below the objects' common folder, less `.o`."""
    common = os.path.commonpath([os.path.dirname(os.path.abspath(o)) for o in objects])
    result = {}
    for path in objects:
        name = os.path.relpath(os.path.abspath(path), common)
        result[name[:-2] if name.endswith(".o") else name] = path
    return result


def read_objects(nm, objects):
    return {name: parse_nm(run_nm(nm, path)) for name, path in names(objects).items()}


def self_test(nm, cc):
    """True when the checker finds the self-test's circle and only it."""
    if cc:
        with tempfile.TemporaryDirectory() as folder:
            objects = []
            for name, code in SELF_TEST.items():
                source = os.path.join(folder, name)
                with open(source, "w") as f:
                    f.write(code)
                subprocess.run([cc, "-c", "-O2", source, "-o", source + ".o"], check=True)
                objects.append(source + ".o")
            symbols = read_objects(nm, objects)
    else:
        symbols = {name: parse_nm(text) for name, text in SELF_TEST_NM.items()}
    found = groups(call_graph(symbols))
    if found != SELF_TEST_CIRCLES:
        print(f"check_calls: the checker is broken: it finds {found} in its self-test, "
              f"expected {SELF_TEST_CIRCLES}")
        return False
    return True


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nm", default="nm")
    parser.add_argument("--cc", help="a C compiler for the self-test (else nm text of its own)")
    parser.add_argument("objects", nargs="+")
    args = parser.parse_args(argv)
    if not self_test(args.nm, args.cc):
        return 1
    graph = call_graph(read_objects(args.nm, args.objects))
    found = groups(graph)
    for group in found:
        print("check_calls:", describe(graph, group))
    edges = sum(len(targets) for targets in graph.values())
    print(f"check_calls: {len(graph)} files, {edges} file-to-file calls, {len(found)} circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
