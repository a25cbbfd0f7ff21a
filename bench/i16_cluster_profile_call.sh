#!/usr/bin/env bash
# Issue 16, thirteenth round, one device call: why p11's clusters (two
# programs sharing x's tile by TMA multicast, 2.1 GB out of L2 instead of
# 3.2) ran 1.6-1.8x slower than single programs (ninth round). Times p11's
# 256 x 128 form with TMA alone and in clusters, profiles one launch of
# each with Nsight Compute (throughputs, warp stalls, scheduler, memory,
# launch), then runs compute-sanitizer memcheck on every pipelined kernel
# at its tail sets, the TMA and cluster forms included (memcheck_tails.sh).
# Files in $OUT: summary.txt, ab.log, ncu_plain.txt, ncu_cluster.txt,
# memcheck_tails.log.
#
# Usage from the repository root, .debs/ carried:
#   OUT=/tmp/c COMMIT=<rev> bench/i16_cluster_profile_call.sh
set -u -o pipefail

# shellcheck source=bench/device_call_common.sh
source "$(dirname "${BASH_SOURCE[0]}")/device_call_common.sh"

log "cluster profile call at ${COMMIT:-?} on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
build_or_exit tilescope tilescope_tests
AB="$OUT/ab.log"
: > "$AB"
# Both tile sizes: 128 x 128 (the case's own blocks) and 256 x 128 (--variant 1,
# the tuner's pick), each alone and in clusters, the plain form again last.
for cfg in "--tma --stages 4" "--tma --cluster --stages 4" "--tma --cluster --stages 3" \
           "--variant 1 --tma --stages 4" "--variant 1 --tma --cluster --stages 4" \
           "--variant 1 --tma --cluster --stages 3" "--variant 1 --tma --stages 4"; do
  echo "=== p11 --warps 8 --wgmma $cfg" >> "$AB"
  # shellcheck disable=SC2086
  timeout 90 "$TS" bench --gpu --case p11 --warps 8 --wgmma $cfg >> "$AB" 2>&1
  log "p11 --warps 8 --wgmma $cfg: exit $? $(grep -E '^ *p11' "$AB" | tail -1 | tr -s ' ' | cut -d' ' -f17-19)"
done
gpu_tests cluster_tests 200 "GPU: clusters*,GPU: TMA copies*,GPU: wgmma as C^T*"
memcheck_tests cluster_memcheck 300 "GPU: clusters*,GPU: TMA copies*,GPU: wgmma as C^T*,GPU: bf16 wgmma*"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for form in plain cluster; do
  extra=""
  [[ $form == cluster ]] && extra="--cluster"
  # shellcheck disable=SC2086
  timeout 120 "$NCU" --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis --section LaunchStats --section Occupancy --section ComputeWorkloadAnalysis \
    --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio \
    -k regex:batched_matmul --launch-skip 3 --launch-count 1 \
    "$TS" bench --gpu --case p11 --variant 1 --warps 8 --wgmma --tma --stages 4 $extra --runs 100 --warmup 1 \
    > "$OUT/ncu_$form.txt" 2>&1
  log "ncu $form: exit $?"
done
[[ -n ${TAILS:-} ]] && timeout 330 "$ROOT/bench/memcheck_tails.sh" "$TS" "$OUT/memcheck_tails.log" | tee -a "$SUMMARY"
log "done"
