"""Each C++ broken kernel (puzzles/broken/bNN_<name>.cpp) beside its Python
twin (python/tests/broken/twins.py), run on the same puzzle, set and seed:
the twin must fail as the C++ kernel fails, with the same findings (kinds,
programs, lanes, offsets, examples, notes), the same value-check summary,
and the same build error, each at the twin's own .py line.

Lines: a twin is written statement for statement like its C++ kernel, so a
C++ finding k statements below the C++ `// BUG` line must be k statements
below the twin's `# BUG` line (k = 0 for most; a mistake on a mask or offset
line is reported where the mask or offset is used, further down). Statements
are counted as lines that are not blank, comments or a lone C++ `}`.

Run: cd /work/main && PYTHONPATH=python:build/python python3 -m pytest -q python/tests/test_broken_twins.py
"""
import glob
import importlib.util
import inspect
import os
import re

import pytest

import _tilescope as ts
from tilescope.puzzles import run_puzzle

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BROKEN_DIR = os.path.join(HERE, "broken")
TWINS_FILE = os.path.join(BROKEN_DIR, "twins.py")
SEED = 0


def _load(path, module_name):
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


twins = _load(TWINS_FILE, "tilescope_broken_twins")
frontend_bugs = _load(os.path.join(BROKEN_DIR, "frontend_bugs.py"), "tilescope_broken_frontend_bugs")

BROKEN = {name: (puzzle_id, set_name) for name, puzzle_id, set_name in ts.broken_kernels()}

# Twins that cannot match their C++ kernel because of the front end:
# name -> reason (each becomes a strict xfail). None at present.
XFAIL = {}

_LOCATION = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<rest>.*)$")


# ---- helpers ----------------------------------------------------------------

def _same_file(reported, expected):
    """A finding's or error's file (absolute, or relative to the repository or cwd) is `expected`."""
    if not reported:
        return False
    candidates = [reported] if os.path.isabs(reported) else [os.path.join(REPO, reported), os.path.abspath(reported)]
    return any(os.path.exists(c) and os.path.samefile(c, expected) for c in candidates)


def _bug_line(path, marker, first=1, last=None):
    """The 1-based number of the only line in [first, last] of `path` holding `marker`."""
    with open(path) as f:
        lines = f.read().splitlines()
    last = len(lines) if last is None else last
    hits = [n for n in range(first, last + 1) if marker in lines[n - 1]]
    assert len(hits) == 1, f"{path}:{first}-{last}: expected one '{marker}' line, found {hits}"
    return hits[0]


def _statement_offset(path, bug, line):
    """How many statement lines `line` is below `bug` (negative: above)."""
    with open(path) as f:
        lines = f.read().splitlines()

    def statement(n):
        text = lines[n - 1].strip()
        return bool(text) and not text.startswith(("//", "#")) and text not in ("}", "};")

    lo, hi = sorted((bug, line))
    count = sum(1 for n in range(lo + 1, hi + 1) if statement(n))
    return count if line >= bug else -count


def _cpp_source(name):
    paths = glob.glob(os.path.join(REPO, "puzzles", "broken", f"b[0-9][0-9]_{name}.cpp"))
    assert len(paths) == 1, f"the C++ source of broken kernel '{name}': {paths}"
    return paths[0]


def _twin_bug_line(kernel):
    lines, start = inspect.getsourcelines(kernel.fn)
    return _bug_line(TWINS_FILE, "# BUG", start, start + len(lines) - 1)


def _split_location(text):
    """'file:line:col: rest' (the first line of a diagnostic) as (file, line, rest)."""
    m = _LOCATION.match(text.splitlines()[0])
    assert m, f"no file:line:col: prefix in {text!r}"
    return m.group("file"), int(m.group("line")), m.group("rest")


def _diagnostic_body(text):
    """A finding's text without its location: the first line after the
    prefix and every note, without the quoted source line and its caret."""
    lines = text.splitlines()
    _, _, first = _split_location(lines[0])
    # The quoted line and caret appear only where the source file is found
    # from the working directory (C++ kernels name theirs relative to the
    # build), so keep the notes by their prefix, not by position.
    return [first] + [ln for ln in lines[1:] if ln.startswith("  note:")]


def _value_summary(text):
    """The run's report up to its sanitizer / build-error section: the
    header, the failure reasons, err and the first mismatches (no locations)."""
    out = []
    for ln in text.splitlines():
        if ln.strip() in ("sanitizer:", "build error:"):
            break
        out.append(ln)
    return out


def _examples(finding):
    return [(finding["kind"], tuple(e["pid"]), e["lane"], tuple(e["lane_index"]), e["offset"], tuple(e["other_pid"]))
            for e in finding["examples"]]


# ---- the comparison -----------------------------------------------------------

def _compare(name):
    puzzle_id, set_name = BROKEN[name]
    kernel = twins.TWINS[name]
    cpp_file = _cpp_source(name)
    cpp_bug = _bug_line(cpp_file, "// BUG")
    py_bug = _twin_bug_line(kernel)

    cpp = ts.run_puzzle(puzzle_id, ts.broken_kernel_def(name), set_name, SEED)
    py = run_puzzle(puzzle_id, kernel, set_name, SEED)

    # It fails where the C++ one fails (every broken kernel fails).
    assert cpp["passed"] is False, f"the C++ broken kernel '{name}' passed"
    assert py["passed"] == cpp["passed"]

    # Build errors: the same message, at the twin's line matching the C++ one.
    if cpp["error"]:
        assert py["error"], f"C++ reports a build error, the twin none:\n{cpp['error']}"
        c_file, c_line, c_rest = _split_location(cpp["error"])
        p_file, p_line, p_rest = _split_location(py["error"])
        assert p_rest == c_rest
        assert _same_file(p_file, TWINS_FILE), f"the error is in {p_file}, not the twin's file"
        assert _same_file(c_file, cpp_file)
        p_off = _statement_offset(TWINS_FILE, py_bug, p_line)
        c_off = _statement_offset(cpp_file, cpp_bug, c_line)
        assert p_off == c_off, (
            f"the error is at twins.py:{p_line}, {p_off} statements from the twin's BUG line {py_bug}; C++'s is "
            f"{c_off} statements from its BUG line {cpp_bug}")
    else:
        assert not py["error"], f"the twin does not build:\n{py['error']}"

    # The value check says the same (header, failure reasons, err, mismatches).
    assert _value_summary(py["text"]) == _value_summary(cpp["text"])

    # Findings: the same kinds, in the same order, with the same examples.
    cpp_f, py_f = cpp["findings"], py["findings"]
    assert {f["kind"] for f in py_f} == {f["kind"] for f in cpp_f}
    assert [f["kind"] for f in py_f] == [f["kind"] for f in cpp_f]
    for c, p in zip(cpp_f, py_f):
        where = f"{c['kind']} at C++ line {c['line']}"
        for key in ("severity", "lanes", "programs", "buffer", "message"):
            assert p.get(key) == c.get(key), f"{where}: {key}"
        assert _examples(p) == _examples(c), f"{where}: examples"
        assert _diagnostic_body(p["text"]) == _diagnostic_body(c["text"]), f"{where}: text"
        assert _same_file(p["file"], TWINS_FILE), f"{where}: reported in {p['file']}, not the twin's file"
        assert _same_file(c["file"], cpp_file)
        p_off = _statement_offset(TWINS_FILE, py_bug, p["line"])
        c_off = _statement_offset(cpp_file, cpp_bug, c["line"])
        assert p_off == c_off, (
            f"{where}: the twin's is at twins.py:{p['line']}, {p_off} statements from its BUG line {py_bug}; "
            f"C++'s is {c_off} statements from its BUG line {cpp_bug}")
    return cpp, py


def _params():
    out = []
    for name in BROKEN:
        marks = [pytest.mark.xfail(strict=True, reason=XFAIL[name])] if name in XFAIL else []
        out.append(pytest.param(name, id=name, marks=marks))
    return out


def test_every_broken_kernel_has_a_twin():
    assert set(twins.TWINS) == set(BROKEN)
    assert len(BROKEN) == 25


@pytest.mark.parametrize("name", _params())
def test_twin_matches_cpp(name):
    _compare(name)


def test_twin_bug_lines_are_where_the_findings_are():
    """A twin's own BUG line holds the finding (or error) when the C++ one
    does: the twins are not only aligned but marked on the right line."""
    for name, (puzzle_id, set_name) in BROKEN.items():
        if name in XFAIL:
            continue
        cpp_bug = _bug_line(_cpp_source(name), "// BUG")
        cpp = ts.run_puzzle(puzzle_id, ts.broken_kernel_def(name), set_name, SEED)
        lines = [f["line"] for f in cpp["findings"]]
        if cpp["error"]:
            lines.append(_split_location(cpp["error"])[1])
        if cpp_bug not in lines:
            continue
        py = run_puzzle(puzzle_id, twins.TWINS[name], set_name, SEED)
        py_lines = [f["line"] for f in py["findings"]]
        if py["error"]:
            py_lines.append(_split_location(py["error"])[1])
        assert _twin_bug_line(twins.TWINS[name]) in py_lines, name


# ---- front-end bugs found on the way (python/tests/broken/frontend_bugs.py) ----
# A global X = tl.constexpr(2) inside a shape tuple was refused ("a tile shape
# holds compile-time integers"): builtins._shape now unwraps each item.


@pytest.mark.parametrize("kernel", ["reshape_with_constexpr_global", "zeros_with_constexpr_global"])
def test_constexpr_global_in_a_shape_tuple(kernel):
    r = run_puzzle("add_block", getattr(frontend_bugs, kernel), "canonical", SEED)
    assert r["error"] == ""
    assert r["passed"] is True
