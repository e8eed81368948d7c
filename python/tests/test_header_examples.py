"""
test_header_examples.py -- the examples of what the library prints, quoted
in include/distfft.h's comments, are what it prints (plan, layout and
reshape descriptions), at the rank count each example names.
"""
import os
import re

import numpy
import pytest

import distfft

HEADER = os.path.join(os.path.dirname(__file__), "..", "..", "include", "distfft.h")


def quoted(start):
    """The first string quoted in the header's comments that begins with `start`."""
    if not os.path.exists(HEADER):
        pytest.skip("no include/distfft.h next to the tests (an installed package)")
    with open(HEADER) as f:
        text = " ".join(line.strip().lstrip("/*").strip() for line in f)
    match = re.search(re.escape('"' + start) + r'[^"]*"', text)
    assert match, f"no example starting {start!r} in the header"
    return re.sub(r"\s+", " ", match.group(0)[1:-1]).replace("( ", "(")


def test_plan_describe(comm):
    if comm.size != 4:
        pytest.skip("the example is for 4 ranks")
    with distfft.Plan(comm, (8, 8, 8), grid=(2, 2), method="alltoallw", rigor="estimate") as plan:
        assert plan.describe() == quoted("(distfft kinds=")


def test_layout_and_reshape_describe(comm):
    if comm.size != 2:
        pytest.skip("the examples are for 2 ranks")
    with distfft.Layout.from_grid(comm, (8, 8, 8), (2,), (0, -1, -1)) as a, \
            distfft.Layout.from_grid(comm, (8, 8, 8), (2,), (-1, 0, -1)) as b, \
            distfft.Reshape(a, b, numpy.complex128, method="alltoallw") as reshape:
        assert a.describe() == quoted("(layout 8x8x8")
        assert reshape.describe() == quoted("(reshape alltoallw")
