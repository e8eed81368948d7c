"""
_fused.py -- mpi4py-fft's PFFT as one distfft plan (the fast path of
mpifft.PFFT).

Engine(comm, shape, axes, dtype, grid, ...) takes mpi4py-fft's arguments and
gives its semantics -- the same blocks on the same ranks, the same spectral
shape and dtype, the same normalisation (forward scaled by 1/N unless
normalize=False) -- while one distfft plan does the whole transform in C.
How:

- layout.py works out mpi4py-fft's decomposition (Cartesian grid, the
  swap of extents before each group of axes) for this rank;
- the distfft plan is made on a communicator whose rank order puts each
  process where mpi4py-fft's Cartesian grid would, with the grid extents
  mpi4py-fft uses; both blocks are checked to be mpi4py-fft's on every rank
  (a difference raises on every rank: never different numbers silently);
- with collapse=True (or explicit groups of axes) one grid direction of
  mpi4py-fft's output can split another axis than distfft's: one extra
  redistribution (distfft.Redistribution, on that direction's lines) moves
  it there and back;
- transforms.py maps `transforms=` and the backend to distfft kinds and
  scale factors. The plan has norm="forward" (mpi4py-fft's default): the
  defaults cost no extra pass, other normalize flags one multiplication.
"""
import numpy
from mpi4py import MPI

from ..errors import DistfftError
from ..plan import Plan
from ..redistribution import Redistribution
from .._arrays import empty_aligned, is_aligned, pointer, zeros_aligned
from .._collective import Agreement
from . import layout
from .padding import check_padded_groups, padding_lengths, plan_padding
from .transforms import Kinds

_RIGORS = {"FFTW_ESTIMATE": "estimate", "FFTW_MEASURE": "measure",
           "FFTW_PATIENT": "patient", "FFTW_EXHAUSTIVE": "exhaustive"}
# Serial-transform options mpi4py-fft passes to its planners: accepted, and
# what they mean here (docs/python.md, "mpi4py-fft programs on distfft").
_ACCEPTED = ("planner_effort", "threads", "overwrite_input", "method", "verbose")


def working_order(kinds):
    """The plan's working order of the axes (src/plan/algebra.c): the
    untransformed ones, the transformed ones increasing, the r2c axis last
    (transformed first)."""
    axes = range(len(kinds))
    return [a for a in axes if kinds[a] == "none"] + \
        [a for a in axes if kinds[a] not in ("none", "r2c")] + [a for a in axes if kinds[a] == "r2c"]


class FusedTransform:
    """PFFT.forward / PFFT.backward: call it, or use its arrays.

    __call__(input_array=None, output_array=None, normalize=...) runs the
    transform (collective) and returns output_array if given, else the
    transform's own `output_array` (the same array every call, as in
    mpi4py-fft). `input_array` is used when no input is passed. As in
    mpi4py-fft, backward's arrays are forward's (its input is forward's
    output and its output forward's input), given as `arrays`."""

    def __init__(self, owner, forward, arrays=None):
        self._owner = owner
        self._forward = forward
        if arrays is None:
            arrays = owner._new_array(not forward), owner._new_array(forward)
        self.input_array, self.output_array = arrays

    def __call__(self, input_array=None, output_array=None, **kw):
        return self._owner._run(self, input_array, output_array, kw)


class Engine:
    """mpi4py-fft's PFFT as one distfft plan (see the module text; mpifft.PFFT
    makes it and falls back to mpi4py-fft's chain on NotImplementedError).

    Engine(comm, shape=None, axes=None, dtype=float, grid=None, padding=False,
         collapse=False, backend='fftw', transforms=None, darray=None,
         slab=None, **kw) -- kw: planner_effort ('FFTW_MEASURE', ...),
    threads, overwrite_input (accepted; distfft runs one thread and keeps
    inputs), and distfft's own method= (default 'alltoallw', as
    mpi4py-fft's exchange; 'auto' measures) and verbose=. Collective."""

    def __init__(self, comm, shape=None, axes=None, dtype=float, grid=None, padding=False,
                 collapse=False, backend="fftw", transforms=None, darray=None, slab=None, **kw):
        if not isinstance(comm, MPI.Intracomm):   # the same on every rank: no agreement
            raise TypeError(f"distfft.mpi4py_fft: comm must be an mpi4py intracommunicator, "
                            f"not {type(comm).__name__} (mpi4py-fft's Subcomm is not taken)")
        agree = self._agree = Agreement(comm)
        self._plan = self._plan_comm = self._line_comm = self._redist = None
        setup = agree(self._arguments, comm, shape, axes, dtype, grid, padding, collapse,
                      backend, transforms, darray, slab, kw)
        self._pencils = layout.Pencils(comm, self._input_shape, self.axes, setup["dims"],
                                       self._output_shape)
        order = working_order(self._kinds.kinds)
        grid_extents, key = self._pencils.distfft_grid(order)
        self._plan_comm = comm.Split(0, key)
        try:
            self._plan = Plan(self._plan_comm, self._plan_shape, dtype=setup["dtype"],
                              kinds=[self._kinds.kinds[a] for a in order if
                                     self._kinds.kinds[a] != "none"],
                              axes=[a for a in order if self._kinds.kinds[a] != "none"],
                              grid=grid_extents, method=setup["method"], norm="forward",
                              padding=self._padding,
                              rigor=setup["rigor"], verbose=setup["verbose"])
            self._match_layout(agree)
        except DistfftError as e:   # raised on every rank alike
            self._free()
            raise NotImplementedError(f"distfft.mpi4py_fft: distfft cannot plan this transform "
                                      f"(kinds {self._kinds.kinds} by axis): {e}") from e
        except BaseException:
            self._free()
            raise
        self.comm = comm
        self.forward = FusedTransform(self, True)
        self.backward = FusedTransform(self, False, (self.forward.output_array,
                                                      self.forward.input_array))

    # ---- construction -------------------------------------------------------------

    def _arguments(self, comm, shape, axes, dtype, grid, padding, collapse, backend,
                   transforms, darray, slab, kw):
        """mpi4py-fft's arguments, checked (local); sets the shapes, axes,
        kinds; returns what the collective part needs."""
        if darray is not None:
            shape, dtype, grid = self._from_darray(darray, axes)
        if shape is None:
            raise ValueError("distfft.mpi4py_fft: PFFT needs shape (or darray)")
        shape = [int(n) for n in shape]
        if len(shape) < 2 or min(shape) < 1:
            raise ValueError(f"distfft.mpi4py_fft: shape {tuple(shape)} needs at least 2 "
                             "axes of positive length")
        dtype = numpy.dtype(dtype)
        if dtype.char in "gG":   # mpifft.PFFT runs it as mpi4py-fft's chain
            raise NotImplementedError(f"distfft.mpi4py_fft: one distfft plan has no {dtype}")
        if dtype.char not in "fdFD":
            raise TypeError(f"distfft.mpi4py_fft: dtype {dtype} is not float32/64 or "
                            "complex64/128 (distributed distfft plans have no long double)")
        unknown = sorted(set(kw) - set(_ACCEPTED))
        if unknown:
            raise TypeError(f"distfft.mpi4py_fft: PFFT got unexpected keyword(s) {unknown}")
        effort = kw.get("planner_effort", "FFTW_MEASURE")
        if effort not in _RIGORS:
            raise ValueError(f"distfft.mpi4py_fft: planner_effort {effort!r} is not one of "
                             f"{tuple(_RIGORS)}")
        groups = layout.normalize_axes(axes, len(shape))
        padded = padding_lengths(shape, groups, padding, darray is not None)
        dims = layout.grid_dims(comm.Get_size(), len(shape), groups, grid, slab)
        if collapse:
            groups = layout.collapse_groups(groups, dims)
        self.axes = tuple(tuple(g) for g in groups)
        self.collapse = bool(collapse)
        self.backend = backend
        self._kinds = Kinds(padded, groups, dtype, backend, transforms)
        flat = [a for g in groups for a in g]
        if flat != working_order(self._kinds.kinds)[-len(flat):]:
            # mpi4py-fft transforms the axes in reverse order of `axes`, and
            # its blocks after each exchange follow that order; distfft's
            # plan transforms the r2c axis first, then the others from the
            # highest down, so in any other order at least one block would
            # differ (on more than one rank): mpi4py-fft's chain runs it.
            raise NotImplementedError(
                f"distfft.mpi4py_fft: axes {axes} with kinds {self._kinds.kinds}: one distfft "
                "plan transforms the r2c axis first and the others from the last axis down; "
                "mpi4py-fft's blocks for another order are not available")
        check_padded_groups(shape, padded, groups, self._kinds.kinds)
        self._input_shape = tuple(padded)
        out = list(shape)
        for axis, kind in enumerate(self._kinds.kinds):
            if kind == "r2c":
                out[axis] = shape[axis] // 2 + 1
        self._output_shape = tuple(out)
        self._plan_shape, self._padding = plan_padding(shape, padded, self._kinds.kinds)
        return {"dims": dims, "dtype": dtype, "rigor": _RIGORS[effort],
                "method": kw.get("method", "alltoallw"), "verbose": kw.get("verbose", False)}

    @staticmethod
    def _from_darray(darray, axes):
        rank = getattr(darray, "rank", 0) or 0
        sizes = getattr(darray, "commsizes", None)
        if sizes is None:
            raise TypeError("distfft.mpi4py_fft: darray must be a DistArray")
        shape = tuple(darray.global_shape[rank:])
        if axes is None and darray.alignment != len(shape) - 1:
            raise NotImplementedError(
                f"distfft.mpi4py_fft: darray aligned in axis {darray.alignment}: mpi4py-fft "
                "would transform that axis first and the others in rotated order, which "
                "distfft does not do (align the array in the last axis)")
        return shape, darray.dtype, tuple(sizes[rank:])

    def _match_layout(self, agree):
        """mpi4py-fft's blocks or nothing. distfft's output is split as
        mpi4py-fft's chain of single axes splits it; collapse=True or groups
        of axes can leave one grid direction on another axis: then one
        redistribution along that direction's lines moves it there (and
        back before backward). Any other difference raises on every rank."""
        pencils = self._pencils
        single = [[a] for group in self.axes for a in group]
        self._distfft_owner, _ = pencils.output_owners(single)
        theirs = pencils.output_owner
        differ = [a for a in range(pencils.ndim) if self._distfft_owner[a] != theirs[a]]
        if len(differ) == 2:
            whole, split = differ if self._distfft_owner[differ[0]] is None else differ[::-1]
            direction = self._distfft_owner[split]
            if theirs[split] is None and theirs[whole] == direction is not None:
                self._line_redistributions(direction, whole, split)
        agree(self._check_layout)

    def _line_redistributions(self, direction, whole, split):
        """distfft's output (whole along `whole`, split along `split` by
        `direction`) to mpi4py-fft's (the reverse), and back."""
        color, key = self._pencils.line_key(direction)
        self._line_comm = self._plan_comm.Split(color, key)
        ours, theirs = self._plan.output_shape, self._pencils.output[1]
        dtype = self._plan.output_dtype
        self._redist = (Redistribution(self._line_comm, ours, whole, theirs, split, dtype),
                        Redistribution(self._line_comm, theirs, split, ours, whole, dtype))

    def _check_layout(self):
        plan, pencils = self._plan, self._pencils
        expected = pencils.slices("output", self._distfft_owner)
        if plan.input_slice != pencils.slices("input") or plan.output_slice != expected or \
                self._redist is None and expected != pencils.slices("output"):
            raise NotImplementedError(
                f"distfft.mpi4py_fft: mpi4py-fft would give this rank the blocks "
                f"{pencils.slices('input')} -> {pencils.slices('output')}, distfft "
                f"{plan.input_slice} -> {plan.output_slice}; this combination of axes, grid and "
                "collapse is not available (collapse=False is)")

    def _new_array(self, spectral):
        return zeros_aligned(self.shape(spectral), self.dtype(spectral))

    # ---- transforms ------------------------------------------------------------------

    def _run(self, transform, input_array, output_array, kw):
        forward = transform._forward
        error, source, target = None, None, None
        try:
            normalize = self._normalize_of(kw, forward)
            source = self._source(transform, input_array)
            target = self._target(transform, output_array)
        except Exception as e:   # raised on every rank by the first collective below
            error = e
        if self._redist is not None:
            self._agree.raise_if_any(error)
            self._run_redistributed(forward, source, target)
        else:
            self._plan.execute(source, target, forward, error)
        scale = (self._kinds.forward_scale if forward else self._kinds.backward_scale)[normalize]
        if scale != 1.0 and target.size:   # on a plain view: no subclass hooks per call
            numpy.multiply(target, scale, out=target.view(numpy.ndarray))
        if output_array is None:
            return transform.output_array
        if target is not output_array:
            output_array[...] = target
        return output_array

    def _run_redistributed(self, forward, source, target):
        there, back = self._redist
        if forward:
            spectral = self._plan.forward(source, self._spectral_scratch())
            there.execute(spectral, target)
        else:
            spectral = back.execute(source, self._spectral_scratch())
            self._plan.backward(spectral, target)

    def _spectral_scratch(self):
        if not hasattr(self, "_scratch"):
            self._scratch = empty_aligned(self._plan.output_shape, self._plan.output_dtype)
        return self._scratch

    @staticmethod
    def _normalize_of(kw, forward):
        unknown = sorted(set(kw) - {"normalize"})
        if unknown:
            raise TypeError(f"distfft.mpi4py_fft: {'forward' if forward else 'backward'} got "
                            f"unexpected keyword(s) {unknown} (only normalize=)")
        return bool(kw.get("normalize", forward))

    def _source(self, transform, input_array):
        """The input as the plan needs it: the caller's array when it has
        the right dtype and shape, else a copy into transform.input_array
        (mpi4py-fft copies every input so; numpy casting rules apply)."""
        if input_array is None:
            return transform.input_array
        if isinstance(input_array, numpy.ndarray) and \
                input_array.dtype == transform.input_array.dtype and \
                input_array.shape == transform.input_array.shape:
            return input_array
        transform.input_array[...] = input_array
        return transform.input_array

    @staticmethod
    def _target(transform, output_array):
        """Where the plan writes: the caller's output when the C library can
        write there directly, else transform.output_array (copied after)."""
        own = transform.output_array
        if output_array is None:
            return own
        if not isinstance(output_array, numpy.ndarray):
            raise TypeError("distfft.mpi4py_fft: output_array must be a numpy array")
        if output_array.dtype == own.dtype and output_array.shape == own.shape and \
                output_array.flags.c_contiguous and output_array.flags.writeable and \
                is_aligned(pointer(output_array)):
            return output_array
        numpy.broadcast_to(own, output_array.shape)   # raises now if the copy could not work
        return own

    # ---- mpi4py-fft's queries ------------------------------------------------------------

    def shape(self, forward_output=True):
        """This rank's block shape: spectral (True) or physical (False)."""
        return tuple(s.stop - s.start for s in self.local_slice(forward_output))

    def local_slice(self, forward_output=True):
        """This rank's block in the global array, as slices."""
        return self._pencils.slices("output" if forward_output is True else "input")

    def global_shape(self, forward_output=False):
        return self._output_shape if forward_output else self._input_shape

    def dtype(self, forward_output=False):
        plan = self._plan
        return numpy.dtype(plan.output_dtype if forward_output else plan.dtype)

    @property
    def dimensions(self):
        return len(self._input_shape)

    def _alignment(self, forward_output):
        return self._pencils.output_alignment if forward_output else \
            self._pencils.input_alignment

    def _owners(self, forward_output):
        return self._pencils.output_owner if forward_output else self._pencils.input_owner

    @property
    def distfft_plan(self):
        """The distfft.Plan doing the work (describe(), timings(), ...)."""
        return self._plan

    def destroy(self):
        """Free the plan and its communicators. Collective."""
        self._free()

    def _free(self):
        for redist in self._redist or ():
            redist.destroy()
        self._redist = None
        if self._plan is not None:
            self._plan.destroy()
            self._plan = None
        for name in ("_line_comm", "_plan_comm"):
            if getattr(self, name) is not None:
                getattr(self, name).Free()
                setattr(self, name, None)
