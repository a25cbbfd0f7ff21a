#!/usr/bin/env bash
# Issue 16, eighteenth round, one device call: p11's C^T form (groups waited
# for, fragments in registers) with its warpgroups decoupled
# (CodegenOptions::wgmma_decoupled): each warpgroup copies and waits for its
# own columns of y, and x's stage is refilled by TMA once every warp arrived
# on its empty barrier, instead of one block barrier an iteration. GPU tests
# of every transposed form (waited, in flight, decoupled) and the same under
# compute-sanitizer memcheck; p11 at 4096^3, 256 x 128 x 32, 8 warps, TMA,
# at 4 and 3 stages, decoupled against the plain waited form, two rounds
# (A/B/A/B); cuBLAS's tf32 product (torch.matmul) in the same call;
# ptxas's registers; with NCU=1, Nsight Compute on both forms at 4 stages.
# Files in $OUT: summary.txt, tests.log, memcheck.log, ab.log, cublas.log
# (with NCU=1 also ncu_p11.txt).
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/d COMMIT=<rev> bench/i16_p11_decoupled_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "p11 decoupled call at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 300 "GPU: wgmma as C^T*"
memcheck_tests memcheck 300 "GPU: wgmma as C^T*"

CFG="p11 --variant 1 --warps 8 --wgmma --tma"
# (Calls 2 and 3 ran the form opt-in, as --decoupled, and call 3 also
# --decoupled --turns, since taken out; it is the default now.)
# (Call 8 ran CARRIED=1: the same four forms with and without carried
# offsets for y's refills, --no-carried; taken out after it.)
# FOUR=1 (call 4): four warpgroups of 128 x 256 blocks (variant 2, 16 warps)
# against two of 256 x 128 (variant 1, 8 warps), decoupled and not.
if [ "${FOUR:-0}" = 1 ]; then
  ab_rounds "p11 --wgmma --tma" "--variant 1 --warps 8 --stages 4" "--variant 2 --warps 16 --stages 4" \
    "--variant 2 --warps 16 --stages 4 --no-decoupled" "--variant 2 --warps 16 --stages 3"
else
  ab_rounds "$CFG" "--stages 4 --no-decoupled" "--stages 4" "--stages 3 --no-decoupled" "--stages 3"
fi

cublas_tf32_4096

CUDA_BIN=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")
for st in 4 3; do
  "$TS" compile 11 --cuda --bench p11 --variant 1 --warps 8 --wgmma --tma --stages $st --no-lines > "$BUILD/p11_d$st.cu" &&
    "$CUDA_BIN/nvcc" -arch=sm_90a -cubin -w -Xptxas -v -o "$BUILD/p11_d$st.cubin" "$BUILD/p11_d$st.cu" > "$BUILD/p11_d$st.ptxas" 2>&1
  log "p11 decoupled, $st stages: ptxas exit $? $(grep -o 'Used [0-9]* registers' "$BUILD/p11_d$st.ptxas")"
done
if [ "${NCU:-0}" = 1 ]; then
  NCU_BIN=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  : > "$OUT/ncu_p11.txt"
  for form in "--no-decoupled" ""; do
    timeout 200 "$NCU_BIN" --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
      -k regex:batched_matmul --launch-skip 3 --launch-count 1 \
      "$TS" bench --gpu --case $CFG --stages 4 $form --runs 100 --warmup 1 >> "$OUT/ncu_p11.txt" 2>&1
    log "ncu p11 ${form:-decoupled}: exit $? $(grep -E 'Duration|Compute \(SM\) Throughput|Issue Slots Busy|Warp Cycles Per Issued' "$OUT/ncu_p11.txt" | tail -4 | tr -s ' ' | tr '\n' ';')"
  done
fi
log "done"
