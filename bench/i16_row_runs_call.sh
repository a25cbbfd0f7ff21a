#!/usr/bin/env bash
# Issue 16, fourteenth round, one device call: p09 with its [64, 128] tile
# in runs along the rows (CodegenOptions::row_runs) against the striped
# layout (--no-row-runs), on one machine: `check 9 --gpu` at every size
# set, the bench case at 4 and 8 warps both ways, alternating, two rounds
# (run time and NVRTC time), the tuned row both ways, and memcheck of the
# runs at p09's 9b size set (B1 = 64: the set whose kernel changes).
# Files in $OUT: summary.txt, check.log, ab.log, tuned.log, memcheck.log.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/r COMMIT=<rev> bench/i16_row_runs_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "row runs call at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope
timeout 120 "$TS" check 9 --gpu > "$OUT/check.log" 2>&1
log "check 9 --gpu: exit $? $(grep -E 'kernels match|DIFFERS|ERROR' "$OUT/check.log" | tr '\n' ' ')"
AB="$OUT/ab.log"
: > "$AB"
row() { grep -E '^p09 ' "$AB" | tail -1 | tr -s ' ' | sed 's/.*B1 = 128 //'; }
for round in 1 2; do
  for w in 4 8; do
    for form in "" "--no-row-runs"; do
      timeout 60 "$TS" bench --gpu --case p09 --warps "$w" $form >> "$AB" 2>&1
      log "round $round, p09 --warps $w ${form:-(row runs)}: exit $? | $(row)"
    done
  done
done
for form in "" "--no-row-runs"; do
  timeout 120 "$TS" bench --gpu --case p09 $form > "$OUT/tuned.log.tmp" 2>&1
  cat "$OUT/tuned.log.tmp" >> "$OUT/tuned.log"
  log "tuned ${form:-(row runs)}: exit $? $(grep -A1 -E '^p09 ' "$OUT/tuned.log.tmp" | tr -s ' ' | tr '\n' ' ')"
done
rm -f "$OUT/tuned.log.tmp"
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
: > "$OUT/memcheck.log"
# 9b (B1 = 64, a key tail of 40) is the size set whose kernel changes (runs of 2).
for set in 9b; do
  for w in 1 2 4 8; do
    timeout 60 "$SAN" --tool memcheck "$TS" gpu-run 9 --set "$set" --warps "$w" >> "$OUT/memcheck.log" 2>&1
    log "memcheck 9 --set $set --warps $w: exit $? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)"
  done
done
log "done"
