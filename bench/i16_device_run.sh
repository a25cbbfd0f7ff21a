#!/usr/bin/env bash
# Issue 16's measurements on a GPU machine, beside Triton's in the same run:
# bench/gpu_run.sh's build, checks and bench (the bench now autotunes and
# prints each case's configuration), then
#   triton    ../shared/bench/triton_at_scale.py and bench/e4_unfused_baseline.py
#             (carried as .anchor/, see below), same machine, same call
#   tails     compute-sanitizer memcheck on every pipelined kernel at its tail
#             sets (e4_rows included) -> memcheck_tails.log
#   ab        bench of the dot cases without ldmatrix (--no-ldmatrix), and at
#             fixed 8 warps, to separate the changes' effects
#   wgmma     the opt-in Hopper path (CodegenOptions::wgmma, E1's tf32 dots):
#             check e1_v1 and e1_v2 --gpu --wgmma at 4 and 8 warps and at 4, 3
#             and 2 stages (groups in flight at 4 and 3, waited for at once at
#             2; small sets with tails, and the bench sets)
# BENCH_ARGS is passed to `tilescope bench` (--wgmma: the tuner also tries it).
# Logs and a summary go to $OUT (at most 8 files come back from the device
# tool: gpu_run.sh packs its logs into logs.tar.gz).
#
# Usage from the repository root, with .debs/ (nlohmann-json3-dev, catch2
# .deb files) and .anchor/ (a copy of ../shared/bench) present:
#   OUT=/tmp/i16 STEPS="build check tests" bench/i16_device_run.sh          (~6 min on 16 cores)
#   OUT=/tmp/i16 STEPS="bench triton" bench/i16_device_run.sh               (~6-8 min)
#   OUT=/tmp/i16 STEPS="examples tails ab" bench/i16_device_run.sh          (~6-8 min)
#   OUT=/tmp/i16 STEPS="wgmma" bench/i16_device_run.sh                      (~3-5 min)
# The build directory (build-gpu/) is kept between calls on a warm machine.
# STEPS default: all of them in that order.
set -u -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export OUT=${OUT:-$ROOT/gpu-results}
export BUILD=${BUILD:-$ROOT/build-gpu}
STEPS=${STEPS:-"build check examples tests bench triton tails ab wgmma"}
ANCHOR=${ANCHOR:-$ROOT/.anchor}
mkdir -p "$OUT"
SUMMARY="$OUT/i16_summary.txt"
TS="$BUILD/tilescope"
export TILESCOPE_CACHE_DIR="$BUILD/cubin-cache"
# The lent machines' Release builds: the system g++ and pybind11 from pip.
if [ -z "${CMAKE_EXTRA+x}" ]; then
  CMAKE_EXTRA="-DCMAKE_CXX_COMPILER=/usr/bin/g++"
  if pb=$(python3 -m pybind11 --cmakedir 2>/dev/null); then CMAKE_EXTRA="$CMAKE_EXTRA -Dpybind11_DIR=$pb"; fi
  export CMAKE_EXTRA
fi
log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$SUMMARY"; }
want() { [[ " $STEPS " == *" $1 "* ]]; }

log "issue 16 run at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"

# gpu_run.sh's own steps (it writes summary.txt and logs.tar.gz in $OUT).
base=""
for s in build check examples tests bench; do want "$s" && base="$base $s"; done
if [ -n "$base" ]; then
  STEPS="$base" "$ROOT/bench/gpu_run.sh"
  log "gpu_run.sh steps:$base -> exit $?"
fi

if want triton; then
  if [ -f "$ANCHOR/triton_at_scale.py" ]; then
    (cd "$ANCHOR" && PYTHONUNBUFFERED=1 timeout 900 python3 triton_at_scale.py) > "$OUT/triton_at_scale.log" 2>&1
    log "triton_at_scale.py: exit $?"
    grep -v '^JSON' "$OUT/triton_at_scale.log" | tail -40 >> "$SUMMARY"
  else
    log "no $ANCHOR/triton_at_scale.py: copy ../shared/bench to .anchor and carry it"
  fi
  PYTHONUNBUFFERED=1 timeout 300 python3 "$ROOT/bench/e4_unfused_baseline.py" >> "$SUMMARY" 2>&1
  log "e4_unfused_baseline.py: exit $?"
fi

if want tails; then
  "$ROOT/bench/memcheck_tails.sh" "$TS" "$OUT/memcheck_tails.log" | while IFS= read -r l; do log "$l"; done
fi

if want ab; then
  DOTS=p11,e1_v1,e1_v1_128,e4_fused_k100864,e4_rows_k100864
  timeout 900 "$TS" bench --gpu --case "$DOTS" --warps 8 > "$OUT/ab_ldmatrix.log" 2>&1
  timeout 900 "$TS" bench --gpu --case "$DOTS" --warps 8 --no-ldmatrix > "$OUT/ab_no_ldmatrix.log" 2>&1
  { echo "--- 8 warps, ldmatrix"; cat "$OUT/ab_ldmatrix.log"; echo "--- 8 warps, no ldmatrix"; cat "$OUT/ab_no_ldmatrix.log"; } >> "$SUMMARY"
  rm -f "$OUT/ab_ldmatrix.log" "$OUT/ab_no_ldmatrix.log"
  log "ab done"
fi
if want wgmma; then
  for w in 4 8; do
    for st in 4 3 2; do
      timeout 900 "$TS" check e1_v1 e1_v2 --gpu --wgmma --warps "$w" --stages "$st" > "$OUT/wgmma_check.tmp" 2>&1
      log "check e1_v1 e1_v2 --gpu --wgmma --warps $w --stages $st: exit $?"
      grep -E "match|DIFFERS|ERROR|FAIL|err" "$OUT/wgmma_check.tmp" | head -20 >> "$SUMMARY"
    done
  done
  # Groups waited for at once at four stages; the staged operands cut in
  # shared memory (--tf32-cut): its interp~GPU column against the raw one's.
  for extra in "--stages 4 --wgmma-wait" "--stages 2" "--stages 2 --tf32-cut" "--stages 3 --tf32-cut"; do
    # shellcheck disable=SC2086
    timeout 900 "$TS" check e1_v1 --gpu --wgmma --warps 4 $extra > "$OUT/wgmma_check.tmp" 2>&1
    log "check e1_v1 --gpu --wgmma --warps 4 $extra: exit $?"
    grep -vE "^GPU:|^The access" "$OUT/wgmma_check.tmp" | head -16 >> "$SUMMARY"
  done
  timeout 300 "$TS" bench --gpu --case e1_v1,e1_v1_128 --wgmma --tf32-cut > "$OUT/wgmma_check.tmp" 2>&1
  log "bench e1_v1,e1_v1_128 --wgmma --tf32-cut: exit $?"
  cat "$OUT/wgmma_check.tmp" >> "$SUMMARY"
  rm -f "$OUT/wgmma_check.tmp"
fi
log "done"
