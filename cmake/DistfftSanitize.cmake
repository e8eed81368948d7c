# DISTFFT_SANITIZE=ON: build everything with AddressSanitizer and
# UndefinedBehaviorSanitizer (any report aborts the program). Leak detection
# is off under mpiexec: Open MPI's own start-up allocations can only be told
# apart with the slow unwinder (several times slower); leaks are valgrind's
# job (tests/valgrind). DISTFFT_SANITIZE_LEAKS=ON turns it on, with the MPI
# libraries suppressed (tests/sanitize/lsan.supp). scripts/test builds this
# in build-asan/ with Open MPI.
option(DISTFFT_SANITIZE "Build with -fsanitize=address,undefined" OFF)
if(DISTFFT_SANITIZE)
  set(_distfft_sanitize_flags
    "-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer")
  # CMAKE_<LANG>_FLAGS apply to every target of the directory, whenever
  # they were defined.
  string(APPEND CMAKE_C_FLAGS " ${_distfft_sanitize_flags}")
  foreach(kind EXE SHARED MODULE)
    string(APPEND CMAKE_${kind}_LINKER_FLAGS " ${_distfft_sanitize_flags}")
  endforeach()
  option(DISTFFT_SANITIZE_LEAKS "LeakSanitizer in the sanitizer build's MPI tests" OFF)
  if(DISTFFT_SANITIZE_LEAKS)
    # Open MPI unloads its components at exit, which leaves their leaks
    # without a module name to suppress by: keep them loaded. Its libraries
    # lack frame pointers, so only the slow unwinder finds the MPI frames.
    list(APPEND DISTFFT_MPI_ENVIRONMENT
      "OMPI_MCA_mca_base_component_disable_dlclose=1"
      "ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0:halt_on_error=1"
      "LSAN_OPTIONS=suppressions=${CMAKE_SOURCE_DIR}/tests/sanitize/lsan.supp:print_suppressions=0")
  else()
    list(APPEND DISTFFT_MPI_ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0:halt_on_error=1")
  endif()
  list(APPEND DISTFFT_MPI_ENVIRONMENT "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  message(STATUS "distfft: AddressSanitizer + UndefinedBehaviorSanitizer build")
endif()
