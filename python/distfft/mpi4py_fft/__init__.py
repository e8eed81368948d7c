"""
distfft.mpi4py_fft -- mpi4py-fft's public API on distfft's engine.

A program written for mpi4py-fft runs on distfft by changing its import:

    from mpi4py_fft import PFFT, newDistArray            # before
    from distfft.mpi4py_fft import PFFT, newDistArray    # after

and gives the same numbers (normalisation included) on the same blocks of
the same ranks. What is mapped, what is refused and why: the manual,
docs/python.md, section "mpi4py-fft programs on distfft". Arguments distfft cannot honour raise
the same exception on every rank (NotImplementedError for what mpi4py-fft
has and distfft lacks, ValueError/TypeError for what neither accepts).
"""
from .distarray import DistArray, Function, HDF5File, Pencil, newDistArray
from .mpifft import PFFT, Transform
from . import fftw

__all__ = ["PFFT", "Transform", "DistArray", "newDistArray", "Function", "HDF5File", "Pencil",
           "fftw"]
