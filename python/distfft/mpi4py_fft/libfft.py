"""
libfft.py -- mpi4py_fft.libfft: one serial transform over a group of axes,
with a backend, padding and a common calling convention.

FFT(shape, axes=None, dtype=float, padding=False, backend='fftw',
transforms=None, **kw) plans a forward and a backward transform between
two arrays it owns: `forward` maps physical (shape, dtype) to spectral,
`backward` the reverse; each is called as t(input_array=None,
output_array=None, normalize=...) and returns its output array. Forward is
normalised by default (times M = 1/N), backward not, as mpi4py-fft does.

Backends: 'fftw' plans FFTW through distfft.mpi4py_fft.fftw (the FFTW
distfft links; kw: planner_effort, overwrite_input, threads); 'numpy',
'scipy', 'mkl_fft' and 'pyfftw' call those libraries' functions as
mpi4py-fft does (scipy.fftpack has no rfftn: real input gives a complex
full-length spectrum), and need them installed. `transforms={axes:
(forward, backward)}` replaces the default pair for exactly those axes.

Padding (dealiasing) on the last of the axes, a single axis: the physical
array has `shape` points there, the spectral one round(shape/padding)
modes (halved for real input); forward truncates, backward zero-pads, with
mpi4py-fft's treatment of the highest retained mode when the count of
modes is even (split in half when padding, doubled real part when
truncating a real transform).
"""
import functools
import importlib

import numpy

from . import fftw

BACKENDS = ("fftw", "pyfftw", "numpy", "scipy", "mkl_fft")


def _default_pair(backend, real):
    if backend == "numpy":
        return (numpy.fft.rfftn, numpy.fft.irfftn) if real else (numpy.fft.fftn, numpy.fft.ifftn)
    if backend == "scipy":
        fftpack = importlib.import_module("scipy.fftpack")
        return fftpack.fftn, fftpack.ifftn
    if backend == "mkl_fft":
        module = importlib.import_module("mkl_fft._numpy_fft")
        return (module.rfftn, module.irfftn) if real else (module.fftn, module.ifftn)
    return (fftw.rfftn, fftw.irfftn) if real else (fftw.fftn, fftw.ifftn)


def _plan_fftw(shape, axes, dtype, transforms, options):
    opts = dict(overwrite_input="FFTW_DESTROY_INPUT", planner_effort="FFTW_MEASURE", threads=1)
    opts.update(options)
    real = numpy.issubdtype(dtype, numpy.floating)
    flags = (fftw.flag_dict[opts["planner_effort"]], fftw.flag_dict[opts["overwrite_input"]])
    forward, backward = (transforms or {}).get(tuple(axes)) or _default_pair("fftw", real)
    lengths = tuple(numpy.take(shape, axes))
    physical = fftw.aligned(shape, dtype=dtype)
    plan_forward = forward(physical, s=lengths, axes=axes, threads=opts["threads"], flags=flags)
    physical.fill(0)
    spectral = plan_forward.output_array
    if real:   # c2r cannot preserve its input; mpi4py-fft drops the flag for it
        flags = (fftw.flag_dict[opts["planner_effort"]],)
    plan_backward = backward(spectral, s=lengths, axes=axes, threads=opts["threads"],
                             flags=flags, output_array=physical)
    return plan_forward, plan_backward


def _plan_pyfftw(shape, axes, dtype, transforms, options):
    pyfftw = importlib.import_module("pyfftw")
    opts = dict(avoid_copy=True, overwrite_input=True, auto_align_input=True,
                auto_contiguous=True, threads=1)
    opts.update(options)
    real = numpy.issubdtype(dtype, numpy.floating)
    builders = pyfftw.builders
    pair = (transforms or {}).get(tuple(axes)) or \
        ((builders.rfftn, builders.irfftn) if real else (builders.fftn, builders.ifftn))
    lengths = tuple(numpy.take(shape, axes))
    physical = pyfftw.empty_aligned(shape, dtype=dtype)
    plan_forward = pair[0](physical, s=lengths, axes=axes, **opts)
    physical.fill(0)
    if real:
        del opts["overwrite_input"]
    spectral = plan_forward.output_array
    plan_backward = pair[1](spectral, s=lengths, axes=axes, **opts)
    spectral.fill(0)
    plan_forward.update_arrays(physical, spectral)
    plan_backward.update_arrays(spectral, physical)
    unnormalised = functools.partial(plan_backward, normalise_idft=False)
    functools.update_wrapper(unnormalised, plan_backward,
                             assigned=["input_array", "output_array", "__doc__"])
    return plan_forward, unnormalised


def _plan_calling(backend):
    """numpy, scipy, mkl_fft: functions returning arrays, wrapped to write
    into arrays of their own (backward undoes the library's 1/N)."""
    def plan(shape, axes, dtype, transforms, options):
        real = numpy.issubdtype(dtype, numpy.floating)
        forward, backward = (transforms or {}).get(tuple(axes)) or _default_pair(backend, real)
        lengths = tuple(numpy.take(shape, axes))
        key = "shape" if backend == "scipy" else "s"
        physical = fftw.aligned(shape, dtype=dtype)
        spectral = forward(physical, **{key: lengths, "axes": axes})
        if backend == "numpy":   # numpy computes in double; keep the precision asked for
            spectral = spectral.astype(dtype.char.upper())
        spectral = fftw.aligned_like(spectral)
        count = int(numpy.prod(lengths))
        options = {key: lengths, "axes": axes}
        return (_Called(forward, physical, spectral, 1, options),
                _Called(backward, spectral, physical, count, options))
    return plan


class _Called:
    """A library function that returns an array, called FFTW-style: on the
    stored input, into the stored output, times M."""

    def __init__(self, function, input_array, output_array, factor, options):
        self.xfftn, self.input_array, self.output_array = function, input_array, output_array
        self.M, self.opt = factor, dict(options)
        self.__doc__ = function.__doc__

    def __call__(self, *args, **kwargs):
        self.opt.update(kwargs)
        self.output_array[...] = self.xfftn(self.input_array, **self.opt)
        if abs(self.M - 1) > 1e-8:
            self.output_array *= self.M
        return self.output_array


class _Direction:
    """FFT.forward / FFT.backward: the common interface of every backend."""

    def __init__(self, run, input_array, output_array):
        self.xfftn, self.input_array, self.output_array = run, input_array, output_array
        self.__doc__ = run.__doc__

    def __call__(self, input_array=None, output_array=None, **options):
        if input_array is not None:
            self.input_array[...] = input_array
        self.xfftn(**options)
        if output_array is not None:
            output_array[...] = self.output_array
            return output_array
        return self.output_array


def _check(condition, message):
    if not condition:
        raise AssertionError(message)


class FFTBase:
    """What every serial transform knows: shape, axes, dtype, padding."""

    def __init__(self, shape, axes=None, dtype=float, padding=False):
        shape = [int(n) for n in shape] if numpy.ndim(shape) else [int(shape)]
        _check(len(shape) > 0 and min(shape) > 0, f"shape {shape} must have positive lengths")
        if axes is None:
            axes = list(range(len(shape)))
        else:
            axes = [int(a) for a in axes] if numpy.ndim(axes) else [int(axes)]
            axes = [a + len(shape) if a < 0 else a for a in axes]
        _check(0 < len(axes) <= len(shape) and min(axes) >= 0 and max(axes) < len(shape) and
               len(set(axes)) == len(axes), f"axes {axes} of a {len(shape)}-axis array")
        dtype = numpy.dtype(dtype)
        _check(dtype.char in "fdgFDG", f"dtype {dtype} is not a float or complex type")
        self.shape, self.axes, self.dtype, self.padding = shape, axes, dtype, padding
        self.real_transform = numpy.issubdtype(dtype, numpy.floating)
        self.padding_factor = 1

    def _truncation_forward(self, padded, truncated):
        axis = self.axes[-1]
        if self.padding_factor <= 1.0 + 1e-8:
            return
        truncated.fill(0)
        n = truncated.shape[axis]
        index = [slice(None)] * truncated.ndim
        if self.real_transform:
            index[axis] = slice(0, n)
            truncated[...] = padded[tuple(index)]
            if self.forward.output_array.shape[axis] % 2 == 0:
                index[axis] = n - 1
                last = tuple(index)
                truncated[last] = 2 * truncated[last].real
        else:
            index[axis] = slice(0, n // 2 + 1)
            truncated[tuple(index)] = padded[tuple(index)]
            index[axis] = slice(-(n // 2), None)
            truncated[tuple(index)] += padded[tuple(index)]

    def _padding_backward(self, truncated, padded):
        axis = self.axes[-1]
        if self.padding_factor <= 1.0 + 1e-8:
            return
        padded.fill(0)
        n = truncated.shape[axis]
        even = self.forward.output_array.shape[axis] % 2 == 0
        if self.real_transform:
            padded[tuple(slice(0, m) for m in truncated.shape)] = truncated
            if even:
                index = [slice(0, m) for m in truncated.shape]
                index[axis] = n - 1
                last = tuple(index)
                padded[last] = 0.5 * padded[last].real
        else:
            index = [slice(None)] * truncated.ndim
            index[axis] = slice(0, n // 2 + 1)
            padded[tuple(index)] = truncated[tuple(index)]
            index[axis] = slice(-(n // 2), None)
            padded[tuple(index)] = truncated[tuple(index)]
            if even:
                for mode in (n // 2, -(n // 2)):
                    index[axis] = mode
                    padded[tuple(index)] *= 0.5


class FFT(FFTBase):
    """A serial forward/backward pair over `axes` (see the module)."""

    def __init__(self, shape, axes=None, dtype=float, padding=False, backend="fftw",
                 transforms=None, **kw):
        FFTBase.__init__(self, shape, axes, dtype, padding)
        if backend not in BACKENDS:
            raise KeyError(backend)
        planner = {"fftw": _plan_fftw, "pyfftw": _plan_pyfftw}.get(backend) or \
            _plan_calling(backend)
        self.backend = backend
        self.fwd, self.bck = planner(self.shape, self.axes, self.dtype, transforms, kw)
        physical, spectral = self.fwd.input_array, self.fwd.output_array
        self.M = self.fwd.get_normalization() if backend == "fftw" else \
            1.0 / numpy.prod(numpy.take(self.shape, self.axes))
        if backend == "scipy":
            self.real_transform = False   # scipy.fftpack: complex output of full length
        self.padding_factor = 1.0
        if padding is not False:
            self.padding_factor = padding[self.axes[-1]] if numpy.ndim(padding) else padding
        if abs(self.padding_factor - 1.0) > 1e-8:
            _check(len(self.axes) == 1, "padding needs a single axis")
            truncated = self._truncated_array(shape, spectral.dtype)
            self.forward = _Direction(self._forward, physical, truncated)
            self.backward = _Direction(self._backward, truncated, physical)
        else:
            self.forward = _Direction(self._forward, physical, spectral)
            self.backward = _Direction(self._backward, spectral, physical)

    def _forward(self, **kw):
        normalize = kw.pop("normalize", True)
        self.fwd(None, None, **kw)
        self._truncation_forward(self.fwd.output_array, self.forward.output_array)
        if normalize:
            self.forward.output_array *= self.M
        return self.forward.output_array

    def _backward(self, **kw):
        normalize = kw.pop("normalize", False)
        self._padding_backward(self.backward.input_array, self.bck.input_array)
        self.bck(None, None, **kw)
        if normalize:
            self.backward.output_array *= self.M
        return self.backward.output_array

    def _truncated_array(self, shape, dtype):
        axis = self.axes[-1]
        shape = list(shape)
        shape[axis] = int(numpy.round(shape[axis] / self.padding_factor))
        if self.real_transform:
            shape[axis] = shape[axis] // 2 + 1
        return fftw.aligned(shape, dtype=dtype)
