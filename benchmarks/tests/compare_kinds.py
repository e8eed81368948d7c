"""compare_kinds.py -- check distfft-bench --save of any kinds against SciPy.

Usage: python3 compare_kinds.py OUTPUT_FILE

OUTPUT_FILE is the stdout of a successful `distfft-bench --json --save
PREFIX` run; its JSON line gives the prefix, shape, --kind and --axes as
given, the kinds per axis, batch, precision and norm. Checks, independently
of the C code (library and bench):
  1. the kinds per axis are what --kind and --axes mean (one kind: on every
     transformed axis, but 'r2c' is r2c on the last transformed axis and c2c
     on the others; a list: one per axis; axes outside --axes: none);
  2. the element types and shapes follow the documentation: the input is
     real ('<f8' / '<f4') when an axis is r2c or no axis is c2c, the output
     complex when an axis is c2c or r2c; the r2c axis has n//2+1 outputs; a
     batch > 1 is a leading axis; the files are well-formed .npy 1.0;
  3. the input is the documented function of the global index (the real
     part of the complex input for a real one; a batch continues the index);
  4. the output equals the forward transform recomputed here: numpy.fft.rfft
     on the r2c axis first, then numpy.fft.fft for c2c, scipy.fft.dct / dst
     (type=t, norm=None) for dct<t> / dst<t>, and scipy.fft.dct(type=1)
     / ((n-1) c_k), c_0 = c_{n-1} = 2 else 1, for cheb; times the
     normalisation (backward 1, ortho 1/sqrt(N), forward 1/N, N the product
     of the logical lengths n, 2(n-1) dct1, 2(n+1) dst1, 2n other dct/dst,
     1 cheb/none) -- within 8 * eps * log2(N), N the number of elements of
     one field, relative to max|reference|, computed in double precision.
Exit status 0 if all hold, 1 with a message otherwise.
"""
import math
import os
import sys

import numpy

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_npy import (check_file_format, expected_input, fail,  # noqa: E402
                         read_report)

try:
    import scipy.fft
except ImportError:
    fail("SciPy is missing from %s: install python3-scipy (scripts/common.sh "
         "does)" % sys.executable)

REAL_TO_REAL = {"dct1", "dct2", "dct3", "dct4", "dst1", "dst2", "dst3",
                "dst4", "cheb"}
KINDS = {"c2c", "r2c", "none"} | REAL_TO_REAL


def expected_kinds(kind_text, axes_text, ndims):
    """The kinds per axis that --kind and --axes mean."""
    given = kind_text.split(",")
    if not set(given) <= KINDS:
        fail("--kind %r has an unknown kind" % kind_text)
    if axes_text is None:
        transformed = list(range(ndims))
    else:
        transformed = sorted(int(axis) for axis in axes_text.split(","))
    if len(given) == ndims:
        return given
    if len(given) != 1:
        fail("--kind %r has %d kinds for %d axes" % (kind_text, len(given), ndims))
    kinds = ["none"] * ndims
    for axis in transformed:
        kinds[axis] = given[0]
        if given[0] == "r2c" and axis != transformed[-1]:
            kinds[axis] = "c2c"
    return kinds


def logical_length(kind, n):
    if kind in ("c2c", "r2c"):
        return n
    if kind == "dct1":
        return 2 * (n - 1)
    if kind == "dst1":
        return 2 * (n + 1)
    if kind in ("cheb", "none"):
        return 1
    return 2 * n


def forward(field, kinds):
    """The unnormalised forward transform of one field, in double."""
    data = field.astype(numpy.complex128 if numpy.iscomplexobj(field)
                        else numpy.float64)
    if "r2c" in kinds:
        data = numpy.fft.rfft(data, axis=kinds.index("r2c"))
    for axis, kind in enumerate(kinds):
        if kind == "c2c":
            data = numpy.fft.fft(data, axis=axis)
        elif kind.startswith("dct"):
            data = scipy.fft.dct(data, type=int(kind[3]), axis=axis, norm=None)
        elif kind.startswith("dst"):
            data = scipy.fft.dst(data, type=int(kind[3]), axis=axis, norm=None)
        elif kind == "cheb":
            n = data.shape[axis]
            weights = numpy.full(n, 1.0 / (n - 1))
            weights[0] = weights[-1] = 1.0 / (2 * (n - 1))
            shape = [1] * data.ndim
            shape[axis] = n
            data = scipy.fft.dct(data, type=1, axis=axis, norm=None) * \
                weights.reshape(shape)
    return data


def main():
    if len(sys.argv) != 2:
        fail("usage: compare_kinds.py OUTPUT_FILE")
    report = read_report(sys.argv[1])
    prefix, shape, batch = report["save"], report["shape"], report["batch"]
    precision, norm = report["precision"], report["norm"]

    kinds = expected_kinds(report["kind"], report["axes"], len(shape))
    if report["kinds"] != kinds:
        fail("kinds %r, but --kind %r --axes %r mean %r"
             % (report["kinds"], report["kind"], report["axes"], kinds))

    real_input = "r2c" in kinds or "c2c" not in kinds
    complex_output = "r2c" in kinds or "c2c" in kinds
    size = {"double": 8, "float": 4}[precision]
    input_descr = "<f%d" % size if real_input else "<c%d" % (2 * size)
    output_descr = "<c%d" % (2 * size) if complex_output else "<f%d" % size
    output_shape = [n // 2 + 1 if kind == "r2c" else n
                    for n, kind in zip(shape, kinds)]
    leading = [batch] if batch > 1 else []
    input_path, output_path = prefix + ".input.npy", prefix + ".output.npy"
    check_file_format(input_path, input_descr, leading + shape)
    check_file_format(output_path, output_descr, leading + output_shape)
    data_in = numpy.load(input_path, allow_pickle=False)
    data_out = numpy.load(output_path, allow_pickle=False)

    expected = expected_input(leading + shape, numpy.dtype(
        "<c%d" % (2 * size)))
    if real_input:
        expected = expected.real
    if not numpy.array_equal(data_in, expected):
        fail("the input is not the documented function of the global index")

    logical = math.prod(logical_length(k, n) for k, n in zip(kinds, shape))
    scale = {"backward": 1.0, "ortho": 1.0 / math.sqrt(logical),
             "forward": 1.0 / logical}[norm]
    fields_in = data_in.reshape([batch] + shape)
    fields_out = data_out.reshape([batch] + output_shape)
    reference = numpy.stack([forward(field, kinds) * scale
                             for field in fields_in])
    error = (numpy.max(numpy.abs(fields_out.astype(reference.dtype) - reference))
             / numpy.max(numpy.abs(reference)))
    epsilon = numpy.finfo(numpy.float32 if precision == "float"
                          else numpy.float64).eps
    tolerance = 8 * epsilon * math.log2(max(math.prod(shape), 2))
    verdict = "ok" if error <= tolerance else "FAILED"
    print("compare_kinds.py: %s: max|ours - scipy| / max|scipy| = %.3e, "
          "tolerance %.3e (%s, kinds %s, batch %d, %s, norm=%s)"
          % (verdict, error, tolerance, "x".join(map(str, shape)),
             ",".join(kinds), batch, precision, norm))
    if not error <= tolerance:
        sys.exit(1)


if __name__ == "__main__":
    main()
