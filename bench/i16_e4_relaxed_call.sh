#!/usr/bin/env bash
# Issue 16, sixteenth round: E4 with its split-K sums added by relaxed
# atomics (atomic_add's sem honoured) and 16-bit wgmma descriptors taken from
# the stage's base, in one call of the device tool. `check --examples --gpu`
# (every example kernel against the interpreter), the GPU tests of E4's TMA
# and bf16 wgmma forms and of atomics, memcheck on the TMA forms, fixed
# configurations at K = 100864 (A/B/A/B), the unfused baseline, then the
# tuned E4 kernels.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/e4r bench/i16_e4_relaxed_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
log "E4 relaxed call on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
timeout 400 "$TS" check --examples --gpu > "$OUT/check_examples.log" 2>&1
log "check --examples --gpu: exit $? $(tail -2 "$OUT/check_examples.log" | tr '\n' ' ')"
gpu_tests tests 300 "GPU: E4 with dY*,GPU: bf16 wgmma*,*atomic*"
memcheck_tests memcheck 300 "GPU: E4 with dY*"
ab_rounds "e4_rows_k100864 --warps 8 --wgmma --tma" "--variant 6" "--variant 5"
e4_against_unfused 400 e3,e4_rows,e4_rows_k100864,e4_splitk_k100864
log "done"
