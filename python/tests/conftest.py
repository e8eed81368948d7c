"""
conftest.py -- pytest under mpiexec: every rank runs every test.

Two hooks keep the ranks together:
 - the verdict of each test phase is agreed (one allreduce): a test that
   fails on one rank fails on all, so no rank runs ahead into the next
   test's collectives while another is still reporting;
 - a watchdog (faulthandler) dumps the stacks and exits the process if one
   test takes longer than DISTFFT_TEST_TIMEOUT seconds (default 120), so a
   hang in a collective ends the whole mpiexec job with a failure.
"""
import faulthandler
import os
import sys

import pytest
from mpi4py import MPI

TIMEOUT = float(os.environ.get("DISTFFT_TEST_TIMEOUT", "120"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    faulthandler.dump_traceback_later(TIMEOUT, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    world = MPI.COMM_WORLD
    if report.failed and world.Get_size() > 1:
        # Shown now: if the other ranks are stuck in a collective this rank
        # left, the watchdog ends the job before pytest's summary.
        sys.stderr.write(f"\n[rank {world.Get_rank()}] {report.nodeid} {call.when} failed:\n"
                         f"{report.longreprtext}\n")
        sys.stderr.flush()
    failed = world.allreduce(1 if report.failed else 0, op=MPI.SUM)
    if failed and not report.failed:
        report.outcome = "failed"
        report.longrepr = f"failed on {failed} other rank(s) of {world.Get_size()}"


def pytest_report_header(config):
    lines = [f"MPI ranks: {MPI.COMM_WORLD.Get_size()} ({MPI.get_vendor()[0]})"]
    try:   # the comparison tests' reference (scripts/common.sh: 2.0.6 in .venv)
        from importlib.metadata import version
        lines.append(f"mpi4py-fft (the reference): {version('mpi4py-fft')}")
    except Exception:   # not installed: those tests skip themselves
        lines.append("mpi4py-fft (the reference): not installed")
    return lines


@pytest.fixture
def comm():
    return MPI.COMM_WORLD


@pytest.fixture
def shared_tmp_path(tmp_path_factory):
    """A directory every rank sees (rank 0 makes it)."""
    world = MPI.COMM_WORLD
    path = str(tmp_path_factory.mktemp("shared")) if world.Get_rank() == 0 else None
    return world.bcast(path, root=0)



def pytest_configure(config):
    # Only rank 0 shows progress; the others report failures and a summary.
    if MPI.COMM_WORLD.Get_rank() > 0:
        config.option.verbose = -2
        config.option.color = "no"
        config._inicache["console_output_style"] = "classic"   # no [nn%] either


@pytest.hookimpl(tryfirst=True)
def pytest_report_teststatus(report, config):
    if MPI.COMM_WORLD.Get_rank() > 0 and not report.failed:
        return report.outcome, "", ""
