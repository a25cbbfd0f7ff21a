#!/usr/bin/env bash
# Issue 16, eighth round: after a change to the code every pipelined kernel
# shares (its prologue, its vectors' mask tests, split-K's atomics), the
# checks that only a GPU gives, in one call of the device tool: the GPU-run
# and child-process tests, then compute-sanitizer memcheck on each
# pipelined kernel at its tail sets (bench/memcheck_tails.sh).
# bench/i16_one_call.sh is the "Done when" call that times them.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/verify bench/i16_verify_call.sh        (about 6-8 min on an H100 host)
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "verify call at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 240 "[run],[child]"
grep -E "FAILED|SKIP" "$OUT/tests.log" | head -20 >> "$SUMMARY"

"$ROOT/bench/memcheck_tails.sh" "$TS" "$OUT/memcheck_tails.log" | while IFS= read -r l; do log "$l"; done
log "done"
