#!/bin/bash
# The corpus's GPU runs, on a machine with an NVIDIA GPU, Triton and torch.
# Everything lands in ONE tarball under $OUT.
#   OUT=/tmp/out bash tests/fidelity/gpu_run.sh record
#       real Triton runs every case; records/ (npz + manifest.json) and the
#       log -> $OUT/fidelity_records.tgz. Unpack into tests/fidelity/ and commit.
#   OUT=/tmp/out bash tests/fidelity/gpu_run.sh threeway
#       builds tilescope's Python module (with its GPU backend) here, then
#       runs the recorded corpus through tilescope's interpreter and its GPU
#       backend and compares all three -> $OUT/fidelity_threeway.tgz
#       (threeway.md, threeway.json, the log).
# REPO (default: two levels up) is the tilescope checkout, for threeway;
# FAMILIES=cast,math,... limits threeway to some families (a short run).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
MODE=${1:?usage: gpu_run.sh record|threeway}
OUT=${OUT:?set OUT to the folder the tarball goes to}
PY=${PYTHON:-python3}
WORK=$(mktemp -d)
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1

case "$MODE" in
record)
  mkdir -p "$WORK/records"
  (nvidia-smi || true) > "$WORK/records/nvidia-smi.txt" 2>&1
  "$PY" "$HERE/record_triton.py" --out "$WORK/records" --jobs "${JOBS:-14}" --deadline "${DEADLINE:-190}" \
    2>&1 | tee "$WORK/records/record.log"
  tar czf "$OUT/fidelity_records.tgz" -C "$WORK" records
  ;;
threeway)
  REPO=${REPO:-$(cd "$HERE/../.." && pwd)}
  mkdir -p "$WORK/threeway"
  PYBIND=$("$PY" -m pybind11 --cmakedir 2>/dev/null || true)
  {
    cmake -S "$REPO" -B "$WORK/build" -DCMAKE_BUILD_TYPE=Release -DTILESCOPE_VIEWER=OFF \
      -DPython_EXECUTABLE="$(command -v "$PY")" ${PYBIND:+-Dpybind11_DIR="$PYBIND"} &&
    cmake --build "$WORK/build" -j "$(nproc)" --target _tilescope
  } > "$WORK/threeway/build.log" 2>&1 || { tail -50 "$WORK/threeway/build.log"; }
  PYTHONPATH="$REPO/python:$WORK/build/python" "$PY" "$HERE/run_gpu_threeway.py" \
    --records "${RECORDS:-$HERE/records}" --out "$WORK/threeway" ${FAMILIES:+--families "$FAMILIES"} \
    2>&1 | tee "$WORK/threeway/threeway.log"
  tar czf "$OUT/fidelity_threeway.tgz" -C "$WORK" threeway
  ;;
*)
  echo "gpu_run.sh: unknown mode '$MODE' (record or threeway)" >&2
  exit 2
  ;;
esac
