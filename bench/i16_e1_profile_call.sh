#!/usr/bin/env bash
# Issue 16, fifth round: Nsight Compute on E1 128x64x32, tilescope's tuned
# kernel (wgmma, TMA, 8 warps, 3 stages, groups in flight) beside Triton's
# (bench/e1_triton_kernel.py), same GPU, same call. Files in $OUT:
# summary.txt, ncu_tilescope.txt, ncu_triton.txt.
#
# Usage from the repository root, .debs/ carried:  OUT=/tmp/p bench/i16_e1_profile_call.sh
set -u -o pipefail
# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
SECTIONS="--clock-control ${CLOCKS:-base} --section SpeedOfLight --section LaunchStats --section Occupancy --section InstructionStats --section SchedulerStats --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis"

log "E1 profile call on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
build_or_exit tilescope
# shellcheck disable=SC2086
timeout 200 "$NCU" $SECTIONS -k regex:e1_split --launch-skip 3 --launch-count 1 \
  "$TS" bench --gpu --case e1_v1_128 --warps 8 --stages 3 --wgmma --tma --runs 100 --warmup 1 > "$OUT/ncu_tilescope.txt" 2>&1
log "ncu tilescope: exit $?"
# shellcheck disable=SC2086
timeout 200 "$NCU" $SECTIONS -k regex:split_activation --launch-skip 2 --launch-count 1 \
  python3 "$ROOT/bench/e1_triton_kernel.py" > "$OUT/ncu_triton.txt" 2>&1
log "ncu triton: exit $?"
log "done"
