"""
distfft.mpi4py_fft.fftw -- mpi4py_fft.fftw: planned serial FFTW transforms.

The serial transforms mpi4py-fft programs plan themselves (fftn, rfftn,
dctn, ... returning a planned `FFT`), FFTW's flags and kinds, aligned
arrays, and FFTW's wisdom and time limit, on the FFTW libraries libdistfft
links (one planner and one wisdom per process, shared with distfft's
plans). Their functions also name the serial transforms for
PFFT(transforms=...), as mpi4py-fft's do.

Wisdom, the time limit and the libraries per precision: factory.py.
"""
from . import utilities
from .utilities import *   # noqa: F401,F403 -- mpi4py_fft.fftw re-exports them
from .xfftn import *   # noqa: F401,F403
from .factory import (get_planned_FFT, export_wisdom, import_wisdom, forget_wisdom,  # noqa: F401
                      cleanup, set_timelimit, get_fftw_lib, fftlib)
