"""
fftw.py -- names for `transforms=` without mpi4py-fft installed.

mpi4py-fft programs build `transforms={(0,): (functools.partial(dctn,
type=2), functools.partial(idctn, type=2))}` from mpi4py_fft.fftw, whose
functions plan serial FFTW transforms. The drop-in only reads which
function and type a program names (transforms.py) and runs the whole
parallel transform in distfft, so these are markers: the same names,
recognised the same way as mpi4py_fft.fftw's, not callable on their own.
"""


def _marker(name, doc):
    def function(*args, **kwargs):
        raise NotImplementedError(f"distfft.mpi4py_fft.fftw.{name} only names a transform for "
                                  "PFFT(transforms=...); it does not run serially")
    function.__name__ = function.__qualname__ = name
    function.__module__ = __name__
    function.__doc__ = doc
    return function


dctn = _marker("dctn", "DCT of type= 1-4 (FFTW REDFT00/10/01/11)")
idctn = _marker("idctn", "inverse of dctn of the same type (unnormalised)")
dstn = _marker("dstn", "DST of type= 1-4 (FFTW RODFT00/10/01/11)")
idstn = _marker("idstn", "inverse of dstn of the same type (unnormalised)")
fftn = _marker("fftn", "complex-to-complex FFT")
ifftn = _marker("ifftn", "its inverse")
rfftn = _marker("rfftn", "real-to-complex FFT")
irfftn = _marker("irfftn", "its inverse")

__all__ = ["dctn", "idctn", "dstn", "idstn", "fftn", "ifftn", "rfftn", "irfftn"]
