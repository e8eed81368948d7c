#!/usr/bin/env bash
# bundle.sh -- pack this Debian 12 machine's Open MPI and FFTW (the files of
# their installed packages and of the libraries they load) into
# .device/debian-mpi-fftw.tar.gz, for a lent machine that has neither and
# cannot reach a package mirror (the 16-core host of the `device` tool:
# Ubuntu 24.04). node.sh unpacks it there over / without replacing any file
# the machine already has (its newer C library, zlib, ... stay).
#
#   benchmarks/device/bundle.sh        # then carry .device and build
#
# The C library and compiler runtime are left out: the target's own are
# newer and binary-compatible.
set -euo pipefail
cd "$(dirname "$0")/../.."
packages="openmpi-bin openmpi-common libopenmpi3 libpmix2 libhwloc15 libevent-core-2.1-7
  libevent-pthreads-2.1-7 libfftw3-double3 libfftw3-single3 libfftw3-long3 libfftw3-mpi3 libgomp1
  libnuma1 libnl-3-200 libnl-route-3-200 libibverbs1 librdmacm1 libfabric1 libucx0 libpsm2-2
  libpsm-infinipath1 ibverbs-providers libmunge2 libatomic1 libudev1 libuuid1 zlib1g"
list=$(mktemp)
trap 'rm -f "$list"' EXIT
for package in $packages; do
    dpkg -L "$package" >/dev/null 2>&1 || { echo "bundle.sh: $package is not installed (scripts/setup)" >&2; exit 1; }
    # files and symbolic links, not directories nor links to them (/lib ->
    # usr/lib here: the target's own layout of / stays); documentation left out
    dpkg -L "$package" | while read -r path; do
        [[ $path == /usr/share/doc/* || $path == /usr/share/man/* ]] && continue
        [ -d "$path" ] && continue
        if [ -L "$path" ] || [ -f "$path" ]; then echo "${path#/}"; fi
    done
done | sort -u >"$list"
mkdir -p .device
tar -C / -czf .device/debian-mpi-fftw.tar.gz -T "$list"
echo "bundle.sh: $(wc -l <"$list") files, $(du -h .device/debian-mpi-fftw.tar.gz | cut -f1) in .device/debian-mpi-fftw.tar.gz"
