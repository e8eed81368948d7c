# distfft_add_mpi_test(NAME <name> COMMAND <target> [ARGS ...] RANKS n1 n2 ...
#                      [TIMEOUT seconds])
# Registers one CTest test per rank count, named <name>.np<n>, run under
# mpiexec. Ranks beyond the machine's cores are oversubscribed: OpenMPI needs
# --oversubscribe (and permission to run as root in containers); MPICH's
# Hydra allows it by default.

execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version
  OUTPUT_VARIABLE _distfft_mpiexec_version ERROR_VARIABLE _distfft_mpiexec_version)
if(_distfft_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(DISTFFT_MPI_VENDOR "openmpi")
  set(DISTFFT_MPIEXEC_FLAGS --oversubscribe)
  set(DISTFFT_MPI_ENVIRONMENT
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_rmaps_base_oversubscribe=1)
else()
  set(DISTFFT_MPI_VENDOR "mpich")
  set(DISTFFT_MPIEXEC_FLAGS)
  set(DISTFFT_MPI_ENVIRONMENT)
endif()
message(STATUS "distfft: tests run with ${MPIEXEC_EXECUTABLE} (${DISTFFT_MPI_VENDOR})")

# A busy-polling MPI (MPICH's ch4) slows down by orders of magnitude when
# oversubscribed, and two-core CI machines oversubscribe from 3 ranks. There
# the core correctness tests below (every method, kind and layout, errors,
# handles, the sweep, halos) keep every rank count but 5 to 7, the others
# (threads, overlap, pretended nodes, tuning, examples) stop at 3 ranks;
# Open MPI runs everything at every rank count.
cmake_host_system_information(RESULT _distfft_cores QUERY NUMBER_OF_LOGICAL_CORES)
set(DISTFFT_BUSY_POLL_FULL_TESTS test_redist test_c2c test_kinds test_methods sweep
  test_halo test_errors test_bad_input test_handles test_layouts)

function(distfft_add_mpi_test)
  cmake_parse_arguments(T "" "NAME;COMMAND;TIMEOUT" "ARGS;RANKS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  if(TARGET ${T_COMMAND})
    set(_exe $<TARGET_FILE:${T_COMMAND}>)
  else()
    set(_exe ${T_COMMAND})
  endif()
  foreach(n ${T_RANKS})
    if(NOT DISTFFT_MPI_VENDOR STREQUAL "openmpi" AND n GREATER _distfft_cores)
      if(n GREATER 3 AND NOT T_NAME IN_LIST DISTFFT_BUSY_POLL_FULL_TESTS)
        continue()
      elseif(n GREATER 4 AND n LESS 8)
        continue()
      endif()
    endif()
    # A busy-polling MPI (MPICH) crawls when two tests share the cores, so
    # there a test of n ranks claims n processors (ctest -j caps it: such a
    # test runs alone); Open MPI yields when idle, so its tests share.
    set(_processors 1)
    if(NOT DISTFFT_MPI_VENDOR STREQUAL "openmpi")
      set(_processors ${n})
    endif()
    add_test(NAME ${T_NAME}.np${n}
      COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${n}
              ${DISTFFT_MPIEXEC_FLAGS} ${MPIEXEC_PREFLAGS}
              ${_exe} ${MPIEXEC_POSTFLAGS} ${T_ARGS})
    set_tests_properties(${T_NAME}.np${n} PROPERTIES
      TIMEOUT ${T_TIMEOUT} PROCESSORS ${_processors}
      ENVIRONMENT "${DISTFFT_MPI_ENVIRONMENT}")
  endforeach()
endfunction()
