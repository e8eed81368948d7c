"""
distfft.mpi4py_fft -- mpi4py-fft 2.0.6's public API on distfft.

The modules of mpi4py-fft with its names and semantics: mpifft (PFFT,
Transform), pencil (Subcomm, Pencil, Transfer: every transfer a distfft
redistribution), distarray (DistArray, newDistArray), fftw (planned
serial FFTW transforms, flags, wisdom), libfft (FFT, one serial transform
with a backend), io (HDF5File, NCFile, generate_xdmf). A PFFT runs as one
distfft plan where distfft's plan gives mpi4py-fft's blocks, else as
mpi4py-fft's chain of serial transforms and distfft redistributions.

A program written for mpi4py-fft runs on distfft by changing its import

    from mpi4py_fft import PFFT, newDistArray            # before
    from distfft.mpi4py_fft import PFFT, newDistArray    # after

or unchanged, with `python -m distfft.mpi4py_fft PROGRAM.py ARGS...` or
after `distfft.mpi4py_fft.install()`, which serve the module name
mpi4py_fft (and its submodules) from this package. The manual,
docs/python.md, section "mpi4py-fft programs on distfft", says what is
mapped and what is refused.
"""
__version__ = "2.0.6"

from .distarray import DistArray, Function, newDistArray
from .mpifft import PFFT, Transform
from .pencil import Pencil, Subcomm, Transfer
from . import fftw
from .fftw import fftlib
from .io import HDF5File, NCFile, generate_xdmf
from ._install import install, installed

__all__ = ["PFFT", "Transform", "DistArray", "newDistArray", "Function", "Pencil", "Subcomm",
           "Transfer", "fftw", "fftlib", "HDF5File", "NCFile", "generate_xdmf", "install",
           "installed"]
