# scripts/common.sh -- shared by scripts/setup and scripts/test (sourced).
# Installs what a fresh Debian 12 machine lacks, builds distfft against
# OpenMPI (build/) and MPICH (build-mpich/), and knows how to launch MPI
# programs here (as root, and with more ranks than cores).

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian packages the build and the tests need.
PACKAGES="build-essential cmake ninja-build pkg-config \
  libopenmpi-dev openmpi-bin libmpich-dev mpich libfftw3-dev python3-numpy python3-scipy valgrind"

# OpenMPI refuses to run as root and to oversubscribe unless told.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1

say() { printf '== %s\n' "$*"; }

install_packages() {
  local missing=""
  for package in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
      || missing="$missing $package"
  done
  if [ -z "$missing" ]; then
    say "Debian packages: all present"
    return 0
  fi
  say "installing Debian packages:$missing"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends $missing
}

# build_with DIR [cmake args...]: configure (once) and build.
build_with() {
  local dir=$1; shift
  if [ ! -f "$ROOT/$dir/CMakeCache.txt" ]; then
    cmake -S "$ROOT" -B "$ROOT/$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
  fi
  cmake --build "$ROOT/$dir" --parallel 2
}

build_openmpi() {
  say "building with OpenMPI in build/"
  build_with build -DMPI_C_COMPILER=mpicc.openmpi \
    -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.openmpi
}

build_mpich() {
  say "building with MPICH in build-mpich/"
  build_with build-mpich -DMPI_C_COMPILER=mpicc.mpich \
    -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich
}

# AddressSanitizer + UBSan build (README "Reliability"), Open MPI only.
build_asan() {
  say "building with AddressSanitizer + UBSan (OpenMPI) in build-asan/"
  build_with build-asan -DDISTFFT_SANITIZE=ON -DMPI_C_COMPILER=mpicc.openmpi \
    -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.openmpi
}
# The sanitizer build runs the C tests up to 4 ranks (not the distfft-bench
# and Python comparisons, not 6 and 8 ranks): ~2 minutes on two cores.
ASAN_CTEST_EXCLUDE='^bench\.|\.np[5-9]$'
