#!/usr/bin/env bash
# Issue 16, thirteenth round, one device call: E1 128 (the twelfth round's
# kernel, byte for byte) ran 0.058 ms on this round's hosts against
# 0.052-0.054 before. The host's clocks and power limit, E1 128 at its
# tuned configuration three times beside Triton's kernel at the same
# blocks (bench/e1_triton_kernel.py through triton_at_scale.py), and one
# launch of ours under Nsight Compute (clocks, waves, occupancy, pipes).
# Files in $OUT: summary.txt, smi.txt, ab.log, triton.log, ncu_e1_128.txt.
#
# Usage from the repository root, .debs/ and .anchor/ carried:
#   OUT=/tmp/c COMMIT=<rev> bench/i16_e1_128_host_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "E1 128 host call at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
nvidia-smi -q -d CLOCK,POWER,PERFORMANCE > "$OUT/smi.txt" 2>&1
log "clocks: $(nvidia-smi --query-gpu=clocks.max.sm,clocks.sm,power.limit,power.max_limit --format=csv,noheader 2>&1)"
build_or_exit tilescope
AB="$OUT/ab.log"
: > "$AB"
for round in 1 2 3; do
  timeout 90 "$TS" bench --gpu --case e1_v1_128 --warps 8 --stages 3 --wgmma --tma >> "$AB" 2>&1
  log "round $round, e1_v1_128: exit $? $(grep -E '^e1_v1_128 ' "$AB" | tail -1 | tr -s ' ' | rev | cut -d' ' -f1-12 | rev)"
done
if [ -f "$ANCHOR/triton_at_scale.py" ]; then
  (cd "$ANCHOR" && PYTHONUNBUFFERED=1 timeout 120 python3 triton_at_scale.py) > "$OUT/triton.log" 2>&1
  log "Triton: $(grep -E 'E1 splitact' "$OUT/triton.log" | grep -v JSON | tr -s ' ' | cut -c1-90 | tr '\n' ';')"
fi
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout 120 "$NCU" --section SpeedOfLight --section LaunchStats --section Occupancy --section SchedulerStats \
  --section WarpStateStats -k regex:e1_split --launch-skip 3 --launch-count 1 \
  "$TS" bench --gpu --case e1_v1_128 --warps 8 --stages 3 --wgmma --tma --runs 100 --warmup 1 > "$OUT/ncu_e1_128.txt" 2>&1
log "ncu: exit $? $(grep -E 'SM Frequency|Duration|Registers Per|Waves Per SM|Achieved Occupancy' "$OUT/ncu_e1_128.txt" | tr -s ' ' | tr '\n' ';')"
log "done"
