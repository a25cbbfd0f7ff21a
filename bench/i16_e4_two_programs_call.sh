#!/usr/bin/env bash
# Issue 16, fifteenth round: E4 at one dot of 128 x 128 (BM 128, BN 128, one
# row block: 113-120 registers, two programs an SM, four warps a scheduler),
# X written to the stage or fed to wgmma from registers, against the tuned
# form (BN 64 x 2), fixed configurations A/B/C twice, in one device call.
#
# Call 8 of the fifteenth round ran it at d40ac7e, where e4_rows listed that
# block as its seventh variant; since a297596 it does not (it never won), and
# `--variant 7` here names nothing.
#
# Usage from the repository root, .debs/ carried:  OUT=/tmp/e4t bench/i16_e4_two_programs_call.sh
set -u -o pipefail
# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
log "E4 two programs an SM on $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 300 "GPU: E4 as C^T*"
sass_check e4_bn128_register_a e4_rows --bench e4_rows_k100864 --variant 7 --warps 8 --wgmma --register-a
ab_rounds "e4_rows_k100864 --warps 8 --wgmma" "--variant 6" "--variant 7" "--variant 7 --register-a"
log "done"
