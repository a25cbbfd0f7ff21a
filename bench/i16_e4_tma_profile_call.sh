#!/usr/bin/env bash
# Issue 16, sixteenth round: where E4's TMA form waits, in one call of the
# device tool. Nsight Compute on e4_rows at K = 100864, BN 64 x 2 row blocks
# with dY by TMA (the tuned form of call 1): speed of light, warp states with
# every stall reason, scheduler statistics, the instruction mix, and the SASS
# with each instruction's stall samples (the report's source page). Then
# BK 64 against BK 32 at the same blocks (A/B/A/B): BK 64 was the bench's
# variant 7 at 2df9e18, where this ran; it lost and left the tuner. Files in $OUT:
# summary.txt, ncu_e4_tma.txt, ncu_e4_tma_sass.csv, ab.log.
#
# Usage from the repository root, .debs/ carried:  OUT=/tmp/e4tp bench/i16_e4_tma_profile_call.sh
set -u -o pipefail
# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "E4 TMA profile call on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
build_or_exit tilescope
# VARIANT=5 AB=0 (nineteenth round, call 4): the tuned form since (BN 128 x 2)
# profiled alone.
ncu_source_profile e4_tma e4_weight_grad_rows \
  "SpeedOfLight WarpStateStats InstructionStats Occupancy SchedulerStats ComputeWorkloadAnalysis SourceCounters" \
  bench --gpu --case e4_rows_k100864 --warps 8 --wgmma --tma --variant "${VARIANT:-6}" --runs 100 --warmup 1
[ "${AB:-1}" = 1 ] && ab_rounds "e4_rows_k100864 --warps 8 --wgmma --tma" "--variant 6" "--variant 7"
log "done"
