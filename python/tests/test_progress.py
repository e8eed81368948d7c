"""
test_progress.py -- tuning progress (options.verbose / DISTFFT_VERBOSE):
rank 0 of the plan's communicator says on stderr what it measures, the
other ranks say nothing, and nothing is said when it is off. The C
library writes to file descriptor 2, so capfd sees it on each rank.
"""
import pytest

import distfft


def _tuned_plan_text(comm, capfd, **kw):
    distfft.wisdom.forget()   # so the plan measures
    capfd.readouterr()
    with distfft.Plan(comm, (8, 6, 5), method="auto", rigor="estimate" if kw.pop("estimate", False)
                      else "measure", **kw):
        pass
    return capfd.readouterr().err


def test_verbose_on_rank_0_only(comm, capfd, monkeypatch):
    monkeypatch.delenv("DISTFFT_VERBOSE", raising=False)
    text = _tuned_plan_text(comm, capfd, verbose=True)
    if comm.Get_rank() == 0:
        assert "distfft: tuning" in text and "done in" in text
        if comm.Get_size() > 1:   # exchanges to measure
            assert "exchange 1/" in text and "alltoallw" in text and " ms (method 1/" in text
    else:
        assert "distfft: tuning" not in text


def test_quiet_by_default(comm, capfd, monkeypatch):
    monkeypatch.delenv("DISTFFT_VERBOSE", raising=False)
    assert "distfft: tuning" not in _tuned_plan_text(comm, capfd)
    assert "distfft: tuning" not in _tuned_plan_text(comm, capfd, verbose=True, estimate=True)


@pytest.mark.parametrize("value,shown", [("1", True), ("0", False)])
def test_environment_variable(comm, capfd, monkeypatch, value, shown):
    monkeypatch.setenv("DISTFFT_VERBOSE", value)
    text = _tuned_plan_text(comm, capfd)
    assert ("distfft: tuning" in text) == (shown and comm.Get_rank() == 0)
