#!/usr/bin/env bash
# Issue 16, eighteenth round, one device call: where p11's decoupled
# iteration spends its cycles. Nsight Compute on p11 at 4096^3 (256 x 128 x
# 32, 8 warps, TMA, 4 stages, warpgroups decoupled): speed of light, warp
# states, the instruction mix, and each SASS instruction's stall samples
# (the source page as CSV), to read the loop's instructions and where its
# warps wait. Files in $OUT: summary.txt, ncu_p11.txt, ncu_p11_sass.csv.
#
# Usage from the repository root, .debs/ carried:  OUT=/tmp/p COMMIT=<rev> bench/i16_p11_profile_call.sh
set -u -o pipefail
# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "p11 profile call at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
build_or_exit tilescope
ncu_source_profile p11 batched_matmul "SpeedOfLight WarpStateStats InstructionStats SchedulerStats SourceCounters" \
  bench --gpu --case p11 --variant 1 --warps 8 --wgmma --tma --stages 4 --runs 100 --warmup 1
log "done"
