"""
python -m distfft.mpi4py_fft PROGRAM.py [ARGS...]
python -m distfft.mpi4py_fft -m MODULE [ARGS...]

Runs a program (or a module, e.g. `-m pytest`) written for mpi4py-fft on
distfft: `mpi4py_fft` and its submodules are served by distfft.mpi4py_fft
(install()), then the program runs as __main__ with sys.argv = [PROGRAM,
ARGS...], as `python PROGRAM.py ARGS...` would run it.
"""
import runpy
import sys

from ._install import install

USAGE = "usage: python -m distfft.mpi4py_fft PROGRAM.py [ARGS...] | -m MODULE [ARGS...]"


def main(argv):
    if not argv or argv[0] in ("-h", "--help") or argv[0] == "-m" and len(argv) < 2:
        print(USAGE, file=sys.stderr)
        return 2
    install()
    if argv[0] == "-m":
        sys.argv = [argv[1]] + argv[2:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = list(argv)
        sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(argv[0])))
        runpy.run_path(argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
