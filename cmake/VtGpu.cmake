# GPU toolchains are optional and detected; a laptop builds without either.
# The backends and kernels that use them arrive with their own issues; until
# then this only proves the toolchain is there and sets the targets built for.
if(VT_ENABLE_CUDA)
  include(CheckLanguage)
  check_language(CUDA)
  if(NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "VT_ENABLE_CUDA is ON but no CUDA compiler was found (set CUDACXX)")
  endif()
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)  # sm_90 SASS + compute_90 PTX
  endif()
  enable_language(CUDA)
  message(STATUS "vt: CUDA ${CMAKE_CUDA_COMPILER_VERSION} for architectures ${CMAKE_CUDA_ARCHITECTURES}")
endif()
if(VT_ENABLE_HIP)
  find_program(VT_HIPCC hipcc)
  if(NOT VT_HIPCC)
    message(FATAL_ERROR "VT_ENABLE_HIP is ON but hipcc was not found")
  endif()
  set(VT_HIP_ARCHITECTURES "gfx90a;gfx1030" CACHE STRING "HIP offload targets")
  message(STATUS "vt: HIP through ${VT_HIPCC} for ${VT_HIP_ARCHITECTURES}")
endif()
