#!/usr/bin/env bash
# Issue 16, eighth round: after a change to the code every pipelined kernel
# shares (its prologue, its vectors' mask tests, split-K's atomics), the
# checks that only a GPU gives, in one call of the device tool: the GPU-run
# and child-process tests, then compute-sanitizer memcheck on each
# pipelined kernel at its tail sets (4 and 8 warps; E1 also with wgmma).
# bench/i16_one_call.sh is the "Done when" call that times them.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/verify bench/i16_verify_call.sh        (about 6-8 min on an H100 host)
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "verify call at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
TESTS="$BUILD/tests/tilescope_tests"

(cd "$BUILD/tests" && timeout 240 "$TESTS" "[run],[child]") > "$OUT/tests.log" 2>&1
log "GPU tests: exit $? $(grep -E '^test cases|^All tests' "$OUT/tests.log" | tail -1)"
grep -E "FAILED|SKIP" "$OUT/tests.log" | head -20 >> "$SUMMARY"

SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
MLOG="$OUT/memcheck_tails.log"
: > "$MLOG"
for spec in "11 11b" "11 11c" "e1_v1 e1a" "e1_v1 e1b" "e1_v2 e1a" "e4_fused e4a" "e4_fused e4b" "e4_splitk e4a" \
            "e4_splitk e4b" "e4_rows e4a" "e4_rows e4b"; do
  read -r id set <<< "$spec"
  variants=("--warps 4" "--warps 8")
  [[ $id == e1_* || $id == 11 ]] && variants+=("--warps 8 --wgmma")
  for v in "${variants[@]}"; do
    # shellcheck disable=SC2086
    timeout 60 "$SAN" --tool memcheck --print-limit 10 --error-exitcode 99 "$TS" gpu-run "$id" --set "$set" $v \
      > "$OUT/memcheck.tmp" 2>&1
    rc=$?
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$OUT/memcheck.tmp" | tail -1)
    { echo "===== $id --set $set $v (exit $rc)"; cat "$OUT/memcheck.tmp"; } >> "$MLOG"
    log "memcheck $id $set, $v: ${errors:-?} errors (exit $rc)"
  done
done
rm -f "$OUT/memcheck.tmp"
log "done"
