#!/bin/sh
# model_round_trip.sh -- distfft-bench --calibrate, then --model: the JSON
# has predicted_pair_seconds and a predicted_seconds per step, all positive
# (check_model_json.py); then auto with --tune-budget 2 ranks its candidates
# with the model and times two of them; --predict-only predicts the same
# plan without running it (no pair time, the same predictions).
#
#   sh model_round_trip.sh MODEL_FILE PYTHON CHECKER MPIEXEC... BENCH [ARGUMENT...]
file=$1
python=$2
checker=$3
shift 3
rm -f "$file" "$file.json" "$file.auto" "$file.predicted"
"$@" --calibrate "$file" --rigor estimate || exit 1
head -1 "$file" | grep -q "^distfft-model 1$" || { echo "no model written" >&2; exit 1; }
"$@" --model "$file" --json --rigor estimate --method alltoallv > "$file.json" || exit 1
"$python" "$checker" "$file.json" || exit 1
"$@" --model "$file" --json --rigor estimate --method alltoallv --predict-only > "$file.predicted" || exit 1
"$python" "$checker" "$file.predicted" "$file.json" || exit 1
"$@" --model "$file" --tune-budget 2 --json > "$file.auto" || exit 1
cat "$file.auto"
grep -q "2 model-ranked candidates" "$file.auto" || { echo "auto did not rank with the model" >&2; exit 1; }
"$python" "$checker" "$file.auto"
