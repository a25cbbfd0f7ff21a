#!/usr/bin/env bash
# The Python front end on a GPU host (CUDA, torch 2, Triton installed), in
# one call: builds the Python module, runs the tests that need a GPU or
# Triton, then the real-code items of ../shared/realcode twice, once with
# `python3 -m tilescope run` and once as Triton itself runs them, and sets
# the two results side by side.
#
# Usage from the repository root, .debs/ holding the .deb files of
# nlohmann-json3-dev and catch2, REALCODE naming a copy of realcode/:
#   OUT=/tmp/out REALCODE=.anchor/realcode python/tests/gpu/gpu_host_check.sh
# Output in $OUT: summary.txt, pytest.log, realcode.txt (the side-by-side
# table), realcode_logs.tar.gz (every item's two logs).
set -u -o pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
OUT=${OUT:-$ROOT/gpu-results}
BUILD=${BUILD:-$ROOT/build-gpu}
REALCODE=${REALCODE:-$ROOT/.anchor/realcode}
mkdir -p "$OUT"
SUMMARY="$OUT/summary.txt"
log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$SUMMARY"; }
PY=$(command -v python3)

log "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
log "python $($PY -c 'import sys, torch, triton; print(sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)' 2>&1)"

DEPS="$ROOT/.debs/root"
mkdir -p "$DEPS"
for d in "$ROOT"/.debs/*.deb; do dpkg -x "$d" "$DEPS"; done
PYBIND=$($PY -m pybind11 --cmakedir 2>/dev/null)
start=$SECONDS
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=/usr/bin/g++ \
  -DCMAKE_PREFIX_PATH="$DEPS/usr" -DTILESCOPE_VIEWER=OFF -DTILESCOPE_TESTS=OFF -Dpybind11_DIR="$PYBIND" \
  -DPython_EXECUTABLE="$PY" > "$BUILD-configure.log" 2>&1 &&
  cmake --build "$BUILD" -j "$(nproc)" --target _tilescope > "$BUILD-build.log" 2>&1
rc=$?
log "build: exit $rc after $((SECONDS - start)) s"
if [ $rc -ne 0 ]; then tail -40 "$BUILD-configure.log" "$BUILD-build.log" >> "$SUMMARY"; exit 1; fi
export PYTHONPATH="$ROOT/python:$BUILD/python"

start=$SECONDS
(cd "$ROOT" && timeout 420 $PY -m pytest -q -p no:cacheprovider -rs ${PYTESTS:-python/tests/test_cuda_staging.py \
  python/tests/test_triton_installed.py python/tests/test_host_side.py}) > "$OUT/pytest.log" 2>&1
log "pytest: exit $? after $((SECONDS - start)) s: $(tail -1 "$OUT/pytest.log")"

# Each item twice: through tilescope, and as Triton runs it.
LOGS=$OUT/realcode-logs
mkdir -p "$LOGS"
table=$OUT/realcode.txt
: > "$table"
item() {  # item NAME DIR SCRIPT
  local name=$1 dir=$2 script=$3 t0 rc_ts rc_tr
  t0=$SECONDS
  (cd "$dir" && timeout 300 $PY -m tilescope run "$script") > "$LOGS/$name.tilescope.log" 2>&1
  rc_ts=$?
  local t1=$SECONDS
  (cd "$dir" && timeout 300 $PY "$script") > "$LOGS/$name.triton.log" 2>&1
  rc_tr=$?
  # The lines a script prints of its own results (checks, differences).
  grep -hE "CHECK|SUMMARY|difference|match|✅|❌|PASS|FAIL" "$LOGS/$name.tilescope.log" | grep -v "^tilescope" \
    | sed 's/in [0-9.]*s$//' > "$LOGS/$name.ts.results"
  grep -hE "CHECK|SUMMARY|difference|match|✅|❌|PASS|FAIL" "$LOGS/$name.triton.log" \
    | sed 's/in [0-9.]*s$//' > "$LOGS/$name.tr.results"
  local same=differ
  cmp -s "$LOGS/$name.ts.results" "$LOGS/$name.tr.results" && same=same
  printf '%-34s tilescope exit %3d (%3ds, %s)  triton exit %3d (%3ds)  printed results: %s\n' "$name" $rc_ts \
    $((t1 - t0)) "$(grep -m1 '^tilescope: [0-9]* launch' "$LOGS/$name.tilescope.log" | cut -c12-70)" $rc_tr \
    $((SECONDS - t1)) "$same" | tee -a "$table"
}
for t in "$REALCODE"/triton_tutorials/*.py; do item "tutorial_$(basename "$t" .py)" "$REALCODE/triton_tutorials" "$(basename "$t")"; done
for d in "$REALCODE"/liger/drivers/test_*.py; do n=$(basename "$d" .py); item "liger_${n#test_}" "$REALCODE/liger/drivers" "$(basename "$d")"; done
log "realcode: $(grep -c 'tilescope exit   0' "$table") of $(wc -l < "$table") exit 0 under tilescope; $(grep -c 'triton exit   0' "$table") under Triton"
tar czf "$OUT/realcode_logs.tar.gz" -C "$OUT" realcode-logs && rm -rf "$LOGS"
