# DistfftInstall: what `cmake --install` lays out for other projects.
#
#   include/distfft.h                     (and distfft.mod: the Fortran module)
#   <libdir>/libdistfft.so, libdistfft.a  (and libdistfft_fortran.so)
#   <libdir>/cmake/distfft/               distfftConfig.cmake, its version file,
#                                         the exported targets, FindFFTW.cmake
#   <libdir>/pkgconfig/distfft.pc         (and distfft-fortran.pc)
#   bin/distfft-bench
#
# CMake users: find_package(distfft CONFIG REQUIRED), then link
# distfft::distfft (shared; distfft::distfft_static for the static library)
# and, with COMPONENTS Fortran, distfft::fortran. The config finds MPI and
# FFTW on the user's side (find_dependency), so the targets carry them.
# pkg-config users compile with the MPI wrapper, which brings MPI:
#   mpicc $(pkg-config --cflags --libs distfft) prog.c
# Both layouts are relocatable: the prefix is found from the files' place.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(DISTFFT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/distfft)

set_target_properties(distfft_static PROPERTIES EXPORT_NAME distfft_static)
install(TARGETS distfft distfft_static EXPORT distfftTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/distfft.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT distfftTargets NAMESPACE distfft:: DESTINATION ${DISTFFT_CMAKE_DIR})
install(TARGETS distfft-bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

if(DISTFFT_WITH_FORTRAN)
  set_target_properties(distfft_fortran PROPERTIES EXPORT_NAME fortran)
  install(TARGETS distfft_fortran EXPORT distfftFortranTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${DISTFFT_FORTRAN_MODULE_DIR}/distfft.mod DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT distfftFortranTargets NAMESPACE distfft:: DESTINATION ${DISTFFT_CMAKE_DIR})
endif()

configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/distfftConfig.cmake.in
  ${CMAKE_BINARY_DIR}/distfftConfig.cmake INSTALL_DESTINATION ${DISTFFT_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/distfftConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/distfftConfig.cmake ${CMAKE_BINARY_DIR}/distfftConfigVersion.cmake
  ${CMAKE_SOURCE_DIR}/cmake/FindFFTW.cmake DESTINATION ${DISTFFT_CMAKE_DIR})

# pkg-config files: prefix relative to the .pc file's own directory.
file(RELATIVE_PATH DISTFFT_PC_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" DISTFFT_PC_PREFIX "${DISTFFT_PC_PREFIX}")
set(_pc_files distfft)
if(DISTFFT_WITH_FORTRAN)
  list(APPEND _pc_files distfft-fortran)
endif()
foreach(pc ${_pc_files})
  configure_file(${CMAKE_SOURCE_DIR}/cmake/${pc}.pc.in ${CMAKE_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/${pc}.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
