"""Block pointers through the Python front end: the tests' C++ block-pointer
kernels (tests/block_ptr_kernels.h) and their Triton twins
(block_ptr/kernels.py) give identical traces (every event's offsets, masks
and lanes, every finding) on the same inputs, and correct results."""
import json
import os

import numpy as np
import pytest

import _tilescope as ts
import tilescope
from tilescope.arrays import as_buffer
from block_ptr import kernels as K

if not hasattr(ts, "test_kernel_def"):
    pytest.skip("the module was built without the tests' kernels", allow_module_level=True)


def traced_json(result_native, tmp_path, name):
    path = tmp_path / f"{name}.json"
    ok, message = ts.save_trace(result_native, str(path))
    assert ok, message
    doc = json.loads(path.read_text())
    # Where things are written differs (a .h and a .py file): everything else
    # must be the same.
    lines = [loc["line"] for loc in doc.pop("locations")]
    for key in ("kernel", "source_file"):
        doc.pop(key)
    # Each event's kernel line, numbered in the order events meet the lines
    # (a .h and a .py file: same statements, other line numbers).
    canonical = {}
    for program in doc["programs"]:
        for event in program["events"]:
            event["loc"] = canonical.setdefault(lines[event["loc"]], len(canonical))
    for f in doc["findings"]:
        f.pop("text", None)
        f["loc"] = canonical.setdefault(lines[f["loc"]], len(canonical))
    return doc


def run_both(name, grid, arrays, scalars, consts, tmp_path):
    """The C++ kernel and the Python twin on copies of the same arrays."""
    cpp_arrays = [a.copy() for a in arrays]
    py_arrays = [a.copy() for a in arrays]
    kdef = ts.test_kernel_def(name)
    buffers = [as_buffer(f"a{i}", a) for i, a in enumerate(cpp_arrays)]
    names = [f"p{i}" for i in range(len(buffers) + len(scalars) + len(consts))]
    native = ts.launch(kdef, names, list(grid), buffers + list(scalars) + list(consts.values()), {"trace": "full"},
                       __file__, 1)
    assert native.error == "", native.error
    py = tilescope.trace(getattr(K, name))[grid](*py_arrays, *scalars, **consts)
    assert traced_json(native, tmp_path, "cpp") == traced_json(py.native, tmp_path, "py")
    for a, b in zip(cpp_arrays, py_arrays):
        np.testing.assert_array_equal(a, b)
    return py, py_arrays


def test_pack_and_unpack_with_block_pointers(tmp_path):
    R, W = 13, 5
    codes = (np.arange(R * W * 16) * 7 % 4).astype(np.int8).reshape(R, W * 16)
    words = np.zeros((R, W), dtype=np.int32)
    r, (codes_out, words_out) = run_both("pack2", (2, 2), [codes, words], [R, W], {"BR": 8, "BW": 4}, tmp_path)
    assert r.ok(), r.report()
    expected = np.zeros((R, W), dtype=np.uint32)
    for j in range(16):
        expected |= codes.reshape(R, W, 16)[:, :, j].astype(np.uint32) << np.uint32(2 * j)
    np.testing.assert_array_equal(words_out.view(np.uint32), expected)
    back = np.zeros_like(codes)
    r, (_, codes_back) = run_both("unpack2", (2, 2), [words_out, back], [R, W], {"BR": 8, "BW": 4}, tmp_path)
    np.testing.assert_array_equal(codes_back, codes)


def test_matmul_advancing_block_pointers_in_a_k_loop(tmp_path):
    M, N, Kd = 70, 45, 50
    rng = np.random.default_rng(0)
    a = rng.random((M, Kd), dtype=np.float32) - 0.5
    b = rng.random((Kd, N), dtype=np.float32) - 0.5
    c = np.zeros((M, N), dtype=np.float32)
    r, (_, _, c_out) = run_both("bp_matmul", (3, 3), [a, b, c], [M, N, Kd], {"BM": 32, "BN": 16, "BK": 16}, tmp_path)
    assert r.ok(), r.report()
    np.testing.assert_allclose(c_out, a.astype(np.float64) @ b, atol=2e-2)


def test_boundary_checked_tail_copy(tmp_path):
    R, C = 37, 45
    src = np.arange(R * C, dtype=np.float32).reshape(R, C)
    r, (_, dst) = run_both("tail_copy", (3, 3), [src, np.zeros_like(src)], [R, C], {"BR": 16, "BC": 16}, tmp_path)
    assert r.ok(), r.report()
    np.testing.assert_array_equal(dst, src)


def test_tail_copy_without_boundary_check_is_a_finding_at_the_python_line(tmp_path):
    R, C = 37, 45
    src = np.arange(R * C, dtype=np.float32).reshape(R, C)
    r, _ = run_both("tail_copy_broken", (3, 3), [src, np.zeros_like(src)], [R, C], {"BR": 16, "BC": 16}, tmp_path)
    kinds = {f.kind for f in r.findings}
    assert "block pointer outside its shape" in kinds
    line = next(i + 1 for i, ln in enumerate(open(K.__file__)) if "BUG: no boundary_check" in ln)
    for f in r.findings:
        if f.kind == "block pointer outside its shape":
            assert f.file == os.path.abspath(K.__file__) and f.line == line
    first = [f for f in r.findings if "dim 1" in f.message][0]
    assert first.examples[0]["pid"] == (0, 2, 0) and first.examples[0]["lane_index"] == [0, 13]
