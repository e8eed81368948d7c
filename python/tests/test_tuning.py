"""
test_tuning.py -- the C library's tuning features from Python: rank
placements give the same transform, per-step statistics, and wisdom (a
tuned plan's choices exported, forgotten, imported and reused without
measuring; a corrupted text refused on every rank).
"""
import os

import numpy
import pytest

import distfft
from helpers import check_block, random_global


@pytest.mark.parametrize("placement,node_size", [("row", 0), ("morton", 0), ("node", 2)])
def test_placements_give_the_same_transform(comm, placement, node_size):
    shape = (6, 7, 5)
    u = random_global(shape, numpy.complex128, seed=41)
    with distfft.Plan(comm, shape, grid="pencil", placement=placement, node_size=node_size,
                      rigor="estimate") as plan:
        u_hat = plan.forward(u[plan.input_slice])
        assert plan.placement == placement
    check_block(u_hat, numpy.fft.fftn(u), plan.output_slice, numpy.complex128, 210)


def test_bad_placement(comm):
    with pytest.raises(ValueError, match="placement"):
        distfft.Plan(comm, (4, 4), placement="random")


def test_step_statistics(comm):
    with distfft.Plan(comm, (8, 6, 4), grid="pencil", method="alltoallw",
                      rigor="estimate") as plan:
        plan.forward(plan.input_array())
        steps = plan.steps("forward")
        exchanges = [s for s in steps if s["is_redistribution"]]
        assert len(exchanges) == len(plan.methods)
        assert all(s["method"] == "alltoallw" for s in exchanges)
        assert all(s["executions"] == 1 for s in steps)
        assert all(s["seconds"] >= 0 for s in steps)
        assert len(plan.steps("backward")) == len(steps)


def test_wisdom_round_trip(comm, shared_tmp_path):
    shape = (8, 8, 6)
    distfft.wisdom.forget()
    with distfft.Plan(comm, shape) as tuned:          # method auto, rigor measure: tuned
        chosen = (tuned.grid, tuned.methods)
    text = distfft.wisdom.export_text()
    assert text.startswith("distfft-wisdom 1") and "shape=8x8x6" in text
    distfft.wisdom.export_file(comm, f"{shared_tmp_path}/w.txt")

    distfft.wisdom.forget()
    assert "shape=8x8x6" not in distfft.wisdom.export_text()
    distfft.wisdom.import_text(text)
    with distfft.Plan(comm, shape) as again:
        assert again.describe().endswith("(wisdom))")
        assert (again.grid, again.methods) == chosen

    distfft.wisdom.forget()
    distfft.wisdom.import_file(comm, f"{shared_tmp_path}/w.txt")
    with distfft.Plan(comm, shape) as from_file:
        assert from_file.describe().endswith("(wisdom))")


def test_corrupted_wisdom_is_refused(comm, shared_tmp_path):
    path = f"{shared_tmp_path}/bad.txt"
    if comm.Get_rank() == 0:
        with open(path, "w") as f:
            f.write("distfft-wisdom 1\nnot a line of wisdom\n")
    comm.Barrier()
    with pytest.raises(distfft.DistfftError):
        distfft.wisdom.import_file(comm, path)
    with pytest.raises(distfft.DistfftError):
        distfft.wisdom.import_text("hello")


def test_padded_plans_have_wisdom_of_their_own(comm):
    """Padding changes every exchange's shape: a padded plan's wisdom key
    names the padded lengths, so an unpadded plan's choice (a method that
    may not fit the padded blocks) is never applied to it."""
    distfft.wisdom.forget()
    shape = (8, 6, 4)
    with distfft.Plan(comm, shape, method="auto", rigor="measure"):
        pass
    with distfft.Plan(comm, shape, method="auto", rigor="measure", padding=1.5) as padded:
        assert "(wisdom)" not in padded.describe()
    text = distfft.wisdom.export_text()
    assert "padded=12x9x6" in text
    assert sum(1 for line in text.splitlines() if "shape=8x6x4" in line) == 2
    distfft.wisdom.forget()


def test_cost_model_ranks_auto(comm, shared_tmp_path):
    """distfft.model: calibrate, import, and auto with tune_budget times
    only that many model-ranked candidates; a bad model file and a
    negative budget are refused on every rank."""
    path = f"{shared_tmp_path}/machine.model"
    os.environ["DISTFFT_CALIBRATE_QUICK"] = "1"   # rougher numbers, seconds
    try:
        distfft.model.calibrate(comm, path, rigor="estimate")
    finally:
        del os.environ["DISTFFT_CALIBRATE_QUICK"]
    distfft.wisdom.forget()
    with distfft.Plan(comm, (8, 8, 6), tune_budget=1, model=path) as plan:
        if comm.Get_size() > 1:  # the model's choice, untimed and not wisdom
            assert "the model's choice untimed" in plan.describe()
    with distfft.Plan(comm, (8, 8, 6), tune_budget=2, model=path) as plan:
        if comm.Get_size() > 1:
            assert "2 model-ranked candidates" in plan.describe()
    if comm.Get_rank() == 0:
        with open(f"{shared_tmp_path}/bad.model", "w") as f:
            f.write("distfft-model 1\nspeed = 3\n")
    comm.Barrier()
    with pytest.raises(distfft.DistfftError, match="unknown key 'speed'"):
        distfft.model.import_file(comm, f"{shared_tmp_path}/bad.model")
    for budget in (0, -1):  # a budget given is a positive count, on every rank alike
        with pytest.raises(ValueError, match=f"tune_budget = {budget} must be >= 1"):
            distfft.Plan(comm, (8, 8, 6), tune_budget=budget)
    with pytest.raises(TypeError, match="tune_budget"):
        distfft.Plan(comm, (8, 8, 6), tune_budget=1.5)
    distfft.model.forget()
