"""
plan.py -- Plan: a parallel FFT of a distributed numpy array.

A thin object over distfft_plan: the constructor turns Python arguments
(numpy dtype, kind names, grid words, axes) into distfft_options and calls
distfft_plan_create; forward/backward call the C transform directly on the
arrays' memory, with the GIL released: through distfft._fast, which checks
the arrays in C, when they are exactly what the plan needs (the usual
case), else after the Python checks below, through ctypes.

Arrays are never converted behind the caller's back, with one documented
exception: an INPUT array of the right dtype and shape that is not
C-contiguous or not 16-byte aligned (typically `u[plan.input_slice]`, a view
of a global array) is copied once into a buffer the plan keeps. Output
arrays must be exactly right (dtype, shape, C-contiguous, aligned,
writable), or the call raises.

Every check that could fail on one rank only is agreed over the
communicator (see _collective.py; forward/backward let the C call's own
agreement carry it), so a bad argument raises the same exception on every
rank instead of leaving the others in a collective.

A plan of device memory (memory="cuda") takes device arrays instead
(CuPy's, or any object with __cuda_array_interface__; _device.py) and
returns CuPy arrays where it allocates; numpy arrays are refused for it.
"""
import ctypes
import weakref

import numpy

from . import _device, _fast, _lib, _lifetime
from ._arrays import check_array, empty_aligned, is_aligned, pointer, zeros_aligned
from ._collective import Agreement
from .distarray import DistArray

# Misaligned for every element type: distfft_plan_execute rejects it
# (DISTFFT_ERR_ALIGNMENT, agreed over the plan's communicator) before use.
_REJECTED_POINTER = 1


def _axes_of(axes, ndim):
    """Transformed axes, validated, in the order given (numpy's: for real
    input the last one is r2c)."""
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, (int, numpy.integer)):
        axes = (axes,)
    try:
        axes = tuple(axes)
    except TypeError:
        raise TypeError(f"distfft: axes must be None, an integer or a sequence of integers, "
                        f"not {axes!r}") from None
    result = []
    for axis in axes:
        axis = _lib.c_integer(axis, "axis")
        if not -ndim <= axis < ndim:
            raise ValueError(f"distfft: axis {axis} is out of range for {ndim} dimensions")
        result.append(axis % ndim)
    if len(set(result)) != len(result):
        raise ValueError(f"distfft: axes {tuple(axes)} repeat an axis")
    if not result:
        raise ValueError("distfft: axes is empty")
    return tuple(result)


def _kinds_of(kinds, axes, real_input):
    """Kind names for the transformed axes (given in the order of `axes`)."""
    if kinds is None:
        kinds = "r2c" if real_input else "c2c"
    if isinstance(kinds, str):
        kinds = [k.strip() for k in kinds.split(",")]
        if len(kinds) == 1:
            kind = kinds[0].lower()
            if kind == "r2c":   # numpy's rfftn: r2c on the last of `axes`, c2c on the others
                return {a: ("r2c" if a == axes[-1] else "c2c") for a in axes}
            kinds = [kind] * len(axes)
    try:
        kinds = [str(k).lower() for k in kinds]
    except TypeError:
        raise TypeError(f"distfft: kinds must be None, a kind name or a sequence of them, "
                        f"not {kinds!r}") from None
    if len(kinds) != len(axes):
        raise ValueError(f"distfft: {len(kinds)} kinds for {len(axes)} transformed axes "
                         "(give one kind per transformed axis, or one for all)")
    for kind in kinds:
        _lib.code_of("kind", kind)  # ValueError for unknown names
    return dict(zip(axes, kinds))


def _grid_of(grid, options):
    """Fill options.grid_ndims / grid_dims from None|"auto"|"slab"|"pencil"|dims."""
    if grid is None or (isinstance(grid, str) and grid == "auto"):
        options.grid_ndims = 0
    elif isinstance(grid, str):
        words = {"slab": 1, "pencil": 2}
        if grid not in words:
            raise ValueError(f"distfft: grid {grid!r} is not None, 'auto', 'slab', 'pencil' "
                             "or a tuple of extents")
        options.grid_ndims = words[grid]
    else:
        try:
            grid = tuple(grid)
        except TypeError:
            raise TypeError(f"distfft: grid {grid!r} is not None, 'auto', 'slab', 'pencil' "
                            "or a tuple of extents") from None
        dims = [_lib.c_integer(d, "grid extent") for d in grid]
        if not 1 <= len(dims) <= _lib.MAX_DIMS or any(d < 0 for d in dims):
            raise ValueError(f"distfft: grid {tuple(grid)} must be 1 to {_lib.MAX_DIMS} "
                             "non-negative extents (0: chosen by MPI_Dims_create)")
        options.grid_ndims = len(dims)
        for i, d in enumerate(dims):
            options.grid_dims[i] = d


def _budget(tune_budget):
    """tune_budget as the C int it becomes: None (no budget) is C's 0; a
    budget the caller gives must be a positive count of candidates (raised
    on every rank, through _agree)."""
    if tune_budget is None:
        return 0
    try:
        if isinstance(tune_budget, bool):
            raise TypeError
        budget = _lib.c_integer(tune_budget, "tune_budget", 64)
    except (TypeError, ValueError):   # ("x", 1.5, nan: not an integer, as before)
        raise TypeError(f"distfft: tune_budget {tune_budget!r} must be an integer") from None
    if budget <= 0:
        raise ValueError(f"distfft: tune_budget = {tune_budget} must be >= 1 (candidates timed; "
                         "None, the default: every candidate)")
    return _lib.c_integer(budget, "tune_budget")


class Plan(_lifetime.Handle):
    """A forward and backward parallel transform of a global array.

    Plan(comm, shape, dtype=numpy.complex128, kinds=None, axes=None,
         grid=None, method="auto", norm="backward", batch=None,
         rigor="measure", destroy_input=False, placement="row", node_size=0,
         threads=1, overlap="auto", padding=None, inplace=False,
         input_layout=None, output_layout=None, tune_budget=None, model=None)

    comm    an mpi4py intracommunicator (every rank of it must call).
    shape   the global (real-space) shape, 2 to 16 axes.
    dtype   of the input: complex128/complex64, or float64/float32 for
            real input (then r2c on the last of `axes`, as numpy's rfftn,
            unless `kinds` says otherwise; all-real-to-real kinds keep
            data real).
    kinds   None, one kind name for every transformed axis ("r2c" alone is
            numpy's rfftn), a comma-separated string or a sequence with one
            name per transformed axis: c2c, r2c, dct1..dct4, dst1..dst4,
            cheb, none, r2hc, hc2r, dht (see the manual, docs/guide/kinds.md).
    axes    the transformed axes (default all); the others are not
            transformed. With real input and no per-axis kinds, r2c goes on
            the last axis listed (numpy.fft.rfftn(x, axes=axes)); `kinds`
            may put it on any transformed axis, and it is transformed
            first wherever it is.
    grid    None/"auto" (slab while the ranks fit, then pencil, ...),
            "slab", "pencil", or a tuple of extents (0 = chosen by MPI).
    method  redistribution method name ("alltoallw", "alltoallv",
            "isend-waitall", ..., or "auto": measured at plan time).
    norm    "backward" (default), "ortho" or "forward", as numpy; or
            "none" (FFTW's convention: no scaling either way, so
            backward(forward(x)) = N x), for solvers that fold 1/N into
            their own pointwise work.
    batch   None (plain arrays) or the number of fields transformed
            together: arrays then have a leading axis of that length.
    rigor   FFTW planning: "estimate", "measure", "patient", "exhaustive".
    destroy_input  let forward/backward overwrite their input (saves
            one work buffer).
    placement  how ranks sit on the grid: "row" (default), "morton", or
            "node" (keeps the busiest direction inside nodes; node_size > 0
            pretends nodes of that many consecutive ranks).
    verbose  rank 0 says on stderr what plan-time tuning measures, as it
            goes (also: environment variable DISTFFT_VERBOSE=1).
    threads threads per rank (default 1), the same on every rank: FFTW's
            threaded plans and OpenMP in distfft's own passes. mpi4py
            initialises MPI with MPI_THREAD_MULTIPLE, which threads > 1
            needs (at least FUNNELED). Results may differ from threads=1
            in the last bits (FFTW's threaded plans split the sums).
    overlap with batch > 1: "on" pipelines the fields (field k's exchange
            in flight while field k-1's FFTs run), "off" moves all fields
            in one exchange per step, "fields" runs each field through the
            whole transform in turn (one field's work memory),
            "progress" is "on" with a helper thread calling MPI_Test on the
            exchange in flight while the FFTs run (needs
            MPI_THREAD_MULTIPLE, mpi4py's default; pays only with a spare
            core per rank), "auto" (default) measures them when the plan
            measures (method "auto", a measuring rigor).
    padding  None, one factor >= 1 for every transformed axis (1.5: the
            3/2 rule), or one per array axis: `shape` is then the spectral
            (retained) shape and the physical arrays have floor(factor * N)
            points along padded axes (global_input_shape); backward
            zero-pads, forward truncates (README "Padding").
    inplace  an in-place plan: forward(u, u_hat) and backward(u_hat, u)
            on one buffer; inplace_arrays() gives the two views.
    input_layout, output_layout  distfft.Layout objects (on comm's
            ranks) of the input (global_input_shape) and output
            (global_output_shape) arrays, when the caller's decomposition
            is not the plan's: the plan then reshapes at that end
            (describe() shows "(reshape in ...)"), and input_slice /
            output_slice are this rank's boxes of those layouts. Not with
            inplace.

    The plan's layouts, given or its own, are plan.input_layout and
    plan.output_layout (distfft.Layout); its arrays carry them
    (DistArray.layout). Each is made when first asked for (each holds a
    duplicate communicator, which a plan that never uses it need not pay
    for): the first access, on the plan or one of its arrays, is
    collective on comm -- every rank must make it.
    tune_budget  with method "auto", a measuring rigor and a cost model
            (`model`, distfft.model.import_file or DISTFFT_MODEL): the
            model ranks every candidate (grid x method) and only this many
            of the best are built and timed (a positive int; 0 or below
            raises ValueError on every rank); 1: the model's choice,
            built and kept untimed. None (default), or no model: every
            candidate is measured. Counts candidates, not seconds.
    model   path of a cost model file (distfft-bench --calibrate, or
            distfft.model.calibrate) imported before planning, as
            distfft.model.import_file(comm, model) would.
    memory  where the arrays live: "host" (numpy; default) or "cuda" (the
            device current at creation; needs the CUDA backend and a
            device, else DistfftError on every rank): forward/backward then
            take device arrays (CuPy's, or any __cuda_array_interface__
            object), C-contiguous, of the block's shape and dtype, and
            refuse numpy arrays; outputs they allocate, input_array() and
            output_array() are CuPy arrays (CuPy is optional otherwise).
    stream  with memory "cuda": the cudaStream_t the plan's work is
            ordered on (an int, or cupy.cuda.Stream; None: the default
            stream), fixed at creation. A plan without exchanges (one
            rank) returns before its work is done: synchronise the stream
            before reading the output elsewhere.

    A complex dtype with only real-to-real (and none) kinds transforms the
    real and imaginary parts alike (scipy.fft.dctn on complex arrays).

    With method "auto", a measuring rigor and grid None, the grid is
    measured too; distfft.wisdom keeps such choices for later runs.

    Collective on comm. Free with destroy() (or a with-block); a plan still
    alive at exit is destroyed before MPI is finalized.
    """

    _destroy_call = "distfft_plan_destroy"

    def __init__(self, comm, shape, dtype=numpy.complex128, kinds=None, axes=None,
                 grid=None, method="auto", norm="backward", batch=None,
                 rigor="measure", destroy_input=False, placement="row", node_size=0,
                 verbose=False, threads=1, overlap="auto", padding=None, inplace=False,
                 input_layout=None, output_layout=None, tune_budget=None, model=None,
                 memory="host", stream=None):
        from .layout import Layout
        self._layouts = {}   # "input" / "output" -> Layout, made when first asked for
        self._adopt(comm)
        self._agree = Agreement(self._comm)
        try:
            options = self._agree(self._options, shape, dtype, kinds, axes, grid, method,
                                  norm, batch, rigor, destroy_input, placement, node_size,
                                  threads, overlap, padding, inplace, memory, stream)
            options.verbose = 1 if verbose else 0
            layouts = self._agree(self._layouts_of, input_layout, output_layout, Layout)
            options.tune_budget = self._agree(_budget, tune_budget)
            if model is not None:   # collective: errors on every rank
                _lib.check(_lib.lib.distfft_model_import_file(
                    _lib.comm_handle(self._comm), _lib.c_string(model, "model path"), 0))
            handle = _lib.c_handle()
            if layouts is None:
                _lib.check(_lib.lib.distfft_plan_create(
                    _lib.comm_handle(self._comm), len(self._shape), _lib.int64_array(self._shape),
                    self._precision,
                    ctypes.byref(options), ctypes.byref(handle)))
            else:
                _lib.check(_lib.lib.distfft_plan_create_layouts(
                    _lib.comm_handle(self._comm), len(self._shape), _lib.int64_array(self._shape),
                    self._precision, ctypes.byref(options), layouts[0], layouts[1],
                    ctypes.byref(handle)))
        except BaseException:
            self._comm.Free()
            raise
        self._handle = handle
        _lifetime.register(self)
        self._given_layouts = layouts is not None
        self._query()
        if self.dtype != numpy.dtype(dtype):
            self.destroy()   # C agreed on the arguments: every rank gets here
            raise TypeError(f"distfft: kinds {self.kinds} need {self.dtype} input, not "
                            f"{numpy.dtype(dtype)}")
        self._scratch = {}
        # What _fast.plan_execute checks the arrays against, per direction.
        # An in-place plan's two views of one buffer are checked in Python.
        self._fast_forward = self._fast_backward = None
        if not self.inplace and self.memory == "host":   # _fast reads numpy arrays only
            self._fast_forward = (handle.value, _lib.FORWARD, self.dtype, self.input_shape,
                                  self.output_dtype, self.output_shape)
            self._fast_backward = (handle.value, _lib.BACKWARD, self.output_dtype,
                                   self.output_shape, self.dtype, self.input_shape)

    # ---- construction ------------------------------------------------------------

    @staticmethod
    def _layouts_of(input_layout, output_layout, layout_type):
        """The C handles of given layouts, or None when neither is (local)."""
        if input_layout is None and output_layout is None:
            return None
        handles = []
        for name, layout in (("input_layout", input_layout), ("output_layout", output_layout)):
            if layout is not None and not isinstance(layout, layout_type):
                raise TypeError(f"distfft: {name} must be a distfft.Layout, not {type(layout).__name__}")
            if layout is not None:
                layout._require_live()
            handles.append(None if layout is None else layout._handle)
        return handles

    @property
    def input_layout(self):
        """The distfft.Layout of the input array (the one given, else the
        plan's own blocks); collective the first time it is asked for."""
        return self._layout("input")

    @property
    def output_layout(self):
        """The distfft.Layout of the output array; collective the first
        time it is asked for."""
        return self._layout("output")

    def _layout(self, side):
        layout = self._layouts.get(side)
        if layout is None:
            from .layout import Layout
            layout = self._layouts[side] = Layout.from_plan(self, side)
        return layout

    def _layout_of(self, side):
        """For the plan's arrays: a callable giving the plan's layout of
        `side` when first called (None once the plan is destroyed without
        it), holding no reference to the plan."""
        plan = weakref.ref(self)

        def resolve():
            owner = plan()
            if owner is None or (owner._handle is None and side not in owner._layouts):
                return None
            return owner._layout(side)
        return resolve

    def destroy(self):
        """Free the plan, the layouts asked for and its communicator.
        Collective; idempotent."""
        for layout in getattr(self, "_layouts", {}).values():
            layout.destroy()
        super().destroy()

    def _options(self, shape, dtype, kinds, axes, grid, method, norm, batch, rigor,
                 destroy_input, placement, node_size, threads, overlap, padding, inplace,
                 memory, stream):
        """Validate the Python arguments; return distfft_options (local)."""
        try:
            self._shape = tuple(_lib.c_integer(n, "shape extent", 64) for n in shape)
        except TypeError:
            raise TypeError(f"distfft: shape must be a sequence of integers, not {shape!r}")
        dtype = _lib.numpy_dtype(dtype)
        self._precision = _lib.precision(dtype)   # TypeError for unsupported dtypes
        ndim = len(self._shape)
        if not 2 <= ndim <= _lib.MAX_DIMS:
            raise ValueError(f"distfft: shape {self._shape} must have 2 to {_lib.MAX_DIMS} axes")
        self.axes = _axes_of(axes, ndim)
        per_axis = _kinds_of(kinds, self.axes, dtype.kind == "f")
        self.kinds = tuple(per_axis.get(a, "none") for a in range(ndim))

        options = _lib.options_new()
        for a, kind in enumerate(self.kinds):
            options.kinds[a] = _lib.code_of("kind", kind)
        _grid_of(grid, options)
        self.method = str(method)
        options.method = _lib.code_of("method", self.method)
        options.norm = _lib.code_of("norm", norm)
        self.norm = norm
        options.rigor = _lib.code_of("rigor", rigor)
        options.destroy_input = 1 if destroy_input else 0
        self.batch = None if batch is None else _lib.c_integer(batch, "batch", 64)
        if self.batch is not None and self.batch < 1:
            raise ValueError(f"distfft: batch {batch!r} must be None or an integer >= 1")
        options.batch = 1 if batch is None else self.batch
        self.placement = str(placement)
        options.placement = _lib.code_of("placement", self.placement)
        options.node_size = _lib.c_integer(node_size, "node_size")
        if options.node_size < 0:
            raise ValueError(f"distfft: node_size {node_size!r} must be an integer >= 0")
        if not 1 <= _lib.c_integer(threads, "threads", 64) <= _lib.MAX_THREADS:
            raise ValueError(f"distfft: threads {threads!r} must be an integer from 1 to "
                             f"{_lib.MAX_THREADS}")
        self.threads = int(threads)
        options.threads = self.threads
        self.overlap = str(overlap)
        options.overlap = _lib.code_of("overlap", self.overlap)
        self.padding = self._padding_of(padding, ndim)
        for a, factor in enumerate(self.padding):
            options.padding[a] = factor
        options.complex_data = 1 if (dtype.kind == "c" and "r2c" not in self.kinds
                                     and "c2c" not in self.kinds) else 0
        self.inplace = bool(inplace)
        options.in_place = 1 if inplace else 0
        self.memory = str(memory)
        options.memory = _lib.code_of("memory", self.memory)
        options.stream = _device.stream_pointer(stream)
        return options

    def _padding_of(self, padding, ndim):
        """One factor per array axis (1.0: none; untransformed axes 1.0)."""
        if padding is None:
            return (1.0,) * ndim
        if isinstance(padding, (int, float, numpy.integer, numpy.floating)):
            return tuple(float(padding) if a in self.axes else 1.0 for a in range(ndim))
        try:
            factors = tuple(float(f) for f in padding)
        except (TypeError, ValueError):
            raise TypeError(f"distfft: padding must be None, a number or one number per array axis, "
                            f"not {padding!r}") from None
        if len(factors) != ndim:
            raise ValueError(f"distfft: padding {tuple(padding)} needs one factor per array "
                             f"axis ({ndim}), or one number for every transformed axis")
        return factors

    def _query(self):
        """Local blocks, element types and grid from the C plan."""
        ndim = len(self._shape)
        lib, h = _lib.lib, self._handle
        in_shape, in_start = _lib.int64_array([0] * ndim), _lib.int64_array([0] * ndim)
        out_shape, out_start = _lib.int64_array([0] * ndim), _lib.int64_array([0] * ndim)
        out_global, in_global = _lib.int64_array([0] * ndim), _lib.int64_array([0] * ndim)
        _lib.check(lib.distfft_plan_input_block(h, in_shape, in_start))
        _lib.check(lib.distfft_plan_output_block(h, out_shape, out_start))
        _lib.check(lib.distfft_plan_output_shape(h, out_global))
        _lib.check(lib.distfft_plan_input_shape(h, in_global))
        self.local_size = int(lib.distfft_plan_local_size(h))
        in_type, out_type = ctypes.c_int(), ctypes.c_int()
        _lib.check(lib.distfft_plan_types(h, ctypes.byref(in_type), ctypes.byref(out_type)))
        grid_ndims, grid_dims = ctypes.c_int(), (ctypes.c_int * _lib.MAX_DIMS)()
        _lib.check(lib.distfft_plan_grid(h, ctypes.byref(grid_ndims), grid_dims))

        lead = () if self.batch is None else (self.batch,)
        lead_slice = () if self.batch is None else (slice(0, self.batch),)
        self.dtype = _lib.DTYPES[in_type.value]
        self.output_dtype = _lib.DTYPES[out_type.value]
        self.global_input_shape = lead + tuple(in_global[:ndim])
        self.global_output_shape = lead + tuple(out_global[:ndim])
        self.input_slice = lead_slice + tuple(
            slice(s, s + n) for s, n in zip(in_start[:ndim], in_shape[:ndim]))
        self.output_slice = lead_slice + tuple(
            slice(s, s + n) for s, n in zip(out_start[:ndim], out_shape[:ndim]))
        self.input_shape = lead + tuple(in_shape[:ndim])
        self.output_shape = lead + tuple(out_shape[:ndim])
        self.grid = tuple(grid_dims[:grid_ndims.value])
        # The first serial transform runs along the r2c axis, or the
        # highest transformed axis without one; the last along the lowest
        # of the others: there the arrays are complete (the working order
        # of src/plan/algebra.c).
        transformed = [a for a, kind in enumerate(self.kinds) if kind != "none"]
        others = [a for a in transformed if self.kinds[a] != "r2c"] or transformed
        first = self.kinds.index("r2c") if "r2c" in self.kinds else max(transformed)
        self.input_alignment = len(lead) + first
        self.output_alignment = len(lead) + min(others)
        if self._given_layouts:   # the caller's boxes need not be complete along any axis
            self.input_alignment = self.output_alignment = None

    # ---- arrays ---------------------------------------------------------------------

    @property
    def comm(self):
        """The communicator the plan was made on (it works on a duplicate)."""
        return self._user_comm

    def input_array(self):
        """A zeroed DistArray for this rank's input (real-space) block (a
        device plan's: a zeroed CuPy array)."""
        if self.memory != "host":
            return _device.zeros(self.input_shape, self.dtype)
        return DistArray(self.global_input_shape, self.input_slice, self.dtype, self._user_comm,
                         alignment=self.input_alignment, kinds=self.kinds, space="input",
                         layout=self._layout_of("input"))

    def output_array(self):
        """A zeroed DistArray for this rank's output (spectral) block (a
        device plan's: a zeroed CuPy array)."""
        if self.memory != "host":
            return _device.zeros(self.output_shape, self.output_dtype)
        return DistArray(self.global_output_shape, self.output_slice, self.output_dtype,
                         self._user_comm, alignment=self.output_alignment, kinds=self.kinds,
                         space="output", layout=self._layout_of("output"))

    def inplace_arrays(self):
        """For an in-place plan: (u, u_hat), DistArrays of the input and
        output blocks on ONE zeroed buffer of local_size output elements,
        so plan.forward(u, u_hat) and plan.backward(u_hat, u) transform in
        place. Writing one overwrites the other."""
        if not self.inplace or self.memory != "host":
            raise ValueError("distfft: inplace_arrays() needs a plan made with inplace=True, of "
                             "host memory")
        nbytes = self.local_size * self.output_dtype.itemsize
        raw = zeros_aligned((nbytes,), numpy.uint8)
        views = []
        for shape, dtype, slices, space, alignment in (
                (self.input_shape, self.dtype, self.input_slice, "input", self.input_alignment),
                (self.output_shape, self.output_dtype, self.output_slice, "output",
                 self.output_alignment)):
            size = int(numpy.prod(shape, dtype=numpy.int64)) * dtype.itemsize
            view = raw[:size].view(dtype).reshape(shape)
            glob = self.global_input_shape if space == "input" else self.global_output_shape
            views.append(DistArray(glob, slices, dtype, self._user_comm, alignment=alignment,
                                   kinds=self.kinds, space=space, buffer=view,
                                   layout=self._layout_of(space)))
        return tuple(views)

    # ---- transforms --------------------------------------------------------------------

    def forward(self, a, out=None):
        """Forward transform of this rank's input block `a` into `out` (a new
        output_array() if None); returns the output. Collective."""
        return self.execute(a, out, True)

    def backward(self, a, out=None):
        """Backward transform of this rank's output block `a` into `out` (a
        new input_array() if None); returns it. Collective."""
        return self.execute(a, out, False)

    def execute(self, a, out=None, forward=True, error=None):
        """forward(a, out) or backward(a, out), by `forward`; for layers over
        the plan that check arguments of their own first. `error`: the
        exception those checks raised on this rank (None if they passed).
        The transform's own agreement carries it: if any rank has one,
        no rank transforms and every rank raises it (the message of the
        failing rank) -- with no collective beyond the transform's own.
        Collective."""
        self._require_live()   # destroy() is collective: the same on every rank
        if error is None:   # arrays exactly as the C call needs them: checked in C
            rc = _fast.plan_execute(self._fast_forward if forward else self._fast_backward,
                                    a, out)
            if rc == 0:
                return out
            if rc is not None:
                self._agree.raise_if_any(None)   # every rank got rc != 0
                _lib.check(rc)
        # Otherwise they are checked here, locally; the C call's own agreement
        # then carries the verdict: a rank whose arrays are bad passes a
        # pointer no buffer can have (misaligned), which the library
        # rejects on every rank. Only then do the ranks exchange the Python
        # message. The successful path costs no extra collective.
        direction = _lib.FORWARD if forward else _lib.BACKWARD
        pin = pout = _REJECTED_POINTER
        if error is None:
            try:
                out, pin, pout = self._prepare(a, out, forward)
            except Exception as e:
                error = e
        rc = _lib.lib.distfft_plan_execute(self._handle, pin, pout, direction)
        if rc != 0:
            self._agree.raise_if_any(error)   # every rank got rc != 0
            _lib.check(rc)
        return out

    def _prepare(self, a, out, forward):
        """Check the arrays (local); copy a misplaced input once. Returns
        the output array and both data pointers (None for empty blocks)."""
        if forward:
            in_shape, in_dtype, out_shape, out_dtype = \
                self.input_shape, self.dtype, self.output_shape, self.output_dtype
        else:
            in_shape, in_dtype, out_shape, out_dtype = \
                self.output_shape, self.output_dtype, self.input_shape, self.dtype
        what = "forward" if forward else "backward"
        if self.memory != "host":
            return self._prepare_device(a, out, what, in_shape, in_dtype, out_shape, out_dtype)
        if not isinstance(a, numpy.ndarray):
            raise TypeError(f"distfft: {what}: the input must be a numpy.ndarray, "
                            f"not {type(a).__name__}")
        if a.dtype != in_dtype:
            raise TypeError(f"distfft: {what}: the input has dtype {a.dtype}, the plan needs "
                            f"{in_dtype} (convert explicitly, e.g. a.astype(numpy.{in_dtype}))")
        if a.shape != in_shape:
            raise ValueError(f"distfft: {what}: the input has shape {a.shape}, this rank's "
                             f"block is {in_shape}")
        pin = pointer(a)
        if self.inplace:
            return self._prepare_inplace(a, out, what, out_shape, out_dtype, pin)
        if not (a.flags.c_contiguous and is_aligned(pin)):
            a = self._copy_in(a, forward)   # the one documented copy
            pin = pointer(a)
        if out is None:
            out = self.output_array() if forward else self.input_array()
            pout = pointer(out)
        else:
            pout = check_array(out, out_shape, out_dtype, f"{what}: the output array",
                               writable=True)
        return out, pin, pout

    def _prepare_inplace(self, a, out, what, out_shape, out_dtype, pin):
        """In place: `out` must be a view of the same buffer as `a`, and the
        buffer must hold local_size output elements from there."""
        if out is None:
            raise ValueError(f"distfft: {what}: the plan is in place: pass the output view of "
                             "the input's buffer (plan.inplace_arrays())")
        check_array(a, a.shape, a.dtype, f"{what}: the input", writable=True)
        check_array(out, out_shape, out_dtype, f"{what}: the output array", writable=True)
        # One buffer: its address even where one of the two blocks is empty.
        pin, pout = a.ctypes.data, out.ctypes.data
        need = self.local_size * self.output_dtype.itemsize
        if need and pin != pout:
            raise ValueError(f"distfft: {what}: the plan is in place, so input and output must "
                             "start at the same address (plan.inplace_arrays())")
        root = a
        while isinstance(root.base, numpy.ndarray):
            root = root.base
        if need and root.ctypes.data + root.nbytes - pin < need:
            raise ValueError(f"distfft: {what}: the in-place buffer holds "
                             f"{root.ctypes.data + root.nbytes - pin} bytes from the input on, "
                             f"the plan needs {need} (local_size = {self.local_size} elements)")
        return out, pin, pout

    def _prepare_device(self, a, out, what, in_shape, in_dtype, out_shape, out_dtype):
        """A device plan's arrays: device arrays of the blocks, used where
        they are (no copy); an in-place plan's two at one address."""
        pin = _device.pointer(a, in_shape, in_dtype, f"{what}: the input", writable=self.inplace)
        if out is None and self.inplace:
            raise ValueError(f"distfft: {what}: the plan is in place: pass the output view of "
                             "the input's buffer")
        if out is None:
            out = _device.empty(out_shape, out_dtype)
        pout = _device.pointer(out, out_shape, out_dtype, f"{what}: the output array",
                               writable=True)
        if self.inplace and pin != pout:
            raise ValueError(f"distfft: {what}: the plan is in place, so input and output must "
                             "start at the same address")
        return out, pin, pout

    def _copy_in(self, a, forward):
        buffer = self._scratch.get(forward)
        if buffer is None:
            buffer = self._scratch[forward] = empty_aligned(a.shape, a.dtype)
        buffer[...] = a
        return buffer

    # ---- information ------------------------------------------------------------------

    def describe(self, verbose=0):
        """The C plan as a tree of its steps (chosen methods, tuning time).

        verbose=0 gives one line. verbose=1 nests it as FFTW prints its
        plans, one node per indented line: each exchange shows its method's
        inner phases (hierarchical's gather, between-node exchange and
        scatter; shm's window; ...) with the message counts and bytes of
        this rank, a c2r that keeps its input shows the copy of it it makes
        (a pass destroy_input saves), and every backward step is listed. verbose=2 adds FFTW's
        own plan under each serial transform. Local.
        """
        self._require_live()
        verbosity = int(verbose)
        if verbosity < 0:
            raise ValueError(f"distfft: describe(verbose={verbose!r}) must be 0, 1 or 2")
        size = _lib.lib.distfft_plan_describe_verbose(self._handle, verbosity, None, 0)
        buffer = ctypes.create_string_buffer(size + 1)
        _lib.lib.distfft_plan_describe_verbose(self._handle, verbosity, buffer, size + 1)
        return buffer.value.decode()

    @property
    def methods(self):
        """Method of each forward exchange, as chosen (for method="auto")."""
        return tuple(step["method"] for step in self.steps("forward")
                     if step["is_redistribution"])

    @property
    def work_bytes(self):
        self._require_live()
        return int(_lib.lib.distfft_plan_work_bytes(self._handle))

    def timings(self):
        """This rank's time inside the C transforms since creation or
        reset_timings(): {'fft_seconds', 'redistribute_seconds', 'executions'}."""
        self._require_live()
        timings, rc = _lib.filled(_lib.Timings,
                                  lambda t: _lib.lib.distfft_plan_timings(self._handle, t))
        _lib.check(rc)
        return {name: getattr(timings, name) for name in _lib.TIMINGS_FIELDS}

    def steps(self, direction="forward"):
        """This rank's statistics per step of the forward or backward
        transform (distfft_plan_step): a list of dicts with description,
        is_redistribution, grid_direction, axis_in, axis_out (an exchange's
        grid direction and alignments, else -1), group_size, method (an
        exchange's method name, else None), bytes_sent, global_bytes,
        seconds, executions."""
        self._require_live()
        code = {"forward": _lib.FORWARD, "backward": _lib.BACKWARD}[direction]
        result = []
        for index in range(_lib.lib.distfft_plan_step_count(self._handle, code)):
            step, rc = _lib.filled(_lib.Step, lambda s: _lib.lib.distfft_plan_step(
                self._handle, code, index, s))
            _lib.check(rc)
            entry = {name: getattr(step, name) for name in _lib.STEP_FIELDS}
            entry["description"] = step.description.decode()
            entry["method"] = _lib.name_of("method", step.method) \
                if step.is_redistribution else None
            result.append(entry)
        return result

    def reset_timings(self):
        self._require_live()
        _lib.check(_lib.lib.distfft_plan_reset_timings(self._handle))

    def wavenumbers(self, box=None):
        """Per axis, the wavenumbers of this rank's output block as an array
        broadcastable against one field of output_array(): integers
        (numpy.fft.fftfreq(n, 1/n), rfftfreq for r2c), times 2*pi/L when
        `box` gives the box lengths L. Only for c2c, r2c and none axes
        (none gives zeros)."""
        ndim = len(self._shape)
        lengths = [None] * ndim if box is None else [float(x) for x in box]
        if len(lengths) != ndim:
            raise ValueError(f"distfft: box needs {ndim} lengths")
        lead = 0 if self.batch is None else 1
        result = []
        for axis, kind in enumerate(self.kinds):
            n = self._shape[axis]
            if kind == "c2c":
                k = numpy.fft.fftfreq(n, 1.0 / n)
            elif kind == "r2c":
                k = numpy.fft.rfftfreq(n, 1.0 / n)
            elif kind == "none":
                k = numpy.zeros(n)
            else:
                raise ValueError(f"distfft: axis {axis} is {kind}, which has no Fourier "
                                 "wavenumbers")
            if lengths[axis] is not None:
                k = k * (2 * numpy.pi / lengths[axis])
            k = k[self.output_slice[lead + axis]]
            shape = [1] * ndim
            shape[axis] = k.size
            result.append(k.reshape(shape))
        return result

    def __repr__(self):
        state = self.describe() if self._handle is not None else "destroyed"
        return f"<distfft.Plan {state}>"

    def _require_live(self):
        if self._handle is None:
            raise ValueError("distfft: the plan has been destroyed")
