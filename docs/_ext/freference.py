"""
freference -- the Fortran module's reference, generated from its source.

Reads src/fortran/distfft.f90 (with the files it includes) at every docs
build and writes reference/fortran.rst: the module's opening comment, its
public derived types and constants with their comments, and every public
procedure -- for a generic name, each specific procedure -- with its
comment and the declarations of its dummy arguments, in the source's
order. A public type or procedure that no comment documents (its own, its
generic interface's, or one of its specific procedures') is a warning,
fatal under sphinx-build -W; `python3 docs/_ext/freference.py --check
src/fortran/distfft.f90` checks without Sphinx.
"""
import os
import re
import sys

import cheader


def _inline_includes(path):
    """The module's lines with `include 'file'` replaced by the file."""
    out = []
    base = os.path.dirname(path)
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*include\s+['\"]([^'\"]+)['\"]", line)
            if m:
                out.extend(_inline_includes(os.path.join(base, m.group(1))))
            else:
                out.append(line.rstrip("\n"))
    return out


def _comment_above(lines, k):
    """The '!' comment lines directly above line k (no blank line between)."""
    block = []
    j = k - 1
    while j >= 0 and lines[j].strip().startswith("!"):
        block.insert(0, re.sub(r"^\s*! ?", "", lines[j]))
        j -= 1
    # a section rule ("! --- plans ---") is not documentation
    return [l for l in block if not re.match(r"-{3}", l.strip())]


def _statement(lines, k):
    """Line k joined with its '&' continuation lines."""
    text = lines[k].split("!")[0].rstrip()
    while text.endswith("&"):
        k += 1
        text = text[:-1].rstrip() + " " + lines[k].split("!")[0].strip().lstrip("&").strip()
    return text.strip(), k


class Procedure:
    def __init__(self, name, header, doc, declarations):
        self.name, self.header, self.doc, self.declarations = name, header, doc, declarations


def parse(path):
    lines = _inline_includes(path)
    intro = []
    for line in lines:
        if not line.startswith("!"):
            break
        intro.append(re.sub(r"^! ?", "", line))
    public, types, constants, generics, procedures = [], [], [], {}, {}
    k = 0
    while k < len(lines):
        line = lines[k]
        stmt, end = _statement(lines, k)
        low = stmt.lower()
        m = re.match(r"public\s*::\s*(.*)", low)
        if m:
            public += [n.strip() for n in m.group(1).split(",")]
        m = re.match(r"type\s*,.*public\s*::\s*(\w+)", low)
        if m:
            j = k
            while not re.match(r"\s*end\s+type", lines[j], re.I):
                j += 1
            types.append((m.group(1), _comment_above(lines, k), lines[k:j + 1]))
            public.append(m.group(1))
        if re.match(r"integer\s*,\s*parameter\s*,\s*public\s*::", low):
            constants.append((_comment_above(lines, k), lines[k:end + 1]))
        m = re.match(r"interface\s+(\w+)$", low)
        if m:
            names, j = [], k + 1
            while not re.match(r"\s*end\s+interface", lines[j], re.I):
                s, j2 = _statement(lines, j)
                mm = re.match(r"module\s+procedure\s+(.*)", s, re.I)
                if mm:
                    names += [n.strip().lower() for n in mm.group(1).split(",")]
                j = j2 + 1
            generics[m.group(1)] = (_comment_above(lines, k), names)
        m = re.match(r"(?:recursive\s+)?(subroutine|function)\s+(\w+)\s*\(([^)]*)\)", low)
        if m and not re.match(r"\s*end\b", line, re.I):
            args = [a.strip() for a in m.group(3).split(",") if a.strip()]
            result = re.search(r"result\s*\((\w+)\)", low)
            if result:
                args.append(result.group(1))
            decls, j = [], end + 1
            while j < len(lines) and not re.match(r"\s*end\s+(subroutine|function)", lines[j], re.I):
                s, j2 = _statement(lines, j)
                if "::" in s:
                    declared = re.findall(r"(\w+)\s*(?:\([^)]*\))?\s*(?:=[^,]*)?(?:,|$)",
                                          s.split("::", 1)[1])
                    if any(d.lower() in args for d in declared):
                        decls.append(s)
                j = j2 + 1
            procedures[m.group(2)] = Procedure(m.group(2), stmt, _comment_above(lines, k), decls)
        k = end + 1
    return intro, public, types, constants, generics, procedures


def entries(parsed):
    """(name, doc lines, [Procedure]) of each public procedure, in order."""
    intro, public, types, constants, generics, procedures = parsed
    out = []
    for name in public:
        if name in generics:
            doc, specifics = generics[name]
            procs = [procedures[s] for s in specifics if s in procedures]
            doc = doc or next((p.doc for p in procs if p.doc), [])
            out.append((name, doc, procs))
        elif name in procedures:
            out.append((name, procedures[name].doc, [procedures[name]]))
    return out


def undocumented(parsed):
    missing = [f"type {n}" for n, doc, _ in parsed[2] if not doc]
    public_procs = set(parsed[3 + 1]) | set(parsed[5])
    for name in parsed[1]:
        if name not in public_procs and name not in [t[0] for t in parsed[2]]:
            missing.append(f"{name} (public, but no procedure or interface found)")
    missing += [name for name, doc, _ in entries(parsed) if not doc]
    return missing


def _code(lines, indent=0):
    pad = " " * indent
    body = [l for l in lines]
    width = min((len(l) - len(l.lstrip()) for l in body if l.strip()), default=0)
    return [pad + ".. code-block:: fortran", ""] + \
           [pad + "   " + l[width:] if l.strip() else "" for l in body] + [""]


def to_rst(parsed, source, title):
    intro, public, types, constants, generics, procedures = parsed
    out = [".. Generated from " + source + " by docs/_ext/freference.py at every",
           "   docs build; edit the module's comments, not this file.", "",
           title, "=" * len(title), ""]
    out += cheader.plain_to_rst(intro, {})
    out += ["Derived types", "-------------", ""]
    for name, doc, lines in types:
        out += [f".. _fortran-{name}:", "", name, "~" * len(name), ""]
        out += cheader.plain_to_rst(doc, {}) + _code(lines)
    out += ["Constants", "---------", "",
            "The values of the C library's enums (see :doc:`c`), as integer parameters.", ""]
    for doc, lines in constants:
        out += cheader.plain_to_rst(doc, {}) + _code(lines)
    out += ["Procedures", "----------", ""]
    for name, doc, procs in entries(parsed):
        out += [f".. _fortran-{name}:", "", name, "~" * len(name), ""]
        out += cheader.plain_to_rst(doc, {})
        if len(procs) > 1:
            out += [f"Generic name; the specific procedures:", ""]
        code = []
        for p in procs:
            code += [p.header] + ["  " + d for d in p.declarations] + [""]
        out += _code(code[:-1])
    return "\n".join(out).rstrip() + "\n"


def _generate(app):
    from sphinx.util import logging
    log = logging.getLogger(__name__)
    source = os.path.join(app.confdir, app.config.freference_source)
    parsed = parse(source)
    for missing in undocumented(parsed):
        log.warning(f"{app.config.freference_source}: {missing} has no comment")
    text = to_rst(parsed, app.config.freference_source, "Fortran module reference")
    target = os.path.join(app.srcdir, app.config.freference_output)
    old = open(target, encoding="utf-8").read() if os.path.exists(target) else None
    if old != text:
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)


def setup(app):
    app.add_config_value("freference_source", "../src/fortran/distfft.f90", "env")
    app.add_config_value("freference_output", "reference/fortran.rst", "env")
    app.connect("builder-inited", _generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def main(argv):
    if len(argv) != 3 or argv[1] not in ("--check", "--rst"):
        print("usage: freference.py --check|--rst src/fortran/distfft.f90", file=sys.stderr)
        return 2
    parsed = parse(argv[2])
    if argv[1] == "--rst":
        print(to_rst(parsed, argv[2], "Fortran module reference"), end="")
        return 0
    missing = undocumented(parsed)
    for m in missing:
        print(f"{argv[2]}: {m} has no comment", file=sys.stderr)
    print(f"{argv[2]}: {len(entries(parsed))} public procedures, {len(parsed[2])} types, "
          f"{len(missing)} without a comment")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main(sys.argv))
