"""
cheader -- the C API reference, generated from include/distfft.h's comments.

The header is the reference: every public declaration carries a comment
that says what it does, whether it is collective or local, and who owns
what. This module reads those comments and writes them out as Sphinx's C
domain (c:function, c:enum, c:struct, ...), so the manual's C reference is
rebuilt from the header on every docs build and cannot go stale.

How the header's comments attach (the header's own conventions):
  - a banner (a comment of dashes, a title comment, a comment of dashes)
    starts a section;
  - a comment directly followed (no blank line) by declarations documents
    all of them, up to the next blank line or comment;
  - a comment on the same line after a declaration documents it too;
  - a comment followed by a blank line is prose of its section;
  - inside an enum or struct, the same rules apply to enumerators and
    members.

A public declaration (function, typedef, enum, struct and each of its
fields, macro) that no comment documents is an error: the Sphinx extension reports a warning
(fatal under `sphinx-build -W`), and `python3 docs/_ext/cheader.py --check
include/distfft.h` exits 1 naming it. Needs only Python's standard library;
Sphinx is imported only by setup().
"""
import os
import re
import sys

IDENT = r"[A-Za-z_]\w*"


# --- reading the header ----------------------------------------------------

class Item:
    """A comment, a declaration or a preprocessor line, with its lines."""

    def __init__(self, kind, text, first, last):
        self.kind, self.text, self.first, self.last = kind, text, first, last
        self.trailing = []   # comments on a declaration's last line

    def __repr__(self):
        return f"Item({self.kind}, {self.text[:40]!r}, {self.first}-{self.last})"


def _items(text):
    """Split C source into comments, declarations (up to ';' outside braces)
    and preprocessor lines. C++-only regions (#ifdef __cplusplus) are skipped."""
    items, i, line, n = [], 0, 1, len(text)
    skipping = 0
    while i < n:
        if text[i] == "\n":
            line += 1
            i += 1
        elif text[i].isspace():
            i += 1
        elif text.startswith("/*", i):
            j = text.index("*/", i) + 2
            if not skipping:
                items.append(Item("comment", text[i:j], line, line + text.count("\n", i, j)))
            line += text.count("\n", i, j)
            i = j
        elif skipping and text[i] != "#" and not text.startswith("/*", i):
            j = text.find("\n", i)       # C++-only line: skipped whole
            i = n if j < 0 else j
        elif text[i] == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            directive = text[i:j].strip()
            if re.match(r"#\s*if(def)?\s+__cplusplus", directive):
                skipping += 1
            elif skipping and re.match(r"#\s*if", directive):
                skipping += 1
            elif skipping and re.match(r"#\s*endif", directive):
                skipping -= 1
            elif not skipping:
                items.append(Item("pp", directive, line, line))
            i = j
        else:
            depth, j, start_line = 0, i, line
            while j < n:
                if text.startswith("/*", j):
                    k = text.index("*/", j) + 2
                    line += text.count("\n", j, k)
                    j = k
                    continue
                c = text[j]
                if c == "\n":
                    line += 1
                elif c == "{":
                    depth += 1
                elif c == "}":
                    depth -= 1
                    head = strip_comments(text[i:j]).split("{", 1)[0]
                    if depth == 0 and "(" in head and not head.lstrip().startswith("typedef"):
                        j += 1   # a function definition ends at its closing brace
                        break
                elif c == ";" and depth == 0:
                    j += 1
                    break
                j += 1
            if not skipping:
                items.append(Item("decl", text[i:j], start_line, line))
            i = j
    return items


def comment_lines(comment):
    """The text lines of a /* */ comment, without the comment markers; the
    indentation beyond ' * ' is kept."""
    body = comment[2:-2]
    lines = body.split("\n")
    out = []
    for k, raw in enumerate(lines):
        s = raw.rstrip()
        if k > 0:
            s = s.lstrip()
            if s.startswith("*"):
                s = s[1:]
            s = s[1:] if s.startswith(" ") else s
        else:
            s = s[1:] if s.startswith(" ") else s
        out.append(s)
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


def strip_comments(code):
    return re.sub(r"/\*.*?\*/", " ", code, flags=re.S)


def _squash(code):
    return " ".join(strip_comments(code).split())


class Decl:
    """One public declaration: kind is function, macro, enum, struct,
    handle (typedef of a pointer to an incomplete struct) or enumerators
    (an anonymous enum)."""

    def __init__(self, kind, name, signature, item, members=()):
        self.kind, self.name, self.signature = kind, name, signature
        self.item, self.members = item, list(members)
        self.doc = []            # comment line lists, preceding first
        self.line = item.first


class Member:
    def __init__(self, signature, name, doc):
        self.signature, self.name, self.doc = signature, name, doc


def _body_members(body_code, separator):
    """(declaration text, [comment line lists]) of each member of a struct
    (separator ';') or enum (separator ',') body, comments attached as in
    the module comment."""
    parts, pending, i, n = [], [], 0, len(body_code)
    current, current_doc = "", []
    line_of_last_end = None
    line = 0
    while i < n:
        if body_code.startswith("/*", i):
            j = body_code.index("*/", i) + 2
            text = comment_lines(body_code[i:j])
            if parts and line == line_of_last_end and not current.strip():
                parts[-1][1].append(text)       # trailing comment
            else:
                current_doc.append(text)
            line += body_code.count("\n", i, j)
            i = j
            continue
        c = body_code[i]
        if c == "\n":
            line += 1
        if c == separator:
            parts.append([current.strip(), current_doc])
            current, current_doc = "", []
            line_of_last_end = line
        else:
            current += c
        i += 1
    if current.strip():
        parts.append([current.strip(), current_doc])
    return [(" ".join(code.split()), doc) for code, doc in parts if code.strip()]


def _split_declarators(member):
    """'int axis_in, axis_out' -> ['int axis_in', 'int axis_out']."""
    if "," not in member or "(" in member:
        return [member]
    first, *rest = [p.strip() for p in member.split(",")]
    m = re.match(r"(.*?)([\s*]+)(" + IDENT + r".*)$", first)
    base = m.group(1).strip()
    return [first] + [f"{base} {r}" for r in rest]


def _name_of(signature):
    """The declared name: the identifier before '(' or '[' or at the end."""
    code = re.sub(r"\[.*?\]", "", signature)
    m = re.search(r"(" + IDENT + r")\s*\(", code)
    if m:
        return m.group(1)
    m = re.search(r"(" + IDENT + r")\s*(=.*)?$", code.strip())
    return m.group(1) if m else None


def _declaration(item):
    """Decl of a declaration or #define item, or None for what is not
    public API (include guards, includes)."""
    if item.kind == "pp":
        m = re.match(r"#\s*define\s+(" + IDENT + r")(\s+(.*))?$", item.text)
        if not m or m.group(1) == "DISTFFT_H":
            return None
        decl = Decl("macro", m.group(1), m.group(1), item)
        decl.value = (m.group(3) or "").strip()
        return decl
    code = item.text
    flat = _squash(code)
    head = _squash(code.split("{", 1)[0])
    if "{" in code and "(" in head and not head.startswith("typedef"):
        return Decl("function", _name_of(head), head, item)   # a static inline definition
    if "{" in code:
        head, body = code.split("{", 1)
        body, tail = body.rsplit("}", 1)
        head, tail = _squash(head), _squash(tail).rstrip(";").strip()
        if head.startswith("typedef enum") or head == "enum":
            members = [Member(s, _name_of(s), d) for s, d in _body_members(body, ",")]
            if tail:
                return Decl("enum", tail, tail, item, members)
            names = ", ".join(m.name for m in members)
            return Decl("enumerators", names, names, item, members)
        if head.startswith("typedef struct"):
            members = []
            for s, d in _body_members(body, ";"):
                for one in _split_declarators(s):
                    members.append(Member(one, _name_of(one), d))
            return Decl("struct", tail, tail, item, members)
        raise ValueError(f"line {item.first}: cannot read {flat[:60]!r}")
    flat = flat.rstrip(";").strip()
    m = re.match(r"typedef struct (" + IDENT + r")\s*\*\s*(" + IDENT + r")$", flat)
    if m:
        return Decl("handle", m.group(2), f"struct {m.group(1)} *{m.group(2)}", item)
    m = re.match(r"typedef\s.*\(\s*\*\s*(" + IDENT + r")\s*\)\s*\(.*\)$", flat)
    if m:   # a pointer-to-function type
        return Decl("handle", m.group(1), flat[len("typedef"):].strip(), item)
    m = re.match(r"typedef\s+(.*\W)(" + IDENT + r")$", flat)
    if m:   # any other typedef
        return Decl("handle", m.group(2), f"{m.group(1).strip()} {m.group(2)}", item)
    if "(" in flat:
        return Decl("function", _name_of(flat), flat, item)
    name = _name_of(flat.replace("extern ", "", 1))
    if name:   # a variable
        return Decl("var", name, flat.replace("extern ", "", 1), item)
    raise ValueError(f"line {item.first}: cannot read {flat[:60]!r}")


def _is_rule(item):
    return item.kind == "comment" and re.fullmatch(r"/\*\s*-+\s*\*/", item.text)


def parse(text):
    """The header as a list of ('title', str), ('prose', lines) and
    ('entry', [Decl, ...]) parts, in order."""
    items = _items(text)
    for prev, item in zip(items, items[1:]):   # trailing comments
        if item.kind == "comment" and prev.kind in ("decl", "pp") and item.first == prev.last:
            item.kind = "trailing"
            prev.trailing.append(comment_lines(item.text))
    items = [it for it in items if it.kind != "trailing"]
    parts, k = [], 0
    doc, last_line = None, -10
    while k < len(items):
        item = items[k]
        nxt = items[k + 1] if k + 1 < len(items) else None
        if _is_rule(item) and nxt and k + 2 < len(items) and _is_rule(items[k + 2]):
            parts.append(("title", " ".join(comment_lines(nxt.text)).strip()))
            doc, k = None, k + 3
            continue
        if item.kind == "comment":
            if nxt and nxt.kind in ("decl", "pp") and nxt.first == item.last + 1 \
                    and _declaration(nxt) is not None:
                doc = comment_lines(item.text)
                parts.append(("entry", []))
            else:
                parts.append(("prose", comment_lines(item.text)))
                doc = None
            last_line = item.last
            k += 1
            continue
        decl = _declaration(item)
        if decl is not None:
            if item.first > last_line + 1:   # a blank line ends the comment's reach
                doc = None
            if doc is None and not (parts and parts[-1][0] == "entry" and parts[-1][1]
                                    and item.first == last_line + 1
                                    and not parts[-1][1][0].doc):
                parts.append(("entry", []))
            if doc is not None and not parts[-1][1]:
                decl.doc.append(doc)
            elif doc is not None:
                decl.doc = []          # the group's comment is on the first
            decl.doc.extend(item.trailing)
            parts[-1][1].append(decl)
        last_line = item.last
        k += 1
    return [p for p in parts if p[0] != "entry" or p[1]]


def undocumented(parts):
    """Names of public declarations no comment documents."""
    missing = []
    for kind, value in parts:
        if kind != "entry":
            continue
        group_doc = bool(value[0].doc)
        for decl in value:
            if decl.doc or group_doc:
                continue
            if decl.kind == "enumerators" and all(m.doc for m in decl.members):
                continue
            missing.append(f"line {decl.line}: {decl.name}")
        for decl in value:   # a struct's fields are API too
            if decl.kind == "struct":
                missing += [f"line {decl.line}: {decl.name}.{m.name}"
                            for m in decl.members if not m.doc]
    return missing


# --- writing reStructuredText ----------------------------------------------

ROLE = {"function": "func", "macro": "macro", "enum": "enum", "struct": "struct",
        "handle": "type", "var": "var"}
DIRECTIVE = {"function": "function", "macro": "macro", "enum": "enum",
             "struct": "struct", "handle": "type", "var": "var"}
_ESCAPE = re.compile(r"([\\*`|_\[\]<>:#~^$@&{}=+-])")


def known_names(parts):
    names = {}
    for kind, value in parts:
        if kind == "entry":
            for decl in value:
                if decl.kind == "enumerators":
                    for m in decl.members:
                        names[m.name] = "enumerator"
                else:
                    names[decl.name] = ROLE[decl.kind]
                    if decl.kind == "enum":   # the C domain scopes them in the enum
                        for m in decl.members:
                            names[m.name] = ("enumerator", f"{decl.name}.{m.name}")
    return names


def _inline(text, names):
    """Plain comment text as reStructuredText: `spans` become inline
    literals, every other markup character is escaped, and the API's own
    names are linked."""
    pieces = re.split(r"(`[^`\n]+`)", text)
    out = []
    for k, piece in enumerate(pieces):
        if k % 2:
            out.append(_spaced(out, "``" + piece[1:-1] + "``", pieces, k))
        else:
            out.append(_linked(piece, names))
    s = "".join(out)
    if s and not s[0].isalnum() and not s.startswith(("\\", ":c:", "``")):
        s = "\\" + s
    return s


def _spaced(out, markup, pieces, k):
    """Inline markup needs a space or punctuation around it; an escaped
    space (which renders as nothing) supplies it."""
    before = "".join(out)[-1:] or " "
    after = pieces[k + 1][:1] if k + 1 < len(pieces) else " "
    after = after or " "
    ok_before = before.isspace() or before in "'\"([{<-/:"
    ok_after = after.isspace() or after in "'\")]}>-/:.,;!?"
    return ("" if ok_before else "\\ ") + markup + ("" if ok_after else "\\ ")


def _linked(text, names):
    out, pos = [], 0
    pattern = re.compile(r"\b(distfft_\w+|DISTFFT_\w+)\b(\(\))?")   # Sphinx adds the ()
    for m in pattern.finditer(text):
        if m.group(1) not in names:
            continue
        out.append(_ESCAPE.sub(r"\\\1", text[pos:m.start()]))
        before = text[m.start() - 1] if m.start() else " "
        after = text[m.end()] if m.end() < len(text) else " "
        role, target = names[m.group(1)], m.group(1)
        if isinstance(role, tuple):
            role, target = role[0], f"{m.group(1)} <{role[1]}>"
        out.append(("" if before.isspace() else "\\ ")
                   + f":c:{role}:`{target}`"
                   + ("" if after.isspace() else "\\ "))
        pos = m.end()
    out.append(_ESCAPE.sub(r"\\\1", text[pos:]))
    return "".join(out)


def plain_to_rst(lines, names, indent=0):
    """Plain text (a comment, a docstring) as reStructuredText: blocks
    separated by blank lines; a block with a line indented more than its
    first (a table, a list, code) is kept as it is, in a literal block; any
    other block is a paragraph of escaped text."""
    pad = " " * indent
    out, block = [], []

    def flush():
        if not block:
            return
        first = len(block[0]) - len(block[0].lstrip())
        if any(len(l) - len(l.lstrip()) > first for l in block[1:]) or first > 0:
            width = min(len(l) - len(l.lstrip()) for l in block)
            out.extend([pad + "::", ""] + [pad + "   " + l[width:] for l in block] + [""])
        else:
            out.extend([pad + _inline(" ".join(l.strip() for l in block), names), ""])
        block.clear()

    for line in lines:
        if line.strip():
            block.append(line.rstrip())
        else:
            flush()
    flush()
    return out


def _docs(doc_lists, names, indent):
    out = []
    for lines in doc_lists:
        out.extend(plain_to_rst(lines, names, indent))
    return out


def _entry_rst(decls, names):
    out = []
    kinds = {d.kind for d in decls}
    simple = [d for d in decls if d.kind in ("function", "macro", "handle", "var")]
    if len(simple) == len(decls) and len(kinds) == 1:
        # one directive, several signatures, the group's comment once
        directive = DIRECTIVE[decls[0].kind]
        out.append(f".. c:{directive}:: {decls[0].signature}")
        for d in decls[1:]:
            out.append(f"              {d.signature}")
        out.append("")
        for d in decls:
            if d.kind == "macro" and d.value:
                out.extend([f"   ``#define {d.name} {d.value}``", ""])
            out.extend(_docs(d.doc, names, 3))
        return out
    for d in decls:
        if d.kind == "enumerators":
            out.extend(_docs(d.doc, names, 0))
            for m in d.members:
                out.extend([f".. c:enumerator:: {m.signature}", ""])
                out.extend(_docs(m.doc, names, 3))
            continue
        out.extend([f".. c:{DIRECTIVE[d.kind]}:: {d.signature}", ""])
        out.extend(_docs(d.doc, names, 3))
        sub = "enumerator" if d.kind == "enum" else "member"
        for m in d.members:
            out.extend([f"   .. c:{sub}:: {m.signature}", ""])
            out.extend(_docs(m.doc, names, 6))
    return out


def _parts_rst(parts, names, underline):
    out = []
    for kind, value in parts:
        if kind == "title":
            heading = _inline(value, {})
            out.extend([heading, underline * len(heading), ""])
        elif kind == "prose":
            out.extend(_docs([value], names, 0))
        else:
            out.extend(_entry_rst(value, names))
    return out


def to_rst(parts, title, header_path, others=()):
    """The page: the main header's parts, then one section per other public
    header (others: (path, parts) pairs)."""
    names = known_names(parts)
    for _, other in others:
        names.update(known_names(other))
    out = [".. Generated from " + header_path + " by docs/_ext/cheader.py at every",
           "   docs build; edit the header's comments, not this file.", "",
           title, "=" * len(title), ""]
    out += _parts_rst(parts, names, "-")
    for path, other in others:
        heading = f"Header {os.path.basename(path)}"
        out += [heading, "-" * len(heading), ""] + _parts_rst(other, names, "~")
    return "\n".join(out).rstrip() + "\n"


# --- Sphinx ------------------------------------------------------------------

def _generate(app):
    from sphinx.util import logging
    log = logging.getLogger(__name__)
    main = os.path.normpath(os.path.join(app.confdir, app.config.cheader_header))
    # every public header is documented: the main one, then the others
    # of its folder (a header added later is in the reference at once)
    folder = os.path.dirname(main)
    others = sorted(os.path.join(folder, n) for n in os.listdir(folder)
                    if n.endswith(".h") and os.path.join(folder, n) != main)
    parsed = []
    for header in [main] + others:
        shown = os.path.relpath(header, os.path.join(app.confdir, ".."))
        with open(header, encoding="utf-8") as f:
            try:
                parts = parse(f.read())
            except ValueError as error:   # a construct this reader does not know
                log.warning(f"{shown}: {error} (teach docs/_ext/cheader.py)")
                parts = []
        for missing in undocumented(parts):
            log.warning(f"{shown}: {missing} has no comment "
                        "(every public declaration must say what it does)")
        parsed.append((shown, parts))
    app.env.cheader_names = {}
    for _, parts in parsed:
        app.env.cheader_names.update(known_names(parts))
    text = to_rst(parsed[0][1], app.config.cheader_title, parsed[0][0], parsed[1:])
    target = os.path.join(app.srcdir, app.config.cheader_output)
    old = None
    if os.path.exists(target):
        with open(target, encoding="utf-8") as f:
            old = f.read()
    if old != text:   # rewritten only when it changed (no needless rebuilds)
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)


def _link_literals(app, doctree):
    """In the guide pages, inline code that is exactly an API name
    (`distfft_plan_create`, `distfft_plan_create()`, `DISTFFT_R2C`) links
    to its entry in the C reference."""
    from docutils import nodes
    from sphinx import addnodes
    names = app.env.cheader_names if hasattr(app.env, "cheader_names") else {}
    for node in list(doctree.traverse(nodes.literal)):
        if isinstance(node.parent, (nodes.reference, addnodes.pending_xref)):
            continue
        m = re.fullmatch(r"(distfft_\w+|DISTFFT_\w+)(\(\))?", node.astext())
        if not m or m.group(1) not in names:
            continue
        role, target = names[m.group(1)], m.group(1)
        if isinstance(role, tuple):
            role, target = role[0], role[1]
        xref = addnodes.pending_xref("", refdomain="c", reftype=role, reftarget=target,
                                     refexplicit=True, refwarn=True)
        xref += node.deepcopy()
        node.replace_self(xref)


def setup(app):
    app.connect("doctree-read", _link_literals)
    app.add_config_value("cheader_header", "../include/distfft.h", "env")
    app.add_config_value("cheader_output", "reference/c.rst", "env")
    app.add_config_value("cheader_title", "C API reference", "env")
    app.connect("builder-inited", _generate)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def main(argv):
    """--check HEADER...: exit 1 naming every undocumented declaration.
    --rst HEADER: print the generated page."""
    if len(argv) < 3 or argv[1] not in ("--check", "--rst"):
        print("usage: cheader.py --check|--rst include/distfft.h [more headers]", file=sys.stderr)
        return 2
    status = 0
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            parts = parse(f.read())
        if argv[1] == "--rst":
            print(to_rst(parts, "C API reference", path), end="")
            continue
        missing = undocumented(parts)
        for m in missing:
            print(f"{path}: {m} has no comment", file=sys.stderr)
        count = sum(len(v) for k, v in parts if k == "entry")
        print(f"{path}: {count} declarations, {len(missing)} without a comment")
        status |= 1 if missing else 0
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
