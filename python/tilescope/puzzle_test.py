"""`tilescope.puzzles.test`: the helper learners of the Triton puzzles know,

    test(add_kernel, add_spec, nelem={"N0": 32}, B={"B0": 32})

with tilescope's checker behind it: every size set and seed of the puzzle
as `tilescope check` runs them (PUZZLES.md), each failure explained, and in
a notebook the picture of the first failing access (`viz=True`).

The puzzle is known by the kernel's or the spec's name as the puzzle
notebooks spell them (add_kernel / add_spec is puzzle 1, ...), or given as
`puzzle=`. The spec is the puzzle's plain-torch statement; the checker
compares with the puzzle's own f64 reference of that statement. `nelem`
and `B` name the sizes of the pictured run; a name the puzzle does not
have (puzzle 7's N1) is passed to the kernel as given.
"""
import json

from ._core import ts
from . import notebook
from .puzzles import check_puzzle, puzzle_kernel

# The names the Triton puzzle notebooks give each puzzle's kernel and spec.
NAMES = {
    1: ("add_kernel", "add_spec"),
    2: ("add_mask2_kernel", "add2_spec"),
    3: ("add_vec_kernel", "add_vec_spec"),
    4: ("add_vec_block_kernel", "add_vec_block_spec"),
    5: ("mul_relu_block_kernel", "mul_relu_block_spec"),
    6: ("mul_relu_block_back_kernel", "mul_relu_block_back_spec"),
    7: ("sum_kernel", "sum_spec"),
    8: ("softmax_kernel", "softmax_spec"),
    9: ("flashatt_kernel", "flashatt_spec"),
    10: ("conv2d_kernel", "conv2d_spec"),
    11: ("dot_kernel", "dot_spec"),
    12: ("quant_dot_kernel", "quant_dot_spec"),
}


def _name(obj):
    fn = getattr(obj, "fn", obj)
    return getattr(fn, "__name__", "")


def which_puzzle(kernel, spec, puzzle=None):
    """The puzzle number: `puzzle` when given, else found by name."""
    if puzzle is not None:
        return int(puzzle)
    names = (_name(kernel), _name(spec))
    for number, known in NAMES.items():
        if names[0] == known[0] or names[1] == known[1]:
            return number
    raise ValueError(f"cannot tell which puzzle kernel '{names[0]}' with spec '{names[1]}' solves: "
                     "name them as the puzzles do (add_kernel, add_spec, ...) or pass puzzle=N")


class TestResult:
    """What `test` found: `passed`, the checker's `report` (every failing
    run explained) and, with viz, the `picture`. Shows itself in Jupyter."""

    def __init__(self, number, kernel_name, passed, summary, report, picture=None):
        self.puzzle = number
        self.kernel = kernel_name
        self.passed = passed
        self.summary = summary
        self.report = report
        self.picture = picture

    def __bool__(self):
        return self.passed

    def headline(self):
        verdict = "PASSED" if self.passed else "FAILED"
        return f"Puzzle {self.puzzle} ({self.kernel}): {verdict}: {self.summary}"

    def __repr__(self):
        return self.headline() + ("" if self.passed or not self.report else "\n" + self.report)

    def _repr_html_(self):
        import html
        color = "rgb(64,168,96)" if self.passed else "rgb(232,36,36)"
        out = [f'<div class="tilescope-test" data-passed="{str(self.passed).lower()}">'
               f'<div style="font:bold 14px sans-serif;color:{color}">{html.escape(self.headline())}</div>']
        if not self.passed and self.report:
            out.append(f'<pre style="font-size:12px;white-space:pre-wrap">{html.escape(self.report)}</pre>')
        if self.picture is not None:
            out.append(self.picture._repr_html_())
        out.append("</div>")
        return "".join(out)


def _first_failure(report):
    """(set, seed, run) of the first failing run of a JSON check report."""
    for s in report["sets"]:
        for run in s["runs"]:
            if run["status"] != "pass":
                return s["name"], run["seed"], run
    return None


def _pictured_program(trace, run):
    """The program to draw for a failing run: its first finding's, else the
    owner of its first mismatching element, else the last one."""
    if trace.first_finding() is not None or run is None:
        return None
    if run.get("mismatches"):
        index = trace.program_at(list(run["mismatches"][0]["owner"]))
        if index >= 0:
            return index
    return None


def _picture(number, kdef, set_name, seed, run, caption):
    passed, text, trace = ts.traced_puzzle_run(str(number), kdef, set_name, seed)
    if trace is None:
        return None, text
    if passed:  # the tail program, every buffer at its last access
        pic = notebook.Picture(trace, program=None, event=None, dim_earlier=False, caption=caption)
    else:
        pic = notebook.Picture(trace, program=_pictured_program(trace, run), event="first finding",
                               dim_earlier=False, caption=caption)
    return pic, text


def test(kernel, spec, nelem=None, B=None, viz=True, puzzle=None, seeds=None):
    """Checks `kernel` on every size set and seed of its puzzle; returns a
    TestResult (true when it passed) that displays itself in a notebook.
    Never raises for a broken kernel: build errors are failures."""
    number = which_puzzle(kernel, spec, puzzle)
    sizes = dict(nelem or {})
    sizes.update(B or {})
    params = {name for name, _, _ in ts.puzzle_params(str(number))}
    extra = {k: v for k, v in sizes.items() if k not in params}
    name = _name(kernel)
    try:
        kdef = puzzle_kernel(str(number), kernel, extra)
        passed, text = check_puzzle(number, kernel, seeds=seeds, extra=extra, json=True)
    except (ValueError, TypeError, ts.BuildError) as e:
        return TestResult(number, name, False, "the kernel does not fit the puzzle", str(e))
    report = json.loads(text)
    if passed:
        summary = (f"{report['runs']} runs ({len(report['sets'])} size sets), max err {report['max_err']:.3g} "
                   f"<= {report['threshold']:g}")
        pic = None
        if viz and notebook.available():
            pic, _ = _picture(number, kdef, "canonical", 0, None,
                              "the last program of the canonical sizes, each buffer at its last access")
        return TestResult(number, name, True, summary, "", pic)
    set_name, seed, run = _first_failure(report)
    reasons = ", ".join(run.get("reasons") or [run["status"]])
    summary = (f"{report['failed_runs']} of {report['runs']} runs failed; first: set {set_name}, seed {seed}: "
               f"{reasons}")
    pic, run_text = None, ""
    if viz and notebook.available():
        pic, run_text = _picture(number, kdef, set_name, seed, run, f"set {set_name}, seed {seed}: the first failing "
                                 "access (or the owner of the first wrong element)")
    else:
        run_text = ts.run_puzzle(str(number), kdef, set_name, seed)["text"]
    return TestResult(number, name, False, summary, run_text or reasons, pic)
