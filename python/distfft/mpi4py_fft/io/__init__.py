"""
distfft.mpi4py_fft.io -- mpi4py_fft.io: DistArrays to and from files.

HDF5File (h5py with MPI-IO) and NCFile (netCDF4, where the module is
installed: with parallel I/O where it has it, else the ranks in turn)
write and read DistArrays laid out as
mpi4py-fft lays them out, so files go both ways; generate_xdmf writes the
XDMF side files ParaView and VisIt open an HDF5 file with.
"""
from .file_base import FileBase
from .h5py_file import HDF5File
from .nc_file import NCFile
from .generate_xdmf import generate_xdmf

__all__ = ["FileBase", "HDF5File", "NCFile", "generate_xdmf"]
