#!/usr/bin/env python3
"""Checks, in a kernel's SASS, that no instruction writes the registers a
register-sourced HGMMA (wgmma with A from registers) reads while its group
may still be in flight.

PTX forbids writing those registers before the wgmma.wait_group that
retires the group, and ptxas does not guard them: it may give a register to
other values once the wgmma has issued (a form of p11 with two fragment
sets did so, and was taken out after this check failed on it). No host test
can see this; the SASS can.

For each such HGMMA (A operand Rn: registers Rn..Rn+3) the window runs from
it, in address order, to the first `WARPGROUP.DEPBAR.LE gsb0, 0x0` (every
group retired). Where the window reaches a branch back to before the HGMMA
first (the group stays in flight across the back edge of a loop around
it), it goes on from the branch's target up to the HGMMA. Any instruction in the window that writes
one of the four registers is a hazard.

Usage: cuobjdump -sass kernel.cubin | sass_fragment_check.py
Exit status 0 when there is no hazard, 1 when there is one, 2 when the
SASS has no register-sourced HGMMA.
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


def branch_target(op, ops):
    if not op.startswith("BRA") or not ops:
        return None
    m = re.search(r"0x([0-9a-f]+)", ops[-1])
    return int(m.group(1), 16) if m else None


def window(instrs, start):
    """Indices of the instructions after instrs[start] while its group may be in flight."""
    index = {a: i for i, (a, _, _) in enumerate(instrs)}
    out, i, wrapped = [], start + 1, False
    while i < len(instrs):
        a, op, ops = instrs[i]
        if op.startswith("WARPGROUP.DEPBAR") and ops and ops[-1].strip() == "0x0":
            return out
        if wrapped and i == start:
            return out
        out.append(i)
        # A backward branch to at or before the HGMMA: the loop around it.
        t = branch_target(op, ops)
        if t is not None and t <= instrs[start][0] and not wrapped and t in index:
            i, wrapped = index[t], True
            continue
        i += 1
    return out


def main():
    instrs = parse(sys.stdin.read())
    hgmma = [i for i, (a, op, ops) in enumerate(instrs)
             if op.startswith("HGMMA") and len(ops) > 1 and re.fullmatch(r"R\d+", ops[1])]
    if not hgmma:
        print("no HGMMA with A in registers")
        return 2
    bad = []
    for i in hgmma:
        a, op, ops = instrs[i]
        regs = set(range(int(ops[1][1:]), int(ops[1][1:]) + 4))
        for j in window(instrs, i):
            ja, jop, jops = instrs[j]
            if written(jop, jops) & regs:
                bad.append(f"  HGMMA at /*{a:04x}*/ reads {ops[1]}..: /*{ja:04x}*/ {jop} {', '.join(jops)}")
    bases = sorted({instrs[i][2][1] for i in hgmma}, key=lambda r: int(r[1:]))
    print(f"{len(hgmma)} register-sourced HGMMAs, A operands {', '.join(bases)}")
    if bad:
        print(f"{len(bad)} writes to an A register while its group may be in flight:")
        print("\n".join(bad[:20]))
        return 1
    print("no A register is written while its group may be in flight")
    return 0


if __name__ == "__main__":
    sys.exit(main())
