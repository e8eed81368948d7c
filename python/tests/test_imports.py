"""
test_imports.py -- the package's modules import each other without circles.

Every module of distfft is imported, its source parsed with `ast`, and each
import of a package module -- at the top or inside a function, relative or
absolute, or importlib.import_module(".name", ...) -- is an edge of the
module graph. The graph must have no cycle: no module imports one that
imports it back, directly or through others. (A module that runs
`from . import name` for a name that is not a module imports the package
itself, distfft/__init__.py, which imports nearly everything: that is a
circle too.) Local: the same on every rank.
"""
import ast
import importlib
import importlib.machinery
import os
import pkgutil

import distfft

PACKAGE = distfft.__name__


def package_modules():
    """Every module of the package, Python or compiled (distfft._fast; not
    libdistfft.so, which is no Python module), imported."""
    suffixes = (".py", importlib.machinery.EXTENSION_SUFFIXES[0])
    names = [PACKAGE] + [f"{PACKAGE}.{m.name}" for m in pkgutil.iter_modules(distfft.__path__)
                         if any(os.path.exists(os.path.join(distfft.__path__[0], m.name + suffix))
                                for suffix in suffixes)]
    return {name: importlib.import_module(name) for name in names}


def _resolve(module, node):
    """The absolute module name an ImportFrom starts from."""
    if node.level == 0:
        return node.module
    parts = module.__name__.split(".")
    if not module.__file__.endswith("__init__.py"):
        parts = parts[:-1]          # a module's level 1 is its package
    base = ".".join(parts[:len(parts) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


def imports_of(module, known):
    """The package modules that `module`'s source imports, anywhere in it
    (none for a compiled module: it imports no module of the package)."""
    if not module.__file__.endswith(".py"):
        return set()
    with open(module.__file__) as f:
        tree = ast.parse(f.read(), module.__file__)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node)
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    found.add(f"{base}.{alias.name}")   # from . import hdf5
                elif base in known:
                    found.add(base)                     # from .plan import Plan
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module" \
                and node.args and isinstance(node.args[0], ast.Constant):
            name = node.args[0].value
            if name.startswith("."):
                name = PACKAGE + name
            if name in known:
                found.add(name)
    found.discard(module.__name__)
    return found


def find_cycle(graph):
    """A list of modules [a, b, ..., a] forming a cycle, or None."""
    state = {}                      # 1: on the current path, 2: done

    def visit(node, path):
        state[node] = 1
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                cycle = visit(target, path + [target])
                if cycle:
                    return cycle
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start, [start])
            if cycle:
                return cycle
    return None


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]


def test_no_module_imports_one_that_imports_it_back():
    modules = package_modules()
    assert len(modules) >= 10 and all(os.path.exists(m.__file__) for m in modules.values())
    graph = {name: imports_of(module, modules) for name, module in modules.items()}
    # The parser sees imports of every form the package uses.
    assert f"{PACKAGE}._lib" in graph[f"{PACKAGE}.plan"]            # from . import _lib
    assert f"{PACKAGE}.distarray" in graph[f"{PACKAGE}.plan"]       # from .distarray import
    assert f"{PACKAGE}.hdf5" in graph[PACKAGE]                      # importlib, lazily
    assert f"{PACKAGE}._fast" in graph[f"{PACKAGE}._lib"]           # a compiled module
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle)
