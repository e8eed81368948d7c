"""
test_device_arrays.py -- the argument paths of device plans (memory="cuda")
without a device: the memory words, the refusal where no device can serve a
plan, and what forward/backward hand the C call for device arrays.

A device plan cannot be made here, so the paths of its arrays run on a host
plan told it is a device plan, with distfft_plan_execute replaced by a
recorder (reshapes alike: a host Reshape told it is a device one,
distfft_reshape_execute replaced): a fake array exposing __cuda_array_interface__ must reach the C
call as its address, untouched; numpy arrays, wrong shapes, dtypes, strides
and read-only outputs are refused on every rank (through the recorder's
stand-in for the library's agreement). On a machine with a device
(DISTFFT_TEST_DEVICE=1) the refusal test is skipped.
"""
import os

import numpy
import pytest
from mpi4py import MPI

import distfft
from distfft import _lib
from distfft.errors import DistfftError

DEVICE = os.environ.get("DISTFFT_TEST_DEVICE") == "1"
SHAPE = (6, 5, 4)
ERR_ARGUMENT, ERR_UNSUPPORTED = 1, 6   # include/distfft.h


class FakeDeviceArray:
    """An object with __cuda_array_interface__ at a made-up address."""

    def __init__(self, shape, dtype, address, strides=None, read_only=False):
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": numpy.dtype(dtype).str, "strides": strides,
            "data": (address, read_only), "version": 3}


class Recorder:
    """Stands in for distfft_plan_execute: records the pointers; refuses
    the pointer the package passes for arrays it rejected, as the library
    does, on every rank (its agreement)."""

    def __init__(self, comm):
        self.comm = comm
        self.calls = []

    def __call__(self, handle, pin, pout, direction):
        self.calls.append((pin, pout, direction))
        rejected = self.comm.allreduce(pin == 1 or pout == 1, op=MPI.LOR)
        return ERR_ARGUMENT if rejected else 0


@pytest.fixture
def device_plan(comm, monkeypatch):
    """A host plan whose arrays go through the device paths, and the
    recorder in place of the C transform."""
    plan = distfft.Plan(comm, SHAPE, rigor="estimate")
    plan.memory = "cuda"
    plan._fast_forward = plan._fast_backward = None
    recorder = Recorder(plan._comm)
    monkeypatch.setattr(_lib.lib, "distfft_plan_execute", recorder)
    yield plan, recorder
    monkeypatch.undo()
    plan.destroy()


def test_memory_words():
    assert _lib.names_of("memory") == ("host", "cuda")


@pytest.mark.skipif(DEVICE, reason="a device is present")
def test_device_plan_refused_without_device(comm):
    with pytest.raises(DistfftError, match="cuda") as caught:
        distfft.Plan(comm, SHAPE, rigor="estimate", memory="cuda")
    assert caught.value.code == ERR_UNSUPPORTED


def test_unknown_memory(comm):
    with pytest.raises(ValueError, match="memory kind 'gpu'"):
        distfft.Plan(comm, SHAPE, memory="gpu")


def test_stream_needs_device_memory(comm):
    with pytest.raises(DistfftError, match="stream"):
        distfft.Plan(comm, SHAPE, rigor="estimate", stream=1234)
    with pytest.raises(TypeError, match="stream"):
        distfft.Plan(comm, SHAPE, memory="cuda", stream="default")


def expect_reached(transform, recorder, in_shape, in_dtype, out_shape, out_dtype):
    """forward and backward of fake device arrays hand the C call their
    addresses, and return the output passed."""
    a = FakeDeviceArray(in_shape, in_dtype, 0x7F0000001000)
    out = FakeDeviceArray(out_shape, out_dtype, 0x7F0000200000)
    assert transform.forward(a, out) is out
    assert transform.backward(out, a) is a
    assert recorder.calls == [(0x7F0000001000, 0x7F0000200000, _lib.FORWARD),
                              (0x7F0000200000, 0x7F0000001000, _lib.BACKWARD)]


def test_device_arrays_reach_the_call(device_plan):
    plan, recorder = device_plan
    expect_reached(plan, recorder, plan.input_shape, plan.dtype, plan.output_shape, plan.output_dtype)


def expect_refused(plan, a, out, error, match):
    """Every rank raises `error`: the C call got the rejected pointer."""
    with pytest.raises(error, match=match):
        plan.forward(a, out)


def test_numpy_refused(device_plan):
    plan, _ = device_plan
    out = FakeDeviceArray(plan.output_shape, plan.output_dtype, 0x7F0000200000)
    a = numpy.zeros(plan.input_shape, plan.dtype)
    expect_refused(plan, a, out, TypeError, "device array")
    a = FakeDeviceArray(plan.input_shape, plan.dtype, 0x7F0000001000)
    expect_refused(plan, a, numpy.zeros(plan.output_shape, plan.output_dtype), TypeError,
                   "device array")


def numpy_on_one_rank(comm, in_shape, in_dtype, out_shape, out_dtype):
    """Fake device arrays, but a numpy input on the last rank."""
    out = FakeDeviceArray(out_shape, out_dtype, 0x7F0000200000)
    a = FakeDeviceArray(in_shape, in_dtype, 0x7F0000001000)
    if comm.Get_rank() == comm.Get_size() - 1:
        a = numpy.zeros(in_shape, in_dtype)
    return a, out


def test_numpy_refused_on_one_rank(comm, device_plan):
    plan, _ = device_plan
    a, out = numpy_on_one_rank(comm, plan.input_shape, plan.dtype, plan.output_shape, plan.output_dtype)
    expect_refused(plan, a, out, TypeError, "device array")


@pytest.mark.parametrize("bad", ["shape", "dtype", "strides", "read-only"])
def test_bad_device_arrays(device_plan, bad):
    plan, _ = device_plan
    shape, dtype, strides = plan.output_shape, plan.output_dtype, None
    if bad == "shape":
        shape = tuple(n + 1 for n in shape)
    if bad == "dtype":
        dtype = numpy.complex64
    if bad == "strides":
        strides = tuple(reversed([dtype.itemsize * k for k in range(1, len(shape) + 1)]))
    out = FakeDeviceArray(shape, dtype, 0x7F0000200000, strides, read_only=bad == "read-only")
    a = FakeDeviceArray(plan.input_shape, plan.dtype, 0x7F0000001000)
    error = TypeError if bad == "dtype" else ValueError
    expect_refused(plan, a, out, error, {"shape": "shape", "dtype": "dtype",
                                         "strides": "C-contiguous", "read-only": "read-only"}[bad])


def test_output_without_cupy(device_plan):
    try:
        import cupy  # noqa: F401
        pytest.skip("CuPy is installed")
    except ImportError:
        pass
    plan, _ = device_plan
    a = FakeDeviceArray(plan.input_shape, plan.dtype, 0x7F0000001000)
    expect_refused(plan, a, None, TypeError, "CuPy")


@pytest.fixture
def layouts(comm):
    """Slabs along axis 0 and along axis 1 of SHAPE."""
    with distfft.Layout.from_grid(comm, SHAPE, (comm.size,), (0, -1, -1)) as rows, \
            distfft.Layout.from_grid(comm, SHAPE, (comm.size,), (-1, 0, -1)) as columns:
        yield rows, columns


@pytest.mark.skipif(DEVICE, reason="a device is present")
def test_device_reshape_refused_without_device(comm, layouts):
    with pytest.raises(DistfftError, match="cuda") as caught:
        distfft.Reshape(*layouts, rigor="estimate", memory="cuda")
    assert caught.value.code == ERR_UNSUPPORTED
    with pytest.raises(DistfftError, match="cuda") as caught:   # the device's refusal, not the layouts'
        distfft.Plan(comm, SHAPE, rigor="estimate", memory="cuda", input_layout=layouts[1])
    assert caught.value.code == ERR_UNSUPPORTED and "caller's layouts" not in str(caught.value)


def test_reshape_memory_arguments(layouts):
    with pytest.raises(ValueError, match="memory kind 'gpu'"):
        distfft.Reshape(*layouts, memory="gpu")
    with pytest.raises(DistfftError, match="stream") as caught:
        distfft.Reshape(*layouts, rigor="estimate", stream=1234)
    assert caught.value.code == ERR_ARGUMENT
    with pytest.raises(TypeError, match="stream"):
        distfft.Reshape(*layouts, memory="cuda", stream="default")


@pytest.fixture
def device_reshape(comm, layouts, monkeypatch):
    """A host reshape whose arrays go through the device paths, and the
    recorder in place of the C call."""
    reshape = distfft.Reshape(*layouts, rigor="estimate")
    reshape.memory = "cuda"
    recorder = Recorder(reshape._comm)
    monkeypatch.setattr(_lib.lib, "distfft_reshape_execute", recorder)
    yield reshape, recorder
    monkeypatch.undo()
    reshape.destroy()


def test_device_arrays_reach_the_reshape(device_reshape):
    reshape, recorder = device_reshape
    expect_reached(reshape, recorder, reshape.input_shape, reshape.dtype, reshape.output_shape, reshape.dtype)


def test_reshape_refuses_numpy_on_one_rank(comm, device_reshape):
    reshape, recorder = device_reshape
    a, out = numpy_on_one_rank(comm, reshape.input_shape, reshape.dtype, reshape.output_shape, reshape.dtype)
    with pytest.raises(TypeError, match="device array"):
        reshape.forward(a, out)
    assert recorder.calls == []
    bad = FakeDeviceArray(reshape.output_shape, numpy.complex64, 0x7F0000200000)
    with pytest.raises(TypeError, match="dtype"):
        reshape.forward(FakeDeviceArray(reshape.input_shape, reshape.dtype, 0x7F0000001000), bad)
