# Sourced by bench/device_call.sh (and any other one-run device script): where things
# go, the summary log, and the build of the command line tool through
# gpu_run.sh (its own logs kept out of $OUT, which brings back few files).
#   ROOT      the repository            OUT      the device tool's output folder
#   BUILD     build-gpu/ (kept warm)    ANCHOR   .anchor/, a copy of ../shared/bench
#   SUMMARY   $OUT/summary.txt          TS       the built tilescope
#   TEST_BIN  the built test binary     SAN      compute-sanitizer
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$ROOT/gpu-results}
BUILD=${BUILD:-$ROOT/build-gpu}
ANCHOR=${ANCHOR:-$ROOT/.anchor}
mkdir -p "$OUT"
SUMMARY="$OUT/summary.txt"
TS="$BUILD/tilescope"
TEST_BIN="$BUILD/tests/tilescope_tests"
SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
export TILESCOPE_CACHE_DIR="$BUILD/cubin-cache"
log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$SUMMARY"; }
# build_or_exit TARGET...: gpu_run.sh's build step for those targets (all
# when none); without a built tilescope, the build log's tail goes to the
# summary and the call ends.
build_or_exit() {
  OUT="$BUILD-logs" STEPS=build BUILD_TARGETS="$*" "$ROOT/bench/gpu_run.sh" > /dev/null 2>&1
  [ -x "$TS" ] || { log "build failed"; tail -30 "$BUILD-logs"/*.log >> "$SUMMARY" 2>/dev/null; exit 1; }
  log "built ${*:-everything}"
}
# gpu_tests NAME LIMIT FILTER: the test cases FILTER names (from the tests'
# build folder), output to $OUT/NAME.log, its last lines to the summary.
gpu_tests() {
  (cd "$BUILD/tests" && timeout "$2" "$TEST_BIN" "$3") > "$OUT/$1.log" 2>&1
  log "$1: exit $? $(tail -3 "$OUT/$1.log" | tr '\n' ' ')"
}
# memcheck_tests NAME LIMIT FILTER: the same under compute-sanitizer memcheck,
# its error summary to the summary.
memcheck_tests() {
  (cd "$BUILD/tests" && timeout "$2" "$SAN" --tool memcheck --print-limit 10 --error-exitcode 99 "$TEST_BIN" "$3") \
    > "$OUT/$1.log" 2>&1
  log "$1: exit $? $(grep -E 'ERROR SUMMARY' "$OUT/$1.log" | tail -1)"
}
# sass_check NAME COMPILE_ARGS...: `tilescope compile COMPILE_ARGS --cuda
# --no-lines`, nvcc to a cubin for sm_90a, and the register hazard no test
# can see (bench/sass_fragment_check.py: no wgmma A register written while
# its group may be in flight), with ptxas's register count, to the summary.
sass_check() {
  local name=$1 cuda_bin
  shift
  cuda_bin=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")
  "$TS" compile "$@" --cuda --no-lines > "$BUILD/$name.cu" &&
    "$cuda_bin/nvcc" -arch=sm_90a -cubin -w -Xptxas -v -o "$BUILD/$name.cubin" "$BUILD/$name.cu" > "$BUILD/$name.ptxas" 2>&1 &&
    "$cuda_bin/cuobjdump" -sass "$BUILD/$name.cubin" | python3 "$ROOT/bench/sass_fragment_check.py" > "$BUILD/${name}_sass.log" 2>&1
  log "SASS check of $name: exit $? $(tr '\n' ' ' < "$BUILD/${name}_sass.log" 2>/dev/null) $(grep -o 'Used [0-9]* registers' "$BUILD/$name.ptxas" 2>/dev/null)"
}
