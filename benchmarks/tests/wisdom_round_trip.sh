#!/bin/sh
# wisdom_round_trip.sh -- distfft-bench --wisdom-out, then --wisdom-in: the
# second run's plan takes the recorded choices ("(wisdom)") and does not tune.
#
#   sh wisdom_round_trip.sh WISDOM_FILE MPIEXEC... BENCH [ARGUMENT...]
file=$1
shift
rm -f "$file"
"$@" --wisdom-out "$file" --json > "$file.first" || exit 1
grep -q "(tuning " "$file.first" || { echo "first run did not tune" >&2; exit 1; }
head -1 "$file" | grep -q "^distfft-wisdom 1$" || { echo "no wisdom written" >&2; exit 1; }
"$@" --wisdom-in "$file" --json > "$file.second" || exit 1
cat "$file.second"
grep -q "(wisdom)" "$file.second" || { echo "second run did not use the wisdom" >&2; exit 1; }
