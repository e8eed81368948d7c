#!/usr/bin/env bash
# node.sh -- the cost model on one real node of C cores (issue 24 item 7),
# run on a lent machine (the `device` tool's 16-core host) from the
# repository root, with build/ built here and .device/ made by bundle.sh:
#
#   benchmarks/device/bundle.sh && cmake --build build
#   # then, on the lent machine, carrying build and .device:
#   OUT=<folder> benchmarks/device/node.sh
#
# It unpacks Debian's Open MPI and FFTW over / (never replacing a file the
# machine has), then, each rank bound to a core:
#   1. calibrates the model on all C ranks (model-C.txt; its fft_active
#      line: FFT speed with 1, 2, 4, ... ranks of the node computing), and
#      on C/2, C/4, ..., 1 ranks (model-K.txt: their FFT rates measured
#      with K ranks busy, a check of those factors);
#   2. benchmarks/model_check.py with model-C.txt at 1 to C ranks, 256^3
#      c2c and r2c, slab and pencil, alltoallw (and alltoallv on pencils
#      at C/2 and C ranks): measured / predicted pair, FFT steps,
#      exchanges (model_check.txt; every run's JSON: model_check.jsonl);
#   3. while time is left (NODE_DEADLINE seconds from the start, default
#      480): one rank with C threads against FFTW's threaded serial
#      transform, r2c then c2c, 3 interleaved rounds, distfft keeping and
#      destroying the input (threads.jsonl).
# Environment: OUT (results; default node-results), NODE_SHAPE (default
# 256x256x256), NODE_REPEATS (default 3), NODE_PHASES (default "1 2 3"),
# NODE_CALIBRATE (the rank counts phase 1 calibrates; default C, C/2, ..., 1;
# the first must be C), NODE_RANKS (phase 2's; default 1 2 4 ... C),
# NODE_THREAD_KINDS (phase 3's; default "r2c c2c"), NODE_OLD_BUILDS (build
# folders of other revisions, carried too: phase 3 times their
# distfft-bench as further variants, to bisect a change). Phase 2's JSON has
# each step's slowest and fastest rank (seconds, seconds_fastest_rank).
# The lent machine returns at most 8 files: node.log, sanity.txt and
# machine.txt come back when phase 3 runs alone.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-node-results}
SHAPE=${NODE_SHAPE:-256x256x256}
REPEATS=${NODE_REPEATS:-3}
DEADLINE=${NODE_DEADLINE:-480}
PHASES=${NODE_PHASES:-1 2 3}
THREAD_KINDS=${NODE_THREAD_KINDS:-r2c c2c}
OLD_BUILDS=${NODE_OLD_BUILDS:-}
phase() { [[ " $PHASES " == *" $1 "* ]]; }
mkdir -p "$OUT"
log() { echo "node.sh [$SECONDS s] $*" | tee -a "$OUT/node.log"; }

# Always unpacked: a machine may have an Open MPI of its own (the lent
# host's Ubuntu 24.04 has 4.1.6, which then runs everything: the models'
# mpi_library line says which) but not FFTW-MPI.
tar -C / --skip-old-files -xzf .device/debian-mpi-fftw.tar.gz || { log "unpacking the bundle failed"; exit 1; }
ldconfig
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=0
export LD_LIBRARY_PATH=$PWD/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
BENCH=$PWD/build/bin/distfft-bench
FFTW=$PWD/build/bin/fftw-mpi-bench
CORES=$(nproc)
PY=$(command -v python3)

{ date; nproc; lscpu | grep -E "Model name|Thread|Core|Socket|cache|NUMA"; grep PRETTY /etc/os-release
  free -g; orterun --version | head -1; } >"$OUT/machine.txt" 2>&1
log "sanity: 2 ranks, --check"
orterun --bind-to core -n 2 "$BENCH" --shape 32x32x32 --check >"$OUT/sanity.txt" 2>&1 \
    || { cat "$OUT/sanity.txt"; log "sanity check failed"; exit 1; }

halving() { for ((k = $1; k >= 1; k /= 2)); do echo $k; done; }
doubling() { for ((k = 1; k <= $1; k *= 2)); do echo $k; done; }
CALIBRATE=${NODE_CALIBRATE:-$(halving "$CORES")}
RANKS=${NODE_RANKS:-$(doubling "$CORES")}

phase 1 && log "1. calibrations"
for k in $CALIBRATE; do
    phase 1 || break
    orterun --bind-to core -n $k "$BENCH" --calibrate "$OUT/model-$k.txt" >>"$OUT/node.log" 2>&1 \
        || log "calibration on $k ranks failed"
    log "   calibrated on $k ranks"
done
phase 1 && grep fft_active "$OUT/model-$CORES.txt" | tee -a "$OUT/node.log"

log "2. model check"
configs=()
for k in $RANKS; do
    for kind in c2c r2c; do
        configs+=("$k:$SHAPE:slab:alltoallw:$kind")
        [ $k -ge 4 ] && configs+=("$k:$SHAPE:pencil:alltoallw:$kind")
    done
    [ $k -ge $((CORES / 2)) ] && configs+=("$k:$SHAPE:pencil:alltoallv:c2c")
done
phase 2 && timeout $((DEADLINE - SECONDS > 60 ? DEADLINE - SECONDS : 60)) \
    "$PY" benchmarks/model_check.py --model "$OUT/model-$CORES.txt" --repeats "$REPEATS" \
    --launcher "orterun --bind-to core -n {ranks}" --bench "$BENCH" \
    --bench-args "--rigor measure --inner 2 --outer 3" --json-out "$OUT/model_check.jsonl" \
    "${configs[@]}" | tee "$OUT/model_check.txt"
phase 3 || { log "done"; exit 0; }

log "3. one rank, $CORES threads, against FFTW's threads"
for kind in $THREAD_KINDS; do
  for round in 1 2 3; do
    for variant in keep destroy fftw $OLD_BUILDS; do
        [ $SECONDS -ge $DEADLINE ] && { log "deadline: stopped before $kind round $round $variant"; break 3; }
        common=(--shape "$SHAPE" --kind $kind --threads "$CORES" --rigor measure --inner 2 --outer 3 --json)
        case $variant in
        keep) command=("$BENCH" "${common[@]}") ;;
        destroy) command=("$BENCH" "${common[@]}" --destroy-input) ;;
        fftw) command=("$FFTW" --layout serial "${common[@]}") ;;
        *) command=(env LD_LIBRARY_PATH="$PWD/$variant/lib:$LD_LIBRARY_PATH" "$PWD/$variant/bin/distfft-bench"
                    "${common[@]}") ;;
        esac
        line=$(orterun -n 1 --map-by slot:PE=$CORES --bind-to core "${command[@]}" 2>>"$OUT/node.log" | grep '^{')
        echo "{\"kind\": \"$kind\", \"round\": $round, \"variant\": \"$variant\", \"report\": ${line:-null}}" \
            >>"$OUT/threads.jsonl"
    done
  done
done
log "done"
