# The CUDA backend (src/cuda/, src/backend.h): libdistfft_cuda.so, built
# beside libdistfft only with -DDISTFFT_CUDA=ON. libdistfft opens it with
# dlopen when a plan first asks for device memory, so neither the core nor
# its users link CUDA. CMAKE_CUDA_ARCHITECTURES is the device's (90: SASS
# for an H100/H200, no PTX left for a newer driver's JIT to outrun);
# scripts/setup --cuda configures build-cuda/ with a pinned toolchain from
# PyPI wheels (nvcc, cudart, cuFFT), whose shared libraries carry only
# versioned names (libcufft.so.12), hence NAMES below.
if(NOT DISTFFT_CUDA)
  return()
endif()
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(CMAKE_CUDA_ARCHITECTURES 90)
endif()
enable_language(CUDA)
set(CMAKE_CUDA_STANDARD 17)
get_filename_component(_distfft_cuda_root "${CMAKE_CUDA_COMPILER}" DIRECTORY)
get_filename_component(_distfft_cuda_root "${_distfft_cuda_root}" DIRECTORY)
find_library(DISTFFT_CUFFT NAMES cufft libcufft.so.12 libcufft.so.11
  HINTS "${_distfft_cuda_root}/lib" "${_distfft_cuda_root}/lib64" ${CMAKE_CUDA_IMPLICIT_LINK_DIRECTORIES}
  REQUIRED)
# NCCL's header only (nccl.cu types its calls from it): the backend opens
# libnccl.so.2 with dlopen, so it loads where NCCL is absent.
find_path(DISTFFT_NCCL_INCLUDE nccl.h
  HINTS "${_distfft_cuda_root}/../nccl/include" "${_distfft_cuda_root}/include" ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES}
  REQUIRED)
file(GLOB DISTFFT_CUDA_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/cuda/*.cu)
add_library(distfft_cuda SHARED ${DISTFFT_CUDA_SOURCES})
# The core's headers name MPI's types (step.h): its headers, not its library;
# nothing here calls MPI or any symbol of libdistfft (backend.h's services).
target_include_directories(distfft_cuda PRIVATE ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/src
  ${MPI_C_INCLUDE_DIRS} ${DISTFFT_NCCL_INCLUDE})
target_link_libraries(distfft_cuda PRIVATE ${DISTFFT_CUFFT} ${CMAKE_DL_LIBS})
target_link_options(distfft_cuda PRIVATE -Wl,--no-undefined)
# cuFFT found where the build found it (a versioned name gets no automatic
# run path); on a device machine, LD_LIBRARY_PATH may name the machine's own.
get_filename_component(_distfft_cufft_dir "${DISTFFT_CUFFT}" DIRECTORY)
set_target_properties(distfft_cuda PROPERTIES CUDA_RUNTIME_LIBRARY Static
  CUDA_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
  BUILD_RPATH "${_distfft_cufft_dir}" INSTALL_RPATH "${_distfft_cufft_dir}")

# The CUDA runtime for programs of build-cuda that allocate device memory
# themselves (the device tests, the device benchmark): linked statically,
# as the backend links it, so they need no libcudart on the device machine,
# only its driver.
find_library(DISTFFT_CUDART_STATIC NAMES cudart_static libcudart_static.a
  HINTS "${_distfft_cuda_root}/lib" "${_distfft_cuda_root}/lib64" ${CMAKE_CUDA_IMPLICIT_LINK_DIRECTORIES}
  REQUIRED)
add_library(distfft_cuda_runtime INTERFACE)
target_include_directories(distfft_cuda_runtime INTERFACE "${_distfft_cuda_root}/include")
target_link_libraries(distfft_cuda_runtime INTERFACE ${DISTFFT_CUDART_STATIC} Threads::Threads ${CMAKE_DL_LIBS} rt)
