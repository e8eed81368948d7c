"""
test_examples.py -- the examples (python/examples/) against their analytic
solutions: the Poisson solver and the spectral gradient, slab and pencil.
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
import poisson                 # noqa: E402
import spectral_derivative     # noqa: E402


@pytest.mark.parametrize("grid", ["slab", "pencil"])
def test_poisson_matches_the_analytic_solution(comm, grid):
    assert poisson.solve(comm, n=24, grid=grid) < 1e-12


@pytest.mark.parametrize("grid", ["slab", "pencil"])
def test_spectral_gradient_matches_the_analytic_gradient(comm, grid):
    assert spectral_derivative.gradient_error(comm, n=32, grid=grid) < 1e-11
