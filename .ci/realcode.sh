#!/usr/bin/env bash
# Real Triton code that nobody wrote for tilescope (Triton's tutorials,
# Liger-Kernel's operators: ../shared/realcode, not part of this
# repository), run unchanged with `python3 -m tilescope run`. Fails when an
# item listed in .ci/realcode_passing.txt no longer passes; names items
# that pass and are not listed yet (add them). Skipped, saying so, where the
# real code is not beside the checkout.
# usage: .ci/realcode.sh [BUILD_DIR]   (default build)
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
realcode=${REALCODE_DIR:-../shared/realcode}
if [ ! -x "$realcode/run.sh" ]; then
  echo "realcode: skipped: no $realcode/run.sh beside this checkout"
  exit 0
fi
out=$(mktemp)
start=$SECONDS
PYTHONPATH=python:$build/python REALCODE_LOGS=${REALCODE_LOGS:-$build/realcode-logs} "$realcode/run.sh" | tee "$out"
echo "realcode: $((SECONDS - start)) s"
status=0
while IFS= read -r item; do
  [ -z "$item" ] || [[ "$item" == \#* ]] && continue
  if ! grep -qE "^$item +PASS" "$out"; then
    echo "realcode: REGRESSION: '$item' passed before and does not now"
    status=1
  fi
done < .ci/realcode_passing.txt
grep -E " PASS " "$out" | sed -E 's/ +PASS.*//' | while IFS= read -r item; do
  grep -qxF "$item" .ci/realcode_passing.txt || echo "realcode: '$item' passes now: add it to .ci/realcode_passing.txt"
done
rm -f "$out"
exit $status
