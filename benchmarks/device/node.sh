#!/usr/bin/env bash
# node.sh -- distfft on one real node of C cores, against the best FFTW
# option, and the cost model there; run on a lent machine (the `device`
# tool's 16-core host) from the repository root, with build/ built here and
# .device/ made by bundle.sh. Prepare and check here (a clean commit first:
# the results must name a clean revision):
#
#   benchmarks/device/bundle.sh && cmake --build build
#   du -shc build/bin build/lib .device     # 32 MiB here; with the tracked tree (14 MiB) <= 64 MiB
#
# then one call of the `device` tool's run, from the checkout the session
# was started in (that is what travels), carrying the build and the bundle:
#
#   run(command="OUT=$OUT benchmarks/device/node.sh", timeout_s=420,
#       carry=["build/bin", "build/lib", ".device"])
#
# It unpacks Debian's Open MPI and FFTW over / (never replacing a file the
# machine has; NODE_BUNDLE=0 skips it, for a dry run where they are
# installed), records the machine (machine.txt: lscpu, load before and
# after, Open MPI's vader single-copy mechanism and any warning of it,
# OMP_PLACES/OMP_PROC_BIND), checks 2 ranks (sanity.txt), then runs the
# phases of NODE_PHASES in the order given (default "4 1 2"), each rank
# bound to its own cores (--map-by slot:PE=T --bind-to core), its threads
# free to move among them, until the deadline. OMP_PLACES and OMP_PROC_BIND
# are unset: with either, libgomp pins the main thread to one core as it
# loads, and FFTW's threads (pthreads, created by the main thread) inherit
# that single core.
#   4. node_rounds.py (beside this script; its header says what each stage
#      runs): distfft P x T with its defaults (auto) against FFTW-MPI C x 1
#      and FFTW's C threads, stages double, float, layouts, large, scaling,
#      overlap (NODE_STAGES), interleaved rounds, every configuration
#      checked at a small size first, wisdom written in round 1 and read
#      after, each run appended to rounds.jsonl as it ends. It stops
#      NODE_RESERVE seconds (default 120 when phases follow) before the
#      deadline, leaving that to the later phases. Tables:
#      python3 benchmarks/device/node_rounds_table.py rounds.jsonl
#   1. calibrates the model on the ranks of NODE_CALIBRATE (default C, all
#      ranks busy: model-C.txt; its fft_active line is the FFT speed with
#      1, 2, 4, ... ranks of the node computing);
#   2. benchmarks/model_check.py with model-C.txt on the configurations of
#      node-model-configs.txt (fixed before any calibration):
#      measured / predicted pair, FFT steps, exchanges (model_check.txt;
#      every run's JSON: model_check.jsonl);
#   3. (not by default) one rank with C threads against FFTW's threaded
#      serial transform, r2c then c2c, 3 interleaved rounds, distfft keeping
#      and destroying the input, and the distfft-bench of the build folders
#      in NODE_OLD_BUILDS (threads.jsonl).
# Environment: OUT (results; default node-results), NODE_DEADLINE (seconds
# from the start; default 300), NODE_CORES (C; default nproc: set it to
# scale the 16-core plan down for a dry run), NODE_SHAPE (default
# 256x256x256), NODE_LARGE_SHAPE (512x512x512), NODE_CHECK_SHAPE (32x32x32),
# NODE_ROUNDS (node_rounds.py --rounds), NODE_OVERLAP_LAYOUT (PxT),
# NODE_REPEATS (phase 2's, default 1), NODE_MPIRUN (default orterun),
# NODE_THREAD_KINDS and NODE_OLD_BUILDS (phase 3's).
# A dry run here, tiny and short (nothing of it is a result):
#   NODE_BUNDLE=0 NODE_CORES=2 NODE_SHAPE=16x16x16 NODE_LARGE_SHAPE=24x24x24 \
#   NODE_CHECK_SHAPE=8x8x8 NODE_OVERLAP_LAYOUT=1x1 NODE_DEADLINE=300 \
#   NODE_MPIRUN=mpiexec.openmpi OUT=/tmp/node-dry benchmarks/device/node.sh
# The lent machine returns at most 8 files: machine.txt, node.log,
# sanity.txt, rounds.jsonl, model-C.txt, model_check.txt and
# model_check.jsonl by default; phase 3 adds threads.jsonl, and each more
# rank count in NODE_CALIBRATE a model-K.txt: keep the sum at 8.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-node-results}
SHAPE=${NODE_SHAPE:-256x256x256}
REPEATS=${NODE_REPEATS:-1}
DEADLINE=${NODE_DEADLINE:-300}
PHASES=${NODE_PHASES:-4 1 2}
MPIRUN=${NODE_MPIRUN:-orterun}
THREAD_KINDS=${NODE_THREAD_KINDS:-r2c c2c}
OLD_BUILDS=${NODE_OLD_BUILDS:-}
START=$(date +%s)
mkdir -p "$OUT"
log() { echo "node.sh [$SECONDS s] $*" | tee -a "$OUT/node.log"; }

# Always unpacked on the lent machine: it may have an Open MPI of its own
# (the lent host's Ubuntu 24.04 has 4.1.6, which then runs everything: the
# models' mpi_library line says which) but not FFTW-MPI.
if [ "${NODE_BUNDLE:-1}" != 0 ]; then
    tar -C / --skip-old-files -xzf .device/debian-mpi-fftw.tar.gz || { log "unpacking the bundle failed"; exit 1; }
    ldconfig
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=0
unset OMP_PLACES OMP_PROC_BIND
export LD_LIBRARY_PATH=$PWD/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
BENCH=$PWD/build/bin/distfft-bench
FFTW=$PWD/build/bin/fftw-mpi-bench
CORES=${NODE_CORES:-$(nproc)}
PY=$(command -v python3)

{ date; echo "cores used: $CORES of $(nproc)"; echo "OMP_PLACES and OMP_PROC_BIND unset (threads move within their rank's cores)"
  echo "load before: $(uptime)"; lscpu; grep PRETTY /etc/os-release; free -g; $MPIRUN --version | head -1
  ompi_info --param btl vader --level 9 | grep -i single_copy
  echo "ptrace_scope (CMA needs 0 or a shared user): $(cat /proc/sys/kernel/yama/ptrace_scope 2>&1)"
} >"$OUT/machine.txt" 2>&1
# 64^3 with alltoallv: messages past vader's eager limit, so the single-copy
# path (CMA where it works) runs; Open MPI warns here when it cannot use it.
log "sanity: 2 ranks, --check"
$MPIRUN --bind-to core -n 2 "$BENCH" --shape 64x64x64 --method alltoallv --check >"$OUT/sanity.txt" 2>&1 \
    || { cat "$OUT/sanity.txt"; log "sanity check failed"; exit 1; }
{ echo "single-copy warnings in the sanity run (none: the mechanism above was used):"
  grep -iE "single.copy|cma|process_vm" "$OUT/sanity.txt" || echo "none"; } >>"$OUT/machine.txt"

halving() { for ((k = $1; k >= 1; k /= 2)); do echo $k; done; }
left() { echo $((DEADLINE - SECONDS)); }

phase_1() {
    log "1. calibrations"
    local k
    for k in ${NODE_CALIBRATE:-$CORES}; do
        [ "$(left)" -le 10 ] && { log "deadline: no calibration on $k ranks"; return; }
        timeout "$(left)" $MPIRUN --bind-to core -n $k "$BENCH" --calibrate "$OUT/model-$k.txt" \
            >>"$OUT/node.log" 2>&1 || log "calibration on $k ranks failed"
        log "   calibrated on $k ranks"
    done
    grep fft_active "$OUT/model-$CORES.txt" | tee -a "$OUT/node.log"
}

phase_2() {
    log "2. model check on node-model-configs.txt"
    [ -f "$OUT/model-$CORES.txt" ] || { log "no model-$CORES.txt: phase 1 first"; return; }
    local configs=() line
    while read -r line; do
        [[ -z $line || $line == \#* ]] && continue
        [ "${line%%:*}" -le "$CORES" ] && configs+=("${line/:S:/:$SHAPE:}")
    done <benchmarks/device/node-model-configs.txt
    [ "$(left)" -le 10 ] && { log "deadline: no model check"; return; }
    timeout "$(left)" "$PY" benchmarks/model_check.py --model "$OUT/model-$CORES.txt" --repeats "$REPEATS" \
        --launcher "$MPIRUN --bind-to core -n {ranks}" --bench "$BENCH" \
        --bench-args "--rigor measure --inner 2 --outer 3" --json-out "$OUT/model_check.jsonl" \
        "${configs[@]}" | tee "$OUT/model_check.txt"
}

phase_3() {
    log "3. one rank, $CORES threads, against FFTW's threads"
    local kind round variant line common command
    for kind in $THREAD_KINDS; do
      for round in 1 2 3; do
        for variant in keep destroy fftw $OLD_BUILDS; do
            [ "$(left)" -le 0 ] && { log "deadline: stopped before $kind round $round $variant"; return; }
            common=(--shape "$SHAPE" --kind $kind --threads "$CORES" --rigor measure --inner 2 --outer 3 --json)
            case $variant in
            keep) command=("$BENCH" "${common[@]}") ;;
            destroy) command=("$BENCH" "${common[@]}" --destroy-input) ;;
            fftw) command=("$FFTW" --layout serial "${common[@]}") ;;
            *) command=(env LD_LIBRARY_PATH="$PWD/$variant/lib:$LD_LIBRARY_PATH" "$PWD/$variant/bin/distfft-bench"
                        "${common[@]}") ;;
            esac
            line=$($MPIRUN -n 1 --map-by slot:PE=$CORES --bind-to core "${command[@]}" 2>>"$OUT/node.log" | grep '^{')
            echo "{\"kind\": \"$kind\", \"round\": $round, \"variant\": \"$variant\", \"report\": ${line:-null}}" \
                >>"$OUT/threads.jsonl"
        done
      done
    done
}

phase_4() {
    local reserve=0
    [[ " $PHASES " == *" 4 "*[0-9]* ]] && reserve=${NODE_RESERVE:-120}
    log "4. rounds against FFTW (until $((DEADLINE - reserve)) s)"
    "$PY" benchmarks/device/node_rounds.py --cores "$CORES" --out "$OUT/rounds.jsonl" \
        --stop-at $((START + DEADLINE - reserve)) --shape "$SHAPE" \
        --large-shape "${NODE_LARGE_SHAPE:-512x512x512}" --check-shape "${NODE_CHECK_SHAPE:-32x32x32}" \
        ${NODE_STAGES:+--stages "$NODE_STAGES"} ${NODE_ROUNDS:+--rounds "$NODE_ROUNDS"} \
        ${NODE_OVERLAP_LAYOUT:+--overlap-layout "$NODE_OVERLAP_LAYOUT"} \
        --launcher "$MPIRUN -n {ranks} --map-by slot:PE={cores} --bind-to core" \
        --bench "$BENCH" --fftw-bench "$FFTW" --wisdom-dir "${TMPDIR:-/tmp}/node-wisdom-$START" \
        2>&1 | tee -a "$OUT/node.log"
}

for phase in $PHASES; do
    declare -F "phase_$phase" >/dev/null || { log "no phase $phase"; continue; }
    "phase_$phase"
done
echo "load after: $(uptime)" >>"$OUT/machine.txt"
log "done"
