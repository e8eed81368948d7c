#!/usr/bin/env bash
# gpu.sh -- device plans on a lent NVIDIA machine (the `device` tool's H200
# host: no MPI, no build tools; its own CUDA driver and, in its Python, the
# CUDA 13 wheels with cuFFT and NCCL), run from the repository root:
#
#   # here, first: the CUDA build and the runtime bundle
#   scripts/setup --cuda                       # or: source scripts/common.sh && build_cuda
#   cmake --build build-cuda --target test_device test_device_layouts test_memory distfft-bench \
#       distfft-cuda-bench distfft-cuda-exchange-bench
#   benchmarks/device/bundle.sh                # .device/debian-mpi-fftw.tar.gz
#   GPU_DRY_RUN=1 benchmarks/device/gpu.sh     # prints the plan of the run, runs nothing
#
#   # then one call of the device tool (carried: build-cuda/bin 6.3 MiB with
#   # build_cuda's targets, 22 MiB when every target was built,
#   # build-cuda/lib 5.6 MiB, .device 9.8 MiB; with the tracked tree's
#   # 14 MiB at most 51 MiB of the 64 MiB limit), from the checkout the tool sends
#   # (the session's own: build there, or copy these three folders into it):
#   run(command="OUT=$OUT benchmarks/device/gpu.sh",
#       carry=["build-cuda/bin", "build-cuda/lib", ".device"], timeout_s=420)
#
# It stops starting work after GPU_DEADLINE seconds (default 270; every
# command is also cut at GPU_STEP_LIMIT seconds, default 120, or at what is
# left if less, so that one hung command -- an NCCL or IPC wait that never
# returns -- cannot take the later phases with it) and writes each phase's results
# under $OUT as the phase ends, in priority order:
#   0. the machine: nvidia-smi, the CUDA driver, runtime, cuFFT and NCCL
#      versions (machine.txt); Debian's Open MPI and FFTW unpacked over / as
#      node.sh does (never replacing a file the machine has); cuFFT and NCCL
#      (libnccl.so.2) from the machine's own libraries (its Python's nvidia
#      wheels, or a CUDA toolkit under /usr/local), found and put on
#      LD_LIBRARY_PATH (nothing of either is carried); NCCL_MULTI_RANK_GPU_ENABLE=1
#      (NCCL >= 2.30 lets several ranks share the one device with it);
#   1. correctness: test_device (device plans against host plans, c2c and
#      r2c, double and float, batched, primes, uneven blocks; on 2 and 4
#      ranks once with staged, once with cuda-ipc, and once with nccl
#      exchanges where the machine's NCCL serves the ranks -- a refusal is
#      printed, "test_device: nccl not run: ...", recorded and not a
#      failure; the pointer check; work_bytes; cuda-ipc refused on
#      one-rank nodes and freed by distfft_collect after a release) and
#      test_device_layouts (reshapes and plans in the caller's layouts on
#      the device against the host's) on 1, 2 and 4 ranks sharing the
#      device, test_memory with the device present, and
#      distfft-bench --memory cuda --check (device arrays, its serial
#      reference) on 1 and 2 ranks (correctness.txt; exit 77 is "no device
#      seen": a failed run here, and the script stops at the first, on one
#      rank, with CUDA's reason in gpu.log);
#   2. timings, 1 rank: distfft-cuda-bench at 256^3 and 512^3, c2c and
#      r2c, double and float, GPU_ROUNDS interleaved rounds (default 5) of
#      the device plan (input kept, and destroyed), cuFFT's own 3-D plans
#      and a device-to-device copy of the array (timings.jsonl); then each
#      step's device time (distfft-bench --memory cuda --json: the
#      library's per-step times, CUDA events on the plan's stream) at both
#      shapes, c2c and r2c double (steps.jsonl);
#   3. 2 and 4 ranks on the one device: first the exchange alone,
#      distfft-cuda-exchange-bench at 256^3 complex double, staged and
#      cuda-ipc against one device-to-device copy of the rank's share
#      (exchanges.jsonl; the cuda-ipc target is <= 2x the copy: recorded,
#      never a failure of the script); then 256^3 c2c and r2c double
#      plans with staged, cuda-ipc and nccl exchanges against a copy of
#      the rank's share (ranks.jsonl; an nccl run NCCL refuses is logged,
#      and the script goes on), and each plan's steps' device times, c2c
#      (steps.jsonl);
#   and the tables of phases 2 and 3 (gpu_table.py: median same-round
#   ratios, the exchanges against the copy, then each step's device time;
#   table.txt). Every command's output is in gpu.log.
# Environment: OUT (default gpu-results), GPU_DEADLINE, GPU_ROUNDS,
# GPU_INNER (pairs per round, the fastest kept; default 5), GPU_STEP_LIMIT
# (seconds one command may take; default 120), GPU_PHASES
# (default "1 2 3"), GPU_SHAPES (phase 2's; default "256 512"),
# GPU_DRY_RUN=1 (print every command instead of running it; no device, no
# unpacking), GPU_UNPACK=0 (a machine with its own Open MPI and FFTW: leave
# / alone), GPU_CUFFT_DIR (the folder of libcufft.so.*, not looked for).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-gpu-results}
DEADLINE=${GPU_DEADLINE:-270}
ROUNDS=${GPU_ROUNDS:-5}
INNER=${GPU_INNER:-5}
STEP_LIMIT=${GPU_STEP_LIMIT:-120}
PHASES=${GPU_PHASES:-1 2 3}
SHAPES=${GPU_SHAPES:-256 512}
DRY=${GPU_DRY_RUN:-0}
BUILD=$PWD/build-cuda
phase() { [[ " $PHASES " == *" $1 "* ]]; }
mkdir -p "$OUT"
log() { echo "gpu.sh [$SECONDS s] $*" | tee -a "$OUT/gpu.log"; }
left() { echo $((DEADLINE - SECONDS)); }

# step FILE COMMAND...: run COMMAND for at most STEP_LIMIT seconds and
# never past the deadline (a hung run, NCCL's or CUDA IPC's say, then costs
# one step, not the rest of the run), its stdout appended to FILE and its
# stderr to gpu.log; under GPU_DRY_RUN only print it. Returns the
# command's status (124: cut).
step() {
    local file=$1; shift
    if [ "$DRY" = 1 ]; then
        echo "  [$file] $*"
        return 0
    fi
    local limit
    limit=$(left)
    if [ "$limit" -le 5 ]; then
        log "deadline: not started: $*"
        return 124
    fi
    [ "$limit" -gt "$STEP_LIMIT" ] && limit=$STEP_LIMIT
    echo "== $*" >>"$OUT/gpu.log"
    timeout -k 5 "$limit" "$@" >>"$OUT/$file" 2>>"$OUT/gpu.log"
}

MPIRUN=(orterun --oversubscribe -n)
for file in bin/test_device bin/test_device_layouts bin/test_memory bin/distfft-bench bin/distfft-cuda-bench \
    bin/distfft-cuda-exchange-bench lib/libdistfft.so.1 lib/libdistfft_cuda.so; do
    [ -e "$BUILD/$file" ] || { log "build-cuda/$file is missing: build it here and carry build-cuda/bin and build-cuda/lib"; exit 1; }
done

log "0. the machine"
if [ "$DRY" = 1 ]; then
    echo "  tar -C / --skip-old-files -xzf .device/debian-mpi-fftw.tar.gz; ldconfig"
elif [ "${GPU_UNPACK:-1}" != 0 ]; then
    tar -C / --skip-old-files -xzf .device/debian-mpi-fftw.tar.gz || { log "unpacking the bundle failed"; exit 1; }
    ldconfig
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader
# cuFFT from the machine (the build's run path names this machine's wheels)
cufft=$(ls ${GPU_CUFFT_DIR:-/usr/local/cuda/lib64}/libcufft.so.* 2>/dev/null | head -n 1)
for python in python3 /opt/torch/.venv/bin/python3; do
    [ -n "$cufft" ] && break
    site=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' 2>/dev/null) || continue
    cufft=$(ls "$site"/nvidia/*/lib/libcufft.so.* "$site"/nvidia/cufft/lib/libcufft.so.* 2>/dev/null | head -n 1)
done
[ -n "$cufft" ] || [ "$DRY" = 1 ] || { log "no libcufft.so on this machine"; exit 1; }
# NCCL likewise (the backend opens libnccl.so.2 itself; none: nccl is refused, staged runs)
nccl=$(ls /usr/local/cuda/lib64/libnccl.so.2 /usr/lib/x86_64-linux-gnu/libnccl.so.2 2>/dev/null | head -n 1)
for python in python3 /opt/torch/.venv/bin/python3; do
    { [ -n "$nccl" ] || [ "$DRY" = 1 ]; } && break
    site=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' 2>/dev/null) || continue
    nccl=$(ls "$site"/nvidia/nccl/lib/libnccl.so.2 2>/dev/null | head -n 1)
done
nccl_version=$([ "$DRY" = 1 ] && echo "not looked for: dry run" || echo none)
if [ -n "$nccl" ]; then
    nccl_version=$(python3 -c 'import ctypes, sys; v = ctypes.c_int(); ctypes.CDLL(sys.argv[1]).ncclGetVersion(ctypes.byref(v)); print(v.value)' "$nccl" 2>&1)
fi
export LD_LIBRARY_PATH=$BUILD/lib${cufft:+:$(dirname "$cufft")}${nccl:+:$(dirname "$nccl")}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export NCCL_MULTI_RANK_GPU_ENABLE=1
log "cuFFT: ${cufft:-(not looked for: dry run)}"
log "NCCL: ${nccl:-none found} (version $nccl_version)"
if [ "$DRY" != 1 ]; then
    { date; nvidia-smi; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
      echo "cufft: $cufft"; echo "nccl: ${nccl:-none} (version $nccl_version)"; grep PRETTY /etc/os-release; orterun --version | head -n 1
      df -h /dev/shm  # shared memory: Open MPI's and NCCL's transports between ranks
    } >"$OUT/machine.txt" 2>&1
fi

if phase 1; then
    log "1. correctness: test_device, test_device_layouts on 1, 2, 4 ranks; test_memory with the device"
    for test in test_device test_device_layouts; do
        for ranks in 1 2 4; do
            step correctness.txt "${MPIRUN[@]}" $ranks "$BUILD/bin/$test"
            status=$?
            [ "$DRY" = 1 ] || log "   $test on $ranks rank(s): exit $status$([ $status = 77 ] && echo ' (no device seen)')"
            if [ $status = 77 ] && [ $ranks = 1 ]; then
                # every later run would fail the same way: say why (CUDA's
                # error, runtime and driver versions) and stop
                step correctness.txt "${MPIRUN[@]}" 1 "$BUILD/bin/distfft-bench" --shape 8x8x8 --memory cuda
                log "no usable device: stopped (the reason is in gpu.log)"
                exit 1
            fi
        done
    done
    for ranks in 1 2; do
        step correctness.txt env DISTFFT_TEST_DEVICE=1 "${MPIRUN[@]}" $ranks "$BUILD/bin/test_memory"
        status=$?
        [ "$DRY" = 1 ] || log "   test_memory on $ranks rank(s): exit $status"
        step correctness.txt "${MPIRUN[@]}" $ranks "$BUILD/bin/distfft-bench" --shape 48x40x36 --kind r2c \
            --memory cuda --check --inner 2 --outer 2 --json
        status=$?
        [ "$DRY" = 1 ] || log "   distfft-bench --memory cuda --check on $ranks rank(s): exit $status"
    done
    [ "$DRY" = 1 ] || grep -E "passed|FAIL|skipped|nccl not run" "$OUT/correctness.txt" | tee -a "$OUT/gpu.log"
fi

bench() { # FILE RANKS N KIND PRECISION [METHOD]
    step "$1" "${MPIRUN[@]}" "$2" "$BUILD/bin/distfft-cuda-bench" --shape "$3x$3x$3" --kind "$4" \
        --precision "$5" --rounds "$ROUNDS" --inner "$INNER" ${6:+--method "$6"} \
        || log "   $2 rank(s) $3^3 $4 $5 ${6:-}: exit $?"
}

# FILE RANKS N KIND [METHOD]: each step's device time of one device plan (double)
steps() {
    step "$1" "${MPIRUN[@]}" "$2" "$BUILD/bin/distfft-bench" --shape "$3x$3x$3" --kind "$4" --precision double \
        --memory cuda --rigor estimate --inner "$INNER" --outer 3 --json ${5:+--methods "$5"} \
        || log "   steps, $2 rank(s) $3^3 $4 ${5:-}: exit $?"
}

if phase 2; then
    log "2. timings, 1 rank: distfft against cuFFT and a device copy"
    for n in $SHAPES; do
        for kind in c2c r2c; do
            for precision in double float; do
                bench timings.jsonl 1 "$n" $kind $precision
            done
        done
    done
    for n in $SHAPES; do
        for kind in c2c r2c; do
            steps steps.jsonl 1 "$n" $kind
        done
    done
fi

if phase 3; then
    log "3. 2 and 4 ranks on the one device: the exchanges alone, then plans with staged, cuda-ipc and nccl"
    for ranks in 2 4; do
        step exchanges.jsonl "${MPIRUN[@]}" $ranks "$BUILD/bin/distfft-cuda-exchange-bench" --shape 256x256x256 \
            --precision double --rounds "$ROUNDS" --inner "$INNER" --methods staged,cuda-ipc \
            || log "   exchanges alone on $ranks ranks: exit $?"
    done
    for method in staged cuda-ipc nccl; do
        for ranks in 2 4; do
            for kind in c2c r2c; do
                bench ranks.jsonl $ranks 256 $kind double $method
            done
            steps steps.jsonl $ranks 256 c2c $method
        done
    done
fi

if [ "$DRY" = 1 ]; then
    echo "  [table.txt] python3 benchmarks/device/gpu_table.py $OUT/timings.jsonl $OUT/ranks.jsonl $OUT/exchanges.jsonl $OUT/steps.jsonl"
else
    python3 benchmarks/device/gpu_table.py "$OUT"/timings.jsonl "$OUT"/ranks.jsonl "$OUT"/exchanges.jsonl \
        "$OUT"/steps.jsonl \
        >"$OUT/table.txt" 2>>"$OUT/gpu.log"
    cat "$OUT/table.txt" >>"$OUT/gpu.log"
fi
log "done"
