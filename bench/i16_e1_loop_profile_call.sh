#!/usr/bin/env bash
# Issue 16, sixth round: E1 128x64x32's duration as Nsight Compute sees it in
# three cache states, tilescope's kernel and Triton's, same call: ncu's own
# flush (caches invalidated, clean), no flush inside the bench's back-to-back
# loop (inputs rotated), and no flush after a 100 MB memset (the dirty L2
# that do_bench's cache flush leaves). Clocks free throughout. Files in
# $OUT: summary.txt, ncu_*.txt.
#
# Usage from the repository root, .debs/ carried:  OUT=/tmp/l bench/i16_e1_loop_profile_call.sh
set -u -o pipefail
# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
M="gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"

log "E1 loop profile call on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
build_or_exit tilescope
summarize() { grep -E "gpu__time_duration|per_second|dram__bytes|hit_rate|hmma|stalled" "$1" | awk '{printf "%s=%s ", $1, $NF}' | sed 's/smsp__average_warps_issue_stalled_//g; s/_per_issue_active.ratio//g'; }
run_ts() {  # name, ncu cache control, extra bench flags
  # shellcheck disable=SC2086
  timeout 200 "$NCU" --clock-control none --cache-control "$2" --metrics "$M" -k regex:e1_split --launch-skip 40 --launch-count 3 \
    "$TS" bench --gpu --case e1_v1_128 --warps 8 --stages 3 --wgmma --tma --runs 100 --warmup 1 $3 > "$OUT/ncu_$1.txt" 2>&1
  log "tilescope $1: exit $? $(summarize "$OUT/ncu_$1.txt")"
}
run_ts ts_ncuflush all ""
run_ts ts_loop none ""
run_ts ts_memset none "--flush-l2"
for mode in ncuflush loop memset; do
  cc=none; [ $mode = ncuflush ] && cc=all
  timeout 200 "$NCU" --clock-control none --cache-control $cc --metrics "$M" -k regex:split_activation --launch-skip 40 --launch-count 3 \
    env E1_MODE=$mode python3 "$ROOT/bench/e1_triton_kernel.py" > "$OUT/ncu_tr_$mode.txt" 2>&1
  log "triton $mode: exit $? $(summarize "$OUT/ncu_tr_$mode.txt")"
done
log "done"
