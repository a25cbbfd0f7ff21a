# add_subdirectory(tilescope) from an outside project configures and gives
# tilescope::tilescope (configure only: building would compile tilescope a
# second time; consumer_check.cmake builds and runs the installed way).
#
# cmake -DTILESCOPE_SOURCE_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=... -DCXX=... -DGENERATOR=...
#       -P consumer_subdirectory_check.cmake
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR} -G ${GENERATOR}
                        -DCMAKE_CXX_COMPILER=${CXX} -DTILESCOPE_SOURCE_DIR=${TILESCOPE_SOURCE_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the consumer with add_subdirectory(tilescope) failed (${rc}):\n${out}\n${err}")
endif()
if(err MATCHES "CMake Warning|CMake Deprecation")
  message(FATAL_ERROR "configuring the consumer with add_subdirectory(tilescope) warns:\n${err}")
endif()
message(STATUS "add_subdirectory(tilescope) configures; layer_norm links tilescope::tilescope")
