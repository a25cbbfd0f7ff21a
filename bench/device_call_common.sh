# Sourced by the one-call device scripts (bench/i16_*_call.sh): where things
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
# e4_against_unfused LIMIT CASES: the unfused E4 baseline (cuBLAS's product,
# bench/e4_unfused_baseline.py) to $OUT/e4_unfused.log, then `tilescope
# bench --gpu --wgmma --case CASES` (tuned) to $OUT/bench.log and
# bench.json, within LIMIT seconds; the K = 100864 lines and the cases' rows
# to the summary.
e4_against_unfused() {
  PYTHONUNBUFFERED=1 timeout 60 python3 "$ROOT/bench/e4_unfused_baseline.py" > "$OUT/e4_unfused.log" 2>&1
  log "e4_unfused_baseline.py: exit $? $(grep -E 'K=100864' "$OUT/e4_unfused.log" | tr '\n' ' ')"
  timeout "$1" "$TS" bench --gpu --wgmma --case "$2" --json-out "$OUT/bench.json" > "$OUT/bench.log" 2>&1
  log "tuned: exit $? $(grep -E "^($(echo "$2" | tr ',' '|')) " "$OUT/bench.log" | tr '\n' ' ')"
}
# ab_rounds "CASE FLAGS" CFG...: `tilescope bench --gpu --case CASE FLAGS CFG`
# for each configuration CFG in turn, two rounds (A/B/A/B: a drift of the
# host shows as a difference between rounds); output to $OUT/ab.log, each
# row to the summary.
ab_rounds() {
  local what=$1 round cfg
  shift
  : > "$OUT/ab.log"
  for round in 1 2; do
    for cfg in "$@"; do
      echo "=== round $round: $cfg" >> "$OUT/ab.log"
      # shellcheck disable=SC2086
      timeout 120 "$TS" bench --gpu --case $what $cfg >> "$OUT/ab.log" 2>&1
      log "round $round, $what $cfg: exit $? $(grep -E "^${what%% *} " "$OUT/ab.log" | tail -1)"
    done
  done
}
# cublas_tf32_4096: cuBLAS's tf32 product at 4096^3 (torch.matmul), timed
# back to back (100 runs after 10; median and minimum) to $OUT/cublas.log.
# (triton_at_scale.py's torch column times it with Triton's do_bench, L2
# cleared before each run: 0.373 ms in the eighteenth round's "Done when"
# call, against 0.356-0.361 here in its calls 2-4, all on H200s.)
cublas_tf32_4096() {
  PYTHONUNBUFFERED=1 timeout 120 python3 - > "$OUT/cublas.log" 2>&1 <<'PY'
import torch
torch.backends.cuda.matmul.allow_tf32 = True
a = torch.rand(4096, 4096, device="cuda"); b = torch.rand(4096, 4096, device="cuda")
for _ in range(10): a @ b
times = []
for _ in range(100):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record(); a @ b; e.record(); torch.cuda.synchronize(); times.append(s.elapsed_time(e))
times.sort()
print(f"cuBLAS tf32 4096^3 (torch.matmul): median {times[50]:.4f} ms, min {times[0]:.4f} ms")
PY
  log "cublas: exit $? $(tail -1 "$OUT/cublas.log")"
}
# ncu_source_profile NAME KERNEL_REGEX "SECTIONS" ARGS...: Nsight Compute on
# the fourth launch of the kernels KERNEL_REGEX names in `tilescope ARGS`,
# SECTIONS (Nsight section names, space-separated) printed in full to
# $OUT/ncu_NAME.txt, then its source page (each SASS instruction's stall
# samples) to $OUT/ncu_NAME_sass.csv.
ncu_source_profile() {
  local name=$1 kernel=$2 sections=$3 section ncu
  local args=()
  shift 3
  for section in $sections; do args+=(--section "$section"); done
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  timeout 240 "$ncu" "${args[@]}" --print-details all -k "regex:$kernel" --launch-skip 3 --launch-count 1 \
    -o "$BUILD/$name" -f "$TS" "$@" > "$OUT/ncu_$name.txt" 2>&1
  log "ncu $name: exit $? $(grep -E 'Duration|Issue Slots Busy|Executed Instructions  |Warp Cycles Per Issued|No Eligible' "$OUT/ncu_$name.txt" | tr -s ' ' | tr '\n' ';')"
  # -o writes the report only: its sections come from importing it.
  timeout 120 "$ncu" --import "$BUILD/$name.ncu-rep" --print-details all >> "$OUT/ncu_$name.txt" 2>&1
  log "sections: $(grep -E 'Duration|Compute \(SM\) Throughput|Memory Throughput|L2 Cache Throughput|L1/TEX Cache Throughput|Issue Slots Busy|Executed Ipc Active' "$OUT/ncu_$name.txt" | tr -s ' ' | tr '\n' ';')"
  timeout 120 "$ncu" --import "$BUILD/$name.ncu-rep" --page source --csv --print-source sass > "$OUT/ncu_${name}_sass.csv" 2>&1
  log "source page: exit $? $(wc -l < "$OUT/ncu_${name}_sass.csv") lines"
}
