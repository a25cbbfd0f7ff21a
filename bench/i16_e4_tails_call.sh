#!/usr/bin/env bash
# Issue 16, fourteenth round, one device call: memcheck of E4's pipelined
# kernels at their tail sets at the final tree. The row runs' coordinates
# (element_coordinates) changed the text of E4's wgmma kernels at 4 warps
# (their operand runs), the same elements written without a flat index.
# Files in $OUT: summary.txt, memcheck_tails.log.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/m COMMIT=<rev> bench/i16_e4_tails_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "E4 tails under memcheck at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope
ONLY=e4 timeout 300 "$ROOT/bench/memcheck_tails.sh" "$TS" "$OUT/memcheck_tails.log" | tee -a "$SUMMARY"
log "done"
