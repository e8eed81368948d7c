# 2-rank slab exchange vs chunk size: per-exchange time (fastest rank), median of 3 runs
import json, os, subprocess, sys, statistics
bench = sys.argv[1]; method = sys.argv[2]; sizes = [int(x) for x in sys.argv[3].split(",")]
env = dict(os.environ)
for kv in sys.argv[4:]:
    k, v = kv.split("="); env[k] = v
launch = "mpiexec -n 2".split()
for n in sizes:
    vals = []
    for rep in range(3):
        out = subprocess.run(launch + [bench, "--json", "--shape", f"{n}x{n}x{n}", "--grid", "slab", "--method", method,
                              "--kind", "c2c", "--rigor", "estimate", "--inner", "1", "--outer", "5"], capture_output=True, text=True, env=env)
        line = [l for l in out.stdout.splitlines() if l.startswith("{")][-1]
        r = json.loads(line)
        ex = [s for s in r["steps"] if s["step"].startswith("redist")]
        vals.append((sum(s["seconds_fastest_rank"] for s in ex) / len(ex), sum(s["seconds"] for s in ex) / len(ex), r["pair_seconds"]))
    f = statistics.median(v[0] for v in vals); sl = statistics.median(v[1] for v in vals); p = statistics.median(v[2] for v in vals)
    chunk = n * n * n * 16 / 4
    print(f"{method:10s} {' '.join(sys.argv[4:]):40s} n={n:4d} chunk={chunk/1e6:6.2f}MB exch fastest {f*1e3:8.3f} ms [{min(v[0] for v in vals)*1e3:.2f}-{max(v[0] for v in vals)*1e3:.2f}] slowest {sl*1e3:8.3f}  chunk/fastest {chunk/f/1e9:5.2f} GB/s pair {p*1e3:8.2f}", flush=True)
