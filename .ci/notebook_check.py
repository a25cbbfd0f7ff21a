"""Runs notebooks/tile_puzzles.ipynb headless and checks it (.ci/notebook.sh).

    notebook_check.py run MODE OUT.ipynb      MODE: solutions | stubs
    notebook_check.py trim IN.ipynb OUT.ipynb  the cells the screenshot shows
    notebook_check.py screenshot SHOT.png      colour counts of the rendered page

`run` executes the notebook with nbclient (Debian's python3-nbclient) in a
fresh kernel: with the solutions (each `kernel-N` cell replaced by the
function of that name from notebooks/solutions.py) every `test-N` cell must
pass and show a picture; with the stubs as given every one must fail with a
message. In both no cell may raise. Exits non-zero naming what did not hold.
"""
import ast
import json
import pathlib
import sys
import time

import nbformat

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "tile_puzzles.ipynb"
SOLUTIONS = ROOT / "notebooks" / "solutions.py"
PUZZLES = range(1, 13)

# The viewer's palette (viz/model_colors.h).
LOADED, STORED, MASKED, OOB = (66, 135, 245), (245, 140, 40), (128, 128, 128), (232, 36, 36)
HATCH = (92, 92, 92)  # the two short diagonals across each masked cell


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def solution_sources():
    """name -> source (decorator included) of every function in solutions.py."""
    text = SOLUTIONS.read_text()
    out = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef):
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            out[node.name] = "\n".join(text.splitlines()[start - 1:node.end_lineno])
    return out


def with_solutions(nb):
    sources = solution_sources()
    for cell in nb.cells:
        kernel_tags = [t for t in tags(cell) if t.startswith("kernel-")]
        if not kernel_tags:
            continue
        name = ast.parse(cell.source).body[0].name
        if name not in sources:
            sys.exit(f"notebooks/solutions.py has no '{name}' for cell {kernel_tags[0]}")
        cell.source = sources[name]
    return nb


def html_of(cell):
    for out in cell.get("outputs", []):
        if out.get("output_type") in ("execute_result", "display_data") and "text/html" in out.get("data", {}):
            return out["data"]["text/html"]
    return ""


def check_cells(nb, mode):
    problems, passed = [], 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                problems.append(f"cell {tags(cell)} raised {out.get('ename')}: {out.get('evalue')}")
    by_tag = {t: c for c in nb.cells for t in tags(c)}
    for n in PUZZLES:
        html = html_of(by_tag[f"test-{n}"])
        ok = 'data-passed="true"' in html
        failed = 'data-passed="false"' in html
        has_picture = "data:image/png;base64," in html
        if mode == "solutions":
            if not ok:
                problems.append(f"puzzle {n}: the solution did not pass")
            if not has_picture:
                problems.append(f"puzzle {n}: no inline picture")
            passed += ok
        else:
            if not failed:
                problems.append(f"puzzle {n}: the stub did not fail with a result")
            elif "FAILED" not in html:
                problems.append(f"puzzle {n}: the stub's failure has no message")
    demo = html_of(by_tag["demo-broken"])
    if 'data-passed="false"' not in demo or "data:image/png;base64," not in demo:
        problems.append("the broken kernel's cell did not fail with a picture")
    return problems, passed


def run(mode, out_path):
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(NOTEBOOK, as_version=4)
    if mode == "solutions":
        nb = with_solutions(nb)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}})
    started = time.perf_counter()
    try:
        client.execute()
    except CellExecutionError as e:
        nbformat.write(nb, out_path)
        sys.exit(f"{mode}: a cell raised:\n{e}")
    seconds = time.perf_counter() - started
    nbformat.write(nb, out_path)
    problems, passed = check_cells(nb, mode)
    if problems:
        sys.exit(f"{mode}:\n  " + "\n  ".join(problems))
    what = f"{passed} of 12 test cells pass, each with a picture" if mode == "solutions" else \
        "12 of 12 stubs fail with a message"
    print(f"notebook with {mode}: {what}; no cell raised; ran in {seconds:.1f} s")


def trim(in_path, out_path):
    """The set-up, the broken kernel and puzzle 2 (masked tail) with their outputs."""
    nb = nbformat.read(in_path, as_version=4)
    keep, take = [], False
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            take = cell.source.startswith("## What a failure") or cell.source.startswith("## Puzzle 2:")
        t = tags(cell)
        if take or "setup" in t:
            keep.append(cell)
    nb.cells = keep
    nbformat.write(nb, out_path)


def components(img, color):
    """Bounding boxes and areas of the connected regions of exactly `color`."""
    w, h = img.size
    px = img.load()
    seen = bytearray(w * h)
    found = []
    for y0 in range(h):
        for x0 in range(w):
            if seen[y0 * w + x0] or px[x0, y0][:3] != color:
                continue
            stack = [(x0, y0)]
            seen[y0 * w + x0] = 1
            area, xs, ys = 0, [x0, x0], [y0, y0]
            while stack:
                x, y = stack.pop()
                area += 1
                xs[0], xs[1], ys[0], ys[1] = min(xs[0], x), max(xs[1], x), min(ys[0], y), max(ys[1], y)
                for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                    if 0 <= nx < w and 0 <= ny < h and not seen[ny * w + nx] and px[nx, ny][:3] == color:
                        seen[ny * w + nx] = 1
                        stack.append((nx, ny))
            found.append((xs[1] - xs[0] + 1, ys[1] - ys[0] + 1, area))
    return found


def cells(img, color, min_side=12):
    """Regions that are grid cells: at least min_side pixels each way (the
    legend's swatches are smaller) and mostly filled (hatching cuts corners)."""
    return sum(1 for bw, bh, area in components(img, color)
               if bw >= min_side and bh >= min_side and area >= 0.4 * bw * bh)


def screenshot(path):
    """The trimmed page shows the broken kernel's picture (x: 8 loaded, 24
    masked; z: 8 stored, 24 out of bounds) and puzzle 2's solution's (x: 8
    loaded, 24 masked; z: 8 stored, 24 masked)."""
    from PIL import Image
    img = Image.open(path).convert("RGB")
    counts = {"loaded": cells(img, LOADED), "stored": cells(img, STORED), "masked": cells(img, MASKED),
              "out of bounds": cells(img, OOB)}
    expected = {"loaded": 16, "stored": 16, "masked": 72, "out of bounds": 24}
    print("screenshot cells:", json.dumps(counts))
    if counts != expected:
        sys.exit(f"screenshot: expected {expected}")
    # Hatched: at least 8 pixels of diagonal in each masked cell (about 14 at
    # the notebook's cell size, less where grid lines cross them).
    hatch = sum(1 for p in img.getdata() if p == HATCH)
    print(f"screenshot hatch pixels: {hatch}")
    if hatch < 8 * expected["masked"]:
        sys.exit(f"screenshot: masked cells are not hatched ({hatch} hatch pixels)")


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "run" and len(sys.argv) == 4 and sys.argv[2] in ("solutions", "stubs"):
        run(sys.argv[2], sys.argv[3])
    elif cmd == "trim" and len(sys.argv) == 4:
        trim(sys.argv[2], sys.argv[3])
    elif cmd == "screenshot" and len(sys.argv) == 3:
        screenshot(sys.argv[2])
    else:
        sys.exit(__doc__)
