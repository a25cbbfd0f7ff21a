#!/usr/bin/env bash
# Issue 16, eighteenth round, one device call: p11's ratio to cuBLAS with
# both timed the same way. p11 (256 x 128 x 32, 8 warps, TMA, 4 stages,
# decoupled) back to back and with --flush-l2 (L2 overwritten before each
# run, as Triton's do_bench does); cuBLAS's tf32 product (torch.matmul)
# back to back (cublas_tf32_4096) and through triton.testing.do_bench as
# triton_at_scale.py times it; two rounds, alternating.
# Files in $OUT: summary.txt, ab.log, cublas.log, cublas_do_bench.log.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/c COMMIT=<rev> bench/i16_p11_cublas_methods_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "p11 against cuBLAS, timed alike, at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope
: > "$OUT/cublas_do_bench.log"
: > "$OUT/ab.log"
for round in 1 2; do
  for cfg in "" "--flush-l2"; do
    echo "=== round $round: $cfg" >> "$OUT/ab.log"
    # shellcheck disable=SC2086
    timeout 120 "$TS" bench --gpu --case p11 --variant 1 --warps 8 --wgmma --tma --stages 4 $cfg >> "$OUT/ab.log" 2>&1
    log "round $round, p11 ${cfg:-back to back}: exit $? $(grep -E '^p11 ' "$OUT/ab.log" | tail -1)"
  done
  cublas_tf32_4096
  cat "$OUT/cublas.log" >> "$OUT/cublas_do_bench.log"
  PYTHONUNBUFFERED=1 timeout 120 python3 - >> "$OUT/cublas_do_bench.log" 2>&1 <<'PY'
import torch
from triton.testing import do_bench
torch.backends.cuda.matmul.allow_tf32 = True
a = torch.rand(4096, 4096, device="cuda"); b = torch.rand(4096, 4096, device="cuda")
ms = do_bench(lambda: torch.matmul(a, b), warmup=50, rep=300, return_mode="median")
print(f"cuBLAS tf32 4096^3 (torch.matmul), do_bench: median {ms:.4f} ms")
PY
  log "round $round, cuBLAS do_bench: exit $? $(tail -1 "$OUT/cublas_do_bench.log")"
done
log "done"
