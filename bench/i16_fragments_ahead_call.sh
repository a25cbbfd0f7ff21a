#!/usr/bin/env bash
# Issue 16, thirteenth round, one device call: p11's C^T form reading its
# next fragments while its group runs (Pipeline::fragments_ahead). The SASS
# check of the bench kernel at 3 and 4 stages (no fragment register written
# while its group may be in flight); the GPU tests of the C^T, TMA and
# cluster forms, and the same under memcheck; p11 at 256 x 128 with the
# fragments ahead against the groups waited (`--groups-waited`, the form
# before), each twice; then the tuner on p11.
# Files in $OUT: summary.txt, ab.log, tuned.log, sass_*.log, tests.log, memcheck.log.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/c COMMIT=<rev> bench/i16_fragments_ahead_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
CUDA_BIN=${CUDA_BIN:-/usr/local/cuda/bin}

log "fragments-ahead call at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
for st in 3 4; do
  "$TS" compile 11 --cuda --bench p11 --variant 1 --warps 8 --wgmma --tma --stages $st --no-lines > "$BUILD/p11_sass$st.cu" &&
    "$CUDA_BIN/nvcc" -arch=sm_90a -cubin -w -o "$BUILD/p11_sass$st.cubin" "$BUILD/p11_sass$st.cu" &&
    "$CUDA_BIN/cuobjdump" -sass "$BUILD/p11_sass$st.cubin" > "$OUT/sass_p11_$st.txt" &&
    python3 "$ROOT/bench/sass_fragment_check.py" < "$OUT/sass_p11_$st.txt" > "$OUT/sass_$st.log" 2>&1
  log "SASS check, p11 256 x 128, $st stages, fragments ahead: exit $? $(tr '\n' ' ' < "$OUT/sass_$st.log" | cut -c1-300)"
done
gpu_tests tests 200 "GPU: wgmma as C^T*,GPU: TMA copies*,GPU: clusters*"
memcheck_tests memcheck 300 "GPU: wgmma as C^T*,GPU: TMA copies*,GPU: clusters*"
AB="$OUT/ab.log"
: > "$AB"
for round in 1 2; do
  for cfg in "--tma --stages 4" "--tma --stages 4 --groups-waited" "--tma --stages 3" "--tma --stages 3 --groups-waited"; do
    echo "=== round $round: p11 --variant 1 --warps 8 --wgmma $cfg" >> "$AB"
    # shellcheck disable=SC2086
    timeout 90 "$TS" bench --gpu --case p11 --variant 1 --warps 8 --wgmma $cfg >> "$AB" 2>&1
    log "round $round, p11 256 x 128 $cfg: exit $? $(grep -E '^ *p11' "$AB" | tail -1 | tr -s ' ' | cut -d' ' -f17-19)"
  done
done
timeout 200 "$TS" bench --gpu --wgmma --case p11 > "$OUT/tuned.log" 2>&1
log "tuned p11: exit $?"
grep -A4 -E '^ *p11' "$OUT/tuned.log" >> "$SUMMARY"
log "done"
