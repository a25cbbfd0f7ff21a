#!/usr/bin/env bash
# The GPU results of bench/README.md in one run on one machine (one build,
# one GPU, minutes apart): Triton's rows (triton_at_scale.py from .anchor/,
# a copy of the anchors' Triton kernels), `check --all --gpu`, `check
# --examples --gpu`, the unfused E4 baseline, then the autotuned bench (with
# --wgmma: the tuner tries it), and the SASS check of p11's kernel. Files in
# $OUT: summary.txt, check_all.log, check_examples.log, bench.log,
# bench.json, triton.log, e4_unfused.log.
#
# Usage from the repository root, .debs/ (where Catch2 or nlohmann_json are
# not installed: bench/gpu_run.sh) and .anchor/ beside it:
#   OUT=/tmp/gpu bench/device_call.sh
# Environment:
#   COMMIT   names the tree in the summary (default: git's HEAD)
#   TESTS    a Catch2 filter of GPU test cases ("GPU: E4*") to run too, plain
#            and under compute-sanitizer memcheck; their logs go to $BUILD-logs
#   CASES    bench cases to time (default: all), as `bench --case`
#   BENCH_LIMIT  seconds for the bench (default 470)
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
timed() {  # timed NAME LIMIT COMMAND...: output to $OUT/NAME.log, exit status and seconds to the summary
  local name=$1 limit=$2 start=$SECONDS
  shift 2
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  log "$name: exit $rc after $((SECONDS - start)) s"
  return $rc
}

log "GPU results at ${COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
if [ -n "${TESTS:-}" ]; then
  build_or_exit tilescope tilescope_tests
  mkdir -p "$BUILD-logs"
  OUT="$BUILD-logs" gpu_tests tests 300 "$TESTS"
  OUT="$BUILD-logs" memcheck_tests memcheck 300 "$TESTS"
else
  build_or_exit tilescope
fi

# Triton first: its numbers come back even if a later step runs out of time.
if [ -f "$ANCHOR/triton_at_scale.py" ]; then
  (cd "$ANCHOR" && PYTHONUNBUFFERED=1 timeout 120 python3 triton_at_scale.py) > "$OUT/triton.log" 2>&1
  log "triton_at_scale.py: exit $?"
else
  log "no $ANCHOR/triton_at_scale.py: copy the anchors' Triton kernels to .anchor/"
fi
timed check_all 300 "$TS" check --all --gpu
grep -E "kernels match|SKIP|DIFFERS|ERROR" "$OUT/check_all.log" | tee -a "$SUMMARY"
timed check_examples 600 "$TS" check --examples --gpu
grep -E "kernels match|SKIP|DIFFERS|ERROR|FAIL" "$OUT/check_examples.log" | tee -a "$SUMMARY"
PYTHONUNBUFFERED=1 timeout 60 python3 "$ROOT/bench/e4_unfused_baseline.py" > "$OUT/e4_unfused.log" 2>&1
log "e4_unfused_baseline.py: exit $?"
case_args=()
[ -n "${CASES:-}" ] && case_args=(--case "$CASES")
timed bench "${BENCH_LIMIT:-470}" "$TS" bench --gpu --wgmma "${case_args[@]}" --json-out "$OUT/bench.json"
# The register hazard no test can see (bench/sass_fragment_check.py): the
# SASS of p11's bench kernel in the configuration the tuner usually picks.
sass_check p11_sass 11 --bench p11 --variant 1 --warps 8 --wgmma --tma --stages 3
log "done"
