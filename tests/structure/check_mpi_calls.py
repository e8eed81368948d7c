#!/usr/bin/env python3
"""check_mpi_calls.py -- every MPI return code the library gets is checked.

Scans the C sources under the given folders (default: src/) and fails on
each call of an MPI function whose int result is thrown away: a call that
stands as a statement of its own (after `;`, `{`, `}`, `else`, `do`, the
`)` of an if/for/while, or a `(void)` cast). A checked call hands its
result on: to TRY_MPI, CHECK_MPI or KEEP_MPI (src/error.h), to a
variable, a comparison, a return. Functions that return no error code
(MPI_Wtime, MPI_Comm_f2c, ...) are not calls to check.

Usage: check_mpi_calls.py [DIR ...]. Exits 1 naming every bare call.
"""
import os
import re
import sys

# MPI functions whose result is not an error code.
NOT_ERROR_CODES = re.compile(r"^P?MPI_(Wtime|Wtick|Aint_add|Aint_diff|\w+_f2c|\w+_c2f)$")
CALL = re.compile(r"\b(P?MPI_[A-Z][A-Za-z0-9_]*)\s*\(")
# What may come just before a call whose result is thrown away: the end of
# a statement or block, else/do, a (void) cast, the `)` of an if/for/while
# header, or a label (`fail:`, `case 1:`) -- not a ternary's `:`.
STATEMENT_START = re.compile(r"(?:[;{}]|\belse|\bdo|\(\s*void\s*\)|\)"
                             r"|(?:^|[;{}])\s*(?:case\b[^:;{}]*|\w+)\s*:)\s*\Z", re.M)

# The scanner checks itself on this snippet first: the calls marked BARE
# must be found, and only they.
SELF_TEST = """
int f(MPI_Comm comm, int rc) {
    MPI_Barrier(comm);                                  /* BARE */
    if (rc) MPI_Comm_free(&comm);                       /* BARE */
    else (void)MPI_Barrier(comm);                       /* BARE */
    for (int i = 0; i < 2; i++) MPI_Barrier(comm);      /* BARE */
fail: MPI_Barrier(comm);                                /* BARE */
    TRY_MPI(MPI_Barrier(comm));
    KEEP_MPI(MPI_Comm_free(&comm));
    rc = MPI_Barrier(comm) != MPI_SUCCESS || MPI_Barrier(comm);
    double t = MPI_Wtime();
    const char *s = "MPI_Barrier(comm);";
    return rc ? MPI_Barrier(comm) : MPI_Barrier(comm);
}
"""


def strip(text):
    """The text with comments, string and character literals and preprocessor
    lines blanked (newlines kept, so line numbers stay)."""
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
                         r'|^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', re.S | re.M)
    return pattern.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def bare_calls(text):
    """(line, name) of every MPI call whose result is thrown away."""
    code = strip(text)
    for match in CALL.finditer(code):
        name = match.group(1)
        if NOT_ERROR_CODES.match(name):
            continue
        before = code[max(0, match.start() - 200):match.start()]
        if not STATEMENT_START.search(before):
            continue
        # `)` before the call: the end of a (void) cast or of an if/for/while
        # header -- but not of a parenthesised expression such as `(a) || MPI_..`
        # (caught above: `||` is not a statement start) or a function's own
        # arguments, which never end right before another call.
        yield code.count("\n", 0, match.start()) + 1, name


def sources(folders):
    for folder in folders:
        for root, _, files in os.walk(folder):
            for name in sorted(files):
                if name.endswith((".c", ".h")):
                    yield os.path.join(root, name)


def self_test():
    expected = [n for n, line in enumerate(SELF_TEST.split("\n"), 1) if "BARE" in line]
    found = [line for line, _ in bare_calls(SELF_TEST)]
    if found != expected:
        print(f"check_mpi_calls: the scanner is broken: bare calls on lines {found} of its self-test, "
              f"expected {expected}")
        return False
    return True


def main(folders):
    if not self_test():
        return 1
    problems = []
    count = 0
    for path in sources(folders):
        count += 1
        with open(path) as f:
            text = f.read()
        for line, name in bare_calls(text):
            problems.append(f"{path}:{line}: {name}'s return code is not checked "
                            "(TRY_MPI, CHECK_MPI, or KEEP_MPI in cleanup paths: src/error.h)")
    for problem in problems:
        print("check_mpi_calls:", problem)
    print(f"check_mpi_calls: {count} files, {len(problems)} unchecked MPI calls")
    return 1 if problems else 0


if __name__ == "__main__":
    default = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../src")]
    sys.exit(main(sys.argv[1:] or default))
