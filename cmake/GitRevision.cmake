# cmake -DSOURCE=<dir> -DOUTPUT=<file> -P GitRevision.cmake
# Writes `#define DISTFFT_GIT_REVISION "<git describe --always --dirty>"` to
# OUTPUT, touching it only when the revision changed, so distfft-bench's JSON
# names the revision it was built from (run at every build, not at configure).
execute_process(COMMAND git -C ${SOURCE} describe --always --dirty
  OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(revision)
  set(text "#define DISTFFT_GIT_REVISION \"${revision}\"\n")
else()
  set(text "/* not built from a git checkout */\n")
endif()
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} previous)
endif()
if(NOT "${previous}" STREQUAL "${text}")
  file(WRITE ${OUTPUT} "${text}")
endif()
