"""compare_npy.py -- check distfft-bench --save against NumPy.

Usage: python3 compare_npy.py OUTPUT_FILE

OUTPUT_FILE is the stdout of a successful `distfft-bench --json --save
PREFIX` run; its JSON line gives the prefix, shape, precision and norm.
Checks, independently of the C code:
  1. PREFIX.input.npy and PREFIX.output.npy are .npy version 1.0 files with
     dtype '<c16' (double) or '<c8' (float), C order, the given shape, a
     header ending in '\\n' and data starting at a multiple of 64 bytes;
  2. the input is the documented deterministic function of the global index
     (splitmix64 of 2*i and 2*i+1 mapped to [-1, 1));
  3. the output equals numpy.fft.fftn(input, norm=norm), computed in double,
     within 8 * eps * log2(N), relative to max|reference|.
Exit status 0 if all hold, 1 with a message otherwise.
"""
import ast
import json
import math
import sys

import numpy


def fail(message):
    print("compare_npy.py: " + message, file=sys.stderr)
    sys.exit(1)


def check_file_format(path, descr, shape):
    with open(path, "rb") as stream:
        raw = stream.read()
    if raw[:6] != b"\x93NUMPY":
        fail("%s: bad magic" % path)
    if raw[6:8] != b"\x01\x00":
        fail("%s: version %d.%d, expected 1.0" % (path, raw[6], raw[7]))
    header_length = int.from_bytes(raw[8:10], "little")
    data_offset = 10 + header_length
    if data_offset % 64 != 0:
        fail("%s: data starts at %d, not a multiple of 64" % (path, data_offset))
    header = raw[10:data_offset].decode("latin1")
    if not header.endswith("\n"):
        fail("%s: header does not end with a newline" % path)
    fields = ast.literal_eval(header)
    expected = {"descr": descr, "fortran_order": False, "shape": tuple(shape)}
    if fields != expected:
        fail("%s: header %r, expected %r" % (path, fields, expected))
    item_size = numpy.dtype(descr).itemsize
    if len(raw) != data_offset + math.prod(shape) * item_size:
        fail("%s: %d bytes, expected %d" % (
            path, len(raw), data_offset + math.prod(shape) * item_size))


def read_report(path):
    """The one JSON line of a `distfft-bench --json --save PREFIX` run."""
    with open(path, encoding="utf-8") as stream:
        lines = [line for line in stream.read().splitlines() if line.strip()]
    if len(lines) != 1:
        fail("expected one JSON line (run with --json), got %d lines" % len(lines))
    report = json.loads(lines[0])
    if not report["save"]:
        fail("the run did not use --save")
    return report


def mix64(values):
    """splitmix64's finaliser on a uint64 array (wrapping arithmetic)."""
    values = values + numpy.uint64(0x9E3779B97F4A7C15)
    values = (values ^ (values >> numpy.uint64(30))) * numpy.uint64(0xBF58476D1CE4E5B9)
    values = (values ^ (values >> numpy.uint64(27))) * numpy.uint64(0x94D049BB133111EB)
    return values ^ (values >> numpy.uint64(31))


def expected_input(shape, dtype):
    index = numpy.arange(math.prod(shape), dtype=numpy.uint64)

    def signed_unit(bits):
        return (bits >> numpy.uint64(11)).astype(numpy.float64) * 2.0**-52 - 1.0

    real = signed_unit(mix64(numpy.uint64(2) * index))
    imaginary = signed_unit(mix64(numpy.uint64(2) * index + numpy.uint64(1)))
    return (real + 1j * imaginary).astype(dtype).reshape(shape)


def main():
    if len(sys.argv) != 2:
        fail("usage: compare_npy.py OUTPUT_FILE")
    report = read_report(sys.argv[1])
    prefix, shape = report["save"], report["shape"]
    precision, norm = report["precision"], report["norm"]
    if set(report.get("kinds", ["c2c"])) != {"c2c"} or report.get("batch", 1) != 1:
        fail("this checker handles one c2c field; use compare_kinds.py")

    descr = {"double": "<c16", "float": "<c8"}[precision]
    dtype = numpy.dtype(descr)
    input_path, output_path = prefix + ".input.npy", prefix + ".output.npy"
    check_file_format(input_path, descr, shape)
    check_file_format(output_path, descr, shape)
    data_in = numpy.load(input_path, allow_pickle=False)
    data_out = numpy.load(output_path, allow_pickle=False)

    if not numpy.array_equal(data_in, expected_input(shape, dtype)):
        fail("the input is not the documented function of the global index")

    reference = numpy.fft.fftn(data_in.astype(numpy.complex128), norm=norm)
    error = (numpy.max(numpy.abs(data_out.astype(numpy.complex128) - reference))
             / numpy.max(numpy.abs(reference)))
    epsilon = numpy.finfo(numpy.float32 if precision == "float" else numpy.float64).eps
    tolerance = 8 * epsilon * math.log2(max(math.prod(shape), 2))
    verdict = "ok" if error <= tolerance else "FAILED"
    print("compare_npy.py: %s: max|ours - numpy| / max|numpy| = %.3e, "
          "tolerance %.3e (%s, %s, norm=%s)"
          % (verdict, error, tolerance, "x".join(map(str, shape)), precision, norm))
    if not error <= tolerance:
        sys.exit(1)


if __name__ == "__main__":
    main()
