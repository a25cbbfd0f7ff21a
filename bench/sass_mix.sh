#!/usr/bin/env bash
# Static SASS instruction mix of the generated kernels in a cubin cache: for
# each kernel name matching $1 (a grep pattern on the .cu beside the cubin),
# the opcodes cuobjdump lists, most frequent first. Static counts (prologue,
# loop and epilogue together), so read them as proportions of one K step's
# code, not as executed counts. Needs cuobjdump (CUDA toolkit on the GPU host).
# Usage: bench/sass_mix.sh batched_matmul_B0_128 [cache dir]
set -u
pattern=$1
dir=${2:-${TILESCOPE_CACHE_DIR:-$HOME/.cache/tilescope}}
DUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
for cu in $(grep -l -- "$pattern" "$dir"/*.cu 2>/dev/null); do
  cubin=${cu%.cu}.cubin
  [ -f "$cubin" ] || continue
  name=$(grep -o 'void __launch_bounds__([0-9]*) [A-Za-z0-9_]*' "$cu" | head -1)
  echo "== $name ($cubin)"
  "$DUMP" -sass "$cubin" | awk '/^ *\/\*[0-9a-f]+\*\//{ for (i = 2; i <= NF; ++i) if ($i ~ /^[A-Z][A-Z0-9_.]+$/) { split($i, a, "."); print a[1]; break } }' |
    sort | uniq -c | sort -rn | head -16
done
