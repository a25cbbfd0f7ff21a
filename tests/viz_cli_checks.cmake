# `tilescope view` as a user runs it (run under xvfb-run by CTest):
#   cmake -DTILESCOPE=path/to/tilescope -P viz_cli_checks.cmake
# - without a display: one clear line naming xvfb-run, a non-zero exit;
# - a malformed or truncated trace file: a clear error naming it, exit 1, no crash;
# - a screenshot with the cells sidecar: exit 0, both files written.

function(expect_failure name pattern)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${name}: expected a failure, got exit 0\n${out}${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "${name}: expected a message matching '${pattern}', got:\n${out}${err}")
  endif()
  message(STATUS "${name}: ok (exit ${rc})")
endfunction()

expect_failure("no display" "no display.*xvfb-run.*--screenshot"
  ${CMAKE_COMMAND} -E env --unset=DISPLAY ${TILESCOPE} view 4)

file(WRITE viz_cli_truncated.json "{\"format\": \"tilescope-trace\", \"version\": 1, \"kernel\": \"k\", \"grid\": [1,")
expect_failure("truncated trace" "viz_cli_truncated.json: trace JSON"
  ${TILESCOPE} view viz_cli_truncated.json --screenshot viz_cli_never.png)
file(WRITE viz_cli_garbage.json "not json at all")
expect_failure("malformed trace" "viz_cli_garbage.json: trace JSON"
  ${TILESCOPE} view viz_cli_garbage.json)
expect_failure("unknown target" "neither a puzzle" ${TILESCOPE} view 99)
expect_failure("bad mode" "--mode takes" ${TILESCOPE} view 4 --mode sideways)

file(REMOVE viz_cli_p04.png viz_cli_p04.json)
execute_process(COMMAND ${TILESCOPE} view 4 --program 3,2 --event 2 --screenshot viz_cli_p04.png --cells viz_cli_p04.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS viz_cli_p04.png OR NOT EXISTS viz_cli_p04.json)
  message(FATAL_ERROR "screenshot: exit ${rc}, files missing\n${out}${err}")
endif()
file(READ viz_cli_p04.json cells)
string(JSON lanes ERROR_VARIABLE json_error LENGTH "${cells}" grids 2 event_lanes)
if(json_error OR NOT lanes EQUAL 1024)
  message(FATAL_ERROR "screenshot: the cells sidecar should list the 1024 lanes of z's store: ${json_error}")
endif()
message(STATUS "screenshot: ok")
