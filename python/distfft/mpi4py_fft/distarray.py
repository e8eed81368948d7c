"""
distarray.py -- mpi4py-fft's DistArray and newDistArray on distfft.

A DistArray is a numpy.ndarray holding this rank's block of a global array,
with the attributes and methods mpi4py-fft programs use: `v`, `rank`
(leading tensor axes, never distributed), `global_shape`, `substart`,
`alignment`, `commsizes`, `local_slice()`, `get(global_slice)` (on rank
0), `redistribute(axis)` (one distfft redistribution on the grid line that
splits `axis`), and `write`/`read` of HDF5 files laid out as mpi4py-fft's
HDF5File lays them out (`name/<d>D/<step>`), so files go both ways.

The distribution is held as numbers (`Pencil`: global shape, the extent
and this rank's coordinate of the grid direction that splits each axis,
and the aligned axis), on the communicator of the PFFT, or on
MPI.COMM_WORLD for arrays made directly (as mpi4py-fft does).
"""
from numbers import Integral, Number

import numpy
from mpi4py import MPI

from .. import hdf5
from .._arrays import zeros_aligned
from .._collective import agree
from ..distarray import DistArray as _Gatherable
from ..redistribution import Redistribution, decompose


class Pencil:
    """Global `shape`; per axis the extent `sizes[i]` of the grid direction
    splitting it and this rank's coordinate `coords[i]` there (1 and 0:
    whole); `axis` the aligned axis."""

    def __init__(self, comm, shape, sizes, coords, axis):
        self.comm, self.shape, self.axis = comm, tuple(int(n) for n in shape), int(axis)
        self.sizes, self.coords = tuple(sizes), tuple(coords)
        blocks = [decompose(n, p, c) for n, p, c in zip(self.shape, self.sizes, self.coords)]
        self.subshape = tuple(b[0] for b in blocks)
        self.substart = tuple(b[1] for b in blocks)

    def pencil(self, axis):
        """The pencil aligned in `axis` (extents of the two axes swapped)."""
        sizes, coords = list(self.sizes), list(self.coords)
        i, j = self.axis, axis
        sizes[i], sizes[j] = sizes[j], sizes[i]
        coords[i], coords[j] = coords[j], coords[i]
        return Pencil(self.comm, self.shape, sizes, coords, axis)


def _world_pencil(shape, subcomm, alignment):
    """mpi4py-fft's default distribution of a DistArray made directly."""
    comm = MPI.COMM_WORLD
    if subcomm is not None and all(isinstance(s, MPI.Comm) for s in subcomm):
        sizes = [s.Get_size() for s in subcomm]
        coords = [s.Get_rank() for s in subcomm]
    else:
        dims = list(subcomm) if subcomm is not None else [0] * len(shape)
        if subcomm is None:
            dims[len(shape) - 1 if alignment is None else alignment] = 1
        sizes = list(MPI.Compute_dims(comm.Get_size(), [max(0, d) for d in dims]))
        cart = comm.Create_cart(sizes, reorder=True)
        coords = cart.Get_coords(cart.Get_rank())
        cart.Free()
    if alignment is None:
        alignment = [i for i, s in enumerate(sizes) if s == 1][-1]
    if sizes[alignment] != 1:
        raise ValueError(f"distfft.mpi4py_fft: alignment {alignment} is split over "
                         f"{sizes[alignment]} ranks")
    return Pencil(comm, shape, sizes, coords, alignment)


class DistArray(numpy.ndarray):
    """DistArray(global_shape, subcomm=None, val=None, dtype=float,
    buffer=None, alignment=None, rank=0) as mpi4py-fft's (see module)."""

    def __new__(cls, global_shape, subcomm=None, val=None, dtype=float, buffer=None,
                alignment=None, rank=0, pencil=None):
        global_shape = tuple(int(n) for n in global_shape)
        if len(global_shape[rank:]) < 2:   # 1D: not distributed
            obj = numpy.ndarray.__new__(cls, global_shape, dtype=dtype, buffer=buffer)
            p0 = None
        else:
            p0 = pencil or _world_pencil(global_shape[rank:], subcomm, alignment)
            shape = global_shape[:rank] + p0.subshape
            if buffer is None:
                obj = zeros_aligned(shape, dtype).view(cls)
            else:
                obj = numpy.ndarray.__new__(cls, shape, dtype=dtype, buffer=buffer)
        if buffer is None and isinstance(val, Number):
            obj.fill(val)
        obj._p0, obj._rank = p0, rank
        return obj

    def __array_finalize__(self, obj):
        if obj is not None:
            self._p0 = getattr(obj, "_p0", None)
            self._rank = getattr(obj, "_rank", None)

    alignment = property(lambda self: self._p0.axis)
    global_shape = property(lambda self: self.shape[:self.rank] + self._p0.shape)
    substart = property(lambda self: (0,) * self.rank + self._p0.substart)
    commsizes = property(lambda self: [1] * self.rank + list(self._p0.sizes))
    pencil = property(lambda self: self._p0)
    rank = property(lambda self: self._rank)
    dimensions = property(lambda self: len(self._p0.shape))
    v = property(lambda self: self.__array__())

    def __getitem__(self, i):
        # A component of a tensor stays a DistArray; anything else is a view.
        if self.ndim == 1:
            return numpy.ndarray.__getitem__(self, i)
        if isinstance(i, (Integral, slice)) or isinstance(i, tuple) and len(i) <= self.rank:
            if self.rank > 0:
                v0 = numpy.ndarray.__getitem__(self, i)
                v0._rank = self.rank - (self.ndim - v0.ndim)
                return v0
        return numpy.ndarray.__getitem__(self.v, i)

    def local_slice(self):
        """This block's place in the global array, as slices."""
        return tuple(slice(0, n) for n in self.shape[:self.rank]) + tuple(
            slice(s, s + n) for s, n in zip(self._p0.substart, self._p0.subshape))

    def _gatherable(self):
        return _Gatherable(self.global_shape, self.local_slice(), self.dtype, self._p0.comm,
                           buffer=numpy.ascontiguousarray(self.v))

    def get(self, gslice):
        """The global slice `gslice` on rank 0 (None on the others): the whole
        array is gathered on rank 0 (distfft_gather), then sliced."""
        whole = self._gatherable().gather(root=0)
        return None if whole is None else whole[tuple(gslice)]

    def redistribute(self, axis=None, out=None):
        """This array aligned in `axis` (or in out's alignment, into out)."""
        if out is not None:
            axis = out.alignment
            if out.commsizes == self.commsizes:
                out[...] = self
                return out
        if axis == self.alignment:
            return self
        if self._p0.sizes[axis] == 1 and out is None:
            self._p0 = self._p0.pencil(axis)
            return self
        p1 = self._p0.pencil(axis)
        if out is None:
            out = DistArray(self.global_shape, dtype=self.dtype, rank=self.rank, pencil=p1)
        _move(self, out, self._p0, p1)
        return out

    def write(self, filename, name="darray", step=0, global_slice=None, domain=None,
              as_scalar=False):
        """Snapshot `step` into HDF5 file `filename` as `name/<d>D/<step>`."""
        _write(self, filename, name, step, global_slice, domain, as_scalar)

    def read(self, filename, name="darray", step=0):
        """Fill from `name/<d>D/<step>` of HDF5 file `filename`."""
        if isinstance(filename, HDF5File):
            filename = filename.filename
        comm = self._p0.comm
        agree(comm, _check_h5, filename, None)
        f = hdf5._collective_open(filename, "r", comm)
        try:
            path = f"{name}/{self.dimensions}D/{step}"
            dataset = agree(comm, lambda: f[path])
            if self.size:
                self[...] = dataset[self.local_slice()]
        finally:
            f.close()


def _move(a, out, p0, p1):
    """One distfft redistribution of a's block (aligned p0.axis) into out
    (aligned p1.axis), on the ranks that share every other coordinate."""
    comm, axis = p0.comm, p1.axis
    color = 0
    for i, (size, coord) in enumerate(zip(p0.sizes, p0.coords)):
        if i not in (p0.axis, axis):
            color = color * size + coord
    line = comm.Split(color, p0.coords[axis])
    batch = int(numpy.prod(a.shape[:a.rank], dtype=numpy.int64)) if a.rank else None
    lead = () if batch is None else (batch,)
    redist = Redistribution(line, p0.subshape, p0.axis, p1.subshape, axis, a.dtype, batch)
    try:
        redist.execute(numpy.ascontiguousarray(a.v).reshape(lead + p0.subshape),
                       out.v.reshape(lead + p1.subshape))
    finally:
        redist.destroy()
        line.Free()


def _check_h5(filename, extra):
    if not isinstance(filename, str) or not filename.endswith(".h5"):
        raise NotImplementedError(f"distfft.mpi4py_fft: {filename!r}: only HDF5 files "
                                  "(names ending .h5) are written and read; not NetCDF")
    if extra:
        raise NotImplementedError(f"distfft.mpi4py_fft: write: {extra} is not available")


def _write(u, filename, name, step, global_slice, domain, as_scalar):
    if isinstance(filename, HDF5File):
        filename, domain = filename.filename, filename.domain if domain is None else domain
    comm = u._p0.comm
    extra = "global_slice" if global_slice is not None else \
        "as_scalar=True" if as_scalar and u.rank > 0 else None
    agree(comm, _check_h5, filename, extra)
    f = hdf5._collective_open(filename, "a", comm)
    try:
        group = f.require_group(name)
        if "shape" not in group.attrs:
            group.attrs.create("shape", u._p0.shape)
        if "rank" not in group.attrs:
            group.attrs.create("rank", u.rank)
        domain = domain if domain is not None else ((0, 2 * numpy.pi),) * u.dimensions
        kind = "mesh" if isinstance(domain[0], numpy.ndarray) else "domain"
        for i, d in enumerate(domain):
            data = numpy.squeeze(d) if kind == "mesh" else numpy.array([d[0], d[1]])
            group.require_group(kind).require_dataset(f"x{i}", shape=data.shape,
                                                      dtype=data.dtype, data=data)
        dataset = group.require_group(f"{u.dimensions}D").require_dataset(
            str(step), shape=u.global_shape, dtype=u.dtype)
        if u.size:
            dataset[u.local_slice()] = u.v
    finally:
        f.close()


def newDistArray(pfft, forward_output=True, val=0, rank=0, view=False):
    """A new DistArray for pfft's output (forward_output=True) or input,
    `rank` leading tensor axes of length pfft.dimensions, filled with val."""
    spectral = forward_output is True
    shape = pfft.global_shape(spectral)
    pencils = pfft._pencils
    owners = pfft._owners(spectral)
    sizes = [1 if o is None else pencils.dims[o] for o in owners]
    coords = [0 if o is None else pencils.coords[o] for o in owners]
    p0 = Pencil(pfft.comm, shape, sizes, coords, pfft._alignment(spectral))
    z = DistArray((len(shape),) * rank + tuple(shape), val=val, dtype=pfft.dtype(spectral),
                  rank=rank, pencil=p0)
    return z.v if view else z


class HDF5File:
    """mpi4py-fft's HDF5File for whole arrays: HDF5File(name, domain=None,
    mode='a') ('w' truncates now), write(step, {group: [arrays]}),
    read(u, name, step=0). Slices of arrays (2-tuples) and as_scalar=True
    raise NotImplementedError. Collective on MPI.COMM_WORLD, as mpi4py-fft's."""

    def __init__(self, h5name, domain=None, mode="a"):
        self.filename, self.domain = h5name, domain
        agree(MPI.COMM_WORLD, _check_h5, h5name, None)
        hdf5._collective_open(h5name, mode, MPI.COMM_WORLD).close()

    def write(self, step, fields, as_scalar=False):
        for group, arrays in fields.items():
            for u in arrays:
                if isinstance(u, (tuple, list)):
                    _write(u[0], self, group, step, u[1], None, as_scalar)
                else:
                    _write(u, self, group, step, None, None, as_scalar)

    def read(self, u, name, step=0):
        u.read(self, name, step)

    def open(self, mode="r+"):
        """Files open and close around each write and read."""

    def close(self):
        """Files open and close around each write and read."""


def Function(*args, **kwargs):
    """mpi4py-fft's deprecated name of newDistArray (tensor=True: rank 1)."""
    if kwargs.pop("tensor", False):
        kwargs["rank"] = 1
    return newDistArray(*args, **kwargs)
