"""
test_taylor_green_steps.py -- benchmarks/taylor_green_steps.py works: every
variant of the solver (mpi4py-fft where it is installed, distfft per
component, batched, through DistArrays) runs two steps at 8^3 and 12^3 on
this test's ranks and ends on the same kinetic energy; the driver's command
lines and its summary. It measures nothing worth keeping here.
"""
import pytest

from helpers import benchmark_module


@pytest.fixture(scope="module")
def steps():
    return benchmark_module("taylor_green_steps")


def variants():
    """mpi4py-fft itself only where it is importable and not distfft's layer."""
    names = ["per-component", "batched", "distarray"]
    try:
        import mpi4py_fft
        if mpi4py_fft.__name__ == "mpi4py_fft":
            names.insert(0, "mpi4py-fft")
    except ImportError:
        pass
    return names


@pytest.mark.parametrize("n", [8, 12])
def test_variants_end_on_one_energy(steps, comm, n):
    records = [steps.solve(comm, variant, n, 2) for variant in variants()]
    energies = [r["energy"] for r in records]
    assert 0.1 < energies[0] < 0.13   # the Taylor-Green vortex's 1/8, barely decayed
    assert max(energies) - min(energies) <= 1e-12 * energies[0]
    for record in records:
        assert record["ranks"] == comm.Get_size() and record["steps"] == 2
        assert 0 < record["step_ms_min"] <= record["step_ms_median"]
        assert 0 <= record["transform_share"] <= 1
    assert comm.allgather(energies)[0] == energies   # the same record on every rank


def test_driver(steps):
    options = steps.parse(["--ranks", "2", "--n", "32", "--python", "venv-python"])
    ours, theirs = steps.command(options, "batched"), steps.command(options, "mpi4py-fft")
    assert ours[:4] == ["mpiexec.openmpi", "-n", "2", "venv-python"]
    assert theirs[3] == "/usr/bin/python3"
    assert ours[ours.index("--variant") + 1] == "batched" and ours[ours.index("--n") + 1] == "32"
    with pytest.raises(SystemExit):
        steps.parse(["--rounds", "0"])
    runs = [{"round": r, "variant": v, "step_ms_min": ms, "cpu_ms_per_step": ms / 2,
             "transform_share": 0.5, "page_faults_per_step": 0, "energy": 0.125}
            for r in range(2) for v, ms in (("per-component", 10.0), ("batched", 9.0))]
    table, agree = steps.summarize(runs, ["per-component", "batched"])
    assert agree and "| batched / per-component, same round | 0.900 [0.900-0.900] | " \
        "0.900 [0.900-0.900] |" in table
    runs[0]["energy"] = 0.126
    assert not steps.summarize(runs, ["per-component", "batched"])[1]


def test_arithmetic(steps):
    records = steps.arithmetic(["batched", "distarray"], 8, 2)
    assert [r["variant"] for r in records] == ["batched", "distarray"]
    assert records[0]["ratio_to_first"] == 1 and all(r["cpu_ms_min"] >= 0 for r in records)
