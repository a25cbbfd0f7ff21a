#!/usr/bin/env bash
# compute-sanitizer memcheck on every pipelined kernel (cp.async, ldmatrix,
# wgmma) at the sets with tails on every axis, at 4 and 8 warps, and with
# wgmma where its dots take it (E1 and E4 at 4 and 8 warps, p11 at 8; E4's
# bf16 dots), with and without TMA copies, and p11's clusters. Most tail
# sets' blocks are below wgmma's (p11's 11b: 32 x 16), so there those runs
# compile the mma.sync kernel again (gpu-run prints which copy path ran);
# the wgmma, TMA and cluster forms at tails are their GPU tests' (run them
# under memcheck with TESTS=... bench/device_call.sh). ONLY, a regular
# expression, keeps the kernels whose id matches it. Each run's output goes
# to $MLOG; one line a run (errors, exit status) to standard output.
#
# Usage: bench/memcheck_tails.sh TILESCOPE MLOG
set -u -o pipefail
TS=$1
MLOG=$2
SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
TMP="$MLOG.run"
: > "$MLOG"
for spec in "11 11b" "11 11c" "e1_v1 e1a" "e1_v1 e1b" "e1_v2 e1a" "e4_fused e4a" "e4_fused e4b" "e4_splitk e4a" \
            "e4_splitk e4b" "e4_rows e4a" "e4_rows e4b"; do
  read -r id set <<< "$spec"
  [[ -n ${ONLY:-} && ! $id =~ $ONLY ]] && continue
  variants=("--warps 4" "--warps 8")
  [[ $id == e1_* || $id == e4_* ]] && variants+=("--warps 4 --wgmma")
  [[ $id == e4_* ]] && variants+=("--warps 8 --wgmma")
  [[ $id == e1_* || $id == 11 ]] && variants+=("--warps 8 --wgmma")
  # The TMA pipelines (the forms the bench's tuner picks for p11, E1 and E4)
  # and p11's clusters, where a set's blocks admit them (E4 fused at e4b).
  [[ $id == e1_* || $id == e4_* || $id == 11 ]] && variants+=("--warps 8 --wgmma --tma")
  [[ $id == e1_* || $id == e4_* ]] && variants+=("--warps 4 --wgmma --tma")
  [[ $id == 11 ]] && variants+=("--warps 8 --wgmma --tma --cluster")
  declare -A checked=()  # generated kernel's digest -> the variant that ran it
  for v in "${variants[@]}"; do
    # A variant whose kernel is one this set already ran (wgmma and TMA where
    # the set's blocks are below wgmma's) is not run again.
    # shellcheck disable=SC2086
    source_text=$("$TS" compile "$id" --cuda --set "$set" $v 2>/dev/null)
    digest=$(md5sum <<< "$source_text" | cut -d' ' -f1)
    if [[ -n $source_text && -n ${checked[$digest]:-} ]]; then
      echo "memcheck $id $set, $v: the same kernel as '${checked[$digest]}', not run again"
      continue
    fi
    [[ -n $source_text ]] && checked[$digest]=$v
    # shellcheck disable=SC2086
    timeout 120 "$SAN" --tool memcheck --print-limit 10 --error-exitcode 99 "$TS" gpu-run "$id" --set "$set" $v \
      > "$TMP" 2>&1
    rc=$?
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$TMP" | tail -1)
    { echo "===== $id --set $set $v (exit $rc)"; cat "$TMP"; } >> "$MLOG"
    echo "memcheck $id $set, $v: ${errors:-?} errors (exit $rc)"
  done
  unset checked
done
rm -f "$TMP"
