#!/usr/bin/env bash
# The interpreter's scaling on a many-core machine (the 16-core GPU hosts):
# builds tilescope_interp_bench in Release, then
#   1. the benchmark on all cores and pinned to two (taskset -c 0,1), both
#      with --quick (the at-scale cases without E1/E4) and then E1 and E4;
#   2. the scaling table (1, 2, 4, 8, 16 threads), all cases;
#   3. Triton's own interpreter (TRITON_INTERPRET=1) on the same cases
#      (bench/triton_interp_cases.py, kernels from .anchor/ or ../shared/bench);
# and writes ONE tarball, $OUT/interp_scaling.tar.gz, with every log.
# Usage, from the repository root: OUT=/tmp/out bench/interp_scaling_run.sh
# Environment: OUT (default ./interp-scaling), BUILD (default ./build-scaling),
# JOBS (default nproc), .debs/ as for bench/gpu_run.sh when Catch2 or
# nlohmann_json are not installed; to fit one 10-minute device call:
# EXAMPLES=0 leaves out E1/E4 (minutes, in Triton's interpreter too), REPS sets the repetitions, and
# TRITON_LIMIT (s, default 3600) cuts Triton's interpreter off (each case
# prints its time as it finishes, so a cut run still gives the others).
set -u -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$ROOT/interp-scaling}
BUILD=${BUILD:-$ROOT/build-scaling}
JOBS=${JOBS:-$(nproc)}
LOGS=$(mktemp -d)
mkdir -p "$OUT"
log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$LOGS/summary.txt"; }
# run NAME LIMIT CMD...: CMD's output in $LOGS/NAME.txt, cut off after LIMIT s.
run() {
  local name=$1 limit=$2
  shift 2
  log "$name: $*"
  timeout "$limit" "$@" > "$LOGS/$name.txt" 2>&1
  log "$name: exit $?"
}
finish() {
  tar -czf "$OUT/interp_scaling.tar.gz" -C "$LOGS" .
  log "wrote $OUT/interp_scaling.tar.gz"
}
trap finish EXIT

{ nproc; lscpu; git -C "$ROOT" log --oneline -1; } > "$LOGS/machine.txt" 2>&1
DEPS="$ROOT/.debs/root"
mkdir -p "$DEPS"
shopt -s nullglob
for d in "$ROOT"/.debs/*.deb; do dpkg -x "$d" "$DEPS"; done
run cmake-configure 600 cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$DEPS/usr" \
  -DTILESCOPE_VIEWER=OFF
run cmake-build 1800 cmake --build "$BUILD" -j "$JOBS" --target tilescope_interp_bench
B="$BUILD/bench/tilescope_interp_bench"
[ -x "$B" ] || { log "no benchmark binary"; exit 1; }

R=()
[ -n "${REPS:-}" ] && R=(--reps "$REPS")
run bench-all-cores 900 "$B" --quick "${R[@]}"
run bench-pinned-2 900 taskset -c 0,1 "$B" --quick --threads 2 "${R[@]}"
run scaling 3600 "$B" --scaling --quick --json "${R[@]}"
run bench-fusion-off 900 env TILESCOPE_FUSE=0 "$B" --quick "${R[@]}"
if [ "${EXAMPLES:-1}" != 0 ]; then
  run bench-all-cores-json 900 "$B" --quick --json "${R[@]}"
  run bench-pinned-2-json 900 taskset -c 0,1 "$B" --quick --threads 2 --json "${R[@]}"
  run bench-examples-all-cores 1800 "$B" --case E
fi

ANCHOR="$ROOT/.anchor"
[ -d "$ANCHOR" ] || ANCHOR="$ROOT/../shared/bench"
TQ=()
[ "${EXAMPLES:-1}" = 0 ] && TQ=(--quick)
run triton-interp "${TRITON_LIMIT:-3600}" env TRITON_INTERPRET=1 PYTHONUNBUFFERED=1 python3 "$ROOT/bench/triton_interp_cases.py" "$ANCHOR" "${TQ[@]}"
