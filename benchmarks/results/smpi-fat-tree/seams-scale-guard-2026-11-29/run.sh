#!/usr/bin/env bash
# The seams issue's scale guard: plan time and peak memory of a
# --predict-only 2048^3 r2c plan on 4,096 simulated ranks of the fat tree,
# the library before the issue (BEFORE: a build-smpi's distfft-bench) against
# after (AFTER), ROUNDS interleaved rounds (the order alternates).
# Usage: run.sh BEFORE_BENCH AFTER_BENCH [ROUNDS] > raw.jsonl
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
before=$1 after=$2 rounds=${3:-3}
model=$root/benchmarks/results/smpi-fat-tree/tuned-1024-2026-11-26/fat-tree-16.model
one() { # build-name bench round
  local log
  log=$(DISTFFT_SMPI_FOLD=1 /usr/bin/python3 "$root/benchmarks/scale/smpi.py" run fat-tree --ranks 4096 \
        --cores-per-node 16 -- "$2" --shape 2048x2048x2048 --kind r2c --grid pencil --method alltoallw \
        --rigor estimate --model "$model" --predict-only --json 2>&1)
  local json wall peak load
  json=$(grep '^{"program"' <<<"$log" | head -1)
  wall=$(sed -n 's/^smpi.py: wall \([0-9.]*\) s, peak memory \([0-9.]*\) GB.*/\1/p' <<<"$log")
  peak=$(sed -n 's/^smpi.py: wall \([0-9.]*\) s, peak memory \([0-9.]*\) GB.*/\2/p' <<<"$log")
  load=$(cut -d' ' -f1 /proc/loadavg)
  /usr/bin/python3 -c 'import json,sys; j=json.loads(sys.argv[1]); print(json.dumps({"build":sys.argv[2],"round":int(sys.argv[3]),"git_revision":j["git_revision"],"plan_seconds":j["plan_seconds"],"work_bytes":j["work_bytes"],"wall_seconds":float(sys.argv[4]),"peak_gb":float(sys.argv[5]),"load1":float(sys.argv[6])}))' \
    "$json" "$1" "$3" "$wall" "$peak" "$load"
}
for ((r = 0; r < rounds; r++)); do
  if ((r % 2 == 0)); then one before "$before" "$r"; one after "$after" "$r"
  else one after "$after" "$r"; one before "$before" "$r"; fi
done
