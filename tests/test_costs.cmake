# Read by CTest after the discovered Catch2 tests (TEST_INCLUDE_FILES, set
# in tests/CMakeLists.txt): the longest ones get a COST so that ctest -j
# starts them first. A fresh build (CI) has no timings of its own
# (Testing/Temporary/CTestCostData.txt) and would start them where they
# come, possibly last, then wait for one of them on one core. The costs are
# seconds measured on 2 cores (release build; only their order matters).
set(tilescope_long_tests
  "fusion and thread count leave every puzzle's and example's launches unchanged" 90
  "check skips a benchmark-size set unless it is named" 40
  "cli: Ctrl-C on a long check prints the report, writes the partial trace and exits 130" 10
  "the default budget stops broken/runaway_loop (2e9 iterations) with its finding at the BUG line" 10
  "fusion and thread count leave every broken kernel's findings unchanged" 5)
while(tilescope_long_tests)
  list(POP_FRONT tilescope_long_tests name cost)
  # A test renamed since: no error, the order just falls back to ctest's.
  if(TEST "${name}")
    set_tests_properties("${name}" PROPERTIES COST ${cost})
  endif()
endwhile()
