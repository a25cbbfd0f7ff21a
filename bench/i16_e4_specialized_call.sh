#!/usr/bin/env bash
# Issue 16, twentieth round, one device call: E4 warp-specialized
# (CodegenOptions::warp_specialize: a producer warpgroup dequantizes X into
# the stage and issues dY's TMA copies; the 8 consumer warps only wait for a
# full stage, run their wgmma groups and hand the stage back). GPU tests of
# the specialized forms (and of the plain TMA forms), the same under
# compute-sanitizer memcheck; the SASS register count; e4_rows at K = 100864
# checked against the host reference at its bench size; then A/B rounds at
# the tuned blocks (BN 128 x 2, variant 5) and BN 256 x 1 / 64 x 2, plain
# against specialized at 4 and 3 stages; with NCU=1, Nsight Compute's source
# page of the specialized form (ONLY_NCU=1: that alone). Files in $OUT: summary.txt, tests.log,
# memcheck.log, verify.log, ab.log (with NCU=1 also ncu_e4_ws.txt,
# ncu_e4_ws_sass.csv).
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/d COMMIT=<rev> bench/i16_e4_specialized_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

[ "${ONLY_NCU:-0}" = 1 ] && SKIP=1 || SKIP=0
log "E4 warp-specialized call at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
CFG="e4_rows_k100864 --warps 8 --wgmma --tma"
if [ "$SKIP" = 0 ]; then
gpu_tests tests 300 "GPU: E4 warp-specialized*,GPU: E4 with dY copied by TMA*"
memcheck_tests memcheck 300 "GPU: E4 warp-specialized*"
sass_check e4_ws e4_rows --bench e4_rows_k100864 --variant 5 --warps 8 --wgmma --tma --stages 4 --warp-specialize
timeout 240 "$TS" bench --gpu --case $CFG --variant 5 --stages 4 --warp-specialize --verify > "$OUT/verify.log" 2>&1
log "verify: exit $? $(grep -E '^e4_rows_k100864 |verif|error' "$OUT/verify.log" | tr '\n' ' ')"
ab_rounds "$CFG" "--variant 5 --stages 4" "--variant 5 --stages 4 --warp-specialize" "--variant 5 --stages 3 --warp-specialize" \
  "--variant 7 --stages 4 --warp-specialize" "--variant 7 --stages 3 --warp-specialize" "--variant 7 --stages 4"
fi
if [ "${OTHERS:-0}" = 1 ]; then
  # The prelude's changes (the mbarrier wait's suspend hint, the exponent
  # in a register) reach every TMA kernel: p11 at its tuned form (0.361 ms before).
  for other in "p11 --variant 1 --warps 8 --wgmma --tma --stages 4"; do
    timeout 120 "$TS" bench --gpu --case $other >> "$OUT/others.log" 2>&1
    log "$other: exit $? $(grep -E "^${other%% *} " "$OUT/others.log" | tail -1)"
  done
fi
if [ "${NCU:-0}" = 1 ]; then
  ncu_source_profile e4_ws e4_weight_grad_rows "SpeedOfLight WarpStateStats SchedulerStats SourceCounters" \
    bench --gpu --case $CFG --variant 5 --stages 4 --warp-specialize --runs 100 --warmup 1
fi
log "done"
