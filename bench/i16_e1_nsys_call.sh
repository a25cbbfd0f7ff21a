#!/usr/bin/env bash
# Issue 16, sixth round: E1 128x64x32's kernel durations as Nsight Systems
# traces them inside the timing loops themselves (no serialization, no
# replay): tilescope's bench back to back and with --flush-l2, and Triton's
# do_bench, same call. Files in $OUT: summary.txt, *_kern.csv, *.log.
#
# Usage from the repository root, .debs/ carried:  OUT=/tmp/n bench/i16_e1_nsys_call.sh
set -u -o pipefail
# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
log "E1 nsys call on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), nsys: ${NSYS:-none}"
build_targets tilescope
[ -x "$TS" ] || { log "build failed"; exit 1; }
log "built"
trace() {  # name, command...
  local name=$1; shift
  timeout 200 "$NSYS" profile -t cuda -f true -o "$BUILD-logs/$name" "$@" > "$OUT/$name.log" 2>&1
  log "$name: exit $? $(grep -E '^e1_v1_128|do_bench' "$OUT/$name.log" | awk '{print $1, $(NF-11), $NF}')"
  "$NSYS" stats -q -r cuda_gpu_kern_sum -f csv "$BUILD-logs/$name.nsys-rep" > "$OUT/${name}_kern.csv" 2>&1
  grep -E "split_activation|e1_split" "$OUT/${name}_kern.csv" | cut -d, -f2-9 | tee -a "$SUMMARY"
}
log "columns: time %, total ns, instances, avg ns, med ns, min ns, max ns, stddev ns"
trace ts_loop "$TS" bench --gpu --case e1_v1_128 --warps 8 --stages 3 --wgmma --tma --runs 300
trace ts_flush "$TS" bench --gpu --case e1_v1_128 --warps 8 --stages 3 --wgmma --tma --runs 300 --flush-l2
trace tr_dobench env E1_MODE=dobench python3 "$ROOT/bench/e1_triton_kernel.py"
log "done"
