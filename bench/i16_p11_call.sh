#!/usr/bin/env bash
# Issue 16, seventh round: p11's dot as wgmma computing C^T = B^T A^T
# (Pipeline::wgmma_transposed) in one call of the device tool. Builds the
# command line tool and the tests; runs the GPU tests of the transposed form
# (every form against the interpreter, small sizes with tails) and of the
# tensor cores' reads, then the same test under compute-sanitizer memcheck;
# then p11 at 4096^3: fixed configurations (the transposed wgmma at 4, 3 and
# 2 stages, mma.sync as before) and the tuned row.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/p11 bench/i16_p11_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "p11 call on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 300 "GPU: wgmma as C^T*,the tensor cores read*"
memcheck_tests memcheck 300 "GPU: wgmma as C^T*"

AB="$OUT/ab.log"
: > "$AB"
for cfg in "--wgmma --stages 4" "--wgmma --stages 3" "--wgmma --stages 2" "--stages 3"; do
  echo "=== p11 --warps 8 $cfg" >> "$AB"
  # shellcheck disable=SC2086
  timeout 120 "$TS" bench --gpu --case p11 --warps 8 $cfg >> "$AB" 2>&1
  log "p11 --warps 8 $cfg: exit $? $(grep -E '^p11' "$AB" | tail -1)"
done
timeout 400 "$TS" bench --gpu --wgmma --case p11 --json-out "$OUT/bench.json" > "$OUT/bench.log" 2>&1
log "tuned p11: exit $? $(grep -E '^p11' "$OUT/bench.log" | tail -1)"
grep -A3 -E '^p11' "$OUT/bench.log" >> "$SUMMARY"
log "done"
