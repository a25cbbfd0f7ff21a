"""Each real-code item (../shared/realcode: Triton's tutorials, Liger-Kernel's
drivers) run twice on a GPU host, in parallel: with `python3 -m tilescope
run` and as Triton itself runs it. An item gives the same result when what
the script prints under tilescope (its checks' verdicts, its printed
outputs) is what it prints first under Triton, timings and the size of a
passing check's difference aside. Triton's runs stop after
TRITON_LIMIT seconds: the tutorials' results come before their benchmarks.

usage: [ITEMS=substring] python3 realcode_side_by_side.py REALCODE_DIR OUT_DIR
writes OUT_DIR/realcode.txt (one row per item) and OUT_DIR/realcode_stdout.txt
(both sides' printed lines, item by item)."""
import concurrent.futures
import os
import re
import subprocess
import sys
import time

TRITON_LIMIT = int(os.environ.get("TRITON_LIMIT", "90"))
TILESCOPE_LIMIT = int(os.environ.get("TILESCOPE_LIMIT", "300"))


def items(realcode):
    tutorials = os.path.join(realcode, "triton_tutorials")
    drivers = os.path.join(realcode, "liger", "drivers")
    for name in sorted(os.listdir(tutorials)):
        if name.endswith(".py"):
            yield f"tutorial {name[:-3]}", tutorials, name
    for name in sorted(os.listdir(drivers)):
        if name.startswith("test_") and name.endswith(".py"):
            yield f"liger {name[5:-3]}", drivers, name


def run(cmd, cwd, limit):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    start = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=limit, env=env)
        return p.returncode, p.stdout, p.stderr, time.time() - start
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return 124, out, err, time.time() - start


def printed(stdout):
    """The lines a script printed of its own results, timings removed."""
    lines = []
    for line in stdout.replace("\r", "\n").splitlines():
        line = re.sub(r"in [0-9.]+ ?m?s\b", "", line).rstrip()
        # A check's verdict, not its rounding: "(max abs diff 2.38e-07, ...)"
        line = re.sub(r"\(max abs diff [^,]*, ", "(", line)
        if line and not line.startswith("Benchmarking"):
            lines.append(line)
    return lines


def side_by_side(item):
    name, cwd, script = item
    ts = run([sys.executable, "-m", "tilescope", "run", script], cwd, TILESCOPE_LIMIT)
    tr = run([sys.executable, script], cwd, TRITON_LIMIT)
    ts_lines, tr_lines = printed(ts[1]), printed(tr[1])
    same = bool(ts_lines) and ts_lines == tr_lines[:len(ts_lines)]
    summary = next((ln for ln in ts[2].splitlines() if re.match(r"tilescope: \d+ launch", ln)), "no summary")
    first_error = next((ln for ln in ts[2].splitlines() if "error" in ln.lower()), "")
    row = (f"{name:34s} tilescope exit {ts[0]:3d} ({ts[3]:4.0f} s)  triton exit {tr[0]:3d} ({tr[3]:4.0f} s)  "
           f"printed results: {'same' if same else 'differ' if ts_lines else 'none'}  [{summary[11:]}]")
    if ts[0] != 0 and first_error:
        row += f"\n    {first_error[:200]}"
    detail = [f"===== {name}", "--- tilescope:"] + ts_lines + ["--- triton (first lines):"] + tr_lines[:40]
    return row, "\n".join(detail)


def main():
    realcode, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=int(os.environ.get("JOBS", "6"))) as pool:
        only = os.environ.get("ITEMS", "")
        results = list(pool.map(side_by_side, [i for i in items(realcode) if only in i[0]]))
    with open(os.path.join(out, "realcode.txt"), "w") as f:
        f.write("\n".join(r for r, _ in results) + "\n")
    with open(os.path.join(out, "realcode_stdout.txt"), "w") as f:
        f.write("\n".join(d for _, d in results) + "\n")
    print("\n".join(r for r, _ in results))


if __name__ == "__main__":
    main()
