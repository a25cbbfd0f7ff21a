#!/usr/bin/env bash
# Issue 16, nineteenth round, one device call: p11's C^T form with y by TMA
# in x's layout (CodegenOptions::wgmma_b_tma: 128-byte swizzled columns, a
# box a column; no cp.async and no warpgroup barrier in the loop) against y
# by cp.async into padded rows (--no-b-tma). GPU
# tests of every transposed form, p11 at BK 64 and the cluster forms, the
# same under compute-sanitizer memcheck; the SASS check of the default
# kernel; p11 at 4096^3, 256 x 128 x 32, 8 warps, TMA, decoupled, at 4 and 3
# stages, y by TMA against not, two rounds (A/B/A/B); cuBLAS's tf32 product
# in the same call; with NCU=1, Nsight Compute's source page of the default
# form. Files in $OUT: summary.txt, tests.log, memcheck.log, ab.log,
# cublas.log (with NCU=1 also ncu_b_tma.txt, ncu_b_tma_sass.csv).
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/d COMMIT=<rev> bench/i16_p11_b_tma_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "p11 y-by-TMA call at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
TESTS="GPU: wgmma as C^T*,GPU: p11 at BK 64*,GPU: clusters sharing p11*"
gpu_tests tests 300 "$TESTS"
memcheck_tests memcheck 300 "$TESTS"
sass_check p11_b_tma 11 --bench p11 --variant 1 --warps 8 --wgmma --tma --stages 4

CFG="p11 --variant 1 --warps 8 --wgmma --tma"
# (Call 1 ran y in panels of 8 columns against padded rows, call 2 also
# y in 128-byte swizzled columns, --b-swizzled then; the swizzled columns
# won and are the default, the panels were taken out.)
ab_rounds "$CFG" "--stages 4 --no-b-tma" "--stages 4" "--stages 3 --no-b-tma" "--stages 3"
cublas_tf32_4096
if [ "${NCU:-0}" = 1 ]; then
  ncu_source_profile b_tma batched_matmul "SpeedOfLight WarpStateStats SchedulerStats" \
    bench --gpu --case $CFG --stages 4 --runs 100 --warmup 1
fi
log "done"
