"""
nc_file.py -- NCFile: DistArrays in NetCDF4 files (netCDF4 with parallel
I/O), as mpi4py-fft writes them: one unlimited 'time' dimension and
variable holding the steps; dimensions i, j, k for tensor components and
x, y, z, r, s, t for the axes (coordinate variables from the domain:
linspace over (origin, length) pairs, or the given coordinates); a whole
field as variable <name>(time, [i, j,] x, y, ...), a global slice as
<name>_<slice name> over the kept dimensions. Needs the netCDF4 module
(ModuleNotFoundError otherwise, as mpi4py-fft). Collective on
MPI.COMM_WORLD.
"""
import os

import numpy
from mpi4py import MPI

from .file_base import FileBase, _check

__all__ = ["NCFile"]

comm = MPI.COMM_WORLD


class NCFile(FileBase):
    """NCFile(ncname, domain=None, mode='a', clobber=True, **kw)."""

    def __init__(self, ncname, domain=None, mode="a", clobber=True, **kw):
        FileBase.__init__(self, ncname, domain=domain)
        from netCDF4 import Dataset
        if mode == "a" and not os.path.exists(ncname):
            mode = "w"   # netCDF4 cannot append to a file that is not there
        self.f = Dataset(ncname, mode=mode, clobber=clobber, parallel=True, comm=comm, **kw)
        self.dims = None
        if "time" not in self.f.variables:
            self.f.createDimension("time", None)
            self.f.createVariable("time", float, ("time"))
        self.close()

    def _check_domain(self, group, field):
        shape = field.global_shape[field.rank:]
        if self.domain is None:
            self.domain = [numpy.linspace(0, 2 * numpy.pi, n) for n in shape]
        _check(len(self.domain) == field.dimensions, "one domain entry per axis")
        if len(self.domain[0]) == 2:
            self.domain = [numpy.linspace(d[0], d[1], n) for d, n in zip(self.domain, shape)]
        self.dims = ["time"]
        for i in range(field.rank):
            name = "ijk"[i]
            self.dims.append(name)
            if name not in self.f.variables:
                self.f.createDimension(name, field.dimensions)
                self.f.createVariable(name, float, (name))[:] = numpy.arange(field.dimensions)
        for i in range(field.dimensions):
            name = "xyzrst"[i]
            self.dims.append(name)
            if name not in self.f.variables:
                self.f.createDimension(name, shape[i])
                self.f.createVariable(name, float, (name))[:] = self.domain[i]
        self.f.sync()

    @staticmethod
    def backend():
        return "netcdf4"

    def open(self, mode="r+"):
        from netCDF4 import Dataset
        self.f = Dataset(self.filename, mode=mode, parallel=True, comm=comm)

    def write(self, step, fields, **kw):
        """See FileBase.write; `step` is stored in 'time' (once)."""
        self.open()
        try:
            time = self.f.variables.get("time")
            time.set_collective(True)
            steps = time.__array__()
            if step in steps:
                index = int(numpy.argwhere(steps == step)[0][0])
            else:
                index = time.size
                time[index] = step
            FileBase.write(self, index, fields, **kw)
        finally:
            self.close()

    def read(self, u, name, **kw):
        step = kw.get("step", 0)
        self.open()
        try:
            u[:] = self.f[name][(step,) + u.local_slice()]
        finally:
            self.close()

    def _write_slice_step(self, name, step, slices, field, **kw):
        _check(name not in self.dims, f"a field cannot be named {name!r} (a dimension)")
        rank = field.rank
        slices = list((slice(None),) * rank + tuple(slices))
        slice_name = self._get_slice_name(slices[rank:])
        block = field.local_slice()
        slices, inside = self._get_local_slices(slices, block)
        kept = numpy.nonzero([isinstance(x, slice) for x in slices])[0]
        dims = ["time"] + [self.dims[i + 1] for i in kept]
        variable_name = "_".join((name, slice_name))
        variable = self.f.variables.get(variable_name) or \
            self.f.createVariable(variable_name, field.dtype, dims)
        variable.set_collective(True)
        variable[step] = 0   # creates the step collectively
        variable.set_collective(False)
        if inside:
            variable[tuple([step] + [block[i] for i in kept])] = field[tuple(slices)]
        variable.set_collective(True)
        self.f.sync()

    def _write_group(self, name, u, step, **kw):
        _check(name not in self.dims, f"a field cannot be named {name!r} (a dimension)")
        variable = self.f.variables.get(name) or self.f.createVariable(name, u.dtype, self.dims)
        variable.set_collective(True)
        variable[(step,) + u.local_slice()] = u
        self.f.sync()
