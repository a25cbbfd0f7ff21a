#!/usr/bin/env bash
# Issue 16, fifteenth round: E4 as C^T = X^T dY with X^T fed to wgmma from
# registers (CodegenOptions::wgmma_register_a), in one call of the device
# tool. The GPU tests of the register-A forms and of the stage-written bf16
# forms, the same under compute-sanitizer memcheck, the SASS check of the
# register-A kernel, fixed configurations at K = 100864 (A/B/A/B), the unfused
# baseline, then the tuned E4 rows.
#
# Call 5 of the fifteenth round ran it at cbdab2d, where register A was the
# default (`--no-register-a` turned it off) and e4_rows had a seventh block
# variant (BM 256 x BN 128, one row block); since then register A is off by
# default and this script asks for it with --register-a, at variant 5.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/e4ra bench/i16_e4_register_a_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
log "E4 register-A call on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 300 "GPU: E4 as C^T*,GPU: bf16 wgmma*"
memcheck_tests memcheck 300 "GPU: E4 as C^T*"
sass_check e4_register_a e4_rows --bench e4_rows_k100864 --variant 5 --warps 8 --wgmma --register-a
ab_rounds "e4_rows_k100864 --warps 8 --wgmma" "--variant 6" "--variant 5 --register-a" "--variant 5"
e4_against_unfused 300 e4_rows,e4_rows_k100864
log "done"
