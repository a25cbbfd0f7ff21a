#!/usr/bin/env bash
# Issue 16's "Done when" in one call of the device tool (one machine, one
# build): Triton's numbers from ../shared/bench/triton_at_scale.py (carried
# as .anchor/), check --all --gpu, check --examples --gpu, the unfused E4
# baseline, then the autotuned bench (with --wgmma: the tuner tries it), on
# the same GPU, minutes apart. Seven files land in $OUT:
# summary.txt, check_all.log, check_examples.log, bench.log, bench.json,
# triton.log, e4_unfused.log.
#
# Usage from the repository root, .debs/ and .anchor/ carried (COMMIT=REV names the
# working tree in the summary: the device tool's copy of .git may be older):
#   OUT=/tmp/i16 bench/i16_one_call.sh        (TESTS="GPU: E4 with dY*" adds those; it needed 11-12 min on an H100 host,
#   past the device tool's 10-minute limit for one command, until the tuner
#   compiled its variants on every core first: compile_in_parallel, tenth round)
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

log "issue 16, one call, at ${COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
# gpu_run.sh's build step, its logs kept out of $OUT; only the command line
# tool (the tests are another call's: i16_device_run.sh), unless TESTS names
# GPU test cases (a Catch2 filter) to run here, as they are and under
# compute-sanitizer memcheck: their results in the summary, their logs in
# $BUILD-logs (two more files in $OUT cost triton.log in the sixteenth
# round's call 4: the device tool brings back at most eight).
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
  log "no $ANCHOR/triton_at_scale.py: copy ../shared/bench to .anchor and carry it"
fi
timed check_all 300 "$TS" check --all --gpu
grep -E "kernels match|SKIP|DIFFERS|ERROR" "$OUT/check_all.log" | tee -a "$SUMMARY"
timed check_examples 600 "$TS" check --examples --gpu
grep -E "kernels match|SKIP|DIFFERS|ERROR|FAIL" "$OUT/check_examples.log" | tee -a "$SUMMARY"
# The unfused E4 baseline before the bench: on a fresh host the bench can
# reach the device tool's 10-minute limit (call 7 of the seventh round lost it).
PYTHONUNBUFFERED=1 timeout 60 python3 "$ROOT/bench/e4_unfused_baseline.py" > "$OUT/e4_unfused.log" 2>&1
log "e4_unfused_baseline.py: exit $?"
# 420 s was not enough in the eighth round's call 10 (the last row, e5_bwd, was
# cut); past the device tool's own limit the files written so far still come back.
timed bench 470 "$TS" bench --gpu --wgmma --json-out "$OUT/bench.json"
# The register hazard no test can see (bench/sass_fragment_check.py): the SASS
# of p11's bench kernel, the tuner's usual pick, compiled here.
CUDA_BIN=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")
"$TS" compile 11 --cuda --bench p11 --variant 1 --warps 8 --wgmma --tma --stages 3 --no-lines > "$BUILD/p11_sass.cu" &&
  "$CUDA_BIN/nvcc" -arch=sm_90a -cubin -w -o "$BUILD/p11_sass.cubin" "$BUILD/p11_sass.cu" &&
  "$CUDA_BIN/cuobjdump" -sass "$BUILD/p11_sass.cubin" | python3 "$ROOT/bench/sass_fragment_check.py" > "$BUILD/p11_sass.log" 2>&1
log "SASS check of p11's bench kernel: exit $? $(tr '\n' ' ' < "$BUILD/p11_sass.log")"
log "done"
