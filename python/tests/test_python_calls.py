"""
test_python_calls.py -- benchmarks/python_calls.py, the per-call cost
benchmark, works: one run's records on distfft (mpi4py_fft served by
distfft.mpi4py_fft, as under `python -m distfft.mpi4py_fft`) and on
mpi4py-fft, on this test's ranks, with a few calls each; the driver's
command lines and option checks. It measures nothing worth keeping here.
"""
import math
import sys

import pytest

from distfft.mpi4py_fft._install import install
from helpers import benchmark_module


@pytest.fixture(scope="module")
def python_calls():
    return benchmark_module("python_calls")


def mpi4py_fft_modules():
    return {name: module for name, module in sys.modules.items()
            if name == "mpi4py_fft" or name.startswith("mpi4py_fft.")}


@pytest.fixture
def served_by_distfft():
    """mpi4py_fft is distfft.mpi4py_fft for the test; the modules before it
    are put back after."""
    saved = mpi4py_fft_modules()
    install()
    yield
    for name in mpi4py_fft_modules():
        del sys.modules[name]
    sys.modules.update(saved)


def check_records(records, library, comm):
    assert [r["call"] for r in records] == ["serial_execute", "transfer", "plan_forward"]
    for record in records:
        assert record["library"] == library and record["ranks"] == comm.Get_size()
        assert math.isfinite(record["us_per_call"]) and record["us_per_call"] > 0
    # the slowest rank's time: the same figures on every rank
    assert comm.allgather([r["us_per_call"] for r in records])[0] == \
        [r["us_per_call"] for r in records]


def test_distfft_run(python_calls, served_by_distfft, comm):
    check_records(python_calls.measure(comm, "distfft", 3, 1), "distfft", comm)


def test_mpi4py_fft_run(python_calls, comm):
    mpi4py_fft = pytest.importorskip("mpi4py_fft")
    if mpi4py_fft.__name__ != "mpi4py_fft":
        pytest.skip("mpi4py_fft is served by distfft in this process")
    check_records(python_calls.measure(comm, "mpi4py-fft", 3, 1), "mpi4py-fft", comm)


def test_a_run_refuses_the_wrong_library(python_calls, served_by_distfft, comm):
    with pytest.raises(SystemExit, match="distfft.mpi4py_fft"):
        python_calls.measure(comm, "mpi4py-fft", 3, 1)


def test_driver_commands(python_calls):
    options = python_calls.parse(["--ranks", "2", "--calls", "10", "--python", "venv-python"])
    ours = python_calls.command(options, "distfft", 2)
    theirs = python_calls.command(options, "mpi4py-fft", 2)
    assert ours[:6] == ["mpiexec.openmpi", "-n", "2", "venv-python", "-m", "distfft.mpi4py_fft"]
    assert theirs[:4] == ["mpiexec.openmpi", "-n", "2", "/usr/bin/python3"]
    for line in (ours, theirs):
        assert line[line.index("--calls") + 1] == "10" and "--measure" in line
    with pytest.raises(SystemExit):
        python_calls.parse(["--rounds", "0"])
