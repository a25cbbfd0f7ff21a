#!/usr/bin/env bash
# Issue 16, tenth round: p11's C^T form with its two warpgroups apart
# (CodegenOptions::warpgroups_apart), in one call of the device tool.
# Builds the command line tool and the tests; runs the GPU tests of the new
# forms and of the transposed and TMA forms (against the interpreter, small
# sizes with tails), the new forms under compute-sanitizer memcheck, then p11
# at 4096^3 at fixed configurations, alternating, ROUNDS times, and cuBLAS's
# tf32 product (torch.matmul) in the same call.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/wg bench/i16_warpgroups_call.sh        (about 4-5 min on an H100 host)
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
ROUNDS=${ROUNDS:-3}

log "warpgroups call on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
TESTS="$BUILD/tests/tilescope_tests"

(cd "$BUILD/tests" && timeout 200 "$TESTS" "GPU: p11's warpgroups apart*,GPU: wgmma as C^T*,GPU: TMA copies*") > "$OUT/tests.log" 2>&1
log "GPU tests: exit $? $(grep -E '^test cases|^All tests' "$OUT/tests.log" | tail -1)"
grep -E "FAILED|SKIP" -A6 "$OUT/tests.log" | head -40 >> "$SUMMARY"

SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
(cd "$BUILD/tests" && timeout 200 "$SAN" --tool memcheck --print-limit 10 --error-exitcode 99 "$TESTS" "GPU: p11's warpgroups apart*") \
  > "$OUT/memcheck.log" 2>&1
log "memcheck of the new forms: exit $? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)"

CONFIGS=("--variant 1 --wgmma --tma --stages 3" "--variant 1 --wgmma --tma --stages 3 --warpgroups-apart"
         "--variant 1 --wgmma --tma --stages 4 --warpgroups-apart" "--variant 1 --wgmma --tma --stages 2 --warpgroups-apart"
         "--wgmma --tma --stages 3 --warpgroups-apart")
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
