"""
test_arguments_hypothesis.py -- property tests (Hypothesis) of the Python
argument checks (issue 21 item 5): Plan, Layout, Redistribution, the
name lookups and wisdom text, called with random shapes, dtypes, kinds,
axes, grids, method / norm / rigor / placement / overlap strings and
numbers, most of them valid, many not.

The property: every call either raises TypeError or ValueError (the
documented types of a bad argument; DistfftError, a RuntimeError, where
the C library refuses) -- never another exception, a crash or a hang --
or builds an object that is what was asked for: its shape, kinds, grid
and options are the given ones as C saw them (an integer that C's int or
int64_t cannot hold must not wrap around into a valid one), and it runs
forward and backward.

On MPI.COMM_SELF, in a 1-rank run only: every rank would draw the same
examples, and a plan of one rank is enough to reach every check. Examples
per test: DISTFFT_HYPOTHESIS_EXAMPLES (default 200; scripts/test --long
sets 5000). Skipped where Hypothesis is not installed (scripts/common.sh's
install_hypothesis puts it in .venv).
"""
import os

import numpy
import pytest
from mpi4py import MPI

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, event, given, settings, strategies as st  # noqa: E402

import distfft  # noqa: E402
from distfft import _lib  # noqa: E402

pytestmark = pytest.mark.skipif(MPI.COMM_WORLD.Get_size() != 1,
                                reason="property tests run on COMM_SELF in the 1-rank run")

EXAMPLES = int(os.environ.get("DISTFFT_HYPOTHESIS_EXAMPLES", "200"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
                    database=None)
ALLOWED = (TypeError, ValueError, distfft.DistfftError)
SELF = MPI.COMM_SELF

# Integers that C's int64_t or int cannot hold (2**32 + 1 and 2**64 + 4
# wrap around to valid ones), and ones at the edges. Extents stay at 2**62
# and above: a plan of 2**31 points is valid, and merely large.
HUGE = [2**31, 2**32 + 1, 2**63 - 1, 2**63, 2**64 + 4, -2**63 - 1, -2**31 - 1]
HUGE_EXTENT = [2**62, 2**63 - 1, 2**63, 2**64 + 4, 2**64 + 2, -2**63 - 1]
names = st.one_of(
    st.sampled_from(list(_lib.names_of("kind")) + list(_lib.method_names()) +
                    ["backward", "ortho", "forward", "none", "estimate", "measure", "patient",
                     "row", "morton", "node", "on", "off", "fields", "progress", "auto", "slab",
                     "pencil"]),
    st.text(max_size=12),
    st.sampled_from(["c2c\x00", "alltoallw\x00junk", "R2C", " c2c", "dct2,", "\udcff", ""]),
)
junk = st.one_of(st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=6),
                 st.sampled_from([float("inf"), float("nan"), 2.5, 4.0, "4", numpy.int64(3), numpy.float32(2)]),
                 st.just(object()), st.just(b"c2c"), st.lists(st.integers(-2, 3), max_size=3))
extent = st.one_of(st.integers(1, 6), st.integers(1, 6), st.integers(-2, 0), st.sampled_from(HUGE_EXTENT))
small_int = st.one_of(st.integers(-3, 5), st.sampled_from(HUGE))


def fits_int(value, bits):
    return -2**(bits - 1) <= value < 2**(bits - 1)


# Per argument of Plan: plausible values, and bad ones. A draw makes at
# most two arguments bad, so most draws reach the C library (and many build
# a plan): a draw that is all junk is refused by the first check alone.
VALID = {
    "shape": st.lists(st.integers(1, 6), min_size=2, max_size=4).map(tuple),
    "dtype": st.sampled_from([numpy.complex128, numpy.complex64, numpy.float64, numpy.float32, "c16", "f4"]),
    "kinds": st.one_of(st.none(), st.sampled_from(list(_lib.names_of("kind"))),
                       st.sampled_from(["c2c,c2c", "dct2, dst3", "r2c"])),
    "axes": st.one_of(st.none(), st.integers(-2, 1), st.sets(st.integers(0, 1), min_size=1).map(sorted)),
    "grid": st.one_of(st.none(), st.sampled_from(["auto", "slab", "pencil"]),
                      st.lists(st.integers(0, 1), min_size=1, max_size=3)),
    "method": st.sampled_from(list(_lib.method_names())),
    "norm": st.sampled_from(["backward", "ortho", "forward", "none"]),
    "rigor": st.sampled_from(["estimate", "measure"]),
    "placement": st.sampled_from(["row", "morton", "node"]),
    "overlap": st.sampled_from(["auto", "on", "off", "fields", "progress"]),
    "batch": st.one_of(st.none(), st.integers(1, 3)),
    "node_size": st.integers(0, 2),
    "threads": st.integers(1, 2),
    "padding": st.one_of(st.none(), st.floats(1.0, 2.0), st.lists(st.floats(1.0, 2.0), min_size=2, max_size=4)),
    "destroy_input": st.booleans(),
    "inplace": st.booleans(),
    "tune_budget": st.one_of(st.none(), st.integers(1, 3)),
}
def one_replaced(valid, values):
    """A valid list with one entry replaced by one of `values`."""
    return st.tuples(valid, st.integers(0, 3), st.sampled_from(values)).map(
        lambda t: tuple(t[0][:t[1] % len(t[0])]) + (t[2],) + tuple(t[0][t[1] % len(t[0]) + 1:]))


BAD = {
    "shape": st.one_of(st.lists(extent, max_size=_lib.MAX_DIMS + 1).map(tuple), junk, st.integers(),
                       one_replaced(VALID["shape"], HUGE_EXTENT)),
    "dtype": st.sampled_from([numpy.int32, bool, "foo", object, "U3", numpy.float16]),
    "kinds": st.one_of(names, st.lists(names, max_size=5), junk),
    "axes": st.one_of(small_int, st.lists(small_int, max_size=5), junk),
    "grid": st.one_of(names, st.lists(small_int, max_size=_lib.MAX_DIMS + 1), junk,
                      one_replaced(st.lists(st.integers(0, 1), min_size=1, max_size=3), HUGE)),
    "method": st.one_of(names, junk), "norm": st.one_of(names, junk), "rigor": st.one_of(names, junk),
    "placement": st.one_of(names, junk), "overlap": st.one_of(names, junk),
    "batch": st.one_of(small_int, junk), "node_size": st.one_of(small_int, junk),
    "threads": st.one_of(small_int, junk),
    "padding": st.one_of(st.floats(allow_nan=True), st.lists(st.floats(allow_nan=True), max_size=5), junk),
    "destroy_input": junk, "inplace": junk,
    "tune_budget": st.one_of(small_int, junk),
}


@st.composite
def plan_arguments(draw):
    bad = draw(st.sets(st.sampled_from(sorted(VALID)), max_size=2))
    args = {}
    for name in VALID:
        if name in bad:
            args[name] = draw(BAD[name])
        elif name in ("shape", "rigor") or draw(st.booleans()):
            args[name] = draw(VALID[name])
    return args


def refused(error):
    """A refusal says it is distfft's, and (mostly) which argument."""
    event(f"refused: {type(error).__name__}")
    assert "distfft" in str(error), f"{type(error).__name__} without distfft's word: {error}"


def small(plan):
    return numpy.prod(plan.global_input_shape) <= 4096 and numpy.prod(plan.global_output_shape) <= 4096


@SETTINGS
@given(plan_arguments())
def test_plan_arguments(args):
    shape = args.pop("shape")
    try:
        plan = distfft.Plan(SELF, shape, **args)
    except ALLOWED as e:
        refused(e)
        return
    event("built")
    with plan:
        # What C made is what was asked: no integer wrapped around.
        given_shape = tuple(int(n) for n in shape)
        spectral = plan.global_output_shape[-len(given_shape):]
        physical = plan.global_input_shape[-len(given_shape):]
        assert given_shape in (spectral, physical) or plan.padding != (1.0,) * len(given_shape)
        assert all(fits_int(n, 64) and n >= 1 for n in given_shape)
        assert len(plan.kinds) == len(given_shape)
        assert all(k in _lib.names_of("kind") for k in plan.kinds)
        grid = args.get("grid")
        if grid is not None and not isinstance(grid, str):
            assert all(int(d) in (0, 1) for d in grid), f"grid {grid} accepted on 1 rank as {plan.grid}"
        for name in ("batch", "node_size", "tune_budget"):
            value = args.get(name)
            if isinstance(value, int):
                assert fits_int(value, 32 if name != "batch" else 64), f"{name} = {value} accepted"
        if args.get("batch") is not None:
            assert plan.global_input_shape[0] == args["batch"]
        if small(plan):
            if plan.inplace:
                u, u_hat = plan.inplace_arrays()
                plan.forward(u, u_hat)
                plan.backward(u_hat, u)
            else:
                u = plan.input_array()
                u[...] = 1
                plan.backward(plan.forward(u))


@st.composite
def layout_arguments(draw):
    """(global_shape, start, shape) of one rank's whole array, with at most
    one of the three made bad."""
    glob = draw(st.lists(st.integers(1, 6), min_size=1, max_size=4))
    args = [glob, [0] * len(glob), list(glob)]
    bad = draw(st.integers(-1, 2))
    if bad >= 0:
        args[bad] = draw(st.one_of(st.lists(extent, max_size=_lib.MAX_DIMS + 1), junk,
                                   st.lists(small_int, min_size=len(glob), max_size=len(glob))))
    return args


@st.composite
def grid_arguments(draw):
    """(global_shape, grid, distributed_by) on one rank, at most one bad."""
    glob = draw(st.lists(st.integers(1, 6), min_size=1, max_size=4))
    grid = [1] * draw(st.integers(1, 3))
    by = draw(st.lists(st.integers(-1, len(grid) - 1), min_size=len(glob), max_size=len(glob)))
    args = [glob, grid, by]
    bad = draw(st.integers(-1, 2))
    if bad >= 0:
        args[bad] = draw(st.one_of(st.lists(extent, max_size=_lib.MAX_DIMS + 1), junk,
                                   st.lists(small_int, min_size=len(args[bad]), max_size=len(args[bad]))))
    return args


@SETTINGS
@given(layout_arguments())
def test_layout_arguments(args):
    global_shape, start, shape = args
    try:
        layout = distfft.Layout(SELF, global_shape, start, shape)
    except ALLOWED as e:
        refused(e)
        return
    event("built")
    with layout:
        assert layout.global_shape == tuple(int(n) for n in global_shape)
        assert layout.start == tuple(int(n) for n in start)
        assert layout.shape == tuple(int(n) for n in shape)


@SETTINGS
@given(grid_arguments())
def test_layout_from_grid_arguments(args):
    global_shape, grid, distributed_by = args
    try:
        layout = distfft.Layout.from_grid(SELF, global_shape, grid, distributed_by)
    except ALLOWED as e:
        refused(e)
        return
    event("built")
    with layout:
        assert all(int(d) == 1 for d in grid), f"grid {grid} accepted on 1 rank"
        assert all(-1 <= int(a) < len(grid) for a in distributed_by), f"distributed_by {distributed_by}"
        assert layout.global_shape == tuple(int(n) for n in global_shape)


@st.composite
def redistribution_arguments(draw):
    """(shape, axis_in, axis_out, dtype, batch, method), at most one bad."""
    shape = draw(st.lists(st.integers(1, 6), min_size=2, max_size=4))
    args = [shape, draw(st.integers(0, len(shape) - 1)), draw(st.integers(0, len(shape) - 1)),
            draw(st.sampled_from([numpy.complex128, numpy.complex64, numpy.float64, numpy.float32])),
            draw(st.one_of(st.none(), st.integers(1, 3))), draw(st.sampled_from(list(_lib.method_names())))]
    bad = draw(st.integers(-1, 5))
    if bad >= 0:
        args[bad] = draw([st.one_of(st.lists(extent, max_size=5), junk), small_int | junk, small_int | junk,
                          st.sampled_from([numpy.int8, "x", None, object]), small_int | junk,
                          names | junk][bad])
    return args


@SETTINGS
@given(redistribution_arguments())
def test_redistribution_arguments(args):
    shape, axis_in, axis_out, dtype, batch, method = args
    try:
        redist = distfft.Redistribution(SELF, shape, axis_in, shape, axis_out, dtype, batch, method)
    except ALLOWED as e:
        refused(e)
        return
    event("built")
    with redist:
        assert all(fits_int(int(n), 64) and int(n) >= 0 for n in shape)
        if batch is not None:
            assert fits_int(batch, 64) and batch >= 1


@SETTINGS
@given(st.sampled_from(["kind", "method", "norm", "rigor", "placement", "overlap", "precision", "type"]), names | junk)
def test_name_lookup(enum, name):
    try:
        value = _lib.code_of(enum, name)
    except ALLOWED:
        assert str(name) not in _lib.names_of(enum)
        return
    # Found: the name is exactly one of the library's (no NUL-cut prefix).
    assert str(name) in _lib.names_of(enum), f"{name!r} taken as {enum} {value}"


@SETTINGS
@given(st.text(max_size=300) | st.sampled_from([
    "distfft-wisdom 1\nmpi=\"x\" ranks=1 shape=4x4 kinds=c2c,c2c precision=double batch=1 grid=auto "
    "placement=row node-size=0 -> grid=1 methods=alltoallw,alltoallw\n",
    "distfft-wisdom 1\n\x00garbage\n"]))
def test_wisdom_text(text):
    distfft.wisdom.forget()
    try:
        distfft.wisdom.import_text(text)
    except ALLOWED:
        assert distfft.wisdom.export_text() == "distfft-wisdom 1\n"
        return
    exported = distfft.wisdom.export_text()
    # Taken whole: nothing after a NUL was silently dropped.
    assert "\x00" not in text, "a text with a NUL byte was imported up to the NUL"
    distfft.wisdom.forget()
    distfft.wisdom.import_text(exported)
    assert distfft.wisdom.export_text() == exported
    distfft.wisdom.forget()
