#!/usr/bin/env python3
"""Checks, in a kernel's SASS, that the register-sourced A operands of its
HGMMAs are written by nothing but their own fragment loads.

Issue 16, tenth round (Pipeline::fragment_sets, commit 6790829, reverted
after this check failed on the GPU host's SASS: bench/RESULTS.md): a
transposed wgmma kept a group in flight while the next iteration ran, its A
fragments in one of two register sets. PTX forbids writing a set while a group still reads it, and ptxas does
not guard it (bench/RESULTS.md, seventh round: both sets got the same
physical registers, reused by the next iteration's arithmetic). The sets are
kept alive by a real use after the wait that retires their group; this
script checks the outcome in the SASS ptxas made, which no host test can:

- every HGMMA that reads A from registers names four of them (Rn..Rn+3);
- the HGMMAs of the two parity branches read disjoint registers;
- inside the loop (from the first HGMMA's loop head to the back edge), the
  only instructions that write an A register are shared-memory loads (LDS,
  the fragment loads; they run only after the barrier that follows the wait
  retiring the set's last group).

Usage: cuobjdump -sass kernel.cubin | sass_fragment_check.py
Exit status 0 when the checks hold, 1 when one fails, 2 when there is no
register-sourced HGMMA to check.
"""
import re
import sys

INSTR = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")


def parse(text):
    """(address, opcode, operands) for each instruction, predicate dropped."""
    out = []
    for m in INSTR.finditer(text):
        body = m.group(2).strip()
        body = re.sub(r"^@!?U?P[T0-9]+\s+", "", body)
        parts = body.split(None, 1)
        if not parts:
            continue
        ops = [o.strip() for o in parts[1].split(",")] if len(parts) > 1 else []
        out.append((int(m.group(1), 16), parts[0], ops))
    return out


def written(opcode, ops):
    """The registers an instruction writes (its first operand, by width)."""
    if not ops or opcode.startswith(("ST", "BRA", "BAR", "RED", "HGMMA", "WARPGROUP", "EXIT", "RET", "SYNCS", "UTMA")):
        return set()
    m = re.fullmatch(r"R(\d+)", ops[0].split(".")[0])
    if not m:
        return set()
    base = int(m.group(1))
    width = 4 if ".128" in opcode else 2 if (".64" in opcode or "WIDE" in opcode) else 1
    return set(range(base, base + width))


def main():
    instrs = parse(sys.stdin.read())
    hgmma = [(a, op, ops) for a, op, ops in instrs if op.startswith("HGMMA") and len(ops) > 1 and re.fullmatch(r"R\d+", ops[1])]
    if not hgmma:
        print("no HGMMA with A in registers")
        return 2
    sets = {}
    for a, op, ops in hgmma:
        base = int(ops[1][1:])
        sets.setdefault(base, []).append(a)
    a_regs = set()
    for base in sets:
        a_regs |= set(range(base, base + 4))
    first, last = min(a for a, _, _ in hgmma), max(a for a, _, _ in hgmma)
    # The loop: the earliest target of a backward branch from after the last HGMMA.
    head, tail = None, None
    for a, op, ops in instrs:
        if op.startswith("BRA") and a > last and ops:
            m = re.search(r"0x([0-9a-f]+)", ops[-1])
            if m and int(m.group(1), 16) < first:
                t = int(m.group(1), 16)
                if head is None or t < head:
                    head, tail = t, a
    if head is None:
        print("no loop around the HGMMAs found")
        return 1
    bad = []
    for a, op, ops in instrs:
        if head <= a <= tail and (written(op, ops) & a_regs) and not op.startswith("LDS"):
            bad.append(f"  /*{a:04x}*/ {op} {', '.join(ops)}")
    print(f"{len(hgmma)} register-sourced HGMMAs, A register sets at {sorted('R%d' % b for b in sets)}; "
          f"loop 0x{head:04x}-0x{tail:04x}")
    ok = True
    bases = sorted(sets)
    overlapping = [(x, y) for x, y in zip(bases, bases[1:]) if y < x + 4]
    if overlapping:
        print("A operands sharing registers:", ", ".join(f"R{x}/R{y}" for x, y in overlapping))
        ok = False
    if bad:
        print("A registers written inside the loop by something other than a fragment load:")
        print("\n".join(bad[:20]))
        ok = False
    else:
        print("inside the loop only LDS writes the A registers")
    print(f"{len(bases)} distinct four-register A operands")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
