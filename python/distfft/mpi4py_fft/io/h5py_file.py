"""
h5py_file.py -- HDF5File: DistArrays in HDF5 files (h5py, MPI-IO).

Layout (mpi4py-fft's): group <name> with attributes 'shape' (the global
shape without tensor axes) and 'rank'; the domain as <name>/domain/x<i>
(origin, length) or <name>/mesh/x<i> (coordinates); whole arrays as
<name>/<d>D/<step>, global slices as <name>/<k>D/<slice name>/<step> (k
the count of slices). Collective on MPI.COMM_WORLD, as mpi4py-fft's: the
file is opened around each write and read.
"""
import numpy
from mpi4py import MPI

from ...hdf5 import _h5py
from .file_base import FileBase, _check

__all__ = ["HDF5File"]

comm = MPI.COMM_WORLD


def _file(name, mode, **kw):
    """h5py.File with MPI-IO on COMM_WORLD (Debian's MPI build of h5py,
    chosen before the first import of h5py); serial h5py on one rank."""
    h5py = _h5py()
    if h5py.get_config().mpi or comm.Get_size() > 1:
        return h5py.File(name, mode, driver="mpio", comm=comm, **kw)
    return h5py.File(name, mode, **kw)


class HDF5File(FileBase):
    """HDF5File(h5name, domain=None, mode='a', **kw): kw go to h5py.File."""

    def __init__(self, h5name, domain=None, mode="a", **kw):
        FileBase.__init__(self, h5name, domain=domain)
        self.f = _file(h5name, mode, **kw)
        self.close()

    def _check_domain(self, group, field):
        if self.domain is None:
            self.domain = ((0, 2 * numpy.pi),) * field.dimensions
        _check(len(self.domain) == field.dimensions,
               f"domain has {len(self.domain)} entries, the field {field.dimensions} axes")
        node = self.f.require_group(group)
        if "shape" not in node.attrs:
            node.attrs.create("shape", field.pencil.shape)
        if "rank" not in node.attrs:
            node.attrs.create("rank", field.rank)
        _check(field.rank == node.attrs["rank"], f"group {group} holds rank {node.attrs['rank']}")
        _check(numpy.all(field.pencil.shape == node.attrs["shape"]),
               f"group {group} holds shape {tuple(node.attrs['shape'])}")
        kind = "mesh" if isinstance(self.domain[0], numpy.ndarray) else "domain"
        place = node.require_group(kind)
        for i in range(field.dimensions):
            d = self.domain[i]
            data = numpy.squeeze(d) if kind == "mesh" else numpy.array([d[0], d[1]])
            place.require_dataset(f"x{i}", shape=data.shape, dtype=data.dtype, data=data)

    @staticmethod
    def backend():
        return "hdf5"

    def open(self, mode="r+"):
        self.f = _file(self.filename, mode)

    def write(self, step, fields, **kw):
        """See FileBase.write."""
        self.open()
        try:
            FileBase.write(self, step, fields, **kw)
        finally:
            self.close()

    def read(self, u, name, **kw):
        """Fill DistArray u from <name>/<d>D/<step> (step= keyword, 0)."""
        step = kw.get("step", 0)
        self.open()
        try:
            u[:] = self.f["/".join((name, f"{u.dimensions}D", str(step)))][u.local_slice()]
        finally:
            self.close()

    def _write_slice_step(self, name, step, slices, field, **kw):
        rank = field.rank
        slices = list((slice(None),) * rank + tuple(slices))
        count = slices[rank:].count(slice(None))
        slice_name = self._get_slice_name(slices[rank:])
        block = field.local_slice()
        slices, inside = self._get_local_slices(slices, block)
        kept = numpy.nonzero([isinstance(x, slice) for x in slices])[0]
        target = tuple(block[i] for i in kept)
        group = self.f.require_group("/".join((name, f"{count}D", slice_name)))
        group.require_dataset(str(step), shape=tuple(numpy.take(field.global_shape, kept)),
                              dtype=field.dtype)
        if inside == 1:
            group[str(step)][target] = field[tuple(slices)]

    def _write_group(self, name, u, step, **kw):
        group = self.f.require_group("/".join((name, f"{u.dimensions}D")))
        group.require_dataset(str(step), shape=u.global_shape, dtype=u.dtype)
        group[str(step)][u.local_slice()] = u
