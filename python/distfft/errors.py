"""
errors.py -- the exception the C library's failures become.

Every collective C call already agrees on its outcome across ranks, so a
DistfftError from a collective call is raised on every rank, with the same
message (it names the rank that had the bad argument).
"""


class DistfftError(RuntimeError):
    """A distfft C call failed; `code` is the DISTFFT_ERR_* value."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
