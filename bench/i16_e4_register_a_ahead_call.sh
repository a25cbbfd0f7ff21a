#!/usr/bin/env bash
# Issue 16, fifteenth round, call 6: E4 as C^T = X^T dY with X^T fed to
# wgmma from registers (CodegenOptions::wgmma_register_a, `--register-a`),
# in one call of the device tool. The GPU tests of the register-A forms and
# of the stage-written bf16 forms, the same under compute-sanitizer memcheck,
# the SASS check of the register-A kernel, fixed configurations at K =
# 100864 (A/B/A/B), the unfused baseline, then the tuned E4 rows. With X^T
# from registers, the next iteration's fragments computed while the group runs
# (Pipeline::register_a_slice: one dot, BM 256, variant 7), against the
# tuned form (variant 6) and register A without it (two dots, variant 5).
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/e4ah bench/i16_e4_register_a_ahead_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
log "E4 register-A call on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 300 "GPU: E4 as C^T*,GPU: bf16 wgmma*"
memcheck_tests memcheck 300 "GPU: E4 as C^T*"
CUDA_BIN=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")
"$TS" compile e4_rows --cuda --bench e4_rows_k100864 --variant 7 --warps 8 --wgmma --register-a --no-lines > "$BUILD/e4_ra.cu" &&
  "$CUDA_BIN/nvcc" -arch=sm_90a -cubin -w -Xptxas -v -o "$BUILD/e4_ra.cubin" "$BUILD/e4_ra.cu" > "$BUILD/e4_ra.ptxas" 2>&1 &&
  "$CUDA_BIN/cuobjdump" -sass "$BUILD/e4_ra.cubin" | python3 "$ROOT/bench/sass_fragment_check.py" > "$BUILD/e4_ra_sass.log" 2>&1
log "SASS check of E4's register-A kernel: exit $? $(tr '\n' ' ' < "$BUILD/e4_ra_sass.log") $(grep -o 'Used [0-9]* registers' "$BUILD/e4_ra.ptxas")"
AB="$OUT/ab.log"
: > "$AB"
for round in 1 2; do
  for cfg in "--variant 6" "--variant 7 --register-a" "--variant 5 --register-a"; do
    echo "=== round $round: $cfg" >> "$AB"
    # shellcheck disable=SC2086
    timeout 120 "$TS" bench --gpu --case e4_rows_k100864 --warps 8 --wgmma $cfg >> "$AB" 2>&1
    log "round $round, e4_rows_k100864 --warps 8 --wgmma $cfg: exit $? $(grep -E '^e4_rows' "$AB" | tail -1)"
  done
done
PYTHONUNBUFFERED=1 timeout 60 python3 "$ROOT/bench/e4_unfused_baseline.py" > "$OUT/e4_unfused.log" 2>&1
log "e4_unfused_baseline.py: exit $? $(grep -E 'K=100864' "$OUT/e4_unfused.log" | tr '\n' ' ')"
timeout 300 "$TS" bench --gpu --wgmma --case e4_rows,e4_rows_k100864 --json-out "$OUT/bench.json" > "$OUT/bench.log" 2>&1
log "tuned: exit $? $(grep -E '^e4_rows' "$OUT/bench.log" | tr '\n' ' ')"
log "done"
