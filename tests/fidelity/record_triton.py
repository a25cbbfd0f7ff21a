"""Records the corpus with REAL Triton on a GPU: for each case its
inputs and Triton's outputs (raw storage arrays), or the error Triton
raised, into <out>/<family>.npz and <out>/manifest.json (Triton, torch,
GPU, date). Run by gpu_run.sh record; never edit records by hand.

    python3 record_triton.py --out records --jobs 12 --deadline 200

Cases run in worker processes (Triton's compiler is CPU-bound), each a
fresh process, so a CUDA error in one case cannot spoil another chunk.
"""
import argparse
import datetime
import json
import multiprocessing as mp
import os
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
CHUNK = 24


def _torch_maps(torch, np):
    dt = {"i1": torch.bool, "i8": torch.int8, "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
          "u8": torch.uint8, "u16": torch.uint16, "u32": torch.uint32, "u64": torch.uint64, "f16": torch.float16,
          "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64}
    # same-size carriers that both numpy and torch convert without fuss
    carrier = {1: (np.uint8, torch.uint8), 2: (np.int16, torch.int16), 4: (np.int32, torch.int32),
               8: (np.int64, torch.int64)}
    return dt, carrier


def run_chunk(task):
    module_name, names = task
    sys.path.insert(0, HERE)
    import numpy as np
    import torch
    import triton  # noqa: F401
    import triton.language as tl

    import corpus
    torch_dt, carrier = _torch_maps(torch, np)

    def to_dev(arr, dt):
        arr = np.ascontiguousarray(arr)
        npc, tc = carrier[arr.dtype.itemsize]
        return torch.from_numpy(arr.view(npc).copy()).view(torch_dt[dt]).cuda()

    def from_dev(t, dt):
        npc, tc = carrier[t.element_size()]
        return t.cpu().contiguous().view(tc).numpy().view(corpus.STORAGE[dt]).copy()

    module = __import__(module_name)
    cases = {c.name: c for c in module.cases()}
    results = []
    broken = None
    for name in names:
        c = cases[name]
        inputs = corpus.make_inputs(c)
        entry = {"name": name, "family": c.family, "kernel": c.kernel.fn.__name__ if hasattr(c.kernel, "fn")
                 else str(c.kernel), "inputs": inputs, "outputs": {}, "status": "ok", "error": ""}
        if broken:
            entry.update(status="not_run", error=f"CUDA context lost in case {broken}")
            results.append(entry)
            continue
        t0 = time.time()
        try:
            entry["outputs"] = corpus.launch(c, tl, inputs, to_dev, from_dev)
            torch.cuda.synchronize()
        except Exception as e:  # Triton's compile errors are results too
            msg = f"{type(e).__name__}: {e}"
            entry.update(status="error", error=msg[:3000], outputs={})
            try:
                torch.cuda.synchronize()
            except Exception:
                broken = name
                entry["error"] += "\n(CUDA context lost)\n" + traceback.format_exc()[-1000:]
        entry["seconds"] = round(time.time() - t0, 3)
        results.append(entry)
    return results


def environment():
    import torch
    import triton
    return {"triton": triton.__version__, "torch": torch.__version__,
            "gpu": torch.cuda.get_device_name(0) if torch.cuda.is_available() else "none",
            "cuda": torch.version.cuda, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            "python": sys.version.split()[0]}


def arg_spec(case):
    import corpus
    spec = []
    for a in case.args:
        if isinstance(a, corpus.In):
            spec.append({"role": "inout" if a.inout else "in", "name": a.name, "dtype": a.dtype,
                         "shape": list(a.shape)})
        elif isinstance(a, corpus.Out):
            spec.append({"role": "out", "name": a.name, "dtype": a.dtype, "shape": list(a.shape)})
        elif isinstance(a, corpus.Scalar):
            spec.append({"role": "scalar", "name": a.name, "value": a.value})
        else:
            v = a.value if isinstance(a, corpus.Const) else a
            spec.append({"role": "constexpr", "value": repr(v)})
    return spec


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=8)
    ap.add_argument("--deadline", type=float, default=200.0, help="seconds; what finished by then is written")
    ap.add_argument("--only", default="", help="comma-separated module names")
    args = ap.parse_args()
    start = time.time()
    sys.path.insert(0, HERE)
    import numpy as np
    import triton  # noqa: F401  (the real one: kernels are Triton's)

    import corpus
    modules = [m for m in corpus.MODULES if not args.only or m in args.only.split(",")]
    cases = {}
    tasks = []
    for m in modules:
        mod = __import__(m)
        names = [c.name for c in mod.cases()]
        for c in mod.cases():
            cases[c.name] = c
        for i in range(0, len(names), CHUNK):
            tasks.append((m, names[i:i + CHUNK]))
    env = environment()
    print(f"recording {len(cases)} cases in {len(tasks)} chunks with {args.jobs} workers: {env}", flush=True)
    ctx = mp.get_context("spawn")
    results = {}
    pool = ctx.Pool(args.jobs, maxtasksperchild=1)
    pending = [pool.apply_async(run_chunk, (t,)) for t in tasks]
    for p, t in zip(pending, tasks):
        left = args.deadline - (time.time() - start)
        try:
            for entry in p.get(timeout=max(left, 1.0)):
                results[entry["name"]] = entry
        except mp.TimeoutError:
            print(f"deadline: chunk {t[0]} {t[1][0]}.. not finished", flush=True)
        except Exception as e:
            print(f"chunk {t[0]} {t[1][0]}.. failed: {e}", flush=True)
    pool.terminate()
    os.makedirs(args.out, exist_ok=True)
    by_family = {}
    manifest = {"environment": env, "cases": {}}
    for name, c in cases.items():
        e = results.get(name)
        meta = {"family": c.family, "status": e["status"] if e else "not_run",
                "error": e["error"] if e else "deadline", "args": arg_spec(c), "grid": list(c.grid)}
        if e:
            meta["kernel"] = e["kernel"]
            meta["seconds"] = e.get("seconds", 0)
            arrays = by_family.setdefault(c.family, {})
            for k, v in e["inputs"].items():
                arrays[f"{name}.in.{k}"] = v
            for k, v in e["outputs"].items():
                arrays[f"{name}.out.{k}"] = v
        manifest["cases"][name] = meta
    for fam, arrays in by_family.items():
        np.savez_compressed(os.path.join(args.out, f"{fam}.npz"), **arrays)
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    counts = {}
    for meta in manifest["cases"].values():
        counts[meta["status"]] = counts.get(meta["status"], 0) + 1
    print(f"recorded in {time.time() - start:.1f}s: {counts}", flush=True)
    for name, meta in sorted(manifest["cases"].items()):
        if meta["status"] != "ok":
            print(f"  {name}: {meta['status']}: {meta['error'].splitlines()[0] if meta['error'] else ''}"[:300])


if __name__ == "__main__":
    main()
