"""
_collective.py -- Python-side argument checks that fail on every rank.

A check done in Python may fail on one rank only (a wrong local shape, a
read-only array). Raising there alone would leave the other ranks waiting in
the next collective call. `agree` runs the local checks, then one
MPI_Allreduce tells every rank whether any failed; if one did, every rank
raises the same exception type with the message of the lowest failing rank.
"""
import numpy
from mpi4py import MPI

from .errors import DistfftError

# Exception types a failure is re-raised as on the ranks that did not fail.
_RERAISED = {cls.__name__: cls for cls in
             (TypeError, ValueError, DistfftError, OSError, KeyError, RuntimeError,
              NotImplementedError, AssertionError, IndexError)}


class Agreement:
    """Reusable agreement on one communicator (preallocated buffer)."""

    def __init__(self, comm):
        self.comm = comm
        self._flag = numpy.zeros(1, dtype=numpy.int64)

    def __call__(self, check, *args):
        """Call check(*args) on every rank; return its result, or raise on
        every rank if it raised on any."""
        error, result = None, None
        try:
            result = check(*args)
        except Exception as e:  # re-raised below, on every rank
            error = e
        self.raise_if_any(error)
        return result

    def raise_if_any(self, error):
        """Collective: if `error` is not None on some rank, raise it there
        and its copy on every other rank; otherwise return."""
        size, rank = self.comm.Get_size(), self.comm.Get_rank()
        self._flag[0] = size - rank if error is not None else 0
        if size > 1:
            self.comm.Allreduce(MPI.IN_PLACE, self._flag, op=MPI.MAX)
        if self._flag[0] == 0:
            return
        root = size - int(self._flag[0])
        shared = (type(error).__name__, str(error), getattr(error, "code", None)) \
            if rank == root else None
        if size > 1:
            shared = self.comm.bcast(shared, root=root)
        if rank == root:
            raise error
        name, message, code = shared
        cls = _RERAISED.get(name, RuntimeError)
        text = f"{message} (raised on rank {root} of the communicator)"
        if cls is DistfftError:
            raise DistfftError(code, text)
        raise cls(text)


def agree(comm, check, *args):
    """One-off agreement (see Agreement)."""
    return Agreement(comm)(check, *args)
