#!/usr/bin/env bash
# Issue 16, tenth round: p11's transposed wgmma with a group in flight, its
# A fragments in two register sets (Pipeline::fragment_sets), in one call of
# the device tool. Builds the command line tool and the tests; runs the GPU
# tests of the transposed forms (each against the interpreter, small sizes
# with tails); checks the SASS ptxas made of p11's bench kernels
# (bench/sass_fragment_check.py: nothing but the fragment loads writes an A
# register inside the loop); runs the new forms under compute-sanitizer
# memcheck; then p11 at 4096^3 at fixed configurations, alternating, ROUNDS
# times, the tuned row, and cuBLAS's tf32 product in the same call.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/fs bench/i16_fragment_sets_call.sh        (about 6-7 min on an H100 host)
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
ROUNDS=${ROUNDS:-2}

log "fragment-sets call at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
TESTS="$BUILD/tests/tilescope_tests"

(cd "$BUILD/tests" && timeout 200 "$TESTS" "GPU: C^T's groups*,GPU: wgmma as C^T*,GPU: clusters*,GPU: TMA copies*") > "$OUT/tests.log" 2>&1
log "GPU tests: exit $? $(grep -E '^test cases|^All tests' "$OUT/tests.log" | tail -1)"
grep -E "FAILED|SKIP" -A6 "$OUT/tests.log" | head -40 >> "$SUMMARY"

# The SASS of the bench kernels with groups in flight (256 x 128 and 128 x 128).
CUDA_BIN=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")
for v in "--variant 1" ""; do
  tag=$([ -n "$v" ] && echo 256x128 || echo 128x128)
  # shellcheck disable=SC2086
  "$TS" compile 11 --cuda --bench p11 $v --warps 8 --wgmma --tma --stages 4 --no-lines > "$OUT/p11_$tag.cu" 2>&1
  "$CUDA_BIN/nvcc" -arch=sm_90a -cubin -w -Xptxas -v -o "$OUT/p11_$tag.cubin" "$OUT/p11_$tag.cu" > "$OUT/ptxas_$tag.log" 2>&1
  "$CUDA_BIN/cuobjdump" -sass "$OUT/p11_$tag.cubin" > "$OUT/p11_$tag.sass" 2>&1
  python3 "$ROOT/bench/sass_fragment_check.py" < "$OUT/p11_$tag.sass" > "$OUT/sass_check_$tag.log" 2>&1
  log "SASS check $tag: exit $? | $(tr '\n' ' ' < "$OUT/sass_check_$tag.log" | cut -c1-300) | $(grep -E 'registers' "$OUT/ptxas_$tag.log" | sed 's/.*Used/Used/')"
  rm -f "$OUT/p11_$tag.cubin" "$OUT/p11_$tag.cu"
done

SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
(cd "$BUILD/tests" && timeout 200 "$SAN" --tool memcheck --print-limit 10 --error-exitcode 99 "$TESTS" "GPU: C^T's groups*") \
  > "$OUT/memcheck.log" 2>&1
log "memcheck of the fragment-set forms: exit $? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)"

CONFIGS=("--variant 1 --wgmma --tma --stages 3" "--variant 1 --wgmma --tma --stages 4"
         "--variant 1 --wgmma --tma --stages 4 --groups-waited" "--wgmma --tma --stages 4")
for round in $(seq 1 "$ROUNDS"); do
  for cfg in "${CONFIGS[@]}"; do
    # shellcheck disable=SC2086
    timeout 90 "$TS" bench --gpu --case p11 --warps 8 $cfg > "$OUT/run.tmp" 2>&1
    rc=$?
    { echo "===== round $round: p11 --warps 8 $cfg (exit $rc)"; cat "$OUT/run.tmp"; } >> "$OUT/bench.log"
    row=$(grep -E '^p11 ' "$OUT/run.tmp" | head -1)
    cfgline=$(grep -m1 -E '^ +config: ' "$OUT/run.tmp")
    log "round $round [$cfg]: $(echo "$row" | awk 'NF > 12 {print "median", $(NF-11), "ms, regs", $(NF-5), ", nvrtc", $(NF-1), "s"}') | $(echo "$cfgline" | sed "s/^ *//")"
  done
done
rm -f "$OUT/run.tmp"

timeout 240 "$TS" bench --gpu --wgmma --case p11 > "$OUT/tuned.log" 2>&1
log "tuned p11: exit $? $(grep -E '^p11 ' "$OUT/tuned.log" | awk 'NF > 12 {print "median", $(NF-11), "ms"}') | $(grep -m1 -E '^ +config: ' "$OUT/tuned.log" | sed "s/^ *//")"

PYTHONUNBUFFERED=1 timeout 120 python3 - > "$OUT/cublas.log" 2>&1 <<'PY'
import torch
from triton.testing import do_bench
torch.backends.cuda.matmul.allow_tf32 = True
n = 4096
a, b = torch.randn(n, n, device="cuda"), torch.randn(n, n, device="cuda")
c = torch.empty(n, n, device="cuda")
for _ in range(2):
    t = do_bench(lambda: torch.matmul(a, b, out=c), warmup=50, rep=300, return_mode="median")
    print(f"cuBLAS tf32 matmul 4096^3 (torch.matmul, do_bench median): {t:.4f} ms = {2 * n ** 3 / t / 1e9:.1f} TFLOP/s")
PY
log "cuBLAS: exit $? $(tail -2 "$OUT/cublas.log" | tr '\n' ' ')"
log "done"
