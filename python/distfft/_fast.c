/*
 * _fast.c -- the package's hot calls, compiled: a plan's transform, a
 * redistribution's exchange (the mpi4py-fft layer's Transfer) and a serial
 * plan's FFT, each on numpy arrays, with the checks of those arrays done
 * here in C.
 *
 * Through ctypes one transform of a small array costs a few microseconds
 * in Python around the C call (array.ctypes.data alone is ~1 us); here it
 * costs one call of a CPython function (METH_FASTCALL) that reads numpy's
 * array fields directly. Each function takes a `spec`, a tuple the Python
 * object builds once at creation (its handle as an integer, and what its
 * arrays must be: dtypes, shapes, or the planned arrays), and the arrays.
 * It returns None when an array is not exactly what the C call needs --
 * another type, dtype, shape or strides, not C-contiguous, misaligned,
 * read-only output -- or when the spec is None (the object was
 * destroyed): the caller then takes its Python path, which copies where
 * the package documents a copy and raises its clear exceptions
 * otherwise. Otherwise it makes the C call with the GIL released (as
 * ctypes does) and returns the call's error code.
 *
 * The library's functions are not linked: bind() takes them from the
 * library ctypes loaded (its dlopen handle), so the package always calls
 * one libdistfft, DISTFFT_LIBRARY's where that is set. Each is held in a
 * pointer of the header's own type (__typeof__ of its declaration), so
 * every call below is checked by the compiler against include/distfft.h.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <dlfcn.h>
#include <stdint.h>

#include "distfft.h"

/* What distfft_plan_execute and FFTW's SIMD plans need (python/distfft/_arrays.py). */
#define REQUIRED_ALIGNMENT 16

static __typeof__(distfft_plan_execute) *plan_execute;
static __typeof__(distfft_redist_execute) *redist_execute;
static __typeof__(distfft_serial_plan_execute) *serial_plan_execute;

/* The handle in spec[0] (an integer: the ctypes handle's value). */
static void *handle_of(PyObject *spec)
{
    void *handle = PyLong_AsVoidPtr(PyTuple_GET_ITEM(spec, 0));
    if (!handle) PyErr_Clear();
    return handle;
}

/* 1 when shape (a tuple of ints) is the array's shape, else 0. */
static int same_shape(PyArrayObject *array, PyObject *shape)
{
    int ndim = PyArray_NDIM(array);
    if (!PyTuple_Check(shape) || PyTuple_GET_SIZE(shape) != ndim) return 0;
    npy_intp *dims = PyArray_DIMS(array);
    for (int axis = 0; axis < ndim; axis++) {
        Py_ssize_t extent = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, axis));
        if (extent == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        if (extent != dims[axis]) return 0;
    }
    return 1;
}

static int same_dtype(PyArrayObject *array, PyObject *dtype)
{
    PyArray_Descr *descr = PyArray_DESCR(array);
    return (PyObject *)descr == dtype ||
           (PyArray_DescrCheck(dtype) && PyArray_EquivTypes(descr, (PyArray_Descr *)dtype));
}

/* The array's data for C (NULL for an empty block), or 0 when `object` is
 * not exactly an array of `dtype` and `shape`, C-contiguous, aligned, and
 * writable if `writable`. */
static int exact_array(PyObject *object, PyObject *dtype, PyObject *shape, int writable,
                       void **data)
{
    if (!PyArray_Check(object)) return 0;
    PyArrayObject *array = (PyArrayObject *)object;
    if (!same_dtype(array, dtype) || !same_shape(array, shape) ||
        !PyArray_IS_C_CONTIGUOUS(array) || (writable && !PyArray_ISWRITEABLE(array)))
        return 0;
    *data = PyArray_SIZE(array) ? PyArray_DATA(array) : NULL;
    return (uintptr_t)*data % REQUIRED_ALIGNMENT == 0;
}

/* The call's argument count is right and bind() has run. */
static int arguments(const char *name, Py_ssize_t given, Py_ssize_t wanted)
{
    if (!serial_plan_execute) {
        PyErr_Format(PyExc_RuntimeError, "distfft._fast.%s: no library bound (import distfft "
                     "first: distfft._lib binds it)", name);
        return 0;
    }
    if (given == wanted) return 1;
    PyErr_Format(PyExc_TypeError, "distfft._fast.%s takes %zd arguments (%zd given)", name,
                 wanted, given);
    return 0;
}

static int spec_of(const char *name, PyObject *spec, Py_ssize_t size)
{
    if (PyTuple_Check(spec) && PyTuple_GET_SIZE(spec) == size) return 1;
    PyErr_Format(PyExc_TypeError, "distfft._fast.%s: the spec must be None or a tuple of %zd",
                 name, size);
    return 0;
}

/* plan_execute(spec, a, out): spec = (handle, direction, input dtype,
 * input shape, output dtype, output shape), those of this direction. */
static PyObject *fast_plan_execute(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (!arguments("plan_execute", nargs, 3)) return NULL;
    PyObject *spec = args[0];
    if (spec == Py_None) Py_RETURN_NONE;
    if (!spec_of("plan_execute", spec, 6)) return NULL;
    void *in, *out;
    if (!exact_array(args[1], PyTuple_GET_ITEM(spec, 2), PyTuple_GET_ITEM(spec, 3), 0, &in) ||
        !exact_array(args[2], PyTuple_GET_ITEM(spec, 4), PyTuple_GET_ITEM(spec, 5), 1, &out))
        Py_RETURN_NONE;
    int direction = PyLong_AsLong(PyTuple_GET_ITEM(spec, 1));
    if (direction == -1 && PyErr_Occurred()) return NULL;
    distfft_plan plan = handle_of(spec);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = plan_execute(plan, in, out, direction);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(rc);
}

/* redist_execute(spec, a, out): spec = (handle, dtype, input shape,
 * output shape). */
static PyObject *fast_redist_execute(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (!arguments("redist_execute", nargs, 3)) return NULL;
    PyObject *spec = args[0];
    if (spec == Py_None) Py_RETURN_NONE;
    if (!spec_of("redist_execute", spec, 4)) return NULL;
    PyObject *dtype = PyTuple_GET_ITEM(spec, 1);
    void *in, *out;
    if (!exact_array(args[1], dtype, PyTuple_GET_ITEM(spec, 2), 0, &in) ||
        !exact_array(args[2], dtype, PyTuple_GET_ITEM(spec, 3), 1, &out))
        Py_RETURN_NONE;
    distfft_redist redist = handle_of(spec);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = redist_execute(redist, in, out);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(rc);
}

/* 1 when `array` may replace the planned array in FFTW's new-array execute:
 * an array of the same dtype, shape and strides, aligned as the planned
 * one (`alignment` bytes), writable if `writable`. */
static int like_planned(PyObject *object, PyArrayObject *planned, Py_ssize_t alignment,
                        int writable)
{
    if (!PyArray_Check(object)) return 0;
    PyArrayObject *array = (PyArrayObject *)object;
    int ndim = PyArray_NDIM(array);
    if (ndim != PyArray_NDIM(planned) || (writable && !PyArray_ISWRITEABLE(array)) ||
        !same_dtype(array, (PyObject *)PyArray_DESCR(planned)))
        return 0;
    for (int axis = 0; axis < ndim; axis++)
        if (PyArray_DIM(array, axis) != PyArray_DIM(planned, axis) ||
            PyArray_STRIDE(array, axis) != PyArray_STRIDE(planned, axis))
            return 0;
    return alignment > 0 && (uintptr_t)PyArray_DATA(array) % (uintptr_t)alignment == 0;
}

/* serial_execute(spec, input or None, output or None): spec = (handle,
 * planned input, planned output, the alignment of each in bytes); None
 * means the planned array. */
static PyObject *fast_serial_execute(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (!arguments("serial_execute", nargs, 3)) return NULL;
    PyObject *spec = args[0];
    if (spec == Py_None) Py_RETURN_NONE;
    if (!spec_of("serial_execute", spec, 5)) return NULL;
    PyObject *planned_in = PyTuple_GET_ITEM(spec, 1), *planned_out = PyTuple_GET_ITEM(spec, 2);
    if (!PyArray_Check(planned_in) || !PyArray_Check(planned_out)) {
        PyErr_SetString(PyExc_TypeError, "distfft._fast.serial_execute: the planned arrays "
                        "must be numpy arrays");
        return NULL;
    }
    Py_ssize_t in_alignment = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 3));
    Py_ssize_t out_alignment = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 4));
    if (PyErr_Occurred()) return NULL;
    PyObject *in = args[1] == Py_None ? planned_in : args[1];
    PyObject *out = args[2] == Py_None ? planned_out : args[2];
    if ((in != planned_in &&
         !like_planned(in, (PyArrayObject *)planned_in, in_alignment, 0)) ||
        (out != planned_out &&
         !like_planned(out, (PyArrayObject *)planned_out, out_alignment, 1)))
        Py_RETURN_NONE;
    const struct distfft_serial_plan_s *plan = handle_of(spec);
    void *in_data = PyArray_DATA((PyArrayObject *)in);
    void *out_data = PyArray_DATA((PyArrayObject *)out);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = serial_plan_execute(plan, in_data, out_data);
    Py_END_ALLOW_THREADS
    return PyLong_FromLong(rc);
}

/* address(array): the data pointer of a numpy array as an integer, None
 * for an empty one (C gets NULL there); what array.ctypes.data gives, at a
 * fraction of its cost. */
static PyObject *fast_address(PyObject *self, PyObject *object)
{
    (void)self;
    if (!PyArray_Check(object))
        return PyErr_Format(PyExc_TypeError, "distfft: a numpy.ndarray is needed, not %s",
                            Py_TYPE(object)->tp_name);
    PyArrayObject *array = (PyArrayObject *)object;
    if (PyArray_SIZE(array) == 0) Py_RETURN_NONE;
    return PyLong_FromVoidPtr(PyArray_DATA(array));
}

/* bind(handle): take the functions from the library ctypes loaded (the
 * integer of ctypes.CDLL(...)._handle, dlopen's handle). */
static PyObject *fast_bind(PyObject *self, PyObject *library)
{
    (void)self;
    void *handle = PyLong_AsVoidPtr(library);
    if (!handle) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "distfft._fast.bind: a NULL library handle");
        return NULL;
    }
#define BIND(pointer, name)                                                             \
    do {                                                                                \
        pointer = (__typeof__(pointer))dlsym(handle, #name);                            \
        if (!pointer)                                                                   \
            return PyErr_Format(PyExc_ImportError, "distfft: the library has no %s",    \
                                #name);                                                 \
    } while (0)
    BIND(plan_execute, distfft_plan_execute);
    BIND(redist_execute, distfft_redist_execute);
    BIND(serial_plan_execute, distfft_serial_plan_execute);
#undef BIND
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"bind", fast_bind, METH_O, "bind(handle): use the library of this dlopen handle."},
    {"address", fast_address, METH_O,
     "address(array) -> its data pointer, None if it is empty."},
    {"plan_execute", (PyCFunction)(void (*)(void))fast_plan_execute, METH_FASTCALL,
     "plan_execute(spec, a, out) -> error code, or None if the arrays are not exact."},
    {"redist_execute", (PyCFunction)(void (*)(void))fast_redist_execute, METH_FASTCALL,
     "redist_execute(spec, a, out) -> error code, or None if the arrays are not exact."},
    {"serial_execute", (PyCFunction)(void (*)(void))fast_serial_execute, METH_FASTCALL,
     "serial_execute(spec, input, output) -> error code, or None if the arrays are not the "
     "plan's."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "distfft._fast",
    "The package's hot calls on numpy arrays, compiled against include/distfft.h.", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fast(void)
{
    import_array();
    return PyModule_Create(&module);
}
