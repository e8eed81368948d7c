#!/usr/bin/python3
"""Simulated clusters for SimGrid's SMPI: platform files and smpirun.

    smpi.py platform KIND --ranks R [--cores-per-node C] --out DIR
        write DIR/KIND-R.xml (a SimGrid platform) and DIR/KIND-R.hosts (the
        hostfile: node-i:C, ranks filling nodes in order)
    smpi.py levels KIND --ranks R [--cores-per-node C] [--model FILE]
        print the cost model's `network_levels` line (src/model/model.h) for
        the platform SMPI gets at R ranks: a Dragonfly's routers, chassis and
        groups, a fat tree's leaf switches, with the bandwidth of the links
        between their units; with --model (a model calibrated on this
        platform), the links at the fraction of their nominal bandwidth that
        the calibration measured for a node's link (its injection_bandwidth)
    smpi.py run KIND --ranks R [--cores-per-node C] [--sample K] [--fold]
                [--cfg NAME:VALUE ...] -- PROGRAM [ARGS...]
        run PROGRAM (built with smpicc: build-smpi/bin/distfft-bench) on R
        simulated ranks of that platform; prints the wall seconds the
        simulation took and its peak memory on stderr ("smpi.py: wall N s,
        peak memory M GB"). A program reading the transforms' results
        (--check, --save) is refused before anything runs when memory is
        folded or computation sampled (--fold, --sample, DISTFFT_SMPI_FOLD,
        DISTFFT_SMPI_SAMPLE): its results would be garbage

KIND is a file of benchmarks/scale/platforms/ (fat-tree, dragonfly, nodes),
or the path of a JSON file of the same form: its parameters and where each
figure comes from. A malformed file is refused with a message naming it. The simulated cores run at
HOST_SPEED and smpi/host-speed is the same figure, so a second of host
computation is a second of simulated computation: computation is measured
on this machine, the network is simulated (docs/guide/scale.md).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PLATFORMS = os.path.join(HERE, "platforms")
# The speed of a simulated core and of this host, in SimGrid's units: the
# same figure for both, so measured host time is charged one for one.
HOST_SPEED = "1Gf"


def platform_kinds():
    return sorted(name[:-5] for name in os.listdir(PLATFORMS) if name.endswith(".json"))


def load_parameters(kind):
    """The parameters of a platform: a name of platforms/, or a JSON file's path."""
    path = kind if kind.endswith(".json") else os.path.join(PLATFORMS, kind + ".json")
    if not os.path.exists(path):
        raise SystemExit(f"smpi.py: no platform '{kind}' (known: {', '.join(platform_kinds())})")
    try:
        with open(path) as stream:
            parameters = json.load(stream)
    except ValueError as error:
        raise SystemExit(f"smpi.py: {path} is not valid JSON: {error}")
    required = ["topology", "cores_per_node", "link_bandwidth", "link_latency",
                "loopback_bandwidth", "loopback_latency", "sources"]
    missing = [key for key in required if not isinstance(parameters, dict) or key not in parameters]
    if not isinstance(parameters, dict) or missing:
        raise SystemExit(f"smpi.py: {path} lacks {', '.join(missing)}")
    if parameters["topology"] not in ("fat-tree", "dragonfly", "flat"):
        raise SystemExit(f"smpi.py: {path}: topology '{parameters['topology']}' is not "
                         "fat-tree, dragonfly or flat")
    return parameters


def topology_attributes(parameters, nodes):
    """The cluster's topology attributes and its node count (>= nodes)."""
    kind = parameters["topology"]
    if kind == "flat":
        return "", nodes
    if kind == "fat-tree":
        # h;m1,m2;w1,w2;p1,p2: leaf switches of k nodes, each linked to
        # every top switch (k of them): full bisection.
        k = int(parameters["nodes_per_leaf_switch"])
        leaves = max(1, math.ceil(nodes / k))
        return f' topology="FAT_TREE" topo_parameters="2;{k},{leaves};1,{k};1,1"', k * leaves
    # Dragonfly: groups,links;chassis,links;routers,links;nodes per router.
    per_router = int(parameters["nodes_per_router"])
    routers = int(parameters["routers_per_chassis"])
    chassis_most = int(parameters["chassis_per_group"])
    links = int(parameters["links_between_groups"])
    per_chassis = per_router * routers
    chassis_needed = max(1, math.ceil(nodes / per_chassis))
    # At least two groups, so that traffic crosses the global links.
    groups = max(2, math.ceil(chassis_needed / chassis_most))
    chassis = max(1, math.ceil(chassis_needed / groups))
    total = groups * chassis * per_chassis
    return (f' topology="DRAGONFLY" topo_parameters="{groups},{links};{chassis},1;{routers},1;{per_router}"',
            total)


def bytes_per_second(text):
    """A SimGrid bandwidth ("5.25GBps", "200Gbps", "9.8e9Bps") in bytes/s."""
    units = (("GBps", 1e9), ("MBps", 1e6), ("kBps", 1e3), ("KBps", 1e3), ("Bps", 1.0),
             ("Gbps", 1e9 / 8), ("Mbps", 1e6 / 8), ("kbps", 1e3 / 8), ("bps", 1.0 / 8))
    for suffix, factor in units:
        if text.endswith(suffix):
            return float(text[:-len(suffix)]) * factor
    return float(text)


def network_levels(kind, ranks, cores_per_node, efficiency=1.0):
    """The platform's network above the node as the cost model's levels
    (NAME:SIZE:PAIR:OUT, src/model/model.h), for the platform write_platform
    makes at `ranks`; None for a flat cluster (nothing above the node but
    each node's own link). Every link is the cluster's `bw` times its
    count (SimGrid builds a topology's links so), times `efficiency`."""
    parameters = load_parameters(kind)
    cores = int(cores_per_node or parameters["cores_per_node"])
    nodes = math.ceil(ranks / cores)
    link = bytes_per_second(parameters["link_bandwidth"]) * efficiency
    if parameters["topology"] == "flat":
        return None
    if parameters["topology"] == "fat-tree":
        # A leaf switch's k uplinks, one to each top switch: what leaves it.
        k = int(parameters["nodes_per_leaf_switch"])
        return f"leaf:{k}:0:{k * link:.6g}"
    # SimGrid's Dragonfly (DragonflyZone): a router's nodes; routers of a
    # chassis linked all-to-all (green, 1 link each here); chassis of a group
    # by one black link per router position, so two chassis have `routers`
    # links between them; groups by one blue link of `links_between_groups`.
    topology, _ = topology_attributes(parameters, nodes)
    groups_chassis = topology.split('"')[3].split(";")
    chassis = int(groups_chassis[1].split(",")[0])
    routers = int(parameters["routers_per_chassis"])
    per_router = int(parameters["nodes_per_router"])
    global_links = int(parameters["links_between_groups"])
    return (f"router:{per_router}:{link:.6g}:0 chassis:{routers}:{routers * link:.6g}:0 "
            f"group:{chassis}:{global_links * link:.6g}:0")


def link_efficiency(kind, model_path):
    """What a calibrated model measured of the platform's node link: its
    injection_bandwidth (all of a node's ranks sending at once) over the
    link's nominal bandwidth, at most 1 (SMPI charges large messages at
    about 0.9 of a link's bandwidth); 1 where the model has no figure."""
    with open(model_path) as stream:
        values = {key.strip(): value.strip() for key, value in
                  (line.split("=", 1) for line in stream if "=" in line and not line.startswith("#"))}
    measured = float(values.get("injection_bandwidth", "0") or 0)
    nominal = bytes_per_second(load_parameters(kind)["link_bandwidth"])
    return min(1.0, measured / nominal) if measured > 0 else 1.0


def write_platform(kind, ranks, cores_per_node, directory):
    parameters = load_parameters(kind)
    kind = os.path.basename(kind)[:-5] if kind.endswith(".json") else kind
    cores = int(cores_per_node or parameters["cores_per_node"])
    if ranks < 1 or cores < 1:
        raise SystemExit("smpi.py: --ranks and --cores-per-node must be at least 1")
    nodes = math.ceil(ranks / cores)
    topology, total = topology_attributes(parameters, nodes)
    xml = f"""<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<!-- {kind}: {parameters.get('description', '')}.
     Generated by benchmarks/scale/smpi.py from platforms/{kind}.json (sources there). -->
<platform version="4.1">
  <cluster id="{kind}" prefix="node-" suffix="" radical="0-{total - 1}" speed="{HOST_SPEED}" core="{cores}"
           bw="{parameters['link_bandwidth']}" lat="{parameters['link_latency']}"
           loopback_bw="{parameters['loopback_bandwidth']}" loopback_lat="{parameters['loopback_latency']}"{topology}/>
</platform>
"""
    os.makedirs(directory, exist_ok=True)
    xml_path = os.path.join(directory, f"{kind}-{ranks}.xml")
    hosts_path = os.path.join(directory, f"{kind}-{ranks}.hosts")
    with open(xml_path, "w") as stream:
        stream.write(xml)
    with open(hosts_path, "w") as stream:
        left = ranks
        for node in range(nodes):
            stream.write(f"node-{node}:{min(cores, left)}\n")
            left -= cores
    return xml_path, hosts_path


def smpirun_command(xml_path, hosts_path, ranks, configuration):
    command = ["smpirun", "-np", str(ranks), "-platform", xml_path, "-hostfile", hosts_path,
               f"--cfg=smpi/host-speed:{HOST_SPEED}", "--cfg=smpi/shared-malloc:global",
               # folded memory maps 256 MiB blocks, not 1 MiB ones: thousands of
               # ranks' arrays stay within the kernel's vm.max_map_count
               # (65,530 mappings; 1,024 ranks of 2048^3 need ~400,000 at 1 MiB)
               "--cfg=smpi/shared-malloc-blocksize:268435456",
               # recursive doubling, as MPICH and Open MPI do for small blocks:
               # SMPI's default allgather posts all P^2 messages at once, and
               # its bookkeeping of messages in flight then costs hours at
               # 256 ranks (node placement's MPI_Allgather)
               "--cfg=smpi/allgather:rdb",
               # Small-message collectives as Open MPI and MPICH run them
               # (binomial trees, Bruck's barrier). SMPI's defaults are
               # linear at the root: its allreduce is a flat reduce whose
               # root waits on P-1 requests, and SimGrid's waitany costs O(P)
               # per completion, so one allreduce costs O(P^2) host time --
               # half of a 2,048-rank plan's simulation (perf), 13x less wall
               # time with these (docs/guide/scale.md). Recursive doubling
               # (smpi/allreduce:rdb) is worse here: P flows at once in every
               # round, and SimGrid's solver pays for each of them per event.
               "--cfg=smpi/allreduce:redbcast", "--cfg=smpi/reduce:binomial",
               "--cfg=smpi/bcast:binomial_tree", "--cfg=smpi/barrier:ompi_bruck",
               # The same for gather and scatter: SMPI's MPI_Comm_split gathers
               # every rank's color and key at rank 0, and its default gather
               # is linear there (an 8,192-rank plan spent minutes of host
               # time in one grid split; a 4,096-rank probe of one split and
               # one dup took 50 s of wall time, 21 s with these).
               "--cfg=smpi/gather:ompi_binomial", "--cfg=smpi/scatter:ompi_binomial",
               "--log=root.thres:warning", "--log=smpi_config.thres:error"]
    return command + [f"--cfg={item}" for item in configuration]


def scratch_environment(directory):
    """The environment of an smpirun in `directory`: its per-rank copies of the
    program (SMPI's dlopen privatization) go there too (smpirun passes
    smpi/tmpdir from TMPDIR), apart from every other run's."""
    return dict(os.environ, TMPDIR=directory)


# Each simulated rank dlopens its own copy of the program (SMPI's dlopen
# privatization): 8 memory mappings per rank, so the kernel's default limit
# of 65,530 mappings stopped an 8,192-rank run at rank 8,157 with "dlopen
# failed: cannot map zero-fill pages". Folded arrays add a few thousand.
MAPPINGS_PER_RANK = 8
MAPPINGS_OTHER = 4096


def check_map_count(ranks):
    """Refuse, with the remedy, a rank count the kernel's mapping limit cannot hold."""
    try:
        with open("/proc/sys/vm/max_map_count") as stream:
            limit = int(stream.read())
    except (OSError, ValueError):
        return
    needed = MAPPINGS_PER_RANK * ranks + MAPPINGS_OTHER
    if limit < needed:
        raise SystemExit(f"smpi.py: {ranks} simulated ranks need about {needed} memory mappings; "
                         f"the kernel allows {limit} (vm.max_map_count). As root: "
                         f"sysctl -w vm.max_map_count={max(needed, 1048576)}")


def descendants_memory(root):
    """Proportional set size (Pss, bytes) of the processes below `root`. Pss,
    not RSS: folded memory maps the same pages thousands of times, and RSS
    counts each mapping (a 1,024-rank run shows 6.2 GB resident for 1.06 GB
    of memory actually held)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stream:
                    parents[int(entry)] = int(stream.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    total = 0
    for pid in parents:
        ancestor = parents.get(pid)
        while ancestor and ancestor != root:
            ancestor = parents.get(ancestor)
        if ancestor != root:
            continue
        try:
            with open(f"/proc/{pid}/smaps_rollup") as stream:
                for line in stream:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


class MemoryWatch:
    """The peak Pss of this process's children while the block runs, sampled
    every `interval` seconds (`peak`, bytes; a peak shorter than that can
    be missed). Reading a process's Pss walks all its mappings -- hundreds
    of thousands at 16,384 simulated ranks, a quarter of a core at one
    sample per second -- so the watch waits at least 20 times as long as
    a sample took: at most 5 % of a core."""

    def __init__(self, interval=1.0):
        self.interval, self.peak = interval, 0
        self._stop = threading.Event()

    def _watch(self):
        while not self._stop.is_set():
            start = time.monotonic()
            self.peak = max(self.peak, descendants_memory(os.getpid()))
            self._stop.wait(max(self.interval, 20 * (time.monotonic() - start)))

    def __enter__(self):
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exception):
        self._stop.set()
        self._thread.join()


def switch_on(value):
    """src/platform_smpi.c's rule for DISTFFT_SMPI_FOLD and DISTFFT_SMPI_SAMPLE
    (C's atoi: optional blanks, a sign and digits) -- a number above 0 is on."""
    number = re.match(r"\s*([+-]?\d+)", value or "")
    return bool(number) and int(number.group(1)) > 0


def check_results_wanted(program, sample, fold, environment):
    """Refuse, before anything runs, a run that reads the transforms' results
    (distfft-bench --check or --save) with memory folding or sampled
    computation switched on (--fold, --sample, or DISTFFT_SMPI_FOLD /
    DISTFFT_SMPI_SAMPLE in the environment): folded arrays share their
    pages among all simulated ranks and sampled steps are charged without
    running, so the results are garbage (a 256-rank --check with --fold
    reported a serial error of 1.0). distfft-bench refuses it too."""
    wanted = next((word.split("=")[0] for word in program[1:]
                   if word == "--check" or word == "--save" or word.startswith("--save=")), None)
    if wanted is None:
        return
    folded = "--fold" if fold else ("DISTFFT_SMPI_FOLD=" + environment["DISTFFT_SMPI_FOLD"]
                                    if switch_on(environment.get("DISTFFT_SMPI_FOLD")) else None)
    sampled = f"--sample {sample}" if sample else ("DISTFFT_SMPI_SAMPLE=" + environment["DISTFFT_SMPI_SAMPLE"]
                                                   if switch_on(environment.get("DISTFFT_SMPI_SAMPLE")) else None)
    if folded:
        raise SystemExit(f"smpi.py: {wanted} needs the transforms' results, but memory folding ({folded}) makes "
                         "them garbage: every simulated rank's arrays share the same pages (timing only). "
                         f"Run {wanted} without folding (no --fold, DISTFFT_SMPI_FOLD unset); "
                         "a 256-rank --check fits in memory without it.")
    if sampled:
        raise SystemExit(f"smpi.py: {wanted} needs the transforms' results, but sampled computation ({sampled}) "
                         "makes them garbage: sampled steps are charged, not run (timing only). "
                         f"Run {wanted} without sampling (no --sample, DISTFFT_SMPI_SAMPLE unset).")


def run(kind, ranks, cores_per_node, sample, fold, configuration, program):
    """Run `program` under smpirun; returns (exit status, wall seconds, peak
    memory in bytes)."""
    check_results_wanted(program, sample, fold, os.environ)
    check_map_count(ranks)
    environment = dict(os.environ)
    if sample:
        environment["DISTFFT_SMPI_SAMPLE"] = str(sample)
    if fold:
        environment["DISTFFT_SMPI_FOLD"] = "1"
    with tempfile.TemporaryDirectory(prefix="distfft-smpi-") as directory:
        xml_path, hosts_path = write_platform(kind, ranks, cores_per_node, directory)
        if os.path.exists(program[0]):  # smpirun runs in the scratch directory
            program = [os.path.abspath(program[0])] + program[1:]
        command = smpirun_command(xml_path, hosts_path, ranks, configuration) + program
        start = time.monotonic()
        environment["TMPDIR"] = directory
        with MemoryWatch() as memory:
            status = subprocess.call(command, env=environment, cwd=directory)
        return status, time.monotonic() - start, memory.peak


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", required=True)
    for action in ("platform", "levels", "run"):
        one = sub.add_parser(action)
        one.add_argument("kind")
        one.add_argument("--ranks", type=int, required=True)
        one.add_argument("--cores-per-node", type=int, default=0,
                         help="cores (ranks) per node; default: the platform file's")
        if action == "platform":
            one.add_argument("--out", required=True)
        elif action == "levels":
            one.add_argument("--model", help="a model calibrated on this platform: links at its measured "
                             "fraction of their nominal bandwidth")
        else:
            one.add_argument("--sample", type=int, default=0,
                             help="DISTFFT_SMPI_SAMPLE: runs measured per distinct local step")
            one.add_argument("--fold", action="store_true", help="DISTFFT_SMPI_FOLD: memory folding")
            one.add_argument("--cfg", action="append", default=[], help="more SimGrid configuration")
    program = []
    if "--" in argv:
        program = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    args = parser.parse_args(argv)
    if args.action == "platform":
        for path in write_platform(args.kind, args.ranks, args.cores_per_node, args.out):
            print(path)
        return 0
    if args.action == "levels":
        efficiency = link_efficiency(args.kind, args.model) if args.model else 1.0
        levels = network_levels(args.kind, args.ranks, args.cores_per_node, efficiency)
        print(f"network_levels = {levels}" if levels else "# a flat cluster: no network levels")
        return 0
    if not program:
        parser.error("run: give the program after --")
    status, wall, memory = run(args.kind, args.ranks, args.cores_per_node, args.sample, args.fold,
                               args.cfg, program)
    print(f"smpi.py: wall {wall:.1f} s, peak memory {memory / 1e9:.2f} GB", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
