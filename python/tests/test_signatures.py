"""
test_signatures.py -- the C functions' types come from one table
(distfft/_signatures.py), checked against include/distfft.h when the package
is built (python/setup.py check_signatures). Here the same check is compiled
on the table as installed, which passes, and on deliberately wrong copies of
it, each of which must fail and name the function. Rank 0 compiles; the
verdicts are broadcast so every rank asserts the same.
"""
import json
import os
import shutil
import subprocess

import pytest

from distfft import _lib, _signatures

ROOT = os.environ.get("DISTFFT_SOURCE_DIR") or os.path.join(os.path.dirname(__file__), "..", "..")
INCLUDE = os.path.join(ROOT, "include")


def mpi_compiler():
    """The MPI C compiler the installed library was built with."""
    config = os.path.join(os.path.dirname(_lib.__file__), "_build_config.json")
    if os.path.exists(config):
        with open(config) as f:
            compiler = json.load(f).get("mpi_compiler")
        if compiler and shutil.which(compiler):
            return compiler
    return shutil.which("mpicc.openmpi") or shutil.which("mpicc")


def compile_check(signatures, directory):
    """(return code, compiler messages) of the build's check of `signatures`."""
    source = os.path.join(directory, "signature_check.c")
    with open(source, "w") as f:
        f.write(_signatures.check_source(signatures))
    result = subprocess.run([mpi_compiler(), "-std=c11", "-fsyntax-only", "-I", INCLUDE, source],
                            capture_output=True, text=True)
    return result.returncode, result.stderr


def with_row(name, row):
    signatures = dict(_signatures.SIGNATURES)
    signatures[name] = row
    return signatures


# Wrong in the ways a hand-written declaration goes wrong.
WRONG = {
    "a parameter's type": with_row("distfft_plan_execute", ("int", "distfft_plan", "void *", "int", "int")),
    "a missing parameter": with_row("distfft_layout_box",
                                    ("int", "const struct distfft_layout_s *", "int64_t *", "int64_t *")),
    "the result's type": with_row("distfft_plan_local_size", ("int", "const struct distfft_plan_s *")),
    "a 32-bit extent": with_row("distfft_kind_logical_length", ("double", "distfft_kind", "int")),
    "a function the header lacks": with_row(
        "distfft_plan_transform_twice", ("int", "distfft_plan", "void *", "void *")),
}


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    from mpi4py import MPI
    world = MPI.COMM_WORLD
    results = None
    if world.Get_rank() == 0 and os.path.exists(os.path.join(INCLUDE, "distfft.h")) and mpi_compiler():
        directory = str(tmp_path_factory.mktemp("signatures"))
        results = {"as installed": compile_check(_signatures.SIGNATURES, directory)}
        results.update({what: compile_check(table, directory) for what, table in WRONG.items()})
    results = world.bcast(results, root=0)
    if results is None:
        pytest.skip("no include/distfft.h next to the tests, or no MPI C compiler")
    return results


def test_the_table_is_the_header(verdicts):
    code, messages = verdicts["as installed"]
    assert code == 0, messages


@pytest.mark.parametrize("what", sorted(WRONG))
def test_a_wrong_row_fails_the_check(verdicts, what):
    code, messages = verdicts[what]
    wrong_name = next(name for name, row in WRONG[what].items() if _signatures.SIGNATURES.get(name) != row)
    assert code != 0, f"a row with {what} compiled"
    assert wrong_name in messages


def test_every_row_is_declared_and_nothing_else():
    assert sorted(vars(_lib.lib)) == sorted(_signatures.SIGNATURES)
    with pytest.raises(AttributeError):
        _lib.lib.distfft_malloc     # in the header, not in the table: not callable from Python
