#!/usr/bin/env bash
# Issue 16, seventeenth round, one device call: p11's C^T form with y^T
# written K-major into the stage by the threads (StagedLoad::
# written_transposed), so its wgmma groups stay in flight. GPU tests of
# every transposed form (waited and in flight) and the same under
# compute-sanitizer memcheck; p11 at 4096^3, 256 x 128 x 32, 8 warps, TMA:
# the new form at 4 and 3 stages against the waited form (fragments in
# registers) at 4 and 3, two rounds (A/B/A/B); cuBLAS's tf32 product
# (torch.matmul) in the same call; the tuned row; ptxas's registers; with
# NCU=1, Nsight Compute on the in-flight form at 4 stages (throughputs, warp
# states, each SASS instruction's stall samples).
# Files in $OUT: summary.txt, tests.log, memcheck.log, ab.log, bench.log,
# cublas.log (with NCU=1 also ncu_p11.txt, ncu_p11_sass.csv).
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/w COMMIT=<rev> bench/i16_p11_written_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "p11 written-transposed call at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 300 "GPU: wgmma as C^T*"
memcheck_tests memcheck 300 "GPU: wgmma as C^T*"

CFG="p11 --variant 1 --warps 8 --wgmma --tma"
# (--b-in-stage since the form became opt-in, after call 3; calls 1-3 ran it
# as the default of groups in flight, the same kernel.)
ab_rounds "$CFG" "--stages 4 --b-in-stage" "--stages 4 --groups-waited" "--stages 3 --b-in-stage" "--stages 3 --groups-waited"

cublas_tf32_4096

timeout 300 "$TS" bench --gpu --wgmma --case p11 > "$OUT/bench.log" 2>&1
log "tuned p11: exit $? $(grep -E '^p11' "$OUT/bench.log" | tail -1)"
grep -A3 -E '^p11' "$OUT/bench.log" >> "$SUMMARY"
CUDA_BIN=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")
for st in 4 3; do
  "$TS" compile 11 --cuda --bench p11 --variant 1 --warps 8 --wgmma --tma --b-in-stage --stages $st --no-lines > "$BUILD/p11_w$st.cu" &&
    "$CUDA_BIN/nvcc" -arch=sm_90a -cubin -w -Xptxas -v -o "$BUILD/p11_w$st.cubin" "$BUILD/p11_w$st.cu" > "$BUILD/p11_w$st.ptxas" 2>&1
  log "p11 in flight, $st stages: ptxas exit $? $(grep -o 'Used [0-9]* registers' "$BUILD/p11_w$st.ptxas")"
done
if [ "${NCU:-0}" = 1 ]; then
  # shellcheck disable=SC2086
  ncu_source_profile p11 batched_matmul "SpeedOfLight WarpStateStats SchedulerStats MemoryWorkloadAnalysis SourceCounters" \
    bench --gpu --case $CFG --stages 4 --b-in-stage --runs 100 --warmup 1
fi
log "done"
