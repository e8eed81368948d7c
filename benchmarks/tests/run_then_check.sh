#!/bin/sh
# run_then_check.sh -- run a command, then check what it printed.
#
#   sh run_then_check.sh PYTHON CHECKER OUTPUT_FILE COMMAND [ARGUMENT...]
#
# Runs COMMAND with its stdout in OUTPUT_FILE (stderr passes through); if it
# succeeds, runs "PYTHON CHECKER OUTPUT_FILE" and exits with its status.
# The checker learns everything else (shape, precision, --save prefix, ...)
# from the JSON line in OUTPUT_FILE, so one wrapper serves every checker.
python=$1
checker=$2
output_file=$3
shift 3

rm -f "$output_file"
"$@" > "$output_file"
status=$?
cat "$output_file"
if [ "$status" -ne 0 ]; then
    echo "run_then_check.sh: command exited with status $status" >&2
    exit 1
fi
exec "$python" "$checker" "$output_file"
