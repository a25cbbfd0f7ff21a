#!/usr/bin/env bash
# Issue 16, sixteenth round: E4's rows kernel masked by K (the tensor's bound)
# so dY's tiles go by TMA, and its dequantization without the conversion unit
# (2-bit codes to f32 by their bits, bf16 pairs by one paired conversion), in
# one call of the device tool. The GPU tests of the TMA forms and of the
# stage-written bf16 forms, the TMA forms under compute-sanitizer memcheck,
# the SASS check of the tuned block's TMA kernel, fixed configurations at
# K = 100864 (A/B/A/B: BN 64 x 2 without and with TMA, BN 128 x 2 and 256 x 1
# with TMA), the unfused baseline (E3 and cuBLAS), then the tuned E4 rows.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/e4tma bench/i16_e4_tma_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
log "E4 TMA call on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 300 "GPU: E4 with dY*,GPU: bf16 wgmma*"
memcheck_tests memcheck 300 "GPU: E4 with dY*"
sass_check e4_tma e4_rows --bench e4_rows_k100864 --variant 6 --warps 8 --wgmma --tma
ab_rounds "e4_rows_k100864 --warps 8 --wgmma" "--variant 6" "--variant 6 --tma" "--variant 5 --tma" "--variant 4 --tma"
e4_against_unfused 400 e3,e4_rows,e4_rows_k100864
log "done"
