# Read by CTest after the discovered Catch2 tests (TEST_INCLUDE_FILES, set
# in tests/CMakeLists.txt): the longest ones get a COST so that ctest -j
# starts them first. A fresh build (CI) has no timings of its own
# (Testing/Temporary/CTestCostData.txt) and would start them where they
# come, possibly last, then wait for one of them on one core. The costs are
# rough seconds of a release build; only their order matters.
set(tilescope_long_tests
  # GPU back end (where NVRTC is found): host emulation and NVRTC compiles
  "emulated: every example kernel matches the interpreter on its first two size sets" 320
  "emulated: the benchmark block sizes work on small problems" 210
  "emulated: every puzzle solution matches the interpreter on its first two size sets" 150
  "emulated: the semantics cases compute what the interpreter computes" 150
  "every example kernel compiles with NVRTC for sm_90a at every size set, benchmark sizes included" 85
  "every GPU test case compiles with NVRTC at 1, 4 and 8 warps" 80
  "emulated: code that keeps every load computes the same" 80
  "emulated: every scan, sort and permutation op computes the interpreter's bits" 70
  "every puzzle solution and stub compiles with NVRTC for sm_90a at every size set" 50
  "emulated: the block-pointer kernels compute what the interpreter computes" 45
  "every broken kernel that builds compiles with NVRTC" 15
  "the CUDA generated for every puzzle, example, broken kernel and bench variant matches tests/golden/cuda.txt" 15
  "every scan, sort and permutation op lowers to CUDA that NVRTC compiles for sm_90a, at 1, 4 and 8 warps" 15
  # everywhere
  "fusion and thread count leave every puzzle's and example's launches unchanged" 90
  "check skips a benchmark-size set unless it is named" 40
  "cli: Ctrl-C on a long check prints the report, writes the partial trace and exits 130" 10
  "the default budget stops broken/runaway_loop (2e9 iterations) with its finding at the BUG line" 10
  "fusion and thread count leave every broken kernel's findings unchanged" 5)
while(tilescope_long_tests)
  list(POP_FRONT tilescope_long_tests name cost)
  # In CTest a name it does not know (a GPU test without the GPU back end,
  # a test renamed since) is passed over without an error.
  set_tests_properties("${name}" PROPERTIES COST ${cost})
endwhile()
