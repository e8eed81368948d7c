"""check_list_methods.py -- validate distfft-bench --list-methods.

Usage: python3 check_list_methods.py OUTPUT_FILE

The output must be the library's concrete communication methods, one name
per line and nothing else, printed once however many ranks ran it: at
least one name, no repeats, no "auto" (not a concrete method), each a
lower-case word with dashes, and alltoallw first (DISTFFT_METHOD_ALLTOALLW
is id 0 of the method table). The file is then what check_methods.py
expects --methods all to run (CTest fixture bench.list_methods).
"""
import re
import sys


def fail(message):
    print("check_list_methods.py: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    with open(sys.argv[1], encoding="utf-8") as stream:
        names = stream.read().splitlines()
    if not names:
        fail("no methods listed")
    if len(set(names)) != len(names):
        fail("a method is listed twice (printed by more than one rank?): %s" % names)
    for name in names:
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name):
            fail("%r is not a method name (one name per line, nothing else)" % name)
    if "auto" in names:
        fail("auto is not a concrete method")
    if names[0] != "alltoallw":
        fail("the first method (id 0) is %r, expected alltoallw" % names[0])
    print("check_list_methods.py: %d methods: %s" % (len(names), ", ".join(names)))


if __name__ == "__main__":
    main()
