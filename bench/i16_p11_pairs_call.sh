#!/usr/bin/env bash
# Issue 16, thirteenth round, one device call: p11 as two programs an SM
# (256 x 64 x 32, one warpgroup each, 2 stages: 84 KB of shared memory and
# 170 registers a thread), alone and in clusters of two sharing x's tile,
# against the 256 x 128 form at 8 warps, all fixed configurations, each
# twice; then the tuner on p11 alone.
# Files in $OUT: summary.txt, ab.log, tuned.log.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/c COMMIT=<rev> bench/i16_p11_pairs_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "p11 pairs call at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope
AB="$OUT/ab.log"
: > "$AB"
for round in 1 2; do
  for cfg in "--variant 1 --warps 8 --tma --stages 4" "--variant 2 --warps 4 --tma --stages 2" \
             "--variant 2 --warps 4 --tma --cluster --stages 2" "--variant 2 --warps 4 --tma --stages 3" \
             "--variant 2 --warps 4 --tma --cluster --stages 3" "--variant 2 --warps 4 --stages 2"; do
    echo "=== round $round: p11 --wgmma $cfg" >> "$AB"
    # shellcheck disable=SC2086
    timeout 90 "$TS" bench --gpu --case p11 --wgmma $cfg >> "$AB" 2>&1
    log "round $round, p11 --wgmma $cfg: exit $? $(grep -E '^ *p11' "$AB" | tail -1 | tr -s ' ' | cut -d' ' -f17-19)"
  done
done
timeout 200 "$TS" bench --gpu --wgmma --case p11 > "$OUT/tuned.log" 2>&1
log "tuned p11: exit $? $(grep -E '^ *p11' "$OUT/tuned.log" | tail -1 | tr -s ' ' | cut -d' ' -f17-19)"
grep -A4 -E '^ *p11' "$OUT/tuned.log" >> "$SUMMARY"
log "done"
