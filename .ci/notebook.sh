#!/usr/bin/env bash
# The puzzle notebook (notebooks/tile_puzzles.ipynb), tested as a learner
# uses it: tilescope installed with the README's command into a fresh home,
# so `import tilescope` works in the system Python without PYTHONPATH; the
# notebook executed headless by nbclient with the solutions substituted
# (12 of 12 test cells pass, each with a picture) and with the stubs as
# given (12 clear failures, no exception); exported to HTML by nbconvert and
# rendered by headless Chromium, whose screenshot must show the grids'
# cells in the expected counts (.ci/notebook_check.py).
#
# Usage: .ci/notebook.sh [BUILD_DIR]   (default: build, reused when configured)
# Leaves everything in BUILD_DIR/notebook/: both executed notebooks, the
# HTML exports and the screenshot.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
build=${1:-build}
work=$root/$build/notebook
started=$SECONDS
section() { printf '\n==== %s ====\n' "$*"; }
elapsed() { printf '(%d s so far)\n' $((SECONDS - started)); }

section "Debian packages for the notebook"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
packages="python3-nbclient python3-nbconvert python3-ipykernel python3-pil chromium libstb-dev"
if ! dpkg -s $packages > /dev/null 2>&1; then
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages ||
    { $sudo env DEBIAN_FRONTEND=noninteractive apt-get update &&
      $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages; }
fi
elapsed

section "Build and install tilescope into a fresh home (the README's cmake --install)"
cmake -S . -B "$build" > /dev/null
# What `cmake --install` installs: the extension module, the command and
# the libraries they link (a no-op after .ci/run's build).
cmake --build "$build" -j"$(nproc)" --target _tilescope tilescope
rm -rf "$work"
mkdir -p "$work/home"
export HOME=$work/home
cmake --install "$build" --prefix "$HOME/.local" > /dev/null
unset PYTHONPATH
export PYDEVD_DISABLE_FILE_VALIDATION=1  # ipykernel's debugger notes about frozen modules
(cd "$work" && /usr/bin/python3 -c 'import tilescope, sys; print("import tilescope:", tilescope.__file__)')
elapsed

section "Run the notebook with the solutions, then with the stubs (nbclient)"
/usr/bin/python3 .ci/notebook_check.py run solutions "$work/solutions.ipynb"
/usr/bin/python3 .ci/notebook_check.py run stubs "$work/stubs.ipynb"
elapsed

section "Export to HTML (nbconvert) and screenshot it (headless Chromium)"
/usr/bin/python3 -m nbconvert --to html --log-level WARN --output-dir "$work" "$work/solutions.ipynb"
/usr/bin/python3 .ci/notebook_check.py trim "$work/solutions.ipynb" "$work/screenshot.ipynb"
/usr/bin/python3 -m nbconvert --to html --log-level WARN --output-dir "$work" "$work/screenshot.ipynb"
# --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size=1100,2600 --screenshot="$work/screenshot.png" "file://$work/screenshot.html" 2> "$work/chromium.log" ||
  { cat "$work/chromium.log"; exit 1; }
/usr/bin/python3 .ci/notebook_check.py screenshot "$work/screenshot.png"
printf 'notebook checks passed in %d s\n' $((SECONDS - started))
