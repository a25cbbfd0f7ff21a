"""kernel[grid](...) as Triton launches: numpy arrays and CPU torch tensors
updated in place, scalars with Triton's dtypes, grids as tuples or lambdas,
results with findings, traces, printed output."""
import json
import os

import numpy as np
import pytest

import tilescope
import tilescope.language as tl


@tilescope.jit
def add_block(x_ptr, z_ptr, N, B: tl.constexpr):
    off = tl.program_id(0) * B + tl.arange(0, B)
    m = off < N
    tl.store(z_ptr + off, tl.load(x_ptr + off, mask=m) + 10.0, mask=m)


def test_numpy_arrays_are_updated_in_place():
    x = np.arange(200, dtype=np.float32)
    z = np.zeros(200, dtype=np.float32)
    r = add_block[(7,)](x, z, 200, B=32)
    assert r.ok() and not r.findings
    np.testing.assert_array_equal(z, x + 10)


def test_grid_may_be_a_lambda_of_the_arguments():
    x = np.arange(100, dtype=np.float32)
    z = np.zeros(100, dtype=np.float32)
    add_block[lambda meta: (tilescope.language.cdiv(meta["N"], meta["B"]),)](x, z, 100, B=16)
    np.testing.assert_array_equal(z, x + 10)


def test_torch_cpu_tensors_are_buffers():
    torch = pytest.importorskip("torch")
    x = torch.arange(64, dtype=torch.float32)
    z = torch.zeros(64)
    add_block[(2,)](x, z, 64, B=32)
    assert torch.equal(z, x + 10)


def test_a_missing_mask_is_reported_at_the_python_line():
    @tilescope.jit
    def add_unmasked_store(x_ptr, z_ptr, N, B: tl.constexpr):
        off = tl.program_id(0) * B + tl.arange(0, B)
        x = tl.load(x_ptr + off, mask=off < N)
        tl.store(z_ptr + off, x + 10.0)  # the store has no mask

    z = np.zeros(200, dtype=np.float32)
    r = add_unmasked_store[(7,)](np.ones(200, dtype=np.float32), z, 200, B=32)
    assert [f.kind for f in r.findings] == ["out-of-bounds store"]
    f = r.findings[0]
    assert f.file == os.path.abspath(__file__)
    assert "tl.store(z_ptr + off, x + 10.0)" in open(__file__).read().splitlines()[f.line - 1]
    assert f.examples[0]["pid"] == (6, 0, 0) and f.examples[0]["lane"] == 8 and f.examples[0]["offset"] == 200
    assert f.lanes == 24 and f.buffer == "z_ptr"
    assert "error: out-of-bounds store to z_ptr in program (6, 0, 0), lane [8]" in r.report()


def test_scalars_take_tritons_launch_dtypes():
    @tilescope.jit
    def store_sum(z_ptr, a, b, c):
        tl.store(z_ptr + tl.arange(0, 1), (a + b + c).to(tl.float64))

    z = np.zeros(1, dtype=np.float64)
    store_sum[(1,)](z, 2**31 - 1, 2**40, 0.5)  # i32 + i64 is i64 (exact); + f32 rounds to f32
    assert z[0] == float(np.float32(2**31 - 1 + 2**40) + np.float32(0.5))
    assert z[0] != float(2**31 - 1 + 2**40) + 0.5  # it was not computed in f64


def test_loops_ifs_and_helpers_build_one_ir():
    @tilescope.jit
    def helper(x, k: tl.constexpr):
        return x * k

    @tilescope.jit
    def row_sum(x_ptr, z_ptr, T, B: tl.constexpr, SCALE: tl.constexpr):
        pid = tl.program_id(0)
        acc = tl.zeros((B,), dtype=tl.float32)
        for j in range(0, T, B):
            off = j + tl.arange(0, B)
            acc += tl.load(x_ptr + pid * T + off, mask=off < T, other=0.0)
        total = tl.sum(acc, axis=0)
        if SCALE > 1:
            total = helper(total, SCALE)
        if pid > 0:
            total = total + 0.0
        tl.store(z_ptr + pid, total)

    x = np.random.default_rng(0).random((3, 70), dtype=np.float32)
    z = np.zeros(3, dtype=np.float32)
    r = row_sum[(3,)](x, z, 70, B=16, SCALE=2)
    assert r.ok(), r.report()
    np.testing.assert_allclose(z, 2 * x.sum(axis=1), rtol=1e-5)


def test_static_range_unrolls_and_device_print_is_recorded():
    @tilescope.jit
    def unrolled(z_ptr, B: tl.constexpr):
        acc = tl.zeros((B,), dtype=tl.int32)
        for i in tl.static_range(3):
            acc += i
        tl.device_print("acc", acc)
        tl.store(z_ptr + tl.arange(0, B), acc)

    z = np.zeros(4, dtype=np.int32)
    r = unrolled[(1,)](z, B=4)
    assert list(z) == [3, 3, 3, 3]
    assert "acc" in r.printed


def test_and_or_not_on_tiles_are_elementwise_logic():
    @tilescope.jit
    def logic(z_ptr, B: tl.constexpr):
        i = tl.arange(0, B)
        both = (i > 1) and (i < 5)
        either = (i < 1) or (i > 6)
        tl.store(z_ptr + i, both.to(tl.int32) + 2 * either.to(tl.int32) + 4 * (not (i == 3)).to(tl.int32))

    z = np.zeros(8, dtype=np.int32)
    logic[(1,)](z, B=8)
    i = np.arange(8)
    expected = ((i > 1) & (i < 5)).astype(int) + 2 * ((i < 1) | (i > 6)) + 4 * (i != 3)
    assert list(z) == list(expected)


def test_trace_records_the_python_source_and_saves(tmp_path):
    traced = tilescope.trace(add_block)
    x = np.arange(40, dtype=np.float32)
    z = np.zeros(40, dtype=np.float32)
    r = traced[(2,)](x, z, 40, B=32)
    assert r.traced
    path = tmp_path / "t.json"
    tilescope.save_trace(r, path)
    doc = json.loads(path.read_text())
    assert doc["kernel"] == "add_block"
    assert doc["source_file"].endswith("test_launch.py")


def test_wrong_arguments_say_what_the_kernel_takes():
    with pytest.raises(TypeError, match="missing a required argument: 'N'"):
        add_block[(1,)](np.zeros(4, np.float32), np.zeros(4, np.float32), B=4)
    with pytest.raises(TypeError, match="argument 'N' is str"):
        add_block[(1,)](np.zeros(4, np.float32), np.zeros(4, np.float32), "4", B=4)


def test_a_launch_error_points_at_the_launch_line():
    with pytest.raises(tilescope.KernelError) as e:
        add_block[(-2,)](np.zeros(4, np.float32), np.zeros(4, np.float32), 4, B=4)
    assert "test_launch.py" in str(e.value) and "grid" in str(e.value)


def test_while_on_a_runtime_condition_is_one_ir_loop():
    @tilescope.jit
    def collatz_steps(x_ptr, z_ptr, B: tl.constexpr):
        i = tl.arange(0, B)
        v = tl.load(x_ptr + i)
        steps = tl.zeros((B,), dtype=tl.int32)
        while tl.max(v, axis=0) > 1:
            odd = (v % 2) == 1
            v = tl.where(v > 1, tl.where(odd, 3 * v + 1, v // 2), v)
            steps += (v > 1).to(tl.int32) + 0 * steps
        tl.store(z_ptr + i, steps)

    x = np.array([1, 2, 3, 6, 7, 9, 27, 97], dtype=np.int32)
    z = np.zeros(8, dtype=np.int32)
    r = collatz_steps[(1,)](x, z, B=8)
    assert r.ok(), r.report()

    def steps(n):
        s = 0
        while n > 1:
            n = 3 * n + 1 if n % 2 else n // 2
            s += n > 1
        return s

    assert list(z) == [steps(int(n)) for n in x]
    kdef = list(collatz_steps._defs.values())[0]
    assert "while" in kdef.ir(["i32", "i32", "i64"], [0, 0, 8], False)


def test_a_name_assigned_in_both_branches_of_a_runtime_if_has_a_value_after_it():
    @tilescope.jit
    def pick(x_ptr, z_ptr, B: tl.constexpr):
        i = tl.arange(0, B)
        if tl.program_id(0) == 0:
            v = tl.load(x_ptr + i) * 2.0
        else:
            v = tl.load(x_ptr + i) + 100.0
        tl.store(z_ptr + tl.program_id(0) * B + i, v)

    x = np.arange(4, dtype=np.float32)
    z = np.zeros(8, dtype=np.float32)
    r = pick[(2,)](x, z, B=4)
    assert r.ok(), r.report()
    assert list(z) == [0, 2, 4, 6, 100, 101, 102, 103]


def test_a_name_assigned_in_one_branch_only_says_so_where_it_is_used():
    @tilescope.jit
    def half(x_ptr, B: tl.constexpr):
        if tl.program_id(0) == 0:
            v = tl.load(x_ptr + tl.arange(0, B))
        tl.store(x_ptr + tl.arange(0, B), v)

    with pytest.raises(tilescope.KernelError, match="'v' is assigned only inside the runtime if above"):
        half[(1,)](np.zeros(4, np.float32), B=4)
