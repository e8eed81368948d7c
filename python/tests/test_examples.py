"""
test_examples.py -- the examples (python/examples/) against their analytic
solutions: the Poisson solver and the spectral gradient, slab and pencil;
the Taylor-Green vortex against spectralDNS's and mpi4py-fft's energy at
t = 0.1; the channel Helmholtz problem against its manufactured solution.
"""
import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
import channel_poisson         # noqa: E402
import poisson                 # noqa: E402
import spectral_derivative     # noqa: E402
import taylor_green            # noqa: E402


@pytest.mark.parametrize("grid", ["slab", "pencil"])
def test_poisson_matches_the_analytic_solution(comm, grid):
    assert poisson.solve(comm, n=24, grid=grid) < 1e-12


@pytest.mark.parametrize("grid", ["slab", "pencil"])
def test_spectral_gradient_matches_the_analytic_gradient(comm, grid):
    assert spectral_derivative.gradient_error(comm, n=32, grid=grid) < 1e-11


@pytest.mark.parametrize("dealias", ["3/2", "2/3"])
def test_taylor_green_energy_at_t_0_1(comm, dealias):
    """RK4, dt = 0.01, to t = 0.1 at 32^3: E = 0.124953117517, the value
    spectralDNS's and mpi4py-fft's test suites assert (7 decimals)."""
    history = taylor_green.run(comm, n=32, t_end=0.1, dt=0.01, dealias=dealias,
                               method="alltoallw")
    t, energy, _ = history[-1]
    assert t == pytest.approx(0.1)
    assert round(energy - 0.124953117517, 7) == 0
    assert history[0][1] == pytest.approx(0.125, abs=1e-14)


@pytest.mark.parametrize("grid", ["slab", "pencil"])
def test_channel_helmholtz_is_spectrally_accurate(comm, grid):
    assert channel_poisson.solve(comm, (20, 16, 12), alpha=1.0, grid=grid) < 1e-12
    assert channel_poisson.solve(comm, (7, 9, 6), alpha=2.5, grid=grid) < 1e-2
