# DISTFFT_FUZZ=ON: the libFuzzer build (scripts/fuzz, build_fuzz in
# scripts/common.sh; docs/reliability.md). Clang only: every target is
# compiled with libFuzzer's coverage counters and AddressSanitizer +
# UndefinedBehaviorSanitizer, so the library's own parsers -- not just the
# harnesses -- steer the fuzzer and any report aborts the input. The
# harnesses themselves (tests/fuzz/) link libFuzzer's main; nothing else
# does, so the rest of the tree still builds into ordinary programs.
option(DISTFFT_FUZZ "Build the libFuzzer harnesses of tests/fuzz (clang)" OFF)
if(DISTFFT_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "DISTFFT_FUZZ needs clang (-DCMAKE_C_COMPILER=clang): "
      "libFuzzer is part of LLVM's compiler-rt")
  endif()
  set(_distfft_fuzz_flags
    "-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer")
  string(APPEND CMAKE_C_FLAGS " ${_distfft_fuzz_flags}")
  foreach(kind EXE SHARED MODULE)
    string(APPEND CMAKE_${kind}_LINKER_FLAGS " -fsanitize=address,undefined")
  endforeach()
  message(STATUS "distfft: libFuzzer build (tests/fuzz)")
endif()
