#!/usr/bin/env bash
# The GPU checks, on a GPU machine with no package registry and no
# ImGui/GLFW (the lent GPU hosts): build from dependencies unpacked from
# Debian .deb files, then
#   1. tilescope check --all --gpu            (every puzzle, every size set, 3 seeds)
#      tilescope check --examples --gpu       (every example, small and benchmark sizes)
#   2. the GPU-run and child-process tests (tilescope_tests "[run],[child]")
#   3. every broken kernel under compute-sanitizer memcheck, set beside the
#      interpreter's out-of-bounds verdict  -> memcheck_table.md
#   4. tilescope check broken/... --gpu       (faulting launches stay in a child)
#   5. tilescope bench --gpu (text and JSON)
# Logs and a summary go to $OUT.
#
# Usage (from the repository root, .debs/ holding the .deb files of
# nlohmann-json3-dev and catch2, e.g. from `apt-get download
# nlohmann-json3-dev catch2` on a Debian 12 machine):
#   OUT=/tmp/gpu-out bench/gpu_run.sh
# or in parts, each well under 10 minutes on a 16-core host (the build
# directory is kept between them):
#   STEPS=build bench/gpu_run.sh
#   STEPS="check tests" bench/gpu_run.sh
#   STEPS="memcheck broken bench" bench/gpu_run.sh
# Environment: OUT (default ./gpu-results), BUILD (default ./build-gpu,
# git-ignored), JOBS (default nproc), BUILD_TARGETS (default all), STEPS (default
# "build check examples tests memcheck broken bench"), SANITIZER (default
# compute-sanitizer from PATH or /usr/local/cuda/bin).
set -u -o pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$ROOT/gpu-results}
BUILD=${BUILD:-$ROOT/build-gpu}
JOBS=${JOBS:-$(nproc)}
STEPS=${STEPS:-"build check examples tests memcheck broken bench"}
mkdir -p "$OUT"
SUMMARY="$OUT/summary.txt"
TS="$BUILD/tilescope"
# A cubin cache that lives as long as the build.
export TILESCOPE_CACHE_DIR="$BUILD/cubin-cache"

log() { echo "[$(date +%H:%M:%S)] $*" | tee -a "$SUMMARY"; }
want() { [[ " $STEPS " == *" $1 "* ]]; }

# Runs a command with a time limit, output to $OUT/<name>.log; logs the exit status.
run_logged() {
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS
  timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  log "$name: exit $rc after $((SECONDS - start)) s ($*)"
  return $rc
}

log "tilescope GPU run in $ROOT -> $OUT"
{ nvidia-smi 2>&1 || echo "nvidia-smi not available"; } > "$OUT/nvidia-smi.txt"
log "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"

if want build; then
  DEPS="$ROOT/.debs/root"
  mkdir -p "$DEPS"
  shopt -s nullglob
  debs=("$ROOT"/.debs/*.deb)
  if [ ${#debs[@]} -eq 0 ]; then
    log "no .deb files in $ROOT/.debs: expecting nlohmann_json and Catch2 on the system"
  fi
  for d in "${debs[@]}"; do dpkg -x "$d" "$DEPS"; done
  # CMAKE_EXTRA: more configure arguments (a compiler, pybind11_DIR), unquoted.
  # shellcheck disable=SC2086
  run_logged cmake-configure 600 cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$DEPS/usr" -DTILESCOPE_VIEWER=OFF ${CMAKE_EXTRA:-} || { log "configure failed"; exit 1; }
  # BUILD_TARGETS: only these targets (e.g. "tilescope"), unquoted; default all.
  # shellcheck disable=SC2086
  run_logged cmake-build 1800 cmake --build "$BUILD" -j "$JOBS" ${BUILD_TARGETS:+--target $BUILD_TARGETS} || { log "build failed"; tail -40 "$OUT/cmake-build.log"; exit 1; }
fi

if want check; then
  run_logged check_all_gpu 1200 "$TS" check --all --gpu
  run_logged check_all_gpu_json 1200 "$TS" check --all --gpu --json
  grep -E "kernels match|SKIP|DIFFERS|ERROR" "$OUT/check_all_gpu.log" | tee -a "$SUMMARY"
fi

if want examples; then
  # The examples of EXAMPLES.md: small sets (3 seeds) and their benchmark-size
  # sets (first seed only; the interpreter's side of those takes minutes).
  run_logged check_examples_gpu 3000 "$TS" check --examples --gpu
  grep -E "kernels match|SKIP|DIFFERS|ERROR|FAIL" "$OUT/check_examples_gpu.log" | tee -a "$SUMMARY"
fi

if want tests; then
  # The GPU runs and the child-process tests; the NVRTC-only tests ran in CI.
  run_logged tests_gpu 1800 "$BUILD/tests/tilescope_tests" "[run],[child]"
  { grep -E "SKIP|FAILED" "$OUT/tests_gpu.log" | head -20; tail -2 "$OUT/tests_gpu.log"; } | tee -a "$SUMMARY"
fi

broken_kernels() { "$TS" list | sed -n 's|^ *\(broken/[A-Za-z0-9_]*\).*|\1|p'; }

if want memcheck; then
  SAN=${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
  # Padding after every allocation, so an access just past one buffer cannot
  # land unseen in the next one (when this compute-sanitizer supports it).
  PAD=()
  if "$SAN" --help 2>&1 | grep -q -- "--padding"; then PAD=(--padding 1048576); fi
  TABLE="$OUT/memcheck_table.md"
  # One log for all runs ($OUT brings back only so many files).
  MLOG="$OUT/memcheck.log"
  : > "$MLOG"
  {
    echo "| broken kernel | interpreter: out-of-bounds lanes (loads, stores) | memcheck errors, every load kept | agree | memcheck errors, plain code |"
    echo "|---|---|---|---|---|"
  } > "$TABLE"
  # Runs one kernel under memcheck; sets rc, interp ("loads stores") and errors.
  memcheck_one() {
    local tmp="$OUT/memcheck.tmp"
    timeout 600 "$SAN" --tool memcheck "${PAD[@]}" --print-limit 10 --error-exitcode 99 "$TS" gpu-run "$@" > "$tmp" 2>&1
    rc=$?
    { echo "===== $* (exit $rc)"; cat "$tmp"; } >> "$MLOG"
    interp=$(sed -n 's/^interpreter: \([0-9]*\) out-of-bounds load lane(s), \([0-9]*\) out-of-bounds store lane(s)/\1 \2/p' "$tmp")
    errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$tmp" | tail -1)
    errors=${errors:-?}
    skipped=$(grep -m1 '^\[SKIP\]' "$tmp")
    rm -f "$tmp"
  }
  for k in $(broken_kernels); do
    name=${k#broken/}
    memcheck_one "$k"
    plain=$errors
    memcheck_one "$k" --every-load
    if [ -z "$interp" ]; then
      row="| $name | does not build (no kernel to run) | - | - | - |"
    elif [ -n "$skipped" ]; then
      row="| $name | $interp | not run: $skipped | - | - |"
    else
      read -r loads stores <<< "$interp"
      oob=$((loads + stores))
      if [ "$errors" = "?" ]; then agree="? (no memcheck summary, exit $rc)";
      elif { [ "$oob" -gt 0 ] && [ "$errors" -gt 0 ]; } || { [ "$oob" -eq 0 ] && [ "$errors" -eq 0 ]; }; then agree="yes";
      else agree="NO"; fi
      row="| $name | $oob ($loads, $stores) | $errors | $agree | $plain |"
    fi
    echo "$row" >> "$TABLE"
    log "memcheck $name: $row"
  done
  cat "$TABLE" | tee -a "$SUMMARY"
fi

if want broken; then
  mapfile -t ks < <(broken_kernels)
  run_logged check_broken_gpu 1200 "$TS" check "${ks[@]}" --gpu
  tail -1 "$OUT/check_broken_gpu.log" | tee -a "$SUMMARY"
fi

if want bench; then
  # One autotuned run for the table and the JSON.
  run_logged bench_gpu 1800 "$TS" bench --gpu ${BENCH_ARGS:-} --json-out "$OUT/bench_gpu.json"
  cat "$OUT/bench_gpu.log" >> "$SUMMARY"
fi

log "done"
# $OUT brings back only a few files: everything but the summary and the
# memcheck table goes into one archive.
( cd "$OUT" && tar czf logs.tar.gz --exclude=logs.tar.gz --exclude=summary.txt --exclude=memcheck_table.md . 2>/dev/null &&
  find . -type f ! -name logs.tar.gz ! -name summary.txt ! -name memcheck_table.md -delete )
