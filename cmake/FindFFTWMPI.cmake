# FindFFTWMPI: FFTW's own MPI interface (fftw3-mpi.h, libfftw3_mpi and
# libfftw3f_mpi), optional: only the FFTW-MPI peer benchmark needs it.
# Hints: FFTW_ROOT, or CMAKE_PREFIX_PATH.
# Defines the imported target FFTW::MPI (fftw3_mpi + fftw3f_mpi).
#
# The library is built against one MPI implementation (Debian's against
# OpenMPI), so FFTWMPI_FOUND also requires that a tiny program using it
# links and runs its MPI_Init-free part with the MPI we build against; a
# mismatch (e.g. the MPICH build) leaves FFTW::MPI undefined.
find_path(FFTWMPI_INCLUDE_DIR fftw3-mpi.h HINTS ${FFTW_ROOT} ENV FFTW_ROOT PATH_SUFFIXES include)
find_library(FFTWMPI_DOUBLE_LIBRARY fftw3_mpi HINTS ${FFTW_ROOT} ENV FFTW_ROOT PATH_SUFFIXES lib lib64)
find_library(FFTWMPI_FLOAT_LIBRARY fftw3f_mpi HINTS ${FFTW_ROOT} ENV FFTW_ROOT PATH_SUFFIXES lib lib64)

if(FFTWMPI_INCLUDE_DIR AND FFTWMPI_DOUBLE_LIBRARY AND FFTWMPI_FLOAT_LIBRARY
   AND NOT DEFINED FFTWMPI_MATCHES_MPI)
  # Does libfftw3_mpi link against the MPI we use? A library built for
  # another MPI leaves symbols unresolved (or pulls in a second libmpi).
  set(_fftwmpi_probe ${CMAKE_BINARY_DIR}/CMakeFiles/fftwmpi_probe.c)
  file(WRITE ${_fftwmpi_probe}
    "#include <fftw3-mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); fftw_mpi_init(); fftw_mpi_cleanup(); MPI_Finalize(); return 0; }\n")
  try_compile(FFTWMPI_MATCHES_MPI ${CMAKE_BINARY_DIR}/CMakeFiles/fftwmpi_probe
    SOURCES ${_fftwmpi_probe}
    CMAKE_FLAGS "-DINCLUDE_DIRECTORIES=${FFTWMPI_INCLUDE_DIR};${FFTW_INCLUDE_DIR}"
    LINK_LIBRARIES ${FFTWMPI_DOUBLE_LIBRARY} FFTW::FFTW MPI::MPI_C
    LINK_OPTIONS -Wl,--no-undefined -Wl,--no-allow-shlib-undefined)
  if(FFTWMPI_MATCHES_MPI)
    # Linked: make sure it is not a second MPI library beside ours.
    execute_process(COMMAND ldd ${FFTWMPI_DOUBLE_LIBRARY} OUTPUT_VARIABLE _fftwmpi_ldd ERROR_QUIET)
    string(REGEX MATCH "libmpi[^ ]*\\.so[^ ]*" _fftwmpi_needs "${_fftwmpi_ldd}")
    if(_fftwmpi_needs)
      string(JOIN " " _mpi_libraries ${MPI_C_LIBRARIES})
      get_filename_component(_fftwmpi_stem ${_fftwmpi_needs} NAME_WE)
      if(NOT _mpi_libraries MATCHES "${_fftwmpi_stem}\\.")
        set(FFTWMPI_MATCHES_MPI FALSE CACHE BOOL "libfftw3_mpi uses our MPI" FORCE)
      endif()
    endif()
  endif()
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(FFTWMPI
  REQUIRED_VARS FFTWMPI_INCLUDE_DIR FFTWMPI_DOUBLE_LIBRARY FFTWMPI_FLOAT_LIBRARY
                FFTWMPI_MATCHES_MPI)

if(FFTWMPI_FOUND AND NOT TARGET FFTW::MPI)
  add_library(FFTW::MPI INTERFACE IMPORTED)
  set_target_properties(FFTW::MPI PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${FFTWMPI_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES "${FFTWMPI_DOUBLE_LIBRARY};${FFTWMPI_FLOAT_LIBRARY};FFTW::FFTW")
endif()
mark_as_advanced(FFTWMPI_INCLUDE_DIR FFTWMPI_DOUBLE_LIBRARY FFTWMPI_FLOAT_LIBRARY)
