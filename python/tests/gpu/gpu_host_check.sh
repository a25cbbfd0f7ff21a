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
# PYTESTS: the test files to run (default: the staging, Triton and host-side
# ones); CHECK_EXAMPLES: examples to check against their GPU runs.
# Output in $OUT: summary.txt, pytest.log, realcode.txt (the side-by-side
# table), realcode_stdout.txt (what each item printed on each side).
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
  cmake --build "$BUILD" -j "$(nproc)" --target _tilescope ${CHECK_EXAMPLES:+tilescope} > "$BUILD-build.log" 2>&1
rc=$?
log "build: exit $rc after $((SECONDS - start)) s"
if [ $rc -ne 0 ]; then tail -40 "$BUILD-configure.log" "$BUILD-build.log" >> "$SUMMARY"; exit 1; fi
export PYTHONPATH="$ROOT/python:$BUILD/python"

start=$SECONDS
(cd "$ROOT" && timeout 150 $PY -m pytest -q -p no:cacheprovider -rs ${PYTESTS:-python/tests/test_cuda_staging.py \
  python/tests/test_triton_installed.py python/tests/test_host_side.py}) > "$OUT/pytest.log" 2>&1
log "pytest: exit $? after $((SECONDS - start)) s: $(tail -1 "$OUT/pytest.log")"

# CHECK_EXAMPLES: examples checked against their GPU runs (tilescope check --gpu).
if [ -n "${CHECK_EXAMPLES:-}" ]; then
  start=$SECONDS
  # shellcheck disable=SC2086
  timeout 150 "$BUILD/tilescope" check $CHECK_EXAMPLES --gpu > "$OUT/check_examples.log" 2>&1
  log "check $CHECK_EXAMPLES --gpu: exit $? after $((SECONDS - start)) s: $(grep -E 'match|DIFFER|FAIL|finding' "$OUT/check_examples.log" | tail -4 | tr '\n' ' ')"
fi

# Each item twice, in parallel: through tilescope, and as Triton runs it.
start=$SECONDS
timeout ${REALCODE_LIMIT:-330} $PY "$ROOT/python/tests/gpu/realcode_side_by_side.py" "$REALCODE" "$OUT" > /dev/null 2>&1
log "realcode: exit $? after $((SECONDS - start)) s: $(grep -c 'tilescope exit   0' "$OUT/realcode.txt") of $(grep -c '^[tl]' "$OUT/realcode.txt") exit 0 under tilescope, $(grep -c 'results: same' "$OUT/realcode.txt") print what Triton prints"
