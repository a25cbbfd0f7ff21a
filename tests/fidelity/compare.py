"""Runs every recorded case through tilescope (Python front end +
interpreter) with the recorded inputs and compares with Triton's recorded
outputs.

Integers, booleans and conversions are compared bit for bit; floats within
ULP_BOUNDS[case.bound_for(output)] units in the last place of the output's
own dtype (NaN equals any NaN; a bound of 0 means the same bits, so
-0.0 != +0.0). Every other difference is in EXPECTED_DIFFERENCES (its
cause, and which elements differ), documented in docs/fidelity.md.

    PYTHONPATH=python:build/python python3 tests/fidelity/compare.py [-v] [case ...]
"""
import json
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDS = os.path.join(HERE, "records")
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from expected import EXPECTED_DIFFERENCES  # noqa: E402

# Units in the last place allowed between Triton on the GPU and tilescope's
# interpreter, by the case's bound key. Measured on the record (see
# docs/fidelity.md): the GPU's approximate instructions (ex2.approx,
# lg2.approx, ...) are what is allowed for, never the interpreter's.
ULP_BOUNDS = {
    "exact": 0,      # + - * casts, loads/stores, where, max/min, floor/ceil/abs, float %
    "mod": 0,
    "mul_add": 0,    # x * y + z: Triton contracts it into an fma (EXPECTED_DIFFERENCES)
    "sum": 4,        # f16/bf16/f32 sums: the GPU's reduction tree against the interpreter's loop
    "scan": 2,       # cumsum/cumprod: the GPU's scan tree against the interpreter's loop (SCALED)
    "exp": 16,       # ex2.approx(x * log2 e): the product's rounding grows with |x|
    "sigmoid": 26,   # 1 / (1 + exp(-x)), the same exp
    "exp2": 1, "log": 1, "log2": 1, "sin": 1, "cos": 1, "tanh": 1,  # the GPU's approximate instructions
    "sqrt": 1,       # tl.sqrt is sqrt.approx on the GPU; sqrt_rn is exact
    "rsqrt": 1,
    "sqrt_rn": 0, "div_rn": 0,
    "div": 1, "fdiv": 1,  # f32 '/' is div.full (approximate) on the GPU
    "floor": 0, "ceil": 0, "abs": 0,
    "dot_tf32": 3, "dot_tf32x3": 3, "dot_ieee": 2, "dot_half": 3,  # ulps of the largest |value| (SCALED)
    "erf": 1, "log1p": 1, "expm1": 1, "pow": 1,  # libdevice's, measured (subnormal inputs: EXPECTED_DIFFERENCES)
}

# Bounds counted in ulps of the output's largest |value| (scaled_distance):
# sums of many terms in another order, where small results' own ulps mean nothing.
SCALED = {"dot_tf32", "dot_tf32x3", "dot_ieee", "dot_half", "scan"}

# tilescope's errors that name an op or feature it does not implement yet:
# only these make a case "skipped" (it runs once the op exists).
NOT_YET_PATTERNS = [
    re.compile(r"tl\.(\w+) is not supported by tilescope yet"),
    re.compile(r"has no attribute '(\w+)'"),
    re.compile(r"'(\w+)' is not (?:supported|implemented)"),
    re.compile(r"(\w+) is not supported yet"),
    re.compile(r"unknown (?:builtin|function|op) '?(\w+)"),
    re.compile(r"(\w+)='?\w+'? is not supported by tilescope yet"),
]


def not_yet(error):
    """The op a tilescope error says is missing, or None."""
    for p in NOT_YET_PATTERNS:
        m = p.search(error)
        if m:
            return m.group(1)
    return None


# ---- records -----------------------------------------------------------------------
def load_manifest(path=RECORDS):
    with open(os.path.join(path, "manifest.json")) as f:
        return json.load(f)


class Records:
    def __init__(self, path=RECORDS):
        self.path = path
        self.manifest = load_manifest(path)
        self._npz = {}

    def arrays(self, family):
        if family not in self._npz:
            f = os.path.join(self.path, f"{family}.npz")
            self._npz[family] = dict(np.load(f)) if os.path.exists(f) else {}
        return self._npz[family]

    def case(self, name):
        meta = self.manifest["cases"][name]
        arrays = self.arrays(meta["family"])
        ins = {k.split(".", 2)[2]: v for k, v in arrays.items() if k.startswith(name + ".in.")}
        outs = {k.split(".", 2)[2]: v for k, v in arrays.items() if k.startswith(name + ".out.")}
        return meta, ins, outs


# ---- ulp ---------------------------------------------------------------------------
_BITS = {"f16": (np.int16, 15), "bf16": (np.int16, 15), "f32": (np.int32, 31), "f64": (np.int64, 63)}


def ordered(a, dt):
    """Float storage -> integers ordered like the floats (+0 and -0 both 0)."""
    it, top = _BITS[dt]
    b = np.ascontiguousarray(a).view(it).astype(np.int64)
    if dt == "f64":
        b = np.ascontiguousarray(a).view(np.int64)
        mag = b & np.int64(0x7FFFFFFFFFFFFFFF)
        return np.where(b < 0, -mag, mag).astype(object)
    mag = b & ((1 << top) - 1)
    return np.where(b < 0, -mag, mag)


def isnan(a, dt):
    import corpus
    return np.isnan(corpus.as_float64(a, dt))


def scaled_distance(want, got, dt):
    """|want - got| in ulps of the largest |want| (finite elements): for
    dots, whose accumulation order (the GPU's MMA tree against the
    interpreter's loop) leaves small results with meaningless own ulps."""
    import corpus
    wf, gf = corpus.as_float64(want, dt), corpus.as_float64(got, dt)
    finite = np.isfinite(wf) & np.isfinite(gf)
    if not finite.any():
        return np.zeros(want.shape, dtype=np.int64)
    top = np.max(np.abs(wf[finite]))
    frac = {"f16": 10, "bf16": 7, "f32": 23, "f64": 52}[dt]
    ulp = 2.0 ** (np.floor(np.log2(top)) - frac) if top > 0 else 1.0
    d = np.where(finite, np.ceil(np.abs(wf - gf) / ulp), 0)
    return d.astype(np.int64)


def diff_elements(want, got, dt, bound, scaled=False):
    """Indices (flat) where got differs from want beyond `bound` ulp, and
    the largest ulp distance among the elements within it."""
    import corpus
    want = np.ascontiguousarray(want).reshape(-1)
    got = np.ascontiguousarray(got).reshape(-1)
    if not corpus.is_float(dt):
        return np.nonzero(want != got)[0], 0
    nw, ng = isnan(want, dt), isnan(got, dt)
    carrier = {2: np.uint16, 4: np.uint32, 8: np.uint64}[want.dtype.itemsize]
    same_bits = want.view(carrier) == got.view(carrier)
    if scaled:
        dist = scaled_distance(want, got, dt)
    else:
        dist = np.abs(np.array(ordered(want, dt), dtype=object) - np.array(ordered(got, dt), dtype=object))
    dist = np.where(nw | ng, 0, dist)
    if bound == 0:
        bad = ~same_bits & ~(nw & ng)
    else:
        bad = (nw != ng) | (~nw & ~ng & (dist > bound))
    ok = ~bad & ~nw
    worst = int(max(dist[ok])) if ok.any() else 0
    return np.nonzero(bad)[0], worst


# ---- tilescope ---------------------------------------------------------------------
_env = {}


def setup():
    """tilescope's `triton` (the shim), then the corpus's kernels."""
    if _env:
        return _env
    from tilescope import triton_shim
    triton_shim.install()
    import triton.language as tl

    import corpus
    _env["tl"] = tl
    _env["corpus"] = corpus
    _env["cases"] = {c.name: c for c in corpus.all_cases()}
    return _env


def _torch():
    try:
        import torch
        return torch
    except ImportError:
        return None


def to_host(arr, dt):
    if dt == "bf16":
        torch = _torch()
        if torch is None:
            raise RuntimeError("bf16 buffers need torch (python3-torch)")
        return torch.from_numpy(np.ascontiguousarray(arr).view(np.int16).copy()).view(torch.bfloat16)
    return np.array(arr, copy=True)


def from_host(buf, dt):
    if dt == "bf16":
        return buf.view(_torch().int16).numpy().view(np.uint16).copy()
    return np.array(buf, copy=True)


def run_tilescope(case, inputs):
    """{output: array} or raises with tilescope's error."""
    return run_tilescope_with(case, inputs, None)


def run_tilescope_with(case, inputs, on_result):
    env = setup()
    return env["corpus"].launch(case, env["tl"], inputs, to_host, from_host, on_result)


# ---- one case ----------------------------------------------------------------------
class Outcome:
    """status: equal | within | expected | differ | skipped | both_reject."""

    def __init__(self, name, status, detail="", worst=0, diffs=None, kind="values"):
        self.name, self.status, self.detail, self.worst = name, status, detail, worst
        self.diffs = diffs or {}
        self.kind = kind  # of a difference: values, triton_rejects, tilescope_rejects

    def __repr__(self):
        return f"{self.name}: {self.status} {self.detail}"


def in_ulp_dtype(case, out, want, got):
    """A float result held in a wide f64 buffer (sums, scans) is measured in
    ulps of the dtype it was computed in (case.ulp_dtype), where its values
    are exact."""
    import corpus
    dt = getattr(case, "ulp_dtype", None)
    if not dt or dt == out.dtype or not corpus.is_float(out.dtype) or case.bound_for(out.name) == "exact":
        return want, got, out.dtype
    with np.errstate(all="ignore"):
        return (corpus.to_storage(corpus.as_float64(want, out.dtype), dt),
                corpus.to_storage(corpus.as_float64(got, out.dtype), dt), dt)


def describe_diff(case, out, dt, idx, want, got, ins):
    import corpus
    lines = []
    for i in idx[:6]:
        w, g = want.reshape(-1)[i], got.reshape(-1)[i]
        if corpus.is_float(dt):
            w, g = corpus.as_float64(np.array([w]), dt)[0], corpus.as_float64(np.array([g]), dt)[0]
        arg = ", ".join(f"{k}={_fmt(v, case, k, i)}" for k, v in ins.items() if v.size == want.size)
        lines.append(f"    {out}[{i}]: triton {w!r} tilescope {g!r}" + (f"  ({arg})" if arg else ""))
    return "\n".join(lines)


def _fmt(v, case, name, i):
    import corpus
    dt = next(a.dtype for a in case.inputs() if a.name == name)
    x = v.reshape(-1)[i]
    return repr(corpus.as_float64(np.array([x]), dt)[0]) if corpus.is_float(dt) else repr(x)


def compare_case(name, records, run=run_tilescope):
    env = setup()
    meta, ins, want = records.case(name)
    case = env["cases"].get(name)
    if case is None:
        return Outcome(name, "differ", "recorded, but no longer in the corpus: re-record")
    try:
        got = run(case, ins)
        err = ""
    except Exception as e:  # tilescope's diagnostics
        got, err = None, str(e) or type(e).__name__
    if meta["status"] != "ok":
        if err and not_yet(err) is not None:
            # tilescope refuses for another reason (the op is missing): not
            # yet a comparison of the rule Triton applied.
            return Outcome(name, "skipped", f"not implemented yet: {not_yet(err)} (Triton rejects this case)")
        if err:
            return Outcome(name, "both_reject", f"triton: {meta['error'].splitlines()[0][:120]}")
        return _expected(name, Outcome(name, "differ", "Triton rejects this kernel, tilescope runs it: "
                                       + meta["error"][:400], kind="triton_rejects"))
    if err:
        op = not_yet(err)
        if op is not None:
            return Outcome(name, "skipped", f"not implemented yet: {op}: {_error_line(err)}")
        return _expected(name, Outcome(name, "differ", "tilescope rejects what Triton runs: " + err[:600],
                                       kind="tilescope_rejects"))
    status, details, worst, diffs = "equal", [], 0, {}
    for out in case.outputs():
        bound = ULP_BOUNDS[case.bound_for(out.name)]
        w_arr, g_arr, dt = in_ulp_dtype(case, out, want[out.name], got[out.name])
        idx, w = diff_elements(w_arr, g_arr, dt, bound, case.bound_for(out.name) in SCALED)
        worst = max(worst, w)
        if w > 0 and status == "equal":
            status = "within"
        if len(idx):
            diffs[out.name] = [int(i) for i in idx]
            details.append(f"  {out.name} ({out.dtype}, bound {bound} ulp): {len(idx)} of "
                           f"{want[out.name].size} differ\n"
                           + describe_diff(case, out.name, out.dtype, idx, want[out.name], got[out.name], ins))
    if diffs:
        return _expected(name, Outcome(name, "differ", "\n".join(details), worst, diffs))
    if name in EXPECTED_DIFFERENCES:
        return Outcome(name, "differ", "listed in EXPECTED_DIFFERENCES, but tilescope now matches Triton: "
                                       "remove it from expected.py and docs/fidelity.md")
    return Outcome(name, status, f"worst {worst} ulp" if worst else "", worst)


def _error_line(err):
    lines = [ln for ln in err.splitlines() if "error:" in ln] or err.splitlines() or [""]
    return lines[0][:200]


def _expected(name, outcome):
    """A difference listed in EXPECTED_DIFFERENCES, exactly as listed (same
    kind; for values the same outputs and elements), is 'expected'; listed
    but changed stays 'differ' and says so."""
    exp = EXPECTED_DIFFERENCES.get(name)
    if exp is None:
        return outcome
    same = exp["kind"] == outcome.kind and (outcome.kind != "values" or exp.get("diffs") == outcome.diffs)
    if same:
        return Outcome(name, "expected", exp["cause"], outcome.worst, outcome.diffs, outcome.kind)
    return Outcome(name, "differ", f"listed in EXPECTED_DIFFERENCES as {exp['kind']} {exp.get('diffs', '')}, but "
                                   f"now {outcome.kind} {outcome.diffs}\n{outcome.detail}", kind=outcome.kind)


def compare_all(names=None, records=None):
    records = records or Records()
    names = names or sorted(records.manifest["cases"])
    return [compare_case(n, records) for n in names]


def summary(outcomes):
    counts = {}
    for o in outcomes:
        counts[o.status] = counts.get(o.status, 0) + 1
    return counts


def measure(records=None):
    """Per bound key: the largest ulp distance between Triton and tilescope
    over elements that are finite and non-zero on both sides (what the
    ULP_BOUNDS table is set from), and the case it occurs in."""
    records = records or Records()
    env = setup()
    worst = {}
    for name in sorted(records.manifest["cases"]):
        meta, ins, want = records.case(name)
        case = env["cases"].get(name)
        if case is None or meta["status"] != "ok":
            continue
        try:
            got = run_tilescope(case, ins)
        except Exception:
            continue
        import corpus
        for out in case.outputs():
            if not corpus.is_float(out.dtype):
                continue
            w, g, dt = in_ulp_dtype(case, out, want[out.name], got[out.name])
            wf, gf = corpus.as_float64(w, dt).reshape(-1), corpus.as_float64(g, dt).reshape(-1)
            ok = np.isfinite(wf) & np.isfinite(gf) & (wf != 0) & (gf != 0)
            if not ok.any():
                continue
            key = case.bound_for(out.name)
            if key in SCALED:
                d = scaled_distance(w.reshape(-1), g.reshape(-1), dt)[ok]
            else:
                d = np.abs(np.array(ordered(w.reshape(-1)[ok], dt), dtype=object)
                           - np.array(ordered(g.reshape(-1)[ok], dt), dtype=object))
            m = int(max(d))
            if m > worst.get(key, (-1, ""))[0]:
                worst[key] = (m, f"{name}.{out.name}")
    return worst


def main(argv):
    if "--measure" in argv:
        for key, (m, where) in sorted(measure().items()):
            print(f"{key:12s} {m:6d} ulp  ({where})")
        return 0
    verbose = "-v" in argv
    names = [a for a in argv if not a.startswith("-")]
    outcomes = compare_all(names or None)
    for o in outcomes:
        if o.status in ("differ",) or verbose or o.status == "skipped":
            print(f"{o.name}: {o.status} {o.detail}")
    counts = summary(outcomes)
    print(f"{len(outcomes)} cases: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    skipped = [o.name for o in outcomes if o.status == "skipped"]
    print(f"skipped ({len(skipped)}): {' '.join(skipped)}")
    return 1 if counts.get("differ") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
