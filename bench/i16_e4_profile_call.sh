#!/usr/bin/env bash
# Issue 16, fifteenth round: what an E4 iteration spends its cycles on, in
# one call of the device tool. Nsight Compute on e4_rows at K = 100864, the
# tuned form (BN 64 x 2 row blocks, X written to the stage) and register A
# (BN 128 x 2, X^T fed to wgmma from registers): speed of light, warp states,
# the instruction mix, scheduler statistics. Files in $OUT: summary.txt,
# ncu_e4_stage.txt, ncu_e4_register_a.txt.
#
# Usage from the repository root, .debs/ carried:  OUT=/tmp/e4p bench/i16_e4_profile_call.sh
set -u -o pipefail
# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "E4 profile call on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
build_or_exit tilescope
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for form in "stage:--variant 6" "register_a:--variant 5 --register-a"; do
  name=${form%%:*}
  # shellcheck disable=SC2086
  timeout 240 "$NCU" --section SpeedOfLight --section WarpStateStats --section InstructionStats --section Occupancy \
    --section SchedulerStats --section ComputeWorkloadAnalysis -k regex:e4_weight_grad_rows --launch-skip 3 --launch-count 1 \
    "$TS" bench --gpu --case e4_rows_k100864 --warps 8 --wgmma ${form#*:} --runs 100 --warmup 1 > "$OUT/ncu_e4_$name.txt" 2>&1
  log "ncu e4 $name: exit $? $(grep -E 'Duration|Issue Slots Busy|Executed Instructions  |Warp Cycles Per Issued|No Eligible' "$OUT/ncu_e4_$name.txt" | tr -s ' ' | tr '\n' ';')"
done
log "done"
