"""
repolinks -- the manual and the README may name only files that exist.

The manual names repository files all the time (`src/plan/algebra.c`,
`tests/mpi/test_errors.c`, `python/examples/poisson.py`); when a file moves,
the manual must move with it. At every docs build this extension:
  - checks every inline literal of the manual that looks like a repository
    path (starts with one of the repository's top-level folders) and every
    Markdown link target to a repository file;
  - checks every relative link of README.md (files, and #anchors of the
    manual's Markdown pages it links to).
Each miss is a warning, fatal under sphinx-build -W. Placeholders (NAME,
NNN, *, <...>, ...) and build outputs are not checked.
"""
import os
import re

from docutils import nodes
from sphinx.util import logging

log = logging.getLogger(__name__)
TOP = ("src/", "include/", "tests/", "python/", "examples/", "benchmarks/",
       "scripts/", "docs/", "cmake/", ".ci/")
BUILT = ("docs/_build",)   # build outputs: not in the repository
PLACEHOLDER = re.compile(r"NAME|NNN|[*<>{}…]|\.\.\.|X\b")


def _root(app):
    return os.path.normpath(os.path.join(app.confdir, ".."))


def _path_part(text):
    """The file part of a literal like 'tests/mpi/test_errors.c (1-4 ranks)'."""
    word = text.strip().split()[0] if text.strip() else ""
    return word.rstrip(",;:)").split("#")[0]


def _check_literal(app, docname, node):
    text = node.astext()
    if not text.startswith(TOP) or PLACEHOLDER.search(text) or text.startswith(BUILT):
        return
    path = _path_part(text)
    if ":" in path or "=" in path:
        return
    if not os.path.exists(os.path.join(_root(app), path)):
        log.warning(f"names {path!r}, which is not in the repository",
                    location=(docname, node.line))


def _doctree_read(app, doctree):
    docname = app.env.docname
    if docname in app.config.repolinks_exclude:
        return
    for node in doctree.traverse(nodes.literal):
        _check_literal(app, docname, node)


def slug(title):
    """GitHub's (and MyST's) anchor of a Markdown heading."""
    s = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return s.replace(" ", "-")


def markdown_anchors(path):
    anchors = set()
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
            elif not in_code and line.startswith("#"):
                anchors.add(slug(line.lstrip("#")))
    return anchors


def check_markdown_links(root, md_path):
    """Messages for the relative links of a Markdown file that do not resolve."""
    problems = []
    text = open(md_path, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    base = os.path.dirname(md_path)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue                         # http:, https:, mailto:
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(base, path)) if path else md_path
        if not os.path.exists(full):
            problems.append(f"link to {target!r}: no such file")
        elif anchor and full.endswith(".md") and anchor not in markdown_anchors(full):
            problems.append(f"link to {target!r}: no heading with that anchor")
    return problems


def _check_readme(app):
    root = _root(app)
    readme = os.path.join(root, "README.md")
    for problem in check_markdown_links(root, readme):
        log.warning(f"README.md: {problem}")


def setup(app):
    app.add_config_value("repolinks_exclude", [], "env")   # e.g. a changelog's old paths
    app.connect("doctree-read", _doctree_read)
    app.connect("builder-inited", _check_readme)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
