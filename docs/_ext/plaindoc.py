"""
plaindoc -- the Python package's docstrings, shown as their authors wrote them.

distfft's docstrings are plain text written for help(): aligned parameter
tables, indented examples, `names` in backquotes. Read as
reStructuredText they would be garbled (and warn, which fails -W). This
hook gives autodoc the same plain-text reading the C reference uses
(cheader.plain_to_rst): paragraphs are escaped text, blocks with indented
lines stay as written (literal blocks), `spans` are inline literals, and
the C API's names link to the C reference.
"""
import os

import cheader

_names = {}


def _process(app, what, name, obj, options, lines):
    if not _names:
        header = os.path.join(app.confdir, app.config.cheader_header)
        with open(header, encoding="utf-8") as f:
            _names.update(cheader.known_names(cheader.parse(f.read())))
    lines[:] = cheader.plain_to_rst(list(lines), _names)


def setup(app):
    app.setup_extension("cheader")
    app.connect("autodoc-process-docstring", _process)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
