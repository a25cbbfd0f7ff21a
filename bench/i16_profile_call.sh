#!/usr/bin/env bash
# Issue 16, third round: one device call that builds, runs the GPU test on
# how the tensor cores read f32 operands, times E1 and p11 with staged f32
# read raw (the default) against --tf32-cut, and profiles E1's kernel with
# Nsight Compute. Files in $OUT: summary.txt, test.log, bench.log, ncu_e1.txt.
#
# Usage from the repository root, .debs/ carried:  OUT=/tmp/p bench/i16_profile_call.sh
set -u -o pipefail
# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "issue 16 profile call at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null) on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
build_or_exit
timeout 300 "$BUILD/tests/tilescope_tests" "the tensor cores read f32 operands*" > "$OUT/test.log" 2>&1
log "tensor-core read test: exit $? ($(tail -2 "$OUT/test.log" | head -1))"
{
  for cut in "" "--tf32-cut"; do
    for st in 2 3; do
      # shellcheck disable=SC2086
      timeout 120 "$TS" bench --gpu --case e1_v1 --warps 4 --stages $st --wgmma $cut
      # shellcheck disable=SC2086
      timeout 120 "$TS" bench --gpu --case e1_v1_128 --warps 8 --stages $st --wgmma $cut
    done
    # shellcheck disable=SC2086
    timeout 120 "$TS" bench --gpu --case p11 --warps 8 $cut
  done
} > "$OUT/bench.log" 2>&1
log "bench: done"
grep -E "^ *(e1|p11)" "$OUT/bench.log" | tee -a "$SUMMARY"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout 240 "$NCU" --section SpeedOfLight --section WarpStateStats --section InstructionStats --section Occupancy \
  --section SchedulerStats --section MemoryWorkloadAnalysis -k regex:e1_split --launch-skip 3 --launch-count 1 \
  "$TS" bench --gpu --case e1_v1 --warps 4 --stages 2 --wgmma --runs 100 --warmup 1 > "$OUT/ncu_e1.txt" 2>&1
log "ncu e1: exit $?"
log "done"
