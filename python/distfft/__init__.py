"""
distfft -- parallel multidimensional FFTs of numpy arrays distributed over
MPI ranks (mpi4py), on the distfft C library: every redistribution is one
MPI_Alltoallw over subarray datatypes (Dalcin, Mortensen and Keyes).

    from mpi4py import MPI
    import numpy, distfft

    plan = distfft.Plan(MPI.COMM_WORLD, (64, 64, 64), dtype=numpy.float64)
    u = plan.input_array()            # this rank's block, a DistArray
    u[...] = numpy.random.rand(*u.shape)
    u_hat = plan.forward(u)           # numpy.fft.rfftn(U)[plan.output_slice]
    u2 = plan.backward(u_hat)         # == u

Plan, DistArray, Redistribution, Halo (ghost cells), Layout, Reshape and
decompose are the API; distfft.hdf5
writes and reads distributed arrays in parallel HDF5 files; distfft.wisdom
keeps what tuned plans measured; distfft.model measures and imports the
cost model that ranks tuning's candidates (Plan(..., tune_budget=B)).
Objects are freed by destroy() or a with-block; garbage collection only
releases them, and collect(comm) (or the next object made on comm's ranks)
frees what every rank released.
"""
from .distarray import DistArray
from .errors import DistfftError
from .plan import Plan
from .redistribution import Redistribution, decompose
from .halo import Halo
from .layout import Layout, Reshape
from ._lib import method_names, names_of
from ._lifetime import collect
from . import wisdom
from . import model

__version__ = "0.2.0"

KINDS = names_of("kind")   # the C library's transform kinds, in distfft_kind order

__all__ = ["Plan", "DistArray", "Redistribution", "Halo", "Layout", "Reshape", "DistfftError", "decompose",
           "method_names", "KINDS", "hdf5", "wisdom", "model", "collect"]


def __getattr__(name):
    if name == "hdf5":   # imported on first use: it loads h5py
        import importlib
        return importlib.import_module(".hdf5", __name__)
    raise AttributeError(f"module 'distfft' has no attribute {name!r}")
