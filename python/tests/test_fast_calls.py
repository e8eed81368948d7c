"""
test_fast_calls.py -- the compiled hot calls (distfft._fast): a plan's
transform, the mpi4py-fft layer's Transfer and serial FFTW plans run
through them when the arrays are exactly what C needs, and every other
array still takes the Python path: copied where the package documents a
copy, else a clear exception, never a crash. _fast.c's calls are checked
by the compiler against include/distfft.h: a header whose declaration
differs fails its compilation (rank 0 compiles; the verdict is broadcast).
"""
import os
import subprocess
import sysconfig

import numpy
import pytest

import distfft
from distfft import _fast, _lib
from distfft.mpi4py_fft import fftw
from distfft.mpi4py_fft.pencil import Pencil, Subcomm

from test_signatures import ROOT, mpi_compiler


def misaligned(shape, dtype):
    """A C-contiguous array whose data is 8 bytes past a 16-byte boundary."""
    dtype = numpy.dtype(dtype)
    nbytes = int(numpy.prod(shape)) * dtype.itemsize
    raw = numpy.zeros(nbytes + 32, dtype=numpy.uint8)
    start = (-raw.ctypes.data) % 16 + 8
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def refuse_ctypes(monkeypatch, name):
    """The ctypes declaration of `name` raises: a call through it fails."""
    def refused(*args):
        raise AssertionError(f"{name} was called through ctypes")
    monkeypatch.setattr(_lib.lib, name, refused)


# ---- the module itself ------------------------------------------------------------


def test_address_is_the_data_pointer():
    a = numpy.zeros((3, 4), dtype=complex)
    assert _fast.address(a) == a.ctypes.data
    assert _fast.address(a[1:]) == a[1:].ctypes.data
    assert _fast.address(numpy.zeros((0, 4))) is None   # NULL for an empty block
    with pytest.raises(TypeError, match="numpy.ndarray"):
        _fast.address([1.0, 2.0])


def test_calls_refuse_malformed_specs_and_defer_odd_arrays():
    a = numpy.zeros(4, dtype=complex)
    for call in (_fast.plan_execute, _fast.redist_execute, _fast.serial_execute):
        assert call(None, a, a) is None             # a destroyed object: the Python path
        with pytest.raises(TypeError, match="spec"):
            call((1, 2), a, a)
        with pytest.raises(TypeError, match="arguments"):
            call(None, a)
    # arrays that are not exactly the spec's: None, and no call is made
    spec = (0, numpy.dtype(complex), (4,), (4,))
    for source, target in ((a, a.astype(numpy.complex64)), ([0j] * 4, a), (a, a[::2]),
                           (a, misaligned((4,), complex)), (a, numpy.zeros(5, complex))):
        assert _fast.redist_execute(spec, source, target) is None
    read_only = numpy.zeros(4, dtype=complex)
    read_only.flags.writeable = False
    assert _fast.redist_execute(spec, a, read_only) is None


# ---- a plan's transform -------------------------------------------------------------


def test_plan_transforms_in_c_with_exact_arrays(comm, monkeypatch):
    with distfft.Plan(comm, (8, 6, 4), dtype=numpy.float64, rigor="estimate") as plan:
        u = plan.input_array()
        u[...] = numpy.arange(u.size).reshape(u.shape)
        expected = plan.forward(u.copy())
        refuse_ctypes(monkeypatch, "distfft_plan_execute")
        u_hat = plan.output_array()
        assert plan.forward(u, u_hat) is u_hat        # a DistArray: the fast path too
        assert numpy.array_equal(u_hat, expected)
        back = plan.backward(u_hat, plan.input_array())
        assert numpy.allclose(back, u)
        monkeypatch.undo()
        # out=None, a copied input: the Python path (ctypes) as before
        assert numpy.array_equal(plan.forward(numpy.array(u)), expected)


def test_batched_plan_transforms_in_c(comm, monkeypatch):
    with distfft.Plan(comm, (6, 4), batch=3, rigor="estimate") as plan:
        u = plan.input_array()
        u[...] = 1 + numpy.arange(u.size).reshape(u.shape)
        expected = plan.forward(u)
        refuse_ctypes(monkeypatch, "distfft_plan_execute")
        u_hat = plan.output_array()
        plan.forward(u, u_hat)
        assert numpy.array_equal(u_hat, expected)


# ---- the mpi4py-fft layer's Transfer -----------------------------------------------


@pytest.fixture
def transfer(comm):
    pencil = Pencil(Subcomm(comm, [0, 1]), (8, 6), axis=1)
    other = pencil.pencil(0)
    moved = pencil.transfer(other, complex)
    global_array = numpy.arange(48, dtype=complex).reshape(8, 6)
    source = numpy.ascontiguousarray(
        global_array[tuple(slice(s, s + n) for s, n in zip(pencil.substart, pencil.subshape))])
    expected = global_array[tuple(slice(s, s + n) for s, n in zip(other.substart,
                                                                   other.subshape))]
    yield moved, source, expected, other.subshape
    moved.destroy()


def test_transfer_in_c_with_exact_arrays(transfer, monkeypatch):
    moved, source, expected, shape = transfer
    moved.forward(source, numpy.zeros(shape, complex))   # plans the redistribution
    refuse_ctypes(monkeypatch, "distfft_redist_execute")
    target = numpy.zeros(shape, complex)
    moved.forward(source, target)
    assert numpy.array_equal(target, expected)


def test_transfer_copies_odd_arrays_and_refuses_wrong_ones(transfer):
    moved, source, expected, shape = transfer
    wide = numpy.zeros(shape[:1] + (2 * shape[1],), complex)
    moved.forward(numpy.asfortranarray(source), wide[:, ::2])   # both through copies
    assert numpy.array_equal(wide[:, ::2], expected)
    target = misaligned(shape, complex)
    moved.forward(source, target)
    assert numpy.array_equal(target, expected)
    with pytest.raises(AssertionError, match="dtype"):
        moved.forward(source, numpy.zeros(shape, numpy.complex64))
    with pytest.raises(AssertionError, match="shape"):
        moved.forward(source, numpy.zeros((1, 1), complex))
    with pytest.raises(AssertionError, match="shape"):
        moved.forward(list(source), numpy.zeros(shape, complex))


# ---- serial FFTW plans --------------------------------------------------------------


def test_serial_plan_runs_in_c_on_its_arrays_and_like_ones(monkeypatch):
    a = fftw.aligned((8, 4), dtype=complex)
    fft = fftw.fftn(a, axes=(0, 1), flags=(fftw.FFTW_ESTIMATE,))
    data = numpy.arange(32).reshape(8, 4) + 1j
    refuse_ctypes(monkeypatch, "distfft_serial_plan_execute")
    fft.input_array[...] = data
    assert numpy.allclose(fft(), numpy.fft.fftn(data))
    other_in, other_out = fftw.aligned((8, 4), dtype=complex), fftw.aligned((8, 4), dtype=complex)
    other_in[...] = data
    assert fft(other_in, other_out) is other_out
    assert numpy.allclose(other_out, numpy.fft.fftn(data))
    assert numpy.allclose(fft(other_in, normalize=True), numpy.fft.fftn(data) / 32)


def test_serial_plan_copies_odd_inputs_and_refuses_wrong_outputs():
    a = fftw.aligned((8, 4), dtype=complex)
    fft = fftw.fftn(a, axes=(0, 1), flags=(fftw.FFTW_ESTIMATE,))
    data = numpy.arange(32).reshape(8, 4) + 1j
    for odd in (numpy.asfortranarray(data), data.astype(numpy.complex64), data.tolist(),
                misaligned((8, 4), complex)):
        if isinstance(odd, numpy.ndarray) and odd.dtype == complex and odd.flags.c_contiguous:
            odd[...] = data
        assert numpy.allclose(fft(odd), numpy.fft.fftn(data))   # copied into the plan's input
    read_only = fftw.aligned((8, 4), dtype=complex)
    read_only.flags.writeable = False
    for wrong in (read_only, numpy.zeros((8, 4), numpy.complex64), numpy.zeros((4, 8), complex),
                  numpy.zeros((8, 8), complex)[:, ::2], [[0j] * 4] * 8):
        with pytest.raises(AssertionError, match="output_array"):
            fft(data, wrong)
    fft.destroy()
    with pytest.raises(AssertionError, match="destroyed"):
        fft()


# ---- the calls are the header's -----------------------------------------------------


def compile_fast(include):
    """(return code, messages) of compiling _fast.c against include/."""
    import numpy as np
    command = [mpi_compiler(), "-fsyntax-only", "-I", include,
               "-I", sysconfig.get_paths()["include"], "-I", np.get_include(),
               os.path.join(ROOT, "python", "distfft", "_fast.c")]
    result = subprocess.run(command, capture_output=True, text=True)
    return result.returncode, result.stderr


def test_fast_calls_are_checked_against_the_header(comm, tmp_path):
    verdicts = None
    header = os.path.join(ROOT, "include", "distfft.h")
    if comm.Get_rank() == 0 and os.path.exists(header) and mpi_compiler() and \
            os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
        with open(header) as f:
            text = f.read()
        declaration = "int distfft_redist_execute(distfft_redist redist, const void *in, void *out);"
        assert declaration in text
        wrong = tmp_path / "include"
        wrong.mkdir()
        (wrong / "distfft.h").write_text(text.replace(
            declaration, "int distfft_redist_execute(distfft_redist redist, const void *in);"))
        verdicts = compile_fast(os.path.join(ROOT, "include")), compile_fast(str(wrong))
    verdicts = comm.bcast(verdicts, root=0)
    if verdicts is None:
        pytest.skip("no include/distfft.h next to the tests, no MPI C compiler or no Python.h")
    (right, right_messages), (wrong, wrong_messages) = verdicts
    assert right == 0, right_messages
    assert wrong != 0 and "redist_execute" in wrong_messages, wrong_messages
