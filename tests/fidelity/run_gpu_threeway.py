"""Three-way comparison on a GPU machine: the recorded corpus (real Triton
on a GPU) against tilescope's interpreter and tilescope's GPU backend
(the same launch with gpu_compare: the kernel's IR lowered to CUDA and run
on the device, its buffers sent back). Writes <out>/threeway.md (family x
{Triton vs interpreter, Triton vs tilescope GPU, tilescope GPU vs
interpreter}: equal / within bounds / differing) and threeway.json.

    PYTHONPATH=python:build/python python3 tests/fidelity/run_gpu_threeway.py --out /tmp/threeway
"""
import argparse
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare  # noqa: E402

PAIRS = [("triton", "interp"), ("triton", "gpu"), ("gpu", "interp")]
TITLES = {("triton", "interp"): "Triton GPU vs tilescope interpreter",
          ("triton", "gpu"): "Triton GPU vs tilescope GPU",
          ("gpu", "interp"): "tilescope GPU vs interpreter"}


def gpu_outputs(case, result, corpus):
    """The GPU's bytes of each output, from the launch result, as storage
    arrays shaped like the output (None when the GPU did not run)."""
    gpu = getattr(result, "gpu", None)
    if not gpu or not gpu.get("ran"):
        return None, (gpu or {}).get("error", "no GPU report")
    raw = gpu.get("outputs")
    if raw is None:
        return None, "this tilescope's GPU report carries no output bytes"
    params = list(case.kernel.signature.parameters)
    names = {a.name: params[i] for i, a in enumerate(case.args)
             if isinstance(a, (corpus.In, corpus.Out))}
    out = {}
    for a in case.outputs():
        b = raw[names[a.name]]
        out[a.name] = np.frombuffer(bytes(b), dtype=corpus.STORAGE[a.dtype]).reshape(a.shape).copy()
    return out, ""


def classify(case, want, got):
    """equal | within | differ between two sets of outputs, by the same
    rule as the CI comparison (compare.compare_case): each output in its
    ulp dtype, against its op's bound, scaled where the bound is."""
    status = "equal"
    for a in case.outputs():
        key = case.bound_for(a.name)
        w_arr, g_arr, dt = compare.in_ulp_dtype(case, a, want[a.name], got[a.name])
        idx, worst = compare.diff_elements(w_arr, g_arr, dt, compare.ULP_BOUNDS[key], key in compare.SCALED)
        if len(idx):
            return "differ"
        if worst:
            status = "within"
    return status


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--records", default=compare.RECORDS)
    ap.add_argument("--out", required=True)
    ap.add_argument("--families", default="", help="comma-separated families (default: all)")
    args = ap.parse_args()
    families = set(f for f in args.families.split(",") if f)
    os.makedirs(args.out, exist_ok=True)
    env = compare.setup()
    from tilescope import options
    options.configure(gpu_compare=True, raise_on_error=True)
    corpus = env["corpus"]
    records = compare.Records(args.records)
    rows, table = {}, {}
    start = time.time()
    for name in sorted(records.manifest["cases"]):
        meta, ins, triton_out = records.case(name)
        case = env["cases"].get(name)
        fam = meta["family"]
        if families and fam not in families:
            continue
        row = {"family": fam}
        if case is None or meta["status"] != "ok":
            row["status"] = "not recorded" if case is None else "triton rejects"
            rows[name] = row
            continue
        results = []
        try:
            interp = compare.run_tilescope_with(case, ins, results.append)
        except Exception as e:
            op = compare.not_yet(str(e))
            row["status"] = f"skipped ({op})" if op else "tilescope error"
            row["error"] = str(e)[:300]
            rows[name] = row
            continue
        gpu, why = gpu_outputs(case, results[0] if results else None, corpus)
        outs = {"triton": triton_out, "interp": interp, "gpu": gpu}
        row["status"] = "ran"
        if gpu is None:
            row["gpu_error"] = why[:300]
        for pair in PAIRS:
            a, b = outs[pair[0]], outs[pair[1]]
            verdict = "gpu error" if a is None or b is None else classify(case, a, b)
            if verdict == "differ" and pair == ("triton", "interp") and name in compare.EXPECTED_DIFFERENCES:
                verdict = "expected"
            row["/".join(pair)] = verdict
            cell = table.setdefault(fam, {}).setdefault(pair, {})
            cell[verdict] = cell.get(verdict, 0) + 1
        rows[name] = row
    with open(os.path.join(args.out, "threeway.json"), "w") as f:
        json.dump({"environment": records.manifest["environment"], "cases": rows,
                   "seconds": round(time.time() - start, 1)}, f, indent=1, sort_keys=True)
    lines = ["| family | " + " | ".join(TITLES[p] for p in PAIRS) + " |",
             "|---|" + "---|" * len(PAIRS)]
    total = {}
    for fam in sorted(table):
        cells = []
        for p in PAIRS:
            c = table[fam].get(p, {})
            for k, v in c.items():
                total.setdefault(p, {})[k] = total.setdefault(p, {}).get(k, 0) + v
            cells.append(_cell(c))
        lines.append(f"| {fam} | " + " | ".join(cells) + " |")
    lines.append("| **all** | " + " | ".join(_cell(total.get(p, {})) for p in PAIRS) + " |")
    other = {}
    for r in rows.values():
        if r["status"] != "ran":
            other[r["status"]] = other.get(r["status"], 0) + 1
    lines.append("")
    lines.append("Cells: equal / within the ulp bounds / differing (+ differences listed in expected.py, "
                 "+ GPU errors). Not compared: "
                 + (", ".join(f"{v} {k}" for k, v in sorted(other.items())) or "none") + ".")
    gpu_errors = sorted({r.get("gpu_error", "") for r in rows.values() if r.get("gpu_error")})
    if gpu_errors:
        lines.append("")
        lines.append("GPU errors (distinct): " + "; ".join(e.splitlines()[0][:160] for e in gpu_errors[:10]))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "threeway.md"), "w") as f:
        f.write(text)
    print(text)


def _cell(c):
    s = f"{c.get('equal', 0)} / {c.get('within', 0)} / {c.get('differ', 0)}"
    if c.get("expected"):
        s += f" (+{c['expected']} expected)"
    return s + (f" (+{c['gpu error']} GPU errors)" if c.get("gpu error") else "")


if __name__ == "__main__":
    main()
