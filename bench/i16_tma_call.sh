#!/usr/bin/env bash
# Issue 16, fifth round: the TMA path (CodegenOptions::tma) on a GPU in one
# call of the device tool. Builds the command line tool, checks E1 v1 and v2
# with --wgmma --tma against the interpreter (every size set: e1a through the
# TMA unit, e1b, whose K = 50 rows the TMA unit cannot stride, through the
# cp.async fallback, and the bench sets), runs compute-sanitizer memcheck on
# the TMA kernels at the tail sets, then the tuned bench of the E1 cases
# (the tuner tries TMA beside the other wgmma forms) and Triton's numbers in
# the same call. With TESTS=1 it builds and runs the GPU tests of the TMA
# path and the tensor-core reads instead of the bench.
#
# Usage from the repository root, .debs/ and .anchor/ carried:
#   OUT=/tmp/tma bench/i16_tma_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "TMA call on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
targets="tilescope"
[ "${TESTS:-0}" = 1 ] && targets="tilescope tilescope_tests"
build_or_exit $targets

CHK="$OUT/check.log"
: > "$CHK"
for v in "e1_v1 --warps 4" "e1_v1 --warps 8" "e1_v1 --warps 4 --stages 2" "e1_v1 --warps 8 --stages 3" \
         "e1_v1 --warps 4 --wgmma-wait" "e1_v2 --warps 4" "e1_v2 --warps 8"; do
  echo "=== check $v --gpu --wgmma --tma" >> "$CHK"
  # shellcheck disable=SC2086
  timeout 200 "$TS" check $v --gpu --wgmma --tma >> "$CHK" 2>&1
  log "check $v --wgmma --tma: exit $? $(grep -E 'kernels match|DIFFERS|ERROR' "$CHK" | tail -1)"
done

if [ "${TESTS:-0}" = 1 ]; then
  timeout 300 "$BUILD/tests/tilescope_tests" "GPU: TMA*,the tensor cores read*,every puzzle solution on the GPU*" \
    > "$OUT/tests.log" 2>&1
  log "GPU tests: exit $? $(tail -3 "$OUT/tests.log" | tr '\n' ' ')"
  log "done"
  exit 0
fi

MLOG="$OUT/memcheck.log"
: > "$MLOG"
for spec in "e1_v1 e1a" "e1_v1 e1b" "e1_v2 e1a"; do
  read -r id set <<< "$spec"
  for w in 4 8; do
    timeout 200 "$SAN" --tool memcheck --print-limit 10 --error-exitcode 99 "$TS" gpu-run "$id" --set "$set" \
      --warps "$w" --wgmma --tma > "$OUT/memcheck.tmp" 2>&1
    rc=$?
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$OUT/memcheck.tmp" | tail -1)
    echo "=== $id $set warps $w --wgmma --tma: exit $rc, errors ${errors:-?}" >> "$MLOG"
    tail -5 "$OUT/memcheck.tmp" >> "$MLOG"
    log "memcheck $id $set warps $w TMA: exit $rc, errors ${errors:-?}"
  done
done
rm -f "$OUT/memcheck.tmp"

timeout 300 "$TS" bench --gpu --wgmma --case "${CASES:-e1_v1,e1_v1_128,e1_v2}" --json-out "$OUT/bench.json" \
  > "$OUT/bench.log" 2>&1
log "bench: exit $?"
if [ "${AB:-0}" = 1 ]; then
  # Fixed configuration, paired dots against one wgmma per dot.
  for extra in "" "--no-dot-pairs"; do
    # shellcheck disable=SC2086
    timeout 120 "$TS" bench --gpu --case e1_v1_128 --warps 8 --stages 3 --wgmma --tma $extra >> "$OUT/ab.log" 2>&1
    # shellcheck disable=SC2086
    timeout 120 "$TS" bench --gpu --case e1_v1 --warps 4 --stages 3 --wgmma --tma $extra >> "$OUT/ab.log" 2>&1
  done
  grep -E '^e1|config' "$OUT/ab.log" | tee -a "$SUMMARY"
fi
if [ -f "$ANCHOR/triton_at_scale.py" ]; then
  (cd "$ANCHOR" && PYTHONUNBUFFERED=1 timeout 150 python3 triton_at_scale.py) > "$OUT/triton.log" 2>&1
  log "triton_at_scale.py: exit $?"
fi
log "done"
