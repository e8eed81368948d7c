# DistfftFortran: the Fortran module (`use distfft`, src/fortran/distfft.f90)
# as the library distfft_fortran (target distfft::fortran once installed),
# built only where a Fortran compiler and MPI's Fortran support are found:
# Debian's OpenMPI and MPICH ship mpifort with gfortran. Pass
# -DMPI_Fortran_COMPILER=mpifort.<mpi> with -DMPI_C_COMPILER=mpicc.<mpi> so
# both speak the same MPI. The C shims it calls (src/fortran/distfft_f.c)
# are part of libdistfft itself: they need only mpi.h.
# Sets DISTFFT_WITH_FORTRAN.
option(DISTFFT_FORTRAN "Build the Fortran module where a Fortran compiler is found" ON)
set(DISTFFT_WITH_FORTRAN OFF)
if(DISTFFT_FORTRAN)
  include(CheckLanguage)
  check_language(Fortran)
  if(CMAKE_Fortran_COMPILER)
    enable_language(Fortran)
    # Without MPI_Fortran_COMPILER, FindMPI takes the default mpifort, which
    # may be another MPI than MPI_C_COMPILER's: take the wrapper named like
    # the C one (mpicc.mpich -> mpifort.mpich) where there is one.
    if(NOT MPI_Fortran_COMPILER AND MPI_C_COMPILER)
      get_filename_component(_distfft_mpicc ${MPI_C_COMPILER} NAME)
      string(REGEX REPLACE "^mpicc" "mpifort" _distfft_mpifort "${_distfft_mpicc}")
      if(NOT _distfft_mpifort STREQUAL _distfft_mpicc)
        find_program(_distfft_mpifort_path ${_distfft_mpifort})
        if(_distfft_mpifort_path)
          set(MPI_Fortran_COMPILER ${_distfft_mpifort_path} CACHE FILEPATH
            "MPI Fortran compiler wrapper (named like MPI_C_COMPILER)")
        endif()
      endif()
    endif()
    find_package(MPI COMPONENTS Fortran)
    if(MPI_Fortran_FOUND)
      set(DISTFFT_WITH_FORTRAN ON)
    else()
      message(STATUS "distfft: no MPI Fortran support found; no Fortran module")
    endif()
  else()
    message(STATUS "distfft: no Fortran compiler; no Fortran module")
  endif()
endif()

if(DISTFFT_WITH_FORTRAN)
  set(DISTFFT_FORTRAN_MODULE_DIR ${CMAKE_BINARY_DIR}/fortran-modules)
  add_library(distfft_fortran SHARED ${CMAKE_SOURCE_DIR}/src/fortran/distfft.f90)
  set_target_properties(distfft_fortran PROPERTIES
    Fortran_MODULE_DIRECTORY ${DISTFFT_FORTRAN_MODULE_DIR}
    VERSION ${PROJECT_VERSION} SOVERSION 1
    # It finds libdistfft beside itself, built or installed (a program's
    # RUNPATH does not serve its libraries' dependencies). Set at link
    # time: MPI's Fortran link flags bring their own -rpath, which CMake
    # fails to rewrite at install time.
    BUILD_WITH_INSTALL_RPATH ON INSTALL_RPATH "$ORIGIN")
  # Assumed-rank arrays (TS 29113), checked as Fortran 2018.
  target_compile_options(distfft_fortran PRIVATE
    $<$<Fortran_COMPILER_ID:GNU>:-std=f2018 -Wall -Wextra -Wno-compare-reals>)
  target_include_directories(distfft_fortran PUBLIC
    $<BUILD_INTERFACE:${DISTFFT_FORTRAN_MODULE_DIR}>
    $<INSTALL_INTERFACE:include>)
  target_link_libraries(distfft_fortran PUBLIC distfft MPI::MPI_Fortran)
  add_library(distfft::fortran ALIAS distfft_fortran)
  message(STATUS "distfft: Fortran module with ${CMAKE_Fortran_COMPILER} and ${MPI_Fortran_COMPILER}")
endif()
