"""
mpifft.py -- mpi4py_fft.mpifft: PFFT and Transform on distfft.

PFFT(comm, shape, axes, dtype, grid, padding, collapse, backend,
transforms, darray, **kw) has mpi4py-fft's arguments, attributes and
semantics: `subcomm` (a Subcomm), `axes` (groups, the last transformed
first), `pencil` ([input, output] Pencils), `xfftn` (one serial
libfft.FFT per group), `transfer` (one pencil.Transfer between groups),
`forward`/`backward` (Transforms with input/output arrays and pencils),
shape(), local_slice(), global_shape(), dtype(), dimensions, destroy().

Two engines give the same blocks and numbers:

- one distfft plan (_fused.Engine), when distfft's plan can do the whole
  transform with mpi4py-fft's blocks (engine='auto' tries it first;
  'plan' insists): forward/backward then run in C in one call each, and
  `xfftn`/`transfer` are built only if a program reads them (local: a
  Transfer plans its redistribution on its first call);
- mpi4py-fft's chain (engine='steps', and 'auto' where the plan cannot:
  a Subcomm or darray argument, axes in an order the plan does not
  transform in -- it does the r2c axis first, wherever it is, then the
  others from the highest down, so axes=(1, 2, 0) on real data is one
  plan but (2, 0, 1) is not: mpi4py-fft's blocks after each exchange
  follow its own order --, transforms= distfft has no kind for, ...):
  serial transforms over each group (libfft.FFT: FFTW for backend 'fftw')
  interleaved with Transfers, each a distfft redistribution.

kw: planner_effort, threads, overwrite_input (the serial planners'),
slab, and distfft's own method= (of every exchange; default
'alltoallw') and engine=.
"""
import numpy
from mpi4py import MPI

from . import _fused
from .libfft import FFT
from .pencil import Pencil, Subcomm

ENGINES = ("auto", "plan", "steps")


class Transform:
    """A parallel transform as mpi4py-fft composes it: serial transforms
    `xfftn` (callables with input_array/output_array) interleaved with
    `transfer` steps (callables (A, B)); `pencil` = (input, output)."""

    def __init__(self, xfftn, transfer, pencil):
        if not (len(xfftn) == len(transfer) + 1 and len(pencil) == 2):
            raise AssertionError("Transform needs one more serial step than transfers and "
                                 "two pencils")
        self._xfftn = tuple(xfftn)
        self._transfer = tuple(transfer)
        self._pencil = tuple(pencil)

    @property
    def input_array(self):
        return self._xfftn[0].input_array

    @property
    def output_array(self):
        return self._xfftn[-1].output_array

    @property
    def input_pencil(self):
        return self._pencil[0]

    @property
    def output_pencil(self):
        return self._pencil[1]

    def __call__(self, input_array=None, output_array=None, **kw):
        """Run the transform (collective); kw (normalize=) goes to every
        serial step. Returns output_array, or the transform's own."""
        if input_array is not None:
            self.input_array[...] = input_array
        for step, transfer in enumerate(self._transfer):
            self._xfftn[step](**kw)
            transfer(self._xfftn[step].output_array, self._xfftn[step + 1].input_array)
        self._xfftn[-1](**kw)
        if output_array is not None:
            output_array[...] = self.output_array
            return output_array
        return self.output_array


class _PlanTransform(Transform):
    """forward/backward of a PFFT run by one distfft plan."""

    def __init__(self, run, pencil):   # pylint: disable=super-init-not-called
        self._run = run
        self._pencil = tuple(pencil)
        self._xfftn = self._transfer = None

    @property
    def input_array(self):
        return self._run.input_array

    @property
    def output_array(self):
        return self._run.output_array

    def __call__(self, input_array=None, output_array=None, **kw):
        return self._run(input_array, output_array, **kw)


class PFFT:
    """mpi4py-fft's parallel FFT (see the module text)."""

    def __init__(self, comm, shape=None, axes=None, dtype=float, grid=None, padding=False,
                 collapse=False, backend="fftw", transforms=None, darray=None, **kw):
        engine = kw.pop("engine", "auto")
        if engine not in ENGINES:
            raise ValueError(f"distfft.mpi4py_fft: engine {engine!r} is not one of {ENGINES}")
        self._engine = None
        self._args = None
        if engine != "steps" and darray is None and isinstance(comm, MPI.Intracomm):
            try:
                self._engine = _fused.Engine(comm, shape, axes, dtype, grid,
                                             _copy(padding), collapse, backend, transforms,
                                             None, **kw)
            except NotImplementedError:
                if engine == "plan":
                    raise
        elif engine == "plan":
            raise NotImplementedError("distfft.mpi4py_fft: engine='plan' needs an "
                                      "intracommunicator and no darray")
        kw.pop("verbose", None)
        if self._engine is not None and self._adopt(comm, shape, dtype, padding, backend,
                                                    transforms, kw):
            return
        self._steps(comm, shape, axes, dtype, grid, padding, collapse, backend, transforms,
                    darray, kw)

    # ---- one distfft plan -------------------------------------------------------------

    def _adopt(self, comm, shape, dtype, padding, backend, transforms, kw):
        """Take the plan's transform, with mpi4py-fft's pencils; False (on
        every rank) if a block would differ."""
        engine = self._engine
        self.subcomm = Subcomm(comm, list(engine._pencils.dims))
        self.axes = tuple(tuple(g) for g in engine.axes)
        self.collapse = engine.collapse
        self.backend = backend
        self._input_shape = tuple(engine._input_shape)
        self._output_shape = tuple(engine._output_shape)
        first = self.axes[-1][-1]
        physical = Pencil(self.subcomm, self._input_shape, first)
        spectral = Pencil(self.subcomm, self._output_shape, first)
        for group in reversed(self.axes[:-1]):
            spectral = spectral.pencil(group[-1])
        same = _slices(physical) == engine.local_slice(False) and \
            _slices(spectral) == engine.local_slice(True)
        if not comm.allreduce(same, op=MPI.LAND):
            engine.destroy()
            self.subcomm.destroy()
            self._engine = None
            return False
        self.pencil = [physical, spectral]
        self.forward = _PlanTransform(engine.forward, (physical, spectral))
        self.backward = _PlanTransform(engine.backward, (spectral, physical))
        self._args = (shape, dtype, _copy(padding), backend, transforms, dict(kw))
        return True

    @property
    def distfft_plan(self):
        """The distfft.Plan doing the work, or None (mpi4py-fft's chain)."""
        return None if self._engine is None else self._engine.distfft_plan

    @property
    def xfftn(self):
        """The serial transform of each group (libfft.FFT), the first
        transformed first. Built when first read where one plan runs."""
        if "_xfftn_list" not in self.__dict__:
            self._chain()
        return self.__dict__["_xfftn_list"]

    @xfftn.setter
    def xfftn(self, value):
        self.__dict__["_xfftn_list"] = value

    @property
    def transfer(self):
        """The Transfer between each pair of groups."""
        if "_transfer_list" not in self.__dict__:
            self._chain()
        return self.__dict__["_transfer_list"]

    @transfer.setter
    def transfer(self, value):
        self.__dict__["_transfer_list"] = value

    def _chain(self):
        """mpi4py-fft's steps for a PFFT run by one plan (local)."""
        shape, dtype, padding, backend, transforms, kw = self._args
        if isinstance(padding, list):   # the exact factors mpi4py-fft keeps
            for axis, (n, m) in enumerate(zip(shape, self._input_shape)):
                if m != n:
                    padding[axis] = m / float(n)
        xfftn, transfer, _ = _build(self.subcomm, self._input_shape, self.axes,
                                    numpy.dtype(dtype), padding, backend, transforms, kw)
        self.__dict__["_xfftn_list"], self.__dict__["_transfer_list"] = xfftn, transfer

    # ---- mpi4py-fft's chain -----------------------------------------------------------

    def _steps(self, comm, shape, axes, dtype, grid, padding, collapse, backend, transforms,
               darray, kw):
        method = kw.pop("method", None)
        slab = kw.pop("slab", False)
        if shape is None:
            _check(darray is not None, "PFFT needs shape or darray")
            shape = darray.pencil.shape
        shape = [int(n) for n in shape]
        if axes is None:
            groups = list(range(len(shape)))
            if darray is not None:   # the darray's aligned axis goes first
                groups = list(numpy.roll(groups, len(shape) - 1 - darray.alignment))
        else:
            groups = [axes] if isinstance(axes, (int, numpy.integer)) else list(axes)
        groups = [_group(g, len(shape)) for g in groups]
        if darray is None:
            dtype = numpy.dtype(dtype)
            _check(dtype.char in "fdgFDG", f"dtype {dtype} is not a float or complex type")
            padding = _copy(padding)
            if padding is not False:
                _check(len(padding) == len(shape), "padding needs one factor per axis")
                for group in groups:
                    axis = group[0]
                    if len(group) == 1 and padding[axis] > 1.0 + 1e-6:
                        old = float(shape[axis])
                        shape[axis] = int(numpy.floor(shape[axis] * padding[axis]))
                        padding[axis] = shape[axis] / old
            self._input_shape = tuple(shape)
            _check(len(shape) > 0 and min(shape) > 0, f"shape {tuple(shape)}")
            self.subcomm = _subcomm(comm, shape, groups, grid, slab)
        else:
            dtype = darray.dtype
            self.subcomm = darray.subcomm
            self._input_shape = tuple(shape)
            _check(all(darray.commsizes[a] == 1 for a in groups[-1]),
                   "Set keyword axes such that axes to transform first are aligned")
        self.collapse = collapse
        if collapse is True:
            merged = [[]]
            for group in reversed(groups):
                if all(self.subcomm[a].Get_size() == 1 for a in group):
                    merged[0][:0] = list(group)
                else:
                    merged.insert(0, group)
            groups = merged
        self.axes = tuple(tuple(g) for g in groups)
        self.backend = backend
        if method is not None:
            kw["_method"] = method
        xfftn, transfer, pencils = _build(self.subcomm, self._input_shape, self.axes, dtype,
                                          padding, backend, transforms, kw)
        self.xfftn, self.transfer, self.pencil = xfftn, transfer, pencils
        self._output_shape = tuple(pencils[1].shape)
        self.forward = Transform([o.forward for o in xfftn], [o.forward for o in transfer],
                                 pencils)
        self.backward = Transform([o.backward for o in xfftn[::-1]],
                                  [o.backward for o in transfer[::-1]], pencils[::-1])

    # ---- mpi4py-fft's queries ----------------------------------------------------------

    def destroy(self):
        """Free the communicators, transfers and plan. Collective."""
        if isinstance(getattr(self, "subcomm", None), Subcomm):
            self.subcomm.destroy()
        for transfer in self.__dict__.get("_transfer_list", ()):
            transfer.destroy()
        if getattr(self, "_engine", None) is not None:
            self._engine.destroy()
            self._engine = None

    def shape(self, forward_output=True):
        """This rank's block shape: spectral (True) or physical."""
        if forward_output is not True:
            return self.forward.input_pencil.subshape
        return self.forward.output_array.shape

    def local_slice(self, forward_output=True):
        """This rank's block in the global array, as slices."""
        pencil = self.backward.input_pencil if forward_output is True else \
            self.forward.input_pencil
        return _slices(pencil)

    def global_shape(self, forward_output=False):
        return self._output_shape if forward_output else self._input_shape

    @property
    def dimensions(self):
        return len(self.forward.input_array.shape)

    def dtype(self, forward_output=False):
        if forward_output:
            return self.forward.output_array.dtype
        return self.forward.input_array.dtype


def _check(condition, message):
    if not condition:
        raise AssertionError(message)


def _copy(padding):
    return list(padding) if isinstance(padding, (list, tuple, numpy.ndarray)) else padding


def _slices(pencil):
    return tuple(slice(s, s + n) for s, n in zip(pencil.substart, pencil.subshape))


def _group(group, ndim):
    """One entry of axes as a list of non-negative axes (checked)."""
    if isinstance(group, (int, numpy.integer)):
        group = [int(group)]
    else:
        _check(isinstance(group, (tuple, list)), f"axes entry {group!r}")
        group = list(group)
        for axis in group:
            _check(isinstance(axis, (int, numpy.integer)), f"axis {axis!r} is not an int")
    group = [int(a) + ndim if a < 0 else int(a) for a in group]
    _check(0 < len(group) <= ndim and min(group) >= 0 and max(group) < ndim and
           len(set(group)) == len(group), f"axes {group} of a {ndim}-axis array")
    return group


def _subcomm(comm, shape, groups, grid, slab):
    """The Subcomm mpi4py-fft makes from comm, grid or slab."""
    if grid is not None:
        _check(not isinstance(comm, Subcomm), "grid with a Subcomm")
        _check(slab is False or slab is None, "grid and slab together")
        grid = tuple(grid)
        _check(len(grid) <= len(shape), f"grid {grid} longer than shape")
        return Subcomm(comm, list(grid) + [1] * (len(shape) - len(grid)))
    if isinstance(comm, Subcomm):
        _check(slab is False or slab is None, "slab with a Subcomm")
        _check(len(comm) == len(shape), "a Subcomm needs one communicator per axis")
        _check(all(comm[a].Get_size() == 1 for a in groups[-1]),
               "the axes transformed first must not be split")
        return comm
    if slab is False or slab is None:
        dims = [0] * len(shape)
        for axis in groups[-1]:
            dims[axis] = 1
    else:
        axis = (groups[-1][-1] + 1) % len(shape) if slab is True else int(slab) % len(shape)
        dims = [1] * len(shape)
        dims[axis] = comm.Get_size()
    return Subcomm(comm, dims)


def _build(subcomm, shape, groups, dtype, padding, backend, transforms, kw):
    """mpi4py-fft's chain: (xfftn, transfer, [input pencil, output pencil])."""
    kw = dict(kw)
    method = kw.pop("_method", None)
    shape = list(shape)
    xfftn, transfer = [], []
    group = groups[-1]
    pencil = Pencil(subcomm, shape, group[-1])
    serial = FFT(pencil.subshape, group, dtype, _copy(padding), backend=backend,
                 transforms=transforms, **kw)
    xfftn.append(serial)
    physical = current = pencil
    spectral = serial.forward.output_array
    if shape[group[-1]] != spectral.shape[group[-1]] or dtype != spectral.dtype:
        dtype = spectral.dtype
        shape[group[-1]] = spectral.shape[group[-1]]
        current = Pencil(subcomm, shape, group[-1])
    for group in reversed(groups[:-1]):
        following = current.pencil(group[-1])
        step = current.transfer(following, dtype)
        if method is not None:
            step.method = method
        serial = FFT(following.subshape, group, dtype, _copy(padding), backend=backend,
                     transforms=transforms, **kw)
        xfftn.append(serial)
        transfer.append(step)
        current = following
        spectral = serial.forward.output_array
        if shape[group[-1]] != spectral.shape[group[-1]] or dtype != spectral.dtype:
            dtype = spectral.dtype
            shape[group[-1]] = spectral.shape[group[-1]]
            current = Pencil(following.subcomm, shape, group[-1])
    return xfftn, transfer, [physical, current]
