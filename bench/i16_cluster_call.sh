#!/usr/bin/env bash
# Issue 16, ninth round: clusters of two programs sharing p11's x tile by
# TMA multicast (CodegenOptions::cluster_multicast), in one call of the
# device tool. Builds the command line tool and the tests; runs the GPU
# tests of the cluster forms, the transposed wgmma and TMA (each against the
# interpreter, small sizes with tails), then the cluster forms under
# compute-sanitizer memcheck; then p11 at 4096^3 at fixed configurations,
# alternating, ROUNDS times (256 x 128 and 128 x 128 tiles: without TMA,
# with TMA, with TMA and clusters), and cuBLAS's tf32 product (torch.matmul)
# in the same call.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/cl bench/i16_cluster_call.sh        (about 6-8 min on an H100 host)
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"
ROUNDS=${ROUNDS:-2}

log "cluster call at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?') on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
gpu_tests tests 200 "GPU: clusters*,GPU: wgmma as C^T*,GPU: TMA copies*"
grep -E "FAILED|SKIP" -A6 "$OUT/tests.log" | head -40 >> "$SUMMARY"
memcheck_tests memcheck 200 "GPU: clusters*"

CONFIGS=("--variant 1 --wgmma --stages 3" "--variant 1 --wgmma --tma --stages 3" "--variant 1 --wgmma --tma --stages 4"
         "--variant 1 --wgmma --tma --cluster --stages 3" "--wgmma --tma --stages 3" "--wgmma --tma --cluster --stages 3")
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

# The tuned row, as the "Done when" call reports it.
timeout 240 "$TS" bench --gpu --wgmma --case p11 > "$OUT/tuned.log" 2>&1
log "tuned p11: exit $? $(grep -E '^p11 ' "$OUT/tuned.log" | awk 'NF > 12 {print "median", $(NF-11), "ms"}') | $(grep -m1 -E '^ +config: ' "$OUT/tuned.log" | sed "s/^ *//")"

PYTHONUNBUFFERED=1 timeout 120 python3 - > "$OUT/cublas.log" 2>&1 <<'EOF'
import torch
from triton.testing import do_bench
torch.backends.cuda.matmul.allow_tf32 = True
n = 4096
a, b = torch.randn(n, n, device="cuda"), torch.randn(n, n, device="cuda")
c = torch.empty(n, n, device="cuda")
for _ in range(2):
    t = do_bench(lambda: torch.matmul(a, b, out=c), warmup=50, rep=300, return_mode="median")
    print(f"cuBLAS tf32 matmul 4096^3 (torch.matmul, do_bench median): {t:.4f} ms = {2 * n ** 3 / t / 1e9:.1f} TFLOP/s")
EOF
log "cuBLAS: exit $? $(tail -2 "$OUT/cublas.log" | tr '\n' ' ')"
log "done"
