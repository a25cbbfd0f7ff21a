#!/usr/bin/env bash
# After a change to every generated kernel (twelfth round: TS_ASSUME, the
# operand runs), in one call of the device tool: every GPU test case
# ([gpu][run]: the puzzles at every size set, the semantics cases, the
# tensor-core forms, the tuner end to end), then compute-sanitizer memcheck
# on every pipelined kernel at its tail sets (bench/memcheck_tails.sh).
# Files in $OUT: summary.txt, gpu_tests.log, memcheck_forms.log, memcheck_tails.log.
# ONLY (memcheck_tails.sh's) keeps the tail-set kernels whose id matches it.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/t bench/i16_gpu_tests_memcheck_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "GPU tests and memcheck at ${COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests gpu_tests 150 "[gpu][run]"
# The wgmma, TMA and cluster forms at small sizes with tails on every axis
# (the tail sets' blocks are below wgmma's: memcheck_tails.sh runs their
# mma.sync kernels there), under memcheck.
memcheck_tests memcheck_forms 200 \
  "GPU: wgmma as C^T*,GPU: TMA copies*,GPU: clusters*,GPU: bf16 wgmma*,GPU: E4*,GPU: p11 at BK 64*"
timeout 200 "$ROOT/bench/memcheck_tails.sh" "$TS" "$OUT/memcheck_tails.log" | tee -a "$SUMMARY"
log "done"
