#!/usr/bin/env bash
# Issue 16, twelfth round, in one call of the device tool: E4's dequantized
# X in runs of 8 along its rows (CodegenOptions::register_operand_runs).
# Builds the command line tool and the tests; runs the GPU test of the
# 16-bit forms (E4 at its wgmma blocks with tails, every descriptor form);
# times E4's three kernels at K = 100864 with and without the runs (fixed
# configurations, two rounds); the same GPU test under compute-sanitizer
# memcheck; then Nsight Compute on one launch each of e4_rows' kernel and
# p11's (what bounds them now). Files in $OUT: summary.txt, tests.log,
# ab.log, memcheck.log, ncu_e4.txt, ncu_p11.txt.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/runs bench/i16_operand_runs_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "operand runs call at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 200 "GPU: bf16 wgmma computes*"

AB="$OUT/ab.log"
: > "$AB"
bench_row() {  # bench_row CASE ARGS...: one fixed configuration, its row to the summary
  local c=$1
  shift
  echo "=== $c $*" >> "$AB"
  timeout 90 "$TS" bench --gpu --case "$c" "$@" >> "$AB" 2>&1
  log "$c $*: exit $? $(grep -E "^$c" "$AB" | tail -1)"
}
for round in 1 2; do
  log "round $round"
  bench_row e4_rows_k100864 --warps 8 --wgmma --variant 5
  bench_row e4_rows_k100864 --warps 8 --wgmma --variant 5 --no-operand-runs
done
# The blocks the runs' registers opened (181 at variant 5, was 226 or 255):
# BK 64 (196, no spill), and 64 columns x 3 row blocks (123: two programs
# an SM) at split-K 7 and 11: variants 6, 7 and 8 as numbered at d6ca945,
# where this call ran; they lost or tied and left the tuner's list after it
# (gpu/bench_cases.cpp), so at later commits these numbers name other blocks.
bench_row e4_rows_k100864 --warps 8 --wgmma --variant 6
bench_row e4_rows_k100864 --warps 8 --wgmma --variant 6 --stages 3
bench_row e4_rows_k100864 --warps 8 --wgmma --variant 7
bench_row e4_rows_k100864 --warps 8 --wgmma --variant 8
bench_row e4_splitk_k100864 --warps 4 --wgmma
bench_row e4_splitk_k100864 --warps 4 --wgmma --no-operand-runs
bench_row e4_fused_k100864 --warps 4 --wgmma
bench_row e4_fused_k100864 --warps 4 --wgmma --no-operand-runs

memcheck_tests memcheck 150 "GPU: bf16 wgmma computes*"

NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
SECTIONS=(--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
  --section WarpStateStats --section InstructionStats --section Occupancy)
timeout 100 "$NCU" "${SECTIONS[@]}" -k regex:e4_weight_grad_rows --launch-skip 3 --launch-count 1 \
  "$TS" bench --gpu --case e4_rows_k100864 --warps 8 --wgmma --variant 5 --runs 100 --warmup 1 > "$OUT/ncu_e4.txt" 2>&1
log "ncu e4_rows: exit $?"
timeout 100 "$NCU" "${SECTIONS[@]}" -k regex:batched_matmul --launch-skip 3 --launch-count 1 \
  "$TS" bench --gpu --case p11 --warps 8 --wgmma --tma --variant 1 --stages 4 --runs 100 --warmup 1 > "$OUT/ncu_p11.txt" 2>&1
log "ncu p11: exit $?"
log "done"
