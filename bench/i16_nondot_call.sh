#!/usr/bin/env bash
# Issue 16, fourteenth round, one device call: the non-dot rows at the
# final tree (p09's row runs, the prelude without the 16-bit headers where
# no f16/bf16 value is used): `check --all --gpu`, then the tuned bench of
# every memory-bound and scalar case with its NVRTC times. Triton's numbers
# for these rows are call 5's (the same host type, minutes apart).
# Files in $OUT: summary.txt, check_all.log, bench.log, bench.json.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/n COMMIT=<rev> bench/i16_nondot_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "non-dot rows at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope
timeout 120 "$TS" check --all --gpu > "$OUT/check_all.log" 2>&1
log "check --all --gpu: exit $? $(grep -E 'kernels match|DIFFERS|ERROR' "$OUT/check_all.log" | tr '\n' ' ')"
timeout 300 "$TS" bench --gpu --case p02,p04,p07,p08,p09,p10,e2,e3,e5_fwd,e5_bwd --json-out "$OUT/bench.json" > "$OUT/bench.log" 2>&1
log "bench: exit $?"
grep -E '^(p0|p10|e2|e3|e5)' "$OUT/bench.log" | tr -s ' ' | tee -a "$SUMMARY"
log "done"
