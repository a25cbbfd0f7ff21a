#!/usr/bin/env bash
# Issue 16, eleventh round: E4's bf16 dot by wgmma (dY^T M-major from the
# stage, the dequantized X from registers into the stage) in one call of
# the device tool. Builds the command line tool and the tests; runs the GPU
# test of the 16-bit forms (every layout against the interpreter, and E4 at
# small sizes with tails), then the same test under compute-sanitizer
# memcheck; then e4_rows at K = 100864: the mma.sync row of the tenth round
# and the wgmma variants at fixed configurations, E3 (the unfused path's
# first half) and the unfused product through cuBLAS.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/e4 bench/i16_e4_wgmma_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "E4 wgmma call on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 300 "GPU: bf16 wgmma computes*"

AB="$OUT/ab.log"
: > "$AB"
for cfg in "--stages 3" "--wgmma --variant 4" "--wgmma --variant 6" "--wgmma --variant 6 --stages 3" "--wgmma --variant 7"; do
  echo "=== e4_rows_k100864 --warps 8 $cfg" >> "$AB"
  # shellcheck disable=SC2086
  timeout 120 "$TS" bench --gpu --case e4_rows_k100864 --warps 8 $cfg >> "$AB" 2>&1
  log "e4_rows_k100864 --warps 8 $cfg: exit $? $(grep -E '^e4_rows' "$AB" | tail -1)"
done
timeout 120 "$TS" bench --gpu --case e3 > "$OUT/e3.log" 2>&1
log "tuned e3: exit $? $(grep -E '^e3' "$OUT/e3.log" | tail -1)"
timeout 120 python3 "$ROOT/bench/e4_unfused_baseline.py" > "$OUT/unfused.log" 2>&1
log "unfused product: exit $? $(tail -2 "$OUT/unfused.log" | tr '\n' ' ')"

memcheck_tests memcheck 300 "GPU: bf16 wgmma computes*"
log "done"
