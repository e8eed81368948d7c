"""
test_mpi4py_fft_modules.py -- each module of distfft.mpi4py_fft against
numpy/scipy and against mpi4py-fft itself (2.0.6 from PyPI in .venv, else
Debian's 2.0.4; scripts/common.sh):
pencil (the same blocks as mpi4py-fft's Pencil; Transfer moving data as
mpi4py-fft's does, empty blocks and 8-byte integers included), fftw (every
planner against numpy/scipy, normalisation, flags, wisdom files), libfft,
mpifft (the two engines give the same blocks and numbers; mpi4py-fft's
attributes; real-to-complex on any axis; Subcomm, darray, long double),
distarray (subcomm, tensors redistributed), io (HDF5 slices and scalar
components read by mpi4py-fft, XDMF that parses), and install() /
python -m distfft.mpi4py_fft serving the module name mpi4py_fft.
"""
import functools
import os
import sys
import xml.etree.ElementTree as ElementTree

import numpy
import pytest
import scipy.fft

from helpers import random_global, tolerance

mpi4py_fft = pytest.importorskip("mpi4py_fft")
import mpi4py_fft.pencil   # noqa: E402

from distfft.mpi4py_fft import fftw, io, libfft, mpifft, pencil   # noqa: E402
import distfft.mpi4py_fft as ours   # noqa: E402


def _close(a, b, dtype, n=64):
    scale = max(float(numpy.max(numpy.abs(b))), 1e-300) if numpy.size(b) else 1.0
    error = float(numpy.max(numpy.abs(a - b))) / scale if numpy.size(b) else 0.0
    assert error <= tolerance(dtype, n), error


# ---- pencil ----------------------------------------------------------------------------

@pytest.mark.parametrize("shape,dims,axes", [((7, 8, 9), None, (0, 2, 1)),
                                             ((3, 2, 5), (0, 0, 1), (2, 0, 1)),
                                             ((6, 10), None, (1, 0))], ids=str)
def test_pencils_and_transfers_as_mpi4py_fft(comm, shape, dims, axes):
    subcomm = pencil.Subcomm(comm, dims if dims is not None else len(shape) - 1)
    theirs_comm = mpi4py_fft.pencil.Subcomm(comm, dims if dims is not None else len(shape) - 1)
    assert [c.Get_size() for c in subcomm] == [c.Get_size() for c in theirs_comm]
    a, b = pencil.Pencil(subcomm, shape, axes[0]), None
    ta = mpi4py_fft.pencil.Pencil(theirs_comm, shape, axes[0])
    data = random_global(shape, numpy.float64, seed=2)
    for axis in axes[1:]:
        b, tb = a.pencil(axis), ta.pencil(axis)
        assert (b.subshape, b.substart, b.axis) == (tb.subshape, tb.substart, tb.axis)
        for dtype in (numpy.float64, numpy.complex64, numpy.int64):
            A = numpy.ascontiguousarray(data[_block(a)]).astype(dtype)
            B = numpy.zeros(b.subshape, dtype)
            transfer = a.transfer(b, dtype)
            transfer.forward(A, B)
            assert numpy.array_equal(B, data[_block(b)].astype(dtype))
            back = numpy.zeros_like(A)
            transfer.backward(B, back)
            assert numpy.array_equal(back, A)
            transfer.destroy()
        a, ta = b, tb
    subcomm.destroy()
    theirs_comm.destroy()


def _block(p):
    return tuple(slice(s, s + n) for s, n in zip(p.substart, p.subshape))


def test_transfer_with_empty_blocks_and_another_method(comm):
    shape = (2, 3)   # fewer points than ranks along axis 0 on 3 or 4 ranks
    subcomm = pencil.Subcomm(comm, [0, 1])
    a = pencil.Pencil(subcomm, shape, 1)
    b = a.pencil(0)
    data = random_global(shape, numpy.complex128, seed=4)
    transfer = pencil.Transfer(a.subcomm[0], shape, numpy.complex128, a.subshape, 1,
                               b.subshape, 0, method="alltoallv")
    B = numpy.zeros(b.subshape, numpy.complex128)
    transfer.forward(numpy.ascontiguousarray(data[_block(a)]), B)
    assert numpy.array_equal(B, data[_block(b)])
    transfer.destroy()
    subcomm.destroy()


# ---- fftw --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [numpy.float64, numpy.float32], ids=lambda d: d.__name__)
def test_fftw_planners_against_numpy_and_scipy(dtype):
    shape, axes = (6, 7, 5), (0, 2)
    x = random_global(shape, dtype, seed=1)
    z = (x + 1j * random_global(shape, dtype, seed=2)).astype(numpy.result_type(dtype, 1j))
    n = 6 * 5
    rfft = fftw.rfftn(fftw.aligned(shape, dtype=dtype), axes=axes, flags=fftw.FFTW_ESTIMATE)
    _close(rfft(x).copy(), numpy.fft.rfftn(x, axes=axes), dtype)
    spectrum = rfft.output_array.copy()
    irfft = fftw.irfftn(fftw.aligned_like(spectrum), s=(6, 5), axes=axes,
                        flags=fftw.FFTW_ESTIMATE)
    _close(irfft(spectrum, normalize=True), x, dtype)
    fft = fftw.fftn(fftw.aligned_like(z), axes=axes, flags=(fftw.FFTW_ESTIMATE,))
    _close(fft(z), numpy.fft.fftn(z, axes=axes), dtype)
    assert fft.get_normalization() == pytest.approx(1.0 / n)
    ifft = fftw.ifftn(fftw.aligned_like(z), axes=axes, flags=fftw.FFTW_ESTIMATE)
    _close(ifft(z, normalize=True), numpy.fft.ifftn(z, axes=axes), dtype)
    for kind_type in (1, 2, 3, 4):
        for family in ("dct", "dst"):
            forward = getattr(fftw, family + "n")(fftw.aligned_like(x), axes=axes,
                                                  type=kind_type, flags=fftw.FFTW_ESTIMATE)
            expected = getattr(scipy.fft, family + "n")(x, type=kind_type, axes=axes)
            _close(forward(x).copy(), expected, dtype)
            inverse = getattr(fftw, "i" + family + "n")(fftw.aligned_like(x), axes=axes,
                                                        type=kind_type,
                                                        flags=fftw.FFTW_ESTIMATE)
            _close(inverse(expected.astype(dtype), normalize=True), x, dtype)
    half = fftw.ihfftn(fftw.aligned_like(x), axes=(2,), flags=fftw.FFTW_ESTIMATE)
    herm = fftw.hfftn(fftw.aligned_like(half.output_array), s=(5,), axes=(2,),
                      flags=fftw.FFTW_ESTIMATE)
    _close(half(herm(half(x).copy()).copy(), normalize=True), half(x).copy() * 5 / 5, dtype)


def test_fftw_names_and_arrays_as_mpi4py_fft(tmp_path):
    theirs = mpi4py_fft.fftw
    for name in ("FFTW_MEASURE", "FFTW_ESTIMATE", "FFTW_PATIENT", "FFTW_DESTROY_INPUT",
                 "FFTW_PRESERVE_INPUT", "FFTW_REDFT00", "FFTW_RODFT11", "FFTW_FORWARD",
                 "FFTW_BACKWARD", "C2R", "R2C"):
        assert getattr(fftw, name) == getattr(theirs, name), name
    assert fftw.flag_dict == {k: v for k, v in theirs.flag_dict.items()}
    assert fftw.inverse[fftw.FFTW_REDFT10] == fftw.FFTW_REDFT01
    assert fftw.inverse[fftw.rfftn] is fftw.irfftn
    a = fftw.aligned((3, 4), n=32, dtype=numpy.complex128, fill=2)
    assert a.ctypes.data % 32 == 0 and numpy.all(a == 2) and fftw.get_alignment(a) == 32
    assert fftw.aligned_like(a).shape == (3, 4)
    assert fftw.get_fftw_lib("d") is not None and set(fftw.fftlib) >= {"F", "D"}
    assert fftw.get_normalization([fftw.FFTW_REDFT00, fftw.FFTW_RODFT00], (5, 6), (0, 1)) == \
        pytest.approx(1.0 / (8 * 14))
    with pytest.raises(AssertionError):
        fftw.rfftn(fftw.aligned((4, 4), dtype=numpy.complex128))
    os.chdir(tmp_path)
    fftw.export_wisdom("wisdom.dat")
    fftw.import_wisdom("wisdom.dat")
    assert any(f.startswith("D") and f.endswith("_wisdom.dat") for f in os.listdir(tmp_path))
    fftw.forget_wisdom()


def test_fftw_runs_on_distfft_serial_api(tmp_path, capsys):
    """Every plan is a distfft_serial_plan (include/distfft.h): float,
    double and long double, FFTW_R2HC/_HC2R/_DHT included (fftw/_fftw.py;
    more in test_fftw_serial.py)."""
    from distfft.errors import DistfftError
    from distfft.mpi4py_fft.fftw import _fftw
    for dtype in (numpy.float32, numpy.float64):
        x = random_global((5, 8), dtype, seed=4)
        plan = fftw.rfftn(fftw.aligned((5, 8), dtype=dtype), axes=(0, 1), flags=fftw.FFTW_ESTIMATE)
        assert isinstance(plan._plan, _fftw._SerialPlan)
        _close(plan(x).copy(), numpy.fft.rfftn(x), dtype)
        plan.print_plan()
        assert capsys.readouterr().out.startswith("(")
        # a strided view, input and output apart
        big = fftw.aligned((5, 16), dtype=numpy.result_type(dtype, 1j))
        view = big[:, ::2]
        out = fftw.aligned((8, 5), dtype=big.dtype).T
        fft = fftw.FFT(view, out, axes=(1,), kind=fftw.FFTW_FORWARD, flags=fftw.FFTW_ESTIMATE)
        z = (x + 2j * x[::-1]).astype(big.dtype)
        view[...] = z
        _close(fft(implicit=False).copy(), numpy.fft.fft(z, axis=1), dtype)
    long_plan = fftw.dctn(fftw.aligned((6,), dtype=numpy.longdouble), flags=fftw.FFTW_ESTIMATE)
    assert isinstance(long_plan._plan, _fftw._SerialPlan)
    x = random_global((4,), numpy.float64, seed=5)
    r2hc = fftw.FFT(fftw.aligned((4,)), fftw.aligned((4,)), axes=(0,),
                    kind=[fftw.FFTW_R2HC], flags=fftw.FFTW_ESTIMATE)
    spectrum = numpy.fft.rfft(x)
    assert isinstance(r2hc._plan, _fftw._SerialPlan)
    _close(r2hc(x).copy(), numpy.array([spectrum[0].real, spectrum[1].real, spectrum[2].real,
                                        spectrum[1].imag]), numpy.float64)
    with pytest.raises(AssertionError, match="r2r kinds"):
        fftw.FFT(fftw.aligned((4, 4)), fftw.aligned((4, 4)), axes=(0, 1),
                 kind=[fftw.FFTW_REDFT10] * 3)
    # misuse the C API refuses, as RuntimeError (DistfftError)
    fftw.forget_wisdom()
    with pytest.raises(DistfftError, match="wisdom"):
        fftw.fftn(fftw.aligned((7, 9), dtype=numpy.complex128), axes=(0, 1),
                  flags=(fftw.FFTW_MEASURE, fftw.FFTW_WISDOM_ONLY))
    with pytest.raises(RuntimeError, match="preserve"):
        fftw.hfftn(fftw.aligned((4, 3), dtype=numpy.complex128), s=(4, 4), axes=(0, 1),
                   flags=(fftw.FFTW_ESTIMATE, fftw.FFTW_PRESERVE_INPUT))
    plan = fftw.fftn(fftw.aligned((7, 9), dtype=numpy.complex128), axes=(0, 1))
    os.chdir(tmp_path)
    fftw.export_wisdom("serial.dat")
    assert open(next(f for f in os.listdir(tmp_path) if f.startswith("D"))).read().startswith("(fftw")
    fftw.forget_wisdom()
    fftw.import_wisdom("serial.dat")
    again = fftw.fftn(fftw.aligned((7, 9), dtype=numpy.complex128), axes=(0, 1),
                      flags=(fftw.FFTW_MEASURE, fftw.FFTW_WISDOM_ONLY))
    assert isinstance(again._plan, _fftw._SerialPlan)
    with pytest.raises(AssertionError):
        fftw.import_wisdom("missing.dat")
    plan.destroy()
    again.destroy()


# ---- libfft ------------------------------------------------------------------------------

@pytest.mark.filterwarnings("ignore::numpy.ComplexWarning")   # scipy.fftpack on real data
@pytest.mark.parametrize("backend", ["fftw", "numpy", "scipy"])
@pytest.mark.parametrize("dtype,padding", [(numpy.float64, False), (numpy.complex128, False),
                                           (numpy.float64, 1.5), (numpy.complex128, 1.5)],
                         ids=str)
def test_libfft_as_mpi4py_fft(backend, dtype, padding):
    shape, axes = (6, 9), (1,) if padding else (0, 1)
    if padding:
        shape = (6, int(9 * padding))
    mine = libfft.FFT(shape, axes, dtype=dtype, backend=backend, padding=padding,
                      planner_effort="FFTW_ESTIMATE")
    theirs = mpi4py_fft.libfft.FFT(shape, axes, dtype=dtype, backend=backend, padding=padding,
                                   planner_effort="FFTW_ESTIMATE")
    x = random_global(shape, dtype, seed=3)
    a, b = mine.forward(x).copy(), theirs.forward(x).copy()
    _close(a, b, dtype)
    _close(mine.backward(a).copy(), theirs.backward(b).copy(), dtype)


# ---- mpifft ------------------------------------------------------------------------------

ENGINE_CASES = [((8, 9, 10), numpy.float64, {}),
                ((8, 9, 10), numpy.complex128, {"collapse": True}),
                ((7, 6, 5, 4), numpy.float32, {"grid": (-1,)}),
                ((8, 9, 10), numpy.float64, {"padding": [1.5, 1.5, 1.5]}),
                ((9, 8, 7), numpy.float64, {"transforms": {
                    (a,): (functools.partial(getattr(fftw, f + "n"), type=t),
                           functools.partial(getattr(fftw, "i" + f + "n"), type=t))
                    for a, f, t in ((0, "dct", 2), (1, "dst", 3), (2, "dct", 1))}})]


@pytest.mark.parametrize("shape,dtype,kw", ENGINE_CASES,
                         ids=[f"{s}-{numpy.dtype(d).name}-{sorted(k)}" for s, d, k in ENGINE_CASES])
def test_one_plan_and_the_chain_agree(comm, shape, dtype, kw):
    plan = ours.PFFT(comm, shape, dtype=dtype, engine="plan", **kw)
    steps = ours.PFFT(comm, shape, dtype=dtype, engine="steps", **kw)
    assert plan.distfft_plan is not None and steps.distfft_plan is None
    for f in (plan, steps):   # mpi4py-fft's attributes
        assert len(f.xfftn) == len(f.axes) == len(f.transfer) + 1
        assert f.forward.input_pencil.subshape == f.forward.input_array.shape
        assert f.backward.input_pencil.subshape == f.backward.input_array.shape
        assert f.forward.output_array is f.backward.input_array
    assert plan.axes == steps.axes and plan.pencil[1].subshape == steps.pencil[1].subshape
    for forward_output in (False, True):
        assert plan.local_slice(forward_output) == steps.local_slice(forward_output)
        assert plan.dtype(forward_output) == steps.dtype(forward_output)
    u = random_global(plan.global_shape(False), dtype, seed=9)[plan.local_slice(False)]
    a, b = plan.forward(u).copy(), steps.forward(u).copy()
    _close(a, b, dtype, 1000)
    _close(plan.backward(a, normalize=True), steps.backward(b, normalize=True), dtype, 1000)
    # the chain of a plan-run PFFT transforms too (its serial steps and transfers)
    chain = mpifft.Transform([o.forward for o in plan.xfftn],
                             [o.forward for o in plan.transfer], plan.pencil)
    _close(chain(u).copy(), a, dtype, 1000)
    plan.destroy()
    steps.destroy()


@pytest.mark.parametrize("axes", [(1, 0), (2, 0, 1), ((0,), (2, 1))], ids=str)
def test_real_to_complex_on_any_axis_as_numpy(comm, axes):
    shape = (8, 6, 5)
    fft = ours.PFFT(comm, shape, axes=axes, dtype=numpy.float64)
    flat = [a for g in ([a] if isinstance(a, int) else a for a in axes) for a in g]
    data = random_global(shape, numpy.float64, seed=6)
    u = ours.newDistArray(fft, False)
    u[...] = data[u.local_slice()]
    # numpy: the last listed axis is real-to-complex, transformed first
    expected = numpy.fft.fftn(numpy.fft.rfft(data, axis=flat[-1]), axes=flat[:-1]) / \
        numpy.prod([shape[a] for a in flat])
    got = fft.forward(u)
    _close(got, expected[fft.local_slice(True)], numpy.float64, 240)
    _close(fft.backward(got), data[u.local_slice()], numpy.float64, 240)
    fft.destroy()


def test_subcomm_darray_and_long_double(comm):
    subcomm = ours.Subcomm(comm, [0, 0, 1])
    fft = ours.PFFT(subcomm, (8, 6, 5), dtype=numpy.complex128)
    reference = mpi4py_fft.PFFT(comm, (8, 6, 5), dtype=numpy.complex128, grid=(-1,) if
                                len(subcomm) == 0 else None)
    assert fft.subcomm is subcomm
    a = ours.newDistArray(fft, False, rank=1)
    b = ours.PFFT(comm, darray=a[0])
    assert b.local_slice(False) == fft.local_slice(False)
    b.destroy()
    fft.destroy()
    reference.destroy()
    g = ours.PFFT(comm, (6, 5, 4), dtype=numpy.longdouble)
    x = random_global((6, 5, 4), numpy.float64, seed=8).astype(numpy.longdouble)
    u = x[g.local_slice(False)]
    assert g.distfft_plan is None and g.dtype(True) == numpy.clongdouble
    assert numpy.allclose(g.backward(g.forward(u).copy()), u, atol=1e-15)
    g.destroy()


# ---- distarray ---------------------------------------------------------------------------

def test_tensor_redistributed_as_mpi4py_fft(comm):
    shape = (3, 7, 6, 5)
    mine = ours.DistArray(shape, subcomm=(0, 0, 1), rank=1)
    theirs = mpi4py_fft.DistArray(shape, subcomm=(0, 0, 1), rank=1)
    assert mine.commsizes == theirs.commsizes and mine.local_slice() == theirs.local_slice()
    assert [c.Get_size() for c in mine.subcomm] == [c.Get_size() for c in theirs.subcomm]
    data = random_global(shape, numpy.float64, seed=5)
    mine[...] = data[mine.local_slice()]
    theirs[...] = data[theirs.local_slice()]
    a, b = mine.redistribute(0), theirs.redistribute(0)
    assert a.local_slice() == b.local_slice() and numpy.array_equal(a, b)
    p1, transfer = mine.get_pencil_and_transfer(1)
    assert p1.axis == 1 and isinstance(transfer, pencil.Transfer)
    assert numpy.array_equal(a.redistribute(out=mine.copy()), data[mine.local_slice()])
    got = mine.get((1, slice(None), 2, slice(None)))
    if comm.Get_rank() == 0:
        assert numpy.array_equal(got, data[1, :, 2, :])


# ---- io ----------------------------------------------------------------------------------

def test_hdf5_slices_and_components_read_by_mpi4py_fft(comm, shared_tmp_path):
    fft = ours.PFFT(comm, (8, 7, 6), dtype=numpy.float64)
    u = ours.newDistArray(fft, False, rank=1)
    data = random_global((3, 8, 7, 6), numpy.float64, seed=7)
    u[...] = data[u.local_slice()]
    path = f"{shared_tmp_path}/io.h5"
    f = io.HDF5File(path, domain=((0, 1), (0, 2), (0, 3)), mode="w")
    f.write(0, {"u": [u, (u, [slice(None), 3, slice(None)])]})
    f.write(1, {"s": [u[1], (u[1], [2, slice(None), slice(None)])]})
    u.write(path, "c", 0, as_scalar=True)
    reference = mpi4py_fft.PFFT(comm, (8, 7, 6), dtype=numpy.float64)
    theirs = mpi4py_fft.newDistArray(reference, False, rank=1)
    mpi4py_fft.HDF5File(path, mode="r").read(theirs, "u", step=0)
    assert numpy.array_equal(theirs, data[theirs.local_slice()])
    scalar = mpi4py_fft.newDistArray(reference, False)
    scalar.read(path, "c2", 0)
    assert numpy.array_equal(scalar, data[2][scalar.local_slice()])
    if comm.Get_rank() == 0:
        h5py = sys.modules["h5py"]
        with h5py.File(path, "r") as raw:
            assert numpy.array_equal(raw["u/2D/slice_3_slice/0"][...], data[:, :, 3, :])
            assert numpy.array_equal(raw["s/2D/2_slice_slice/1"][...], data[1, 2])
        io.generate_xdmf(path)
        for name in ("io.xdmf", "io_2_slice_slice.xdmf"):
            ElementTree.parse(f"{shared_tmp_path}/{name}")
    reference.destroy()
    fft.destroy()


# ---- the module name ---------------------------------------------------------------------

@pytest.fixture
def module_names():
    """install() replaces sys.modules['mpi4py_fft*']: put them back after."""
    saved = {k: v for k, v in sys.modules.items() if k == "mpi4py_fft" or
             k.startswith("mpi4py_fft.")}
    yield
    for name in [k for k in sys.modules if k == "mpi4py_fft" or k.startswith("mpi4py_fft.")]:
        del sys.modules[name]
    sys.modules.update(saved)


def test_install_serves_mpi4py_fft_from_distfft(module_names, tmp_path):
    ours.install()
    import mpi4py_fft as served
    from mpi4py_fft.fftw.utilities import FFTW_MEASURE
    from mpi4py_fft.pencil import Subcomm
    assert served is ours and ours.installed() and Subcomm is pencil.Subcomm
    assert FFTW_MEASURE == 0 and sys.modules["mpi4py_fft.io.h5py_file"].__name__.startswith(
        "distfft.")
    program = tmp_path / "program.py"
    program.write_text("import sys, mpi4py_fft\n"
                       "assert mpi4py_fft.__name__ == 'distfft.mpi4py_fft'\n"
                       "RESULT = sys.argv[1:]\n")
    from distfft.mpi4py_fft.__main__ import main
    argv = sys.argv
    try:
        assert main([str(program), "a", "b"]) == 0
    finally:
        sys.argv = argv
