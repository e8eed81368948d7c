# FindFFTW: serial FFTW3 in double, single and long double precision, with
# FFTW's threads libraries (libfftw3_threads, libfftw3f_threads,
# libfftw3l_threads: Debian's libfftw3-dev ships them), which distfft's
# threaded plans need. Long double (libfftw3l) carries the serial API's
# DISTFFT_LONG_DOUBLE.
# Hints: FFTW_ROOT (a prefix with include/ and lib/), or CMAKE_PREFIX_PATH.
# Defines the imported target FFTW::FFTW (the three threads libraries and
# fftw3 + fftw3f + fftw3l).
find_path(FFTW_INCLUDE_DIR fftw3.h HINTS ${FFTW_ROOT} ENV FFTW_ROOT PATH_SUFFIXES include)
find_library(FFTW_DOUBLE_LIBRARY fftw3 HINTS ${FFTW_ROOT} ENV FFTW_ROOT PATH_SUFFIXES lib lib64)
find_library(FFTW_FLOAT_LIBRARY fftw3f HINTS ${FFTW_ROOT} ENV FFTW_ROOT PATH_SUFFIXES lib lib64)
find_library(FFTW_LONG_DOUBLE_LIBRARY fftw3l HINTS ${FFTW_ROOT} ENV FFTW_ROOT PATH_SUFFIXES lib lib64)
find_library(FFTW_DOUBLE_THREADS_LIBRARY fftw3_threads HINTS ${FFTW_ROOT} ENV FFTW_ROOT
  PATH_SUFFIXES lib lib64)
find_library(FFTW_FLOAT_THREADS_LIBRARY fftw3f_threads HINTS ${FFTW_ROOT} ENV FFTW_ROOT
  PATH_SUFFIXES lib lib64)
find_library(FFTW_LONG_DOUBLE_THREADS_LIBRARY fftw3l_threads HINTS ${FFTW_ROOT} ENV FFTW_ROOT
  PATH_SUFFIXES lib lib64)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(FFTW
  REQUIRED_VARS FFTW_INCLUDE_DIR FFTW_DOUBLE_LIBRARY FFTW_FLOAT_LIBRARY FFTW_LONG_DOUBLE_LIBRARY
                FFTW_DOUBLE_THREADS_LIBRARY FFTW_FLOAT_THREADS_LIBRARY
                FFTW_LONG_DOUBLE_THREADS_LIBRARY)

if(FFTW_FOUND AND NOT TARGET FFTW::FFTW)
  find_package(Threads REQUIRED)
  add_library(FFTW::FFTW INTERFACE IMPORTED)
  set_target_properties(FFTW::FFTW PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${FFTW_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES
      "${FFTW_DOUBLE_THREADS_LIBRARY};${FFTW_FLOAT_THREADS_LIBRARY};${FFTW_LONG_DOUBLE_THREADS_LIBRARY};${FFTW_DOUBLE_LIBRARY};${FFTW_FLOAT_LIBRARY};${FFTW_LONG_DOUBLE_LIBRARY};Threads::Threads")
endif()
mark_as_advanced(FFTW_INCLUDE_DIR FFTW_DOUBLE_LIBRARY FFTW_FLOAT_LIBRARY FFTW_LONG_DOUBLE_LIBRARY
  FFTW_DOUBLE_THREADS_LIBRARY FFTW_FLOAT_THREADS_LIBRARY FFTW_LONG_DOUBLE_THREADS_LIBRARY)
