#!/usr/bin/env bash
# Issue 16, twenty-first round, one device call: E4 warp-specialized with
# two producer warpgroups (CodegenOptions::producer_warpgroups: 512 threads,
# the producers give registers back by setmaxnreg.dec, the consumers take
# them by setmaxnreg.inc), and the split-K epilogue's adds as PTX red on
# .global addresses. GPU tests of the specialized forms and the plain TMA
# forms, the same under compute-sanitizer memcheck; the SASS register count;
# e4_rows at K = 100864 checked against the host reference at its bench
# size; the unfused baseline; then A/B rounds at BN 128 x 2: BK 64 (variant
# 7) one against two producer warpgroups at 3 and 4 stages, BK 32 (variant
# 5) with two. Files in $OUT: summary.txt, tests.log, memcheck.log,
# verify.log, e4_unfused.log, ab.log. NCU=1: Nsight Compute's stall and
# speed-of-light sections and source page of the form PROFILE names
# (default: BK 64, 3 stages, one producer warpgroup) in ncu_e4_ws.txt and
# ncu_e4_ws_sass.csv; ONLY_NCU=1: that alone.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/d COMMIT=<rev> bench/i16_e4_producers_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "E4 two producer warpgroups call at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
CFG="e4_rows_k100864 --warps 8 --wgmma --tma"
PROFILE=${PROFILE:---variant 7 --stages 3 --warp-specialize}
if [ "${ONLY_NCU:-0}" != 1 ]; then
gpu_tests tests 300 "GPU: E4 warp-specialized*,GPU: E4 with dY copied by TMA*"
memcheck_tests memcheck 300 "GPU: E4 warp-specialized*,GPU: E4 with dY copied by TMA*"
sass_check e4_p2 e4_rows --bench e4_rows_k100864 --variant 7 --warps 8 --wgmma --tma --stages 3 --warp-specialize --producer-warpgroups 2
timeout 240 "$TS" bench --gpu --case $CFG --variant 7 --stages 3 --warp-specialize --producer-warpgroups 2 --verify > "$OUT/verify.log" 2>&1
log "verify: exit $? $(grep -E '^e4_rows_k100864 |verif|error' "$OUT/verify.log" | tr '\n' ' ')"
PYTHONUNBUFFERED=1 timeout 60 python3 "$ROOT/bench/e4_unfused_baseline.py" > "$OUT/e4_unfused.log" 2>&1
log "e4_unfused_baseline.py: exit $? $(grep -E 'K=100864' "$OUT/e4_unfused.log" | tr '\n' ' ')"
ab_rounds "$CFG" "--variant 7 --stages 3 --warp-specialize" "--variant 7 --stages 3 --warp-specialize --producer-warpgroups 2" \
  "--variant 7 --stages 4 --warp-specialize --producer-warpgroups 2" "--variant 5 --stages 4 --warp-specialize --producer-warpgroups 2"
fi
if [ "${NCU:-0}" = 1 ] || [ "${ONLY_NCU:-0}" = 1 ]; then
  # shellcheck disable=SC2086
  ncu_source_profile e4_ws e4_weight_grad_rows "SpeedOfLight MemoryWorkloadAnalysis ComputeWorkloadAnalysis WarpStateStats SchedulerStats SourceCounters" \
    bench --gpu --case $CFG $PROFILE --runs 100 --warmup 1
fi
log "done"
