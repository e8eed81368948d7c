#!/bin/sh
# expect_exit.sh -- run a command that is meant to fail in a known way.
#
#   sh expect_exit.sh EXPECTED_STATUS EXPECTED_TEXT COMMAND [ARGUMENT...]
#
# Passes (exit 0) only if COMMAND exits with EXPECTED_STATUS and its output
# (stdout and stderr together) contains EXPECTED_TEXT exactly once: the
# message must be printed by one rank, not by every rank. Used for the
# usage-error and library-error tests of distfft-bench under mpiexec.
expected_status=$1
expected_text=$2
shift 2

output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"

if [ "$status" -ne "$expected_status" ]; then
    echo "expect_exit.sh: exit status $status, expected $expected_status" >&2
    exit 1
fi
count=$(printf '%s\n' "$output" | grep -c -F -e "$expected_text")
if [ "$count" -ne 1 ]; then
    echo "expect_exit.sh: found '$expected_text' $count times, expected once" >&2
    exit 1
fi
exit 0
