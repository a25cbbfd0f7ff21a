#!/usr/bin/env bash
# Issue 16, fifteenth round: p11 at 256 x 128 x 64, x's rows of 256 bytes in
# two swizzled 128-byte columns with a TMA box each, in one call of the
# device tool. The GPU tests of the BK 64 and transposed forms and the same
# under compute-sanitizer memcheck; the SASS check of the BK 64 kernel; fixed
# configurations A/B/A/B against 256 x 128 x 32 at four stages; the tuned row.
#
# Call 3 of the fifteenth round ran it at 5b288c9, where the bench listed
# 256 x 128 x 64 as p11's second block variant; since 2961daf it does not,
# and `--variant 2` here names nothing.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/bk64 bench/i16_p11_bk64_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
log "p11 BK 64 call on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 300 "GPU: p11 at BK 64*,GPU: wgmma as C^T*"
memcheck_tests memcheck 300 "GPU: p11 at BK 64*,GPU: wgmma as C^T*"
sass_check p11_bk64 11 --bench p11 --variant 2 --warps 8 --wgmma --tma --stages 2
ab_rounds "p11 --warps 8 --wgmma --tma" "--variant 1 --stages 4" "--variant 2 --stages 2"
timeout 300 "$TS" bench --gpu --wgmma --case p11 --json-out "$OUT/bench.json" > "$OUT/bench.log" 2>&1
log "tuned p11: exit $? $(grep -E '^p11' "$OUT/bench.log" | tail -1)"
grep -A3 -E '^p11' "$OUT/bench.log" >> "$SUMMARY"
log "done"
