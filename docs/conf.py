# Sphinx configuration of the distfft manual (docs/). Built by scripts/test
# with warnings as errors:
#   .venv/bin/python -m sphinx -W --keep-going -b html docs docs/_build/html
# Everything comes from Debian 12's packages (python3-sphinx 5.3,
# python3-myst-parser 0.18): the user guide is Markdown (MyST), the C
# reference is generated from include/distfft.h by docs/_ext/cheader.py,
# the Python reference is autodoc on the installed package (.venv).
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "_ext"))

project = "distfft"
author = "the distfft authors"
copyright = "the distfft authors"

def _header_version():
    import re
    with open(os.path.join(HERE, "..", "include", "distfft.h"), encoding="utf-8") as f:
        return re.search(r'#define DISTFFT_VERSION "([^"]+)"', f.read()).group(1)


release = version = _header_version()

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "cheader",        # C API reference from include/distfft.h
    "plaindoc",       # docstrings are plain text, shown as written
    "freference",     # Fortran reference from src/fortran/distfft.f90
    "repolinks",      # repository paths in the manual and README must exist
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
templates_path = []

# Unresolved cross-references are errors (-W): every :c:func: etc. must name
# a declaration of the header. Standard C and MPI types are not ours.
nitpicky = True
nitpick_ignore = [("c:identifier", name) for name in (
    "int64_t", "size_t", "MPI_Comm", "MPI_Datatype", "FILE", "uint64_t", "int32_t")]
# The structs behind the opaque handles (typedef struct distfft_plan_s
# *distfft_plan) are incomplete on purpose: nothing to document.
nitpick_ignore_regex = [("c:identifier", r"distfft_\w+_s")]

repolinks_exclude = ["changelog", "changelog-early"]   # names the paths of before a move, on purpose
smartquotes = False   # the header's and docstrings' quotes are code-like

myst_heading_anchors = 3
myst_enable_extensions = ["dollarmath"]

autodoc_member_order = "bysource"

html_theme = "alabaster"
html_title = "distfft manual"
html_theme_options = {"description": "Parallel multidimensional FFTs over MPI",
                      "fixed_sidebar": False}
html_static_path = []
