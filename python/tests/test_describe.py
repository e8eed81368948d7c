"""
test_describe.py -- Plan.describe(verbose=...): 0 is the one line the
header documents, 1 nests it with each exchange's inner phases
(hierarchical on pretended nodes of 2 ranks), 2 adds FFTW's plans.
"""
import pytest

import distfft


def test_nested_describe(comm):
    grid = (comm.size,) if comm.size > 1 else None
    with distfft.Plan(comm, (8, 8, 8), grid=grid, method="hierarchical", node_size=2,
                      rigor="estimate") as plan:
        line = plan.describe()
        assert plan.describe(verbose=0) == line and "\n" not in line
        tree = plan.describe(verbose=1)
        assert tree.startswith(line.split(" (")[0] + "\n  (fft c2c")
        assert "\n  (backward\n" in tree and "(dft-" not in tree
        if comm.size > 1:
            assert "\n  (redist hierarchical" in tree and "\n    (nodes " in tree
        if comm.size > 2:
            assert "(gather " in tree and "(scatter " in tree
        full = plan.describe(verbose=2)
        assert "\n    (dft-" in full and len(full) > len(tree)
        with pytest.raises(ValueError):
            plan.describe(verbose=-1)
