#!/bin/bash
# probe.sh RANKS TIMEOUT TAG [cfg...]
r=$1; t=$2; tag=$3; shift 3
cfgs=""; for c in "$@"; do cfgs="$cfgs --cfg $c"; done
echo "== $tag r=$r cfg=$* start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "time: wall %e s user %U sys %S maxrss %M KB" nice -n 10 timeout $t /usr/bin/python3 /work/wt-scale/benchmarks/scale/smpi.py run fat-tree --ranks $r --cores-per-node 16 --sample 3 --fold $cfgs -- /work/wt-scale/build-smpi/bin/distfft-bench --shape 512x512x512 --kind r2c --grid pencil --method alltoallw --placement row --json --quiet --rigor measure --inner 1 --outer 3 > out-$tag-$r.txt 2> err-$tag-$r.txt
echo "rc $?"; grep -E "smpi.py: wall|time:" err-$tag-$r.txt
python3 -c "import json,sys;d=json.loads([l for l in open('out-$tag-$r.txt') if l.startswith('{')][-1]);print('pair',d['pair_seconds'],'median',d['pair_seconds_median'],'fft',d['fft_seconds'],'redist',d['redistribute_seconds'],'plan',d['plan_seconds'])" 2>/dev/null
echo "   end $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
