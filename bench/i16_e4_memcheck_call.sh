#!/usr/bin/env bash
# Issue 16, eleventh round: compute-sanitizer memcheck of E4's kernels as
# the round left them (16-bit wgmma, the small loads through the stages):
# the GPU test of the 16-bit forms (BM 128 at 8 warps, tails on every axis)
# plainly and under memcheck, then memcheck_tails.sh on the E4 kernels at
# their tail sets, mma.sync and wgmma at 4 and 8 warps.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/e4m bench/i16_e4_memcheck_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "E4 memcheck call on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 200 "GPU: bf16 wgmma computes*"
memcheck_tests memcheck_test 200 "GPU: bf16 wgmma computes*"
ONLY='^e4_' timeout 300 "$ROOT/bench/memcheck_tails.sh" "$TS" "$OUT/memcheck_tails.log" | tee -a "$SUMMARY"
log "done"
