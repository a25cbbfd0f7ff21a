#!/usr/bin/env bash
# Issue 16, sixth round: the same kernels timed two ways in one call, runs
# back to back with inputs rotated among copies (the bench's default) and
# with L2 overwritten before each run (--flush-l2, as Triton's do_bench
# times the Triton column), each twice for the spread; E1 at both block
# shapes in fixed configurations, a few tuned cases, Triton's numbers from
# the same call, and the SM clock and power sampled by nvidia-smi during a
# long run of E1 128 in each mode. Files in $OUT: summary.txt, bench.log,
# tuned_*.log, clocks_*.csv, triton.log.
#
# Usage from the repository root, .debs/ and .anchor/ carried:
#   OUT=/tmp/f bench/i16_flush_call.sh
set -u -o pipefail
# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "flush call on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
build_or_exit tilescope

: > "$OUT/bench.log"
for run in 1 2; do
  for mode in "" "--flush-l2"; do
    # shellcheck disable=SC2086
    timeout 120 "$TS" bench --gpu --case e1_v1_128 --warps 8 --stages 3 --wgmma --tma $mode >> "$OUT/bench.log" 2>&1
    # shellcheck disable=SC2086
    timeout 120 "$TS" bench --gpu --case e1_v1 --warps 4 --stages 2 --wgmma --tma $mode >> "$OUT/bench.log" 2>&1
    log "run $run ${mode:-rotated}: $(grep -E '^e1' "$OUT/bench.log" | tail -2 | awk '{print $1, $(NF-11)}' | tr '\n' ' ')"
  done
done
for mode in rotated flush; do
  flag=""; [ $mode = flush ] && flag="--flush-l2"
  nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 5 > "$OUT/clocks_$mode.csv" &
  smi=$!
  sleep 0.5
  # shellcheck disable=SC2086
  timeout 120 "$TS" bench --gpu --case e1_v1_128 --warps 8 --stages 3 --wgmma --tma --runs 6000 $flag > "$OUT/long_$mode.log" 2>&1
  kill $smi 2>/dev/null; wait $smi 2>/dev/null
  log "long $mode: $(grep -E '^e1' "$OUT/long_$mode.log" | awk '{print $1, $(NF-11)}') clocks $(awk -F', ' '{print $2}' "$OUT/clocks_$mode.csv" | sort | uniq -c | sort -rn | head -4 | tr '\n' ' ')"
done
for mode in "" "--flush-l2"; do
  # shellcheck disable=SC2086
  timeout 240 "$TS" bench --gpu --wgmma --case e2,e3,p02,p07 $mode > "$OUT/tuned_${mode:-rotated}.log" 2>&1
  log "tuned ${mode:-rotated}: $(grep -E '^(e2|e3|p02|p07) ' "$OUT/tuned_${mode:-rotated}.log" | awk '{print $1, $(NF-11)}' | tr '\n' ' ')"
done
if [ -f "$ANCHOR/triton_at_scale.py" ]; then
  (cd "$ANCHOR" && PYTHONUNBUFFERED=1 timeout 150 python3 triton_at_scale.py) > "$OUT/triton.log" 2>&1
  log "triton_at_scale.py: exit $? $(grep -E '^(E1|E2|E3|p02|p07)' "$OUT/triton.log" | awk '{print $1, $2, $3, $(NF-10)}' | tr '\n' ' ')"
fi
log "done"
