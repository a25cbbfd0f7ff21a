#!/usr/bin/env bash
# Issue 16, fifteenth round: does p11 run faster with y's wgmma A fragments
# loaded from global memory into registers (three K steps ahead) instead of
# staged by cp.async and read back from shared memory? An experiment before
# any code generator change: bench/p11_global_fragments_patch.py edits the
# generated CUDA of p11's TMA kernels (256 x 128, 8 warps, 3 and 4 stages),
# nvcc compiles it, and the cubin is planted in the cubin cache under the
# original's key, so `tilescope bench` times it. Fixed configurations A/B/A/B,
# then the tuner with the planted cubins (it rejects a variant whose output
# differs from the plain configuration's), then the SASS check.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/gf bench/i16_p11_global_fragments_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
log "p11 global fragments on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope
CUDA_BIN=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")
CACHE=$TILESCOPE_CACHE_DIR
AB="$OUT/ab.log"
: > "$AB"
fixed() {  # fixed LABEL: both stage counts, one line each to the summary
  for s in 4 3; do
    echo "=== $1 stages $s" >> "$AB"
    timeout 120 "$TS" bench --gpu --case p11 --warps 8 --wgmma --tma --variant 1 --stages "$s" >> "$AB" 2>&1
    log "$1 stages $s: exit $? $(grep -E '^p11' "$AB" | tail -1)"
  done
}
fixed "original"
PATCHED=()
for cu in $(grep -l "batched_matmul_B0_256_B1_128" "$CACHE"/*.cu 2>/dev/null); do
  grep -q "ts_tma_load" "$cu" && grep -q "ts_wgmma_tf32_rs" "$cu" || continue
  grep -q "define TS_TMA_PATH 0" "$cu" && continue
  base=${cu%.cu}
  [ -f "$base.cubin" ] || continue
  if python3 "$ROOT/bench/p11_global_fragments_patch.py" "$cu" "$base.g.cu" >> "$OUT/patch.log" 2>&1 &&
     "$CUDA_BIN/nvcc" -arch=sm_90a -cubin -std=c++17 -w -Xptxas -v -o "$base.g.cubin" -x cu "$base.g.cu" >> "$OUT/patch.log" 2>&1; then
    cp "$base.cubin" "$base.orig.cubin"
    PATCHED+=("$base")
    "$CUDA_BIN/cuobjdump" -sass "$base.g.cubin" | python3 "$ROOT/bench/sass_fragment_check.py" >> "$OUT/patch.log" 2>&1
    log "patched $(basename "$base"): SASS check exit $? $(grep -E 'registers' "$OUT/patch.log" | tail -1)"
  else
    log "patch of $(basename "$cu") failed"
  fi
done
use() { for b in "${PATCHED[@]}"; do cp "$b.$1.cubin" "$b.cubin"; done; }
[ ${#PATCHED[@]} -gt 0 ] || { log "nothing patched"; exit 1; }
use g; fixed "global fragments"
use orig; fixed "original"
use g; fixed "global fragments"
timeout 300 "$TS" bench --gpu --wgmma --case p11 --json-out "$OUT/bench.json" > "$OUT/bench.log" 2>&1
log "tuned p11 with the planted cubins: exit $? $(grep -E '^p11' "$OUT/bench.log" | tail -1)"
grep -iE "reject|differ" "$OUT/bench.log" "$OUT/bench.json" | head -5 >> "$SUMMARY"
use orig
log "done"
