# Every binary must start on a machine without a GPU driver: none may list
# libcuda.so among the shared libraries it needs (the driver is dlopen'ed).
# Usage: cmake -DBINARIES="a;b" -P no_libcuda.cmake
foreach(bin IN LISTS BINARIES)
  execute_process(COMMAND readelf -d ${bin} OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "readelf -d ${bin} failed (${rc})")
  endif()
  if(dyn MATCHES "libcuda\\.so")
    message(FATAL_ERROR "${bin} needs the CUDA driver library; it would not start without a GPU driver:\n${dyn}")
  endif()
  message(STATUS "${bin}: no dependency on the CUDA driver library")
endforeach()
