"""CUDA tensors on a GPU host: each storage a launch touches is staged to
host memory once, views keep their offsets and strides, two views of one
storage share that one copy (what one writes, the other reads), and only
storages the kernel changed are written back."""
import ctypes
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")

import tilescope  # noqa: E402
import tilescope.language as tl  # noqa: E402
from tilescope.arrays import HostStaging  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


@tilescope.jit
def add_one(x_ptr, n, stride, B: tl.constexpr):
    off = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(x_ptr + off * stride, tl.load(x_ptr + off * stride, mask=off < n) + 1, mask=off < n)


@tilescope.jit
def write_then_read_through_another_view(a_ptr, b_ptr, out_ptr, B: tl.constexpr):
    off = tl.arange(0, B)
    tl.store(a_ptr + off, off * 1.0 + 100.0)
    tl.debug_barrier()
    tl.store(out_ptr + off, tl.load(b_ptr + off))


def test_a_strided_view_with_an_offset_is_updated_where_it_points():
    x = torch.arange(100, dtype=torch.float32, device="cuda")
    view = x[10:60:2]
    add_one[(2,)](view, view.numel(), view.stride(0), B=16)
    expected = torch.arange(100, dtype=torch.float32)
    expected[10:60:2] += 1
    assert torch.equal(x.cpu(), expected)


def test_a_2d_transposed_view_keeps_its_strides():
    x = torch.arange(48, dtype=torch.float32, device="cuda").reshape(6, 8)
    column = x.t()[2]  # column 2 of x: offset 2, stride 8
    add_one[(1,)](column, 6, column.stride(0), B=8)
    expected = torch.arange(48, dtype=torch.float32).reshape(6, 8)
    expected[:, 2] += 1
    assert torch.equal(x.cpu(), expected)


def test_two_views_of_one_storage_are_staged_as_one_copy():
    def launch(device):
        x = torch.zeros(64, dtype=torch.float32, device=device)
        out = torch.zeros(16, dtype=torch.float32, device=device)
        write_then_read_through_another_view[(1,)](x[8:40], x[8:24], out, B=16)
        return x.cpu(), out.cpu()

    host_x, host_out = launch("cpu")
    gpu_x, gpu_out = launch("cuda")
    assert torch.equal(host_out, torch.arange(16, dtype=torch.float32) + 100)
    assert torch.equal(gpu_out, host_out) and torch.equal(gpu_x, host_x)


def test_only_storages_the_kernel_changed_are_copied_back():
    a = torch.zeros(8, device="cuda")
    b = torch.zeros(8, device="cuda")
    staging = HostStaging()
    staging.host_pointer(a)
    pointer = staging.host_pointer(b[2:])
    ctypes.c_float.from_address(pointer).value = 5.0
    assert staging.copy_back() == 1
    assert b.cpu().tolist() == [0, 0, 5, 0, 0, 0, 0, 0] and not a.any()


def test_gpu_compare_runs_on_cuda_tensors():
    x = torch.arange(64, dtype=torch.float32, device="cuda")
    r = add_one[(4,)](x, 64, 1, B=16)
    assert r.ok()
    tilescope.configure(gpu_compare=True)
    try:
        r = add_one[(4,)](x, 64, 1, B=16)
    finally:
        tilescope.configure(gpu_compare=False)
    assert r.gpu is not None
    if r.gpu["ran"]:
        assert r.gpu["matches"], r.report()
    assert torch.equal(x.cpu(), torch.arange(64, dtype=torch.float32) + 2)


def test_a_script_making_cuda_tensors_runs_with_device_cuda():
    p = subprocess.run([sys.executable, "-m", "tilescope", "run", "--device", "cuda",
                        os.path.join(HERE, "scripts", "cuda_tensor_script.py")], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "cuda script: all checks passed" in p.stdout
