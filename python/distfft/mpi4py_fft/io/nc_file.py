"""
nc_file.py -- NCFile: DistArrays in NetCDF4 files, as mpi4py-fft writes
them: one unlimited 'time' dimension and variable holding the steps;
dimensions i, j, k for tensor components and x, y, z, r, s, t for the axes
(coordinate variables from the domain: linspace over (origin, length)
pairs, or the given coordinates); a whole field as variable <name>(time,
[i, j,] x, y, ...), a global slice as <name>_<slice name> over the kept
dimensions. Needs the netCDF4 module (ModuleNotFoundError otherwise, as
mpi4py-fft). Collective on MPI.COMM_WORLD.

Two ways to write, the same file either way:
 - netCDF4 built on a parallel netCDF-C (netCDF4.__has_parallel4_support__
   or __has_pnetcdf_support__): every rank opens the file together
   (parallel=True) and writes its block, as mpi4py-fft does;
 - netCDF4 built on a serial netCDF-C, as Debian 12's python3-netcdf4 (with
   which mpi4py-fft's NCFile raises "parallel mode requires MPI enabled
   netcdf-c" on any number of ranks): the ranks take turns, rank 0 first,
   each opening the file alone, writing its block and closing it before
   the next opens (a barrier when every rank has called, as a parallel
   open would be; an MPI_Allreduce between turns, which also makes an
   error in one rank's turn raise on every rank). Reads open the file
   read-only on every rank at once. Writes take P turns: fine for
   snapshots, slow on many ranks; a parallel netCDF4 avoids it.
"""
import os

import numpy
from mpi4py import MPI

from ..._collective import Agreement
from .file_base import FileBase, _check

__all__ = ["NCFile"]

comm = MPI.COMM_WORLD


def _parallel(netCDF4):
    """Whether this netCDF4 module can open a file on several ranks at once."""
    return bool(getattr(netCDF4, "__has_parallel4_support__", False)
                or getattr(netCDF4, "__has_pnetcdf_support__", False))


class NCFile(FileBase):
    """NCFile(ncname, domain=None, mode='a', clobber=True, **kw): kw go to
    netCDF4.Dataset when the file is created."""

    def __init__(self, ncname, domain=None, mode="a", clobber=True, **kw):
        FileBase.__init__(self, ncname, domain=domain)
        import netCDF4   # ModuleNotFoundError where it is not installed, as mpi4py-fft
        self.parallel = _parallel(netCDF4)
        self.dims = None
        self._agree = Agreement(comm)

        def create():
            # netCDF4 cannot append to a file that is not there
            create_mode = "w" if mode == "a" and not os.path.exists(ncname) else mode
            if self.parallel:
                self.f = netCDF4.Dataset(ncname, mode=create_mode, clobber=clobber,
                                         parallel=True, comm=comm, **kw)
            else:
                self.f = netCDF4.Dataset(ncname, mode=create_mode, clobber=clobber, **kw)
            try:
                if "time" not in self.f.variables:
                    self.f.createDimension("time", None)
                    self.f.createVariable("time", float, ("time"))
            finally:
                self.close()

        if self.parallel:
            create()
        else:
            self._turns(create, ranks=1)

    def _turns(self, work, ranks=None):
        """Serial netCDF4: work() on ranks 0, 1, ... (the first `ranks`
        ones, all by default), one after another; an error in any turn is
        raised on every rank (after that turn). The turns start when every
        rank has called: a parallel open would wait for them too, and a
        program may change the file on any rank just before (mpi4py-fft's
        test_io removes it on every rank, then opens it with mode 'w')."""
        rank = comm.Get_rank()
        comm.Barrier()
        for turn in range(comm.Get_size() if ranks is None else ranks):
            error = None
            if rank == turn:
                try:
                    work()
                except Exception as e:   # raised on every rank below
                    error = e
            self._agree.raise_if_any(error)

    def _check_domain(self, group, field):
        shape = field.global_shape[field.rank:]
        if self.domain is None:
            self.domain = [numpy.linspace(0, 2 * numpy.pi, n) for n in shape]
        _check(len(self.domain) == field.dimensions,
               f"domain has {len(self.domain)} entries, the field {field.dimensions} axes")
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
        """Open the file (collective with a parallel netCDF4; with a serial
        one, on this rank alone)."""
        from netCDF4 import Dataset
        if self.parallel:
            self.f = Dataset(self.filename, mode=mode, parallel=True, comm=comm)
        else:
            self.f = Dataset(self.filename, mode=mode)

    def write(self, step, fields, **kw):
        """See FileBase.write; `step` is stored in 'time' (once)."""
        def work():
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

        if self.parallel:
            work()
        else:
            self._turns(work)

    def read(self, u, name, **kw):
        """Fill DistArray u from variable `name` at step index step= (0)."""
        step = kw.get("step", 0)

        def work():
            self.open("r" if not self.parallel else "r+")
            try:
                u[:] = self.f[name][(step,) + u.local_slice()]
            finally:
                self.close()

        if self.parallel:
            work()
        else:
            # every rank reads at once (read-only), when all have called; the
            # agreement keeps the next write's turns from opening the file
            # while a rank still reads
            comm.Barrier()
            self._agree(work)

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
        if variable_name in self.f.variables:
            variable = self.f.variables[variable_name]
        else:
            variable = self.f.createVariable(variable_name, field.dtype, dims)
        variable.set_collective(True)
        if self.parallel or comm.Get_rank() == 0:
            # zeros where no rank's block meets the plane (collectively, in
            # parallel; in the first turn, before any block, in turns)
            variable[step] = 0
        if self.parallel:
            # every rank writes, the ones whose block the slice misses too
            # (_put): mpi4py-fft writes in independent mode from the ranks
            # inside only, and hangs, as netCDF-C makes every write to a
            # variable along the unlimited 'time' collective
            part = field[tuple(slices)] if inside else numpy.empty(0, field.dtype)
            self._put(variable, tuple([step] + [block[i] for i in kept]), part)
        elif inside:
            variable[tuple([step] + [block[i] for i in kept])] = field[tuple(slices)]
        self.f.sync()

    def _put(self, variable, index, data):
        """variable[index] = data, collectively (a parallel netCDF4).
        netCDF4 skips a write of no elements, which would leave the other
        ranks waiting in netCDF-C's collective write: a rank with nothing to
        write (an empty block, a slice that misses it) writes instead the
        first element of the lowest rank that has some, with its value (the
        same bytes written twice, as mpi4py-fft's collective zeros are)."""
        data = numpy.asarray(data)
        has = comm.allgather(data.size > 0)
        if all(has):
            variable[index] = data
            return
        if not any(has):
            return
        donor = has.index(True)
        first = None
        if comm.Get_rank() == donor:
            first = (tuple(i.start if isinstance(i, slice) else int(i) for i in index),
                     data.reshape(-1)[0])
        first = comm.bcast(first, root=donor)
        if data.size > 0:
            variable[index] = data
        else:
            variable[first[0]] = first[1]

    def _write_group(self, name, u, step, **kw):
        _check(name not in self.dims, f"a field cannot be named {name!r} (a dimension)")
        if name in self.f.variables:
            variable = self.f.variables[name]
        else:
            variable = self.f.createVariable(name, u.dtype, self.dims)
        variable.set_collective(True)
        if self.parallel:
            self._put(variable, (step,) + u.local_slice(), u)   # empty blocks too
        else:
            variable[(step,) + u.local_slice()] = u
        self.f.sync()
