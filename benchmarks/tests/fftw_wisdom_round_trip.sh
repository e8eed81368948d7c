#!/bin/sh
# fftw_wisdom_round_trip.sh -- a benchmark driver writes FFTW's wisdom, then
# plans from it: the file holds FFTW wisdom, the second run succeeds, and its
# JSON line reports plan_seconds.
#
#   sh fftw_wisdom_round_trip.sh WISDOM_FILE OPTION_PREFIX MPIEXEC... BENCH [ARGUMENT...]
# OPTION_PREFIX: --fftw-wisdom (distfft-bench) or --wisdom (fftw-mpi-bench).
file=$1
prefix=$2
shift 2
rm -f "$file"
"$@" "$prefix-out" "$file" --json > "$file.first" || exit 1
head -1 "$file" | grep -q "^(fftw-3" || { echo "no FFTW wisdom written" >&2; exit 1; }
"$@" "$prefix-in" "$file" --json > "$file.second" || exit 1
cat "$file.second"
grep -q '"plan_seconds": [0-9]' "$file.second" || { echo "no plan_seconds" >&2; exit 1; }
