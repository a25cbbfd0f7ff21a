"""notebooks/tile_puzzles.ipynb and the solutions CI runs it with: every
puzzle has its statement, spec, stub and test cells; each stub has its
solution's signature (so substituting one for the other is a fair test);
every solution passes its puzzle and every stub fails it without raising."""
import ast
import json
import linecache
import pathlib
import sys

import pytest

from tilescope import triton_shim
from tilescope.puzzles import test as puzzle_test

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "tile_puzzles.ipynb"

triton_shim.install()
sys.path.insert(0, str(ROOT / "notebooks"))
import solutions  # noqa: E402


def cells():
    return json.loads(NOTEBOOK.read_text())["cells"]


def tagged(tag):
    found = [c for c in cells() if tag in c.get("metadata", {}).get("tags", [])]
    assert len(found) == 1, f"{len(found)} cells tagged {tag}"
    return "".join(found[0]["source"])


def signature(fn_def):
    return [(a.arg, ast.unparse(a.annotation) if a.annotation else None) for a in fn_def.args.args]


def test_the_notebook_holds_no_solutions_and_no_outputs():
    for c in cells():
        assert not c.get("outputs"), "the committed notebook keeps no outputs"
    assert "tl.store" not in "".join(tagged(f"kernel-{n}") for n in range(1, 13))


@pytest.mark.parametrize("number", range(1, 13))
def test_each_stub_has_its_solutions_signature_and_a_test_cell(number):
    stub = ast.parse(tagged(f"kernel-{number}")).body[0]
    solution = ast.parse(pathlib.Path(solutions.__file__).read_text())
    by_name = {f.name: f for f in solution.body if isinstance(f, ast.FunctionDef)}
    assert stub.name in by_name, f"solutions.py has no {stub.name}"
    assert signature(stub) == signature(by_name[stub.name])
    assert tagged(f"test-{number}").startswith(f"test({stub.name}, ")
    spec = ast.parse(tagged(f"spec-{number}")).body[0]
    assert f"test({stub.name}, {spec.name}," in tagged(f"test-{number}")


@pytest.mark.parametrize("number", range(1, 13))
def test_each_solution_passes_and_each_stub_fails_cleanly(number):
    call = ast.parse(tagged(f"test-{number}")).body[0].value
    kernel_name = call.args[0].id
    kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    scope = {}
    exec(compile("import torch\nimport triton\nimport triton.language as tl\n", "<setup>", "exec"), scope)
    r = puzzle_test(getattr(solutions, kernel_name), None, puzzle=number, seeds=[0], **kwargs)
    assert r.passed, r.report
    # The stub as a notebook cell is: code whose file exists only in linecache.
    source = tagged(f"kernel-{number}")
    name = f"{NOTEBOOK}:kernel-{number}"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    exec(compile(source, name, "exec"), scope)
    r = puzzle_test(scope[kernel_name], None, puzzle=number, seeds=[0], viz=False, **kwargs)
    assert not r.passed and "FAILED" in repr(r)
