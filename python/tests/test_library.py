"""
test_library.py -- what the package asks of the C library instead of
copying it: the structs' layout measured at build time (python/setup.py,
distfft/_layout.json), every enum's names, and the plan's steps as fields.
"""
import ctypes
import hashlib
import os

import numpy
import pytest

import distfft
from distfft import _lib

HEADER = os.path.join(os.environ.get("DISTFFT_SOURCE_DIR")
                      or os.path.join(os.path.dirname(__file__), "..", ".."),
                      "include", "distfft.h")


def test_installed_layout_was_measured_from_this_header():
    if not os.path.exists(HEADER):
        pytest.skip("no include/distfft.h next to the tests")
    with open(HEADER, "rb") as f:
        current = hashlib.sha256(f.read()).hexdigest()
    assert _lib.LAYOUT["header_sha256"] == current, (
        "include/distfft.h changed since the installed package was built: reinstall it "
        "(python3 -m pip install ./python) so its struct layout is measured again")


def test_structures_are_the_measured_layout():
    for struct_type, name in ((_lib.Options, "distfft_options"), (_lib.Step, "distfft_step"),
                              (_lib.Timings, "distfft_timings")):
        measured = _lib.LAYOUT["structs"][name]
        assert ctypes.sizeof(struct_type) == measured["size"]
        for field in measured["fields"]:
            assert getattr(struct_type, field["name"]).offset == field["offset"]
            assert getattr(struct_type, field["name"]).size == field["size"]
    with pytest.raises(AttributeError):
        _lib.Options().direction = 1     # a misspelt or renamed field is no silent attribute


def _layout_without(struct, field):
    layout = {"structs": {name: dict(entry) for name, entry in _lib.LAYOUT["structs"].items()}}
    entry = layout["structs"][struct]
    entry["fields"] = [f for f in entry["fields"] if f["name"] != field]
    return layout


def test_a_layout_without_a_used_field_is_refused():
    with pytest.raises(ImportError, match="distfft_step as built has no field grid_direction"):
        _lib.structure("distfft_step", _lib.STEP_FIELDS,
                       _layout_without("distfft_step", "grid_direction"))
    with pytest.raises(ImportError, match="no struct distfft_plan_options"):
        _lib.structure("distfft_plan_options", (), _lib.LAYOUT)


def test_a_layout_ctypes_cannot_follow_is_refused():
    layout = _layout_without("distfft_timings", "executions")
    entry = layout["structs"]["distfft_timings"]
    entry["fields"] = [dict(f) for f in entry["fields"]]
    entry["fields"][1]["offset"] = 4   # a double where C never puts one
    with pytest.raises(ImportError, match="cannot lay out distfft_timings"):
        _lib.structure("distfft_timings", (), layout)


def test_a_library_writing_past_the_struct_is_refused():
    size = ctypes.sizeof(_lib.Timings)
    with pytest.raises(ImportError, match="wrote past"):
        _lib.filled(_lib.Timings, lambda buffer: ctypes.memset(buffer, 0, size + 8))
    timings, result = _lib.filled(_lib.Timings, lambda buffer: ctypes.memset(buffer, 0, size))
    assert timings.executions == 0


def test_names_come_from_the_library():
    lib = _lib.lib
    assert distfft.KINDS == tuple(lib.distfft_kind_name(k).decode()
                                  for k in range(len(distfft.KINDS)))
    assert lib.distfft_kind_name(len(distfft.KINDS)) is None
    count = lib.distfft_method_count()
    assert distfft.method_names() == \
        [lib.distfft_method_name(m).decode() for m in range(count)] + ["auto"]
    assert _lib.code_of("method", "auto") == _lib.METHOD_AUTO == -1
    for enum in ("type", "precision", "kind", "norm", "rigor", "placement", "method"):
        for name in _lib.names_of(enum):
            assert _lib.name_of(enum, _lib.code_of(enum, name)) == name
    with pytest.raises(ValueError, match="unknown rigor 'careful'; one of estimate, measure"):
        _lib.code_of("rigor", "careful")


def test_dtypes_follow_the_element_types():
    assert [str(d) for d in _lib.DTYPES.values()] == \
        ["complex128", "complex64", "float64", "float32"]
    assert _lib.precision(numpy.float32) == _lib.code_of("precision", "float")
    assert _lib.precision(numpy.complex128) == _lib.code_of("precision", "double")
    with pytest.raises(TypeError, match="not supported"):
        _lib.element_type(numpy.int32)


def test_steps_report_grid_direction_and_axes(comm):
    shape = (8, 6, 4)
    with distfft.Plan(comm, shape, grid="pencil", method="alltoallv",
                      rigor="estimate") as plan:
        for direction in ("forward", "backward"):
            for step in plan.steps(direction):
                assert "direction" not in step
                if step["is_redistribution"]:
                    assert 0 <= step["grid_direction"] < len(plan.grid)
                    assert step["group_size"] == plan.grid[step["grid_direction"]] > 1
                    assert step["axis_in"] != step["axis_out"]
                    assert {step["axis_in"], step["axis_out"]} <= set(range(len(shape)))
                    assert step["method"] == "alltoallv"
                else:
                    assert (step["grid_direction"], step["axis_in"], step["axis_out"]) == \
                        (-1, -1, -1)
                    assert step["method"] is None and step["group_size"] == 1
        assert plan.methods == tuple(s["method"] for s in plan.steps("forward")
                                     if s["is_redistribution"])
        assert len(plan.methods) == len([d for d in plan.grid if d > 1])
