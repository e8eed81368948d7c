"""
file_base.py -- what HDF5File and NCFile share: the write loop over
{group: [arrays or (array, global slice)]}, tensors written as scalars on
request (group name + component index), the names and local parts of
global slices.

A global slice mixes slices and integers, e.g. [slice(None), 4,
slice(None)]: the integers pick a plane. Its name joins 'slice' for each
slice and the integer for each index ('slice_4_slice'); a rank writes its
part only if the plane passes through its block.
"""
import numpy

__all__ = ["FileBase"]


def _check(condition, message):
    if not condition:
        raise AssertionError(message)


class FileBase:
    """Base of the file classes: filename, domain, f (the open file)."""

    def __init__(self, filename=None, domain=None):
        self.f = None
        self.filename = filename
        self.domain = domain

    def _check_domain(self, group, field):
        raise NotImplementedError

    def write(self, step, fields, **kw):
        """Write snapshot `step` of {group: [array | (array, slice)...]};
        as_scalar=True stores each tensor component as its own group."""
        as_scalar = kw.get("as_scalar", False)
        for group, arrays in fields.items():
            _check(isinstance(arrays, (tuple, list)), f"fields[{group!r}] must be a list")
            _check(isinstance(group, str), f"group name {group!r} must be a str")
            for field in arrays:
                array, where = (field[0], field[1]) if isinstance(field, (tuple, list)) else \
                    (field, None)
                if as_scalar is False or array.rank == 0:
                    self._write_field(group, array, where, step, kw)
                    continue
                for index in numpy.ndindex(*array.shape[:array.rank]):
                    name = group + "".join(str(i) for i in index)
                    # u[k] or u[k, l]: an int alone where it is one (subclasses
                    # such as shenfun's Function keep their type then)
                    part = array[index[0]] if len(index) == 1 else array[index]
                    self._write_field(name, part, where, step, kw)

    def _write_field(self, group, array, where, step, kw):
        self._check_domain(group, array)
        if where is None:
            self._write_group(group, array, step, **kw)
        else:
            self._write_slice_step(group, step, where, array, **kw)

    def read(self, u, name, **kw):
        raise NotImplementedError

    def close(self):
        self.f.close()

    def open(self, mode="r+"):
        raise NotImplementedError

    @staticmethod
    def backend():
        raise NotImplementedError

    def _write_slice_step(self, name, step, slices, field, **kw):
        raise NotImplementedError

    def _write_group(self, name, u, step, **kw):
        raise NotImplementedError

    @staticmethod
    def _get_slice_name(slices):
        return "_".join("slice" if isinstance(s, slice) else str(s) for s in slices)

    @staticmethod
    def _get_local_slices(slices, s):
        """`slices` (a list, changed in place) made local to the block `s`
        (slices of the global array); and 1 if this block holds the plane,
        else 0."""
        inside = 1
        for i, (index, block) in enumerate(zip(slices, s)):
            if isinstance(index, (int, numpy.integer)) and block != slice(None):
                if block.start <= index < block.stop:
                    slices[i] = index - block.start
                else:
                    inside = 0
        return slices, inside
