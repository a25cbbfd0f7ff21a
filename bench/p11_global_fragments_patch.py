#!/usr/bin/env python3
"""Experiment (issue 16, fifteenth round): p11's C^T kernel with y's wgmma A
fragments loaded straight from global memory into registers, three K steps
ahead, instead of staged by cp.async and read back from shared memory. A
hand edit of the generated CUDA, planted in the cubin cache under the
original's key so `tilescope bench --verify` times and checks it; not the code
generator's output. Usage: p11_global_fragments_patch.py IN.cu OUT.cu"""
import re
import sys

src = open(sys.argv[1]).read()
lines = src.split("\n")


def block_end(i):
    """Index of the line closing the brace block opened on line i."""
    depth = 0
    for j in range(i, len(lines)):
        depth += lines[j].count("{") - lines[j].count("}")
        if depth == 0 and "{" in "".join(lines[i:j + 1]):
            return j
    raise SystemExit("unbalanced braces from line %d" % i)


# 1. No y tile in the stages: drop every cp.async copy of %87 (its comment,
#    the pragma and the loop).
out, i, dropped = [], 0, 0
while i < len(lines):
    if re.search(r"// cp\.async %87\b", lines[i]):
        j = i + 1
        assert "#pragma unroll" in lines[j], lines[j]
        end = block_end(j + 1)
        i = end + 1
        dropped += 1
        continue
    out.append(lines[i])
    i += 1
lines = out
assert dropped >= 4, dropped

# 2. The loop: find its header and body.
head = next(k for k, l in enumerate(lines) if re.match(r"\s*for \(int64_t it32 = ", l))
end = block_end(head)
header = lines[head]
m = re.match(r"(\s*)for \(int64_t it32 = (.*?); (.*); it32 \+= \(int64_t\)r31\) \{$", header)
assert m, header
indent, init, cond = m.group(1), m.group(2), m.group(3)
body = lines[head + 1:end]

# The fragment reads from the stage -> the ring's set F.
fa_start = next(k for k, l in enumerate(body) if "const uint32_t* ts_bt" in l)
assert "uint32_t ts_fa[4][4];" in body[fa_start + 1]
for k in range(4):
    assert body[fa_start + 2 + k].strip().startswith("ts_fa[%d][0] = ts_bt[" % k), body[fa_start + 2 + k]
wait = next(k for k, l in enumerate(body) if l.strip() == "ts_wgmma_wait0();")


def body_for(f, first):
    b = list(body)
    b[wait] = b[wait] + "\n" + indent + "      ts_fload(" + f + ", it32 + 3 * (int64_t)r31);"
    b[fa_start:fa_start + 6] = [indent + "      uint32_t (&ts_fa)[4][4] = " + f + ";"]
    pre = [] if first else [indent + "  if (!(" + cond + ")) break;"]
    return pre + [indent + "  {"] + b + [indent + "  }", indent + "  it32 += (int64_t)r31;"]


setup = r"""  // y's fragments straight from global memory (experiment): thread (wg, w, g, q)
  // takes y[k0 + q + 8j + 4h][col0 + 64wg + 16w + g + 8c] as word [j][2h + c].
  const int ts_fn = r16 + (tid >> 7) * 64 + (tid >> 5 & 3) * 16 + ((tid & 31) >> 2);
  const int ts_fq = tid & 3;
  const bool ts_fok0 = r22 < r5 && ts_fn < r4, ts_fok1 = r22 < r5 && ts_fn + 8 < r4;
  const float* const ts_fy = r1 + (int64_t)r22 * (int64_t)r6 * (int64_t)r4 + ts_fn;
  auto ts_fload = [&](uint32_t (&f)[4][4], int64_t k0) {
    #pragma unroll
    for (int j = 0; j < 4; ++j) {
      #pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int64_t k = k0 + ts_fq + 8 * j + 4 * h;
        const bool kok = k < (int64_t)r6;
        const float* const p = ts_fy + k * (int64_t)r4;
        f[j][2 * h] = (kok && ts_fok0) ? __float_as_uint(__ldg(p)) : 0u;
        f[j][2 * h + 1] = (kok && ts_fok1) ? __float_as_uint(__ldg(p + 8)) : 0u;
      }
    }
  };
  uint32_t ts_f0[4][4], ts_f1[4][4], ts_f2[4][4];
  ts_fload(ts_f0, (int64_t)r30);
  ts_fload(ts_f1, (int64_t)r30 + (int64_t)r31);
  ts_fload(ts_f2, (int64_t)r30 + 2 * (int64_t)r31);"""

new_loop = setup.split("\n") + [indent + "for (int64_t it32 = " + init + "; " + cond + "; ) {"]
new_loop += body_for("ts_f0", True) + body_for("ts_f1", False) + body_for("ts_f2", False) + [indent + "}"]
lines[head:end + 1] = new_loop
open(sys.argv[2], "w").write("\n".join(lines))
print("patched: %d y copies dropped, loop unrolled 3x with fragments from global" % dropped)
