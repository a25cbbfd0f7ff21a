#!/usr/bin/env bash
# Issue 16, sixth round: where E1 128x64x32's warps wait. Builds the command
# line tool, times E1 (both block shapes, fixed configurations, each twice for
# the spread) beside Triton's numbers from the same call, then reads the same
# counters from tilescope's kernel and Triton's with Nsight Compute at free
# clocks: every warp-stall reason per issued instruction, the tensor pipe's
# activity, L2 and DRAM throughput, the SM clock. Files in $OUT: summary.txt,
# bench.log, triton.log, ncu_tilescope.txt, ncu_triton.txt.
#
# Usage from the repository root, .debs/ and .anchor/ carried:
#   OUT=/tmp/s bench/i16_e1_stalls_call.sh
set -u -o pipefail
# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
METRICS="regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__pipe_tensor_op_.*_cycles_active\.avg\.pct_of_peak_sustained_active"
METRICS="$METRICS,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,smsp__cycles_active.avg"
METRICS="$METRICS,lts__t_bytes.sum.per_second,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct"
METRICS="$METRICS,dram__bytes.sum.per_second,sm__warps_active.avg.pct_of_peak_sustained_active"

log "E1 stalls call on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
build_or_exit tilescope

: > "$OUT/bench.log"
for run in 1 2; do
  timeout 120 "$TS" bench --gpu --case e1_v1_128 --warps 8 --stages 3 --wgmma --tma >> "$OUT/bench.log" 2>&1
  timeout 120 "$TS" bench --gpu --case e1_v1 --warps 4 --stages 2 --wgmma --tma >> "$OUT/bench.log" 2>&1
  log "bench run $run: $(grep -E '^e1' "$OUT/bench.log" | tail -2 | awk '{print $1, $2}' | tr '\n' ' ')"
done
if [ -f "$ANCHOR/triton_at_scale.py" ]; then
  (cd "$ANCHOR" && PYTHONUNBUFFERED=1 timeout 150 python3 triton_at_scale.py) > "$OUT/triton.log" 2>&1
  log "triton_at_scale.py: exit $? $(grep -E 'E1' "$OUT/triton.log" | tr '\n' ' ')"
fi

timeout 200 "$NCU" --clock-control none --metrics "$METRICS" -k regex:e1_split --launch-skip 3 --launch-count 1 \
  "$TS" bench --gpu --case e1_v1_128 --warps 8 --stages 3 --wgmma --tma --runs 100 --warmup 1 > "$OUT/ncu_tilescope.txt" 2>&1
log "ncu tilescope: exit $?"
timeout 200 "$NCU" --clock-control none --metrics "$METRICS" -k regex:split_activation --launch-skip 2 --launch-count 1 \
  python3 "$ROOT/bench/e1_triton_kernel.py" > "$OUT/ncu_triton.txt" 2>&1
log "ncu triton: exit $?"
log "done"
