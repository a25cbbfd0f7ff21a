# The consumer-project test: install this build of tilescope into a fresh
# prefix, configure and build tests/consumer (an outside project that only
# does find_package(tilescope) and includes <tilescope/tilescope.h>), run
# its kernel, and check its result and its one finding.
#
# cmake -DTILESCOPE_BUILD_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=...
#       -DCXX=... -DGENERATOR=... [-DBUILD_TYPE=...] [-DCXX_FLAGS=...] -P consumer_check.cmake
foreach(var TILESCOPE_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR CXX GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "consumer_check.cmake needs -D${var}=...")
  endif()
endforeach()

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

step("cmake --install" ${CMAKE_COMMAND} --install ${TILESCOPE_BUILD_DIR} --prefix ${prefix})
foreach(f include/tilescope/tilescope.h bin/tilescope)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "cmake --install did not install ${f}")
  endif()
endforeach()

# Only the prefix: the consumer must not see tilescope's sources or build tree.
step("configuring the consumer project" ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build
     -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX}
     -DCMAKE_BUILD_TYPE=${BUILD_TYPE} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${CXX_FLAGS}")
step("building the consumer project" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)

execute_process(COMMAND ${WORK_DIR}/build/layer_norm WORKING_DIRECTORY ${WORK_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer's layer_norm exited with ${rc}: wrong values, or not exactly its one finding")
endif()
# Its finding, as a compiler would say it, at the kernel's line in the
# consumer's own file.
if(NOT out MATCHES "layer_norm\\.cpp:[0-9]+:[0-9]+: error: out-of-bounds load from w")
  message(FATAL_ERROR "the consumer's output lacks its finding (layer_norm.cpp:LINE:COL: error: out-of-bounds load from w ...)")
endif()
if(NOT EXISTS ${WORK_DIR}/layer_norm_trace.json)
  message(FATAL_ERROR "the consumer did not write its trace")
endif()
# The installed executable replays the consumer's trace (without a display
# it must fail cleanly, saying so, rather than crash).
execute_process(COMMAND ${prefix}/bin/tilescope view ${WORK_DIR}/layer_norm_trace.json --help
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the installed tilescope does not run (${rc})")
endif()
message(STATUS "consumer project: installed, built, ran; result and finding checked")
