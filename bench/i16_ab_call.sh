#!/usr/bin/env bash
# A/B timing of one commit against another on the same GPU, in one call of
# the device tool: builds the command line tool of this checkout and of
# commit $OLD (a worktree beside it), then times each bench configuration
# in $CONFIGS with both, alternating old/new $ROUNDS times, so drift of the
# machine falls on both. Each line of $CONFIGS is the arguments of one
# `tilescope bench --gpu` run (a fixed configuration: give --warps).
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/ab OLD=a7c316e CONFIGS=$'--case e1_v1_128 --warps 8 --wgmma --tma --stages 3' bench/i16_ab_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
OLD=${OLD:?the commit to compare with}
ROUNDS=${ROUNDS:-3}

log "A/B: $OLD against this checkout on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope
OLD_TREE=$ROOT/../ab-old
# Kept on a warm machine: its build is reused.
if [ "$(git -C "$OLD_TREE" rev-parse HEAD 2>/dev/null)" != "$(git -C "$ROOT" rev-parse "$OLD" 2>/dev/null)" ]; then
  rm -rf "$OLD_TREE"
  git -C "$ROOT" worktree prune
  git -C "$ROOT" worktree add -f --detach "$OLD_TREE" "$OLD" > /dev/null 2>&1 || { log "no worktree of $OLD"; exit 1; }
fi
cp -r "$ROOT/.debs" "$OLD_TREE/" 2>/dev/null
OUT="$OLD_TREE/build-gpu-logs" STEPS=build BUILD_TARGETS=tilescope BUILD="$OLD_TREE/build-gpu" \
  "$OLD_TREE/bench/gpu_run.sh" > /dev/null 2>&1
OLD_TS="$OLD_TREE/build-gpu/tilescope"
[ -x "$OLD_TS" ] || { log "the old build failed"; exit 1; }
log "built $OLD"

while IFS= read -r cfg; do
  [ -z "$cfg" ] && continue
  for round in $(seq 1 "$ROUNDS"); do
    for side in old new; do
      bin=$TS
      [ $side = old ] && bin=$OLD_TS
      # shellcheck disable=SC2086
      timeout 120 "$bin" bench --gpu $cfg > "$OUT/run.tmp" 2>&1
      { echo "===== $side round $round: bench --gpu $cfg (exit $?)"; cat "$OUT/run.tmp"; } >> "$OUT/ab.log"
      row=$(grep -E '^[a-z0-9_]+ +[A-Za-z]' "$OUT/run.tmp" | grep -vE '^(case|device|bandwidth|tf32|measuring|timing) ' | head -1)
      log "$side round $round [$cfg]: $(echo "$row" | awk 'NF > 12 {print $1, "median", $(NF-11), "ms, nvrtc", $(NF-1), "s"}')"
    done
  done
done <<< "${CONFIGS:?bench configurations, one a line}"
rm -f "$OUT/run.tmp"
log "done"
