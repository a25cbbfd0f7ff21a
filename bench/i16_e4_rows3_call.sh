#!/usr/bin/env bash
# Issue 16, twenty-first round, one device call: E4 with three row blocks
# of 128 at BN 64 (bench variants 8-10: each dequantized X value feeds 384
# rows of dW), against the tuned BN 128 x 2 form. GPU tests of the
# specialized forms (three row blocks among them) as they are and under
# compute-sanitizer memcheck; `--verify` of variant 8; the unfused baseline;
# A/B rounds. Files in $OUT: summary.txt, tests.log, memcheck.log,
# verify.log, e4_unfused.log, ab.log.
#
# Ran once, at f7abbd8 (twenty-first round, call 4); variants 8-10 left the
# tuner after it (bench/RESULTS.md), so at later trees they name other blocks.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/d COMMIT=<rev> bench/i16_e4_rows3_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "E4 three row blocks call at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
CFG="e4_rows_k100864 --warps 8 --wgmma --tma"
gpu_tests tests 300 "GPU: E4 warp-specialized*"
memcheck_tests memcheck 300 "GPU: E4 warp-specialized*"
timeout 240 "$TS" bench --gpu --case $CFG --variant 8 --stages 3 --warp-specialize --verify > "$OUT/verify.log" 2>&1
log "verify: exit $? $(grep -E '^e4_rows_k100864 |verif|error' "$OUT/verify.log" | tr '\n' ' ')"
PYTHONUNBUFFERED=1 timeout 60 python3 "$ROOT/bench/e4_unfused_baseline.py" > "$OUT/e4_unfused.log" 2>&1
log "e4_unfused_baseline.py: exit $? $(grep -E 'K=100864' "$OUT/e4_unfused.log" | tr '\n' ' ')"
ab_rounds "$CFG" "--variant 7 --stages 3 --warp-specialize" "--variant 8 --stages 3 --warp-specialize" \
  "--variant 9 --stages 3 --warp-specialize" "--variant 10 --stages 4 --warp-specialize" \
  "--variant 8 --stages 3 --warp-specialize --producer-warpgroups 2" "--variant 8 --stages 2 --warp-specialize"
log "done"
