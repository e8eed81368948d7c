"""
distarray.py -- mpi4py_fft.distarray: DistArray and newDistArray on distfft.

A DistArray is a numpy.ndarray holding this rank's block of a global
array, distributed as a pencil.Pencil says (a Subcomm's directions over
the axes, whole along `alignment`), with `rank` leading tensor axes that
are never distributed. Attributes and methods are mpi4py-fft's: v,
rank, dimensions, global_shape, substart, subcomm, commsizes, pencil,
alignment, local_slice(), get(global_slice) (the slice on rank 0),
get_pencil_and_transfer(axis), redistribute(axis or out=) (each
component through a pencil.Transfer, a distfft redistribution), and
write/read through io.HDF5File or io.NCFile (by the file name's
ending).

Made directly, a DistArray lives on MPI.COMM_WORLD (as mpi4py-fft's): a
Subcomm of it with extent 1 on the aligned axis (default the last), or
the Subcomm or sub-communicators given.
"""
from numbers import Integral, Number

import numpy
from mpi4py import MPI

from ..distarray import DistArray as _Gatherable
from .io import FileBase, HDF5File, NCFile
from .pencil import Pencil, Subcomm

comm = MPI.COMM_WORLD


def _check(condition, message):
    if not condition:
        raise AssertionError(message)


class DistArray(numpy.ndarray):
    """DistArray(global_shape, subcomm=None, val=None, dtype=float,
    buffer=None, strides=None, alignment=None, rank=0) (see the module)."""

    def __new__(cls, global_shape, subcomm=None, val=None, dtype=float, buffer=None,
                strides=None, alignment=None, rank=0):
        global_shape = tuple(int(n) for n in global_shape)
        if len(global_shape[rank:]) < 2:   # one axis: not distributed
            obj = numpy.ndarray.__new__(cls, global_shape, dtype=dtype, buffer=buffer,
                                        strides=strides)
            if buffer is None and isinstance(val, Number):
                obj.fill(val)
            obj._rank, obj._p0 = rank, None
            return obj
        ndim = len(global_shape[rank:])
        if not isinstance(subcomm, Subcomm):
            if isinstance(subcomm, (tuple, list)):
                _check(len(subcomm) == ndim, f"subcomm needs {ndim} entries")
                if not all(isinstance(s, MPI.Comm) for s in subcomm):
                    subcomm = Subcomm(comm, subcomm)
            else:
                _check(subcomm is None, f"subcomm {subcomm!r}")
                dims = [0] * ndim
                if alignment is not None:
                    dims[alignment] = 1
                else:
                    dims[-1] = 1
                    alignment = ndim - 1
                subcomm = Subcomm(comm, dims)
        sizes = [s.Get_size() for s in subcomm]
        if alignment is not None:
            _check(isinstance(alignment, (int, numpy.integer)), f"alignment {alignment!r}")
            _check(sizes[alignment] == 1, f"alignment {alignment} is split over "
                                          f"{sizes[alignment]} ranks")
        else:
            alignment = int(numpy.flatnonzero(numpy.array(sizes) == 1)[-1])
        p0 = Pencil(subcomm, global_shape[rank:], axis=alignment)
        shape = global_shape[:rank] + p0.subshape
        # The array owns its memory (numpy's, 16-byte aligned as FFTW's SIMD
        # needs): views of it (.v) then have it as their base, as in mpi4py-fft.
        obj = numpy.ndarray.__new__(cls, shape, dtype=dtype, buffer=buffer)
        if buffer is None:
            obj.fill(val if isinstance(val, Number) else 0)
        obj._p0, obj._rank = p0, rank
        return obj

    def __array_finalize__(self, obj):
        if obj is None:
            return
        self._p0 = getattr(obj, "_p0", None)
        self._rank = getattr(obj, "_rank", None)

    @property
    def alignment(self):
        """The aligned (whole) axis, not counting tensor axes."""
        return self._p0.axis

    @property
    def global_shape(self):
        return self.shape[:self.rank] + self._p0.shape

    @property
    def substart(self):
        return (0,) * self.rank + self._p0.substart

    @property
    def subcomm(self):
        """The sub-communicator of every axis (COMM_SELF for tensor axes)."""
        return (MPI.COMM_SELF,) * self.rank + tuple(self._p0.subcomm)

    @property
    def commsizes(self):
        return [s.Get_size() for s in self.subcomm]

    @property
    def pencil(self):
        return self._p0

    @property
    def rank(self):
        return self._rank

    @property
    def dimensions(self):
        return len(self._p0.shape)

    @property
    def v(self):
        """This block as a plain numpy.ndarray (a view)."""
        return self.__array__()

    def __getitem__(self, i):
        # A tensor component stays a DistArray; anything else is a plain view.
        if self.ndim == 1:
            return numpy.ndarray.__getitem__(self, i)
        if isinstance(i, (Integral, slice)):
            if self.rank > 0:
                part = numpy.ndarray.__getitem__(self, i)
                part._rank = self.rank - (self.ndim - part.ndim)
                return part
            return numpy.ndarray.__getitem__(self.v, i)
        if isinstance(i, tuple) and len(i) <= self.rank:
            part = numpy.ndarray.__getitem__(self, i)
            part._rank = self.rank - (self.ndim - part.ndim)
            return part
        return numpy.ndarray.__getitem__(self.v, i)

    def local_slice(self):
        """This block's place in the global array, as slices."""
        return tuple(slice(0, n) for n in self.shape[:self.rank]) + tuple(
            slice(s, s + n) for s, n in zip(self._p0.substart, self._p0.subshape))

    def get(self, gslice):
        """The global slice `gslice` (slices and indices) on rank 0, None on
        the others. The whole array is gathered on rank 0 of
        MPI.COMM_WORLD (DistArray.gather), then sliced. Collective."""
        whole = _Gatherable(self.global_shape, self.local_slice(), self.dtype, comm,
                            buffer=numpy.ascontiguousarray(self.v)).gather(root=0)
        return None if whole is None else whole[tuple(gslice)]

    def get_pencil_and_transfer(self, axis):
        """(pencil aligned in `axis`, the Transfer there). Local."""
        p1 = self._p0.pencil(axis)
        return p1, self._p0.transfer(p1, self.dtype)

    def redistribute(self, axis=None, out=None):
        """This array aligned in `axis`, or copied into `out` (aligned as it
        is). A new DistArray unless nothing moves. Collective."""
        if axis == self.alignment:
            return self
        if axis is not None and isinstance(out, DistArray):
            _check(axis == out.alignment, f"out is aligned in {out.alignment}, not {axis}")
        if axis is not None and self.commsizes[self.rank + axis] == 1:
            self.pencil.axis = axis   # both axes whole already
            return self
        if out is not None:
            _check(isinstance(out, DistArray), "out must be a DistArray")
            _check(self.global_shape == out.global_shape,
                   f"out has global shape {out.global_shape}, not {self.global_shape}")
            axis = out.alignment
            if self.commsizes == out.commsizes:
                out[:] = self
                return out
            for i in range(len(self._p0.shape)):
                if i not in (self.alignment, out.alignment):
                    _check(self.pencil.subcomm[i] == out.pencil.subcomm[i] and
                           self.pencil.subshape[i] == out.pencil.subshape[i],
                           f"out splits axis {i} differently")
        p1, transfer = self.get_pencil_and_transfer(axis)
        if out is None:
            out = DistArray(self.global_shape, subcomm=p1.subcomm, dtype=self.dtype,
                            alignment=axis, rank=self.rank)
        try:
            for index in numpy.ndindex(*self.shape[:self.rank]):
                transfer.forward(self.v[index], out.v[index])
        finally:
            transfer.destroy()
        return out

    def write(self, filename, name="darray", step=0, global_slice=None, domain=None,
              as_scalar=False):
        """Write as `name` at `step` into a file (a name ending .h5:
        HDF5File, else NCFile; or an open file object)."""
        if isinstance(filename, str):
            writer = HDF5File if filename.endswith(".h5") else NCFile
            f = writer(filename, domain=domain, mode="a")
        else:
            _check(isinstance(filename, FileBase), f"{filename!r} is not a file name or file")
            f = filename
        field = [self] if global_slice is None else [(self, global_slice)]
        f.write(step, {name: field}, as_scalar=as_scalar)

    def read(self, filename, name="darray", step=0):
        """Fill from `name` at `step` of a file (as write)."""
        if isinstance(filename, str):
            reader = HDF5File if filename.endswith(".h5") else NCFile
            f = reader(filename, mode="r")
        else:
            _check(isinstance(filename, FileBase), f"{filename!r} is not a file name or file")
            f = filename
        f.read(self, name, step=step)


def newDistArray(pfft, forward_output=True, val=0, rank=0, view=False):
    """A DistArray for pfft's output (forward_output=True) or input, with
    `rank` tensor axes of length pfft.dimensions, filled with val."""
    global_shape = pfft.global_shape(forward_output)
    p0 = pfft.pencil[forward_output]
    dtype = pfft.forward.output_array.dtype if forward_output is True else \
        pfft.forward.input_array.dtype
    global_shape = (len(global_shape),) * rank + tuple(global_shape)
    z = DistArray(global_shape, subcomm=p0.subcomm, val=val, dtype=dtype, alignment=p0.axis,
                  rank=rank)
    return z.v if view else z


def Function(*args, **kwargs):
    """mpi4py-fft's deprecated name of newDistArray (tensor=True: rank 1)."""
    import warnings
    warnings.warn("Function() is deprecated; use newDistArray().", FutureWarning)
    if kwargs.pop("tensor", False):
        kwargs["rank"] = 1
    return newDistArray(*args, **kwargs)
