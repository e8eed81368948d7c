"""
test_enum_tables.py -- every public enum constant of include/distfft.h
against its table (issue 22, item 6): the library names each value and
reads the name back to it, the Python package knows every name, and the
Fortran module's constants have the header's values. Parsed from the
sources, so a constant added to the header without its table row fails.
"""
import ctypes
import os
import re

import pytest

from distfft import _lib

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
HEADER = os.path.join(ROOT, "include", "distfft.h")
MODULE = os.path.join(ROOT, "src", "fortran", "distfft.f90")

# typedef name -> the vocabulary's name (distfft_<name>_name / _from_name)
VOCABULARY = {"distfft_type": "type", "distfft_precision": "precision", "distfft_kind": "kind",
              "distfft_norm": "norm", "distfft_rigor": "rigor", "distfft_placement": "placement",
              "distfft_method": "method", "distfft_overlap": "overlap",
              "distfft_halo_variant": "halo_variant"}


def read(path):
    if not os.path.exists(path):
        pytest.skip(f"no {path} next to the tests (an installed package)")
    with open(path) as f:
        return f.read()


def enums(text):
    """{typedef name (or None for anonymous enums): {constant: value}}."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    found = []
    for body, name in re.findall(r"enum\s*\{(.*?)\}\s*(\w*)\s*;", text, flags=re.S):
        values, next_value = {}, 0
        for entry in body.split(","):
            entry = entry.strip()
            if not entry:
                continue
            constant, _, value = entry.partition("=")
            next_value = int(value.strip().lstrip("+")) if value.strip() else next_value
            values[constant.strip()] = next_value
            next_value += 1
        found.append((name or None, values))
    return found


def fortran_constants(text):
    text = re.sub(r"&\s*\n\s*", " ", text)
    constants = {}
    for line in re.findall(r"integer, parameter, public ::(.*)", text):
        for name, value in re.findall(r"(DISTFFT_\w+)\s*=\s*(-?\d+)", line):
            constants[name] = int(value)
    return constants


def test_every_constant_is_in_its_table():
    for name, values in enums(read(HEADER)):
        if name not in VOCABULARY:
            continue
        enum = VOCABULARY[name]
        name_of = getattr(_lib.lib, f"distfft_{enum}_name")
        from_name = getattr(_lib.lib, f"distfft_{enum}_from_name")
        for constant, value in values.items():
            word = name_of(value)
            assert word is not None, f"{constant} = {value} has no name in {enum}'s table"
            back = ctypes.c_int()
            assert from_name(word, ctypes.byref(back)) == 0 and back.value == value, constant
            if enum in _lib._WHAT:
                assert word.decode() in _lib.names_of(enum), f"the package does not know {constant}"


def test_fortran_constants_are_the_headers():
    header = {}
    for _, values in enums(read(HEADER)):
        header.update(values)
    for match in re.finditer(r"#define (DISTFFT_\w+) (\d+)", read(HEADER)):
        header[match.group(1)] = int(match.group(2))
    fortran = fortran_constants(read(MODULE))
    assert fortran, "no constants found in the Fortran module"
    for constant, value in fortran.items():
        assert constant in header, f"the Fortran module's {constant} is not in the header"
        assert header[constant] == value, f"{constant}: Fortran {value}, C {header[constant]}"
