"""
layout.py -- where mpi4py-fft puts each rank's block, worked out without it.

mpi4py-fft decomposes a global array on a Cartesian grid of the
communicator with one extent per array axis (`dims`, from `grid`, `slab`
or MPI_Compute_dims with extent 1 on the axes transformed first). The
input block is aligned (whole) along the last axis of the last group of
`axes`; before each further group of axes is transformed, the extents of
the currently aligned axis and of that group's last axis are swapped
(Pencil.pencil). Blocks along an axis follow the balanced division of
Alg. 1 (the first n % p parts one longer), which is distfft_decompose.

`Pencils` follows that chain and gives this rank's input and output block
(start and shape per axis). The drop-in then asks distfft for a plan on a
communicator whose rank order makes distfft's row-major grid the same as
mpi4py-fft's Cartesian grid, and checks the blocks agree on every rank.
"""
import numpy
from mpi4py import MPI

from ..redistribution import decompose


def normalize_axes(axes, ndim):
    """mpi4py-fft's `axes` argument as a list of groups (lists of
    non-negative axes), the last group transformed first."""
    if axes is None:
        return [[a] for a in range(ndim)]
    axes = [axes] if isinstance(axes, (int, numpy.integer)) else list(axes)
    groups = []
    for entry in axes:
        group = [entry] if isinstance(entry, (int, numpy.integer)) else list(entry)
        if not group:
            raise ValueError("distfft.mpi4py_fft: an empty group in axes")
        result = []
        for axis in group:
            if not isinstance(axis, (int, numpy.integer)) or not -ndim <= axis < ndim:
                raise ValueError(f"distfft.mpi4py_fft: axis {axis!r} is not an axis of a "
                                 f"{ndim}-dimensional array")
            result.append(int(axis) % ndim)
        groups.append(result)
    flat = [a for g in groups for a in g]
    if len(set(flat)) != len(flat):
        raise ValueError(f"distfft.mpi4py_fft: axes {axes} repeat an axis")
    return groups


def grid_dims(size, ndim, groups, grid, slab):
    """The Cartesian extents mpi4py-fft asks for (before and after
    MPI_Compute_dims), from grid, slab or the default."""
    first = groups[-1]
    if grid is not None:
        if slab not in (False, None):
            raise ValueError("distfft.mpi4py_fft: grid and slab cannot both be given")
        grid = [int(g) for g in grid]
        if len(grid) > ndim:
            raise ValueError(f"distfft.mpi4py_fft: grid {tuple(grid)} has more entries than "
                             f"the array has axes ({ndim})")
        dims = grid + [1] * (ndim - len(grid))
    elif slab in (False, None):
        dims = [0] * ndim
        for axis in first:
            dims[axis] = 1
    else:
        axis = (first[-1] + 1) % ndim if slab is True else int(slab) % ndim
        dims = [1] * ndim
        dims[axis] = size
    dims = [max(0, d) for d in dims]
    try:
        dims = list(MPI.Compute_dims(size, dims))
    except MPI.Exception:
        raise ValueError(f"distfft.mpi4py_fft: grid {tuple(dims)} does not fit {size} ranks")
    if int(numpy.prod(dims)) != size:
        raise ValueError(f"distfft.mpi4py_fft: grid {tuple(dims)} does not fit {size} ranks")
    for axis in first:
        if dims[axis] != 1:
            raise ValueError(f"distfft.mpi4py_fft: grid {tuple(dims)} distributes axis {axis}, "
                             "which is transformed first and must be whole (extent 1)")
    return dims


def collapse_groups(groups, dims):
    """mpi4py-fft's collapse=True: axes whose grid extent is 1 join the
    group transformed just after them, so fewer serial transforms run."""
    result = [[]]
    for group in reversed(groups):
        if all(dims[a] == 1 for a in group):
            result[0][:0] = group
        else:
            result.insert(0, list(group))
    return [g for g in result if g]


class Pencils:
    """This rank's input and output blocks in mpi4py-fft's decomposition.

    Pencils(comm, shape, groups, dims, output_shape): `coords` are this
    rank's Cartesian coordinates (the communicator mpi4py-fft would create,
    reorder=True included), `owner[space][axis]` the grid direction that
    splits that axis (None: whole)."""

    def __init__(self, comm, shape, groups, dims, output_shape):
        cart = comm.Create_cart(dims, reorder=True)
        try:
            self.coords = tuple(cart.Get_coords(cart.Get_rank()))
        finally:
            cart.Free()
        self.dims = tuple(dims)
        self.ndim = len(shape)
        self.input_owner = [i if dims[i] > 1 else None for i in range(self.ndim)]
        self.output_owner, self.output_alignment = self.output_owners(groups)
        self.input_alignment = groups[-1][-1]
        self.output_shape = tuple(output_shape)
        self.input = self._blocks(shape, self.input_owner)
        self.output = self._blocks(output_shape, self.output_owner)

    def output_owners(self, groups):
        """The grid direction splitting each axis of the output (None:
        whole) after the chain of swaps for `groups`, and the aligned axis."""
        owner = list(range(self.ndim))
        aligned = groups[-1][-1]
        for group in reversed(groups[:-1]):
            axis = group[-1]
            owner[aligned], owner[axis] = owner[axis], owner[aligned]
            aligned = axis
        return [o if self.dims[o] > 1 else None for o in owner], aligned

    def line_key(self, direction):
        """(color, key) that split a communicator laid like the grid into
        the lines along `direction` (rank = coordinate on the line)."""
        color = 0
        for d, (size, coord) in enumerate(zip(self.dims, self.coords)):
            if d != direction:
                color = color * size + coord
        return color, self.coords[direction]

    def _blocks(self, shape, owner):
        """(starts, shapes) of this rank's block."""
        starts, shapes = [], []
        for n, direction in zip(shape, owner):
            if direction is None:
                starts.append(0)
                shapes.append(int(n))
            else:
                length, start = decompose(int(n), self.dims[direction], self.coords[direction])
                starts.append(start)
                shapes.append(length)
        return tuple(starts), tuple(shapes)

    def slices(self, space, owner=None):
        """This rank's block as slices: of the input or output, or of the
        output split as `owner` says."""
        if owner is not None:
            starts, shapes = self._blocks(self.output_shape, owner)
        else:
            starts, shapes = self.input if space == "input" else self.output
        return tuple(slice(s, s + n) for s, n in zip(starts, shapes))

    def distfft_grid(self, order):
        """distfft's grid for the working order `order` (untransformed axes,
        then transformed ones, increasing, the r2c axis last; _fused.working_order):
        axis order[i] over direction i;
        and the rank this process must have in the plan's communicator for
        distfft's row-major grid to put it where mpi4py-fft's Cartesian
        grid does."""
        grid = [self.dims[a] for a in order[:-1]]
        key = 0
        for a in order[:-1]:
            key = key * self.dims[a] + self.coords[a]
        return tuple(grid), key
