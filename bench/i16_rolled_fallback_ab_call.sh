#!/usr/bin/env bash
# Issue 16, thirteenth round, one device call: the TMA pipelines' in-loop
# cp.async fallback rolled (506abcf) against unrolled (the patch reversed),
# two builds on one machine, the TMA kernels the tuner picked at their
# configurations, alternating, three rounds (the "Done when" call 5 saw E1
# 128 at 0.0587 ms against 0.052-0.054 in earlier rounds).
# Files in $OUT: summary.txt, ab.log.
#
# bench/rolled_fallback.patch is 506abcf's change (the fallback rolled in
# every TMA pipeline); a73eec9 narrowed it, so run this at f3cdd2d.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/c COMMIT=<rev> bench/i16_rolled_fallback_ab_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "rolled-fallback A/B at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope
OLD=/tmp/ts_unrolled
rm -rf "$OLD" && mkdir -p "$OLD" && (cd "$ROOT" && tar --exclude=./build-gpu --exclude=./build-gpu-logs -cf - .) | (cd "$OLD" && tar -xf -)
(cd "$OLD" && patch -s -R -p1 < bench/rolled_fallback.patch) || { log "patch -R failed"; exit 1; }
BUILD="$OLD/build-gpu" OUT="$OLD/build-logs" STEPS=build BUILD_TARGETS=tilescope "$OLD/bench/gpu_run.sh" > /dev/null 2>&1
[ -x "$OLD/build-gpu/tilescope" ] || { log "unrolled build failed"; exit 1; }
log "built the unrolled form in $OLD"
AB="$OUT/ab.log"
: > "$AB"
for round in 1 2 3; do
  for spec in "e1_v1_128|--warps 8 --stages 3 --wgmma --tma" "e1_v1|--warps 4 --stages 2 --wgmma --tma" \
              "e1_v2|--warps 4 --stages 3 --wgmma --tma --groups-waited" "p11|--variant 1 --warps 8 --wgmma --tma"; do
    c=${spec%%|*}; cfg=${spec#*|}
    for form in rolled unrolled; do
      bin="$TS"; [[ $form == unrolled ]] && bin="$OLD/build-gpu/tilescope"
      echo "=== round $round, $form: $c $cfg" >> "$AB"
      # shellcheck disable=SC2086
      TILESCOPE_CACHE_DIR="$OUT/cache_$form" timeout 90 "$bin" bench --gpu --case "$c" $cfg >> "$AB" 2>&1
      log "round $round, $form, $c: exit $? $(grep -E "^$c " "$AB" | tail -1 | tr -s ' ' | rev | cut -d' ' -f1-12 | rev)"
    done
  done
done
rm -rf "$OUT"/cache_*
log "done"
