"""The host side of real Triton scripts: launch semantics (empty grids,
parameters named like launch options), `python3 -m tilescope run` on
scripts that raise or make CUDA tensors on a host without a GPU."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tilescope
import tilescope.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "scripts")


def run(*args):
    return subprocess.run([sys.executable, "-m", "tilescope", *args], capture_output=True, text=True,
                          env=dict(os.environ), timeout=300)


def torch_has_cuda():
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


@tilescope.jit
def fill_program_ids(out_ptr, N, B: tl.constexpr):
    off = tl.program_id(0) * B + tl.arange(0, B)
    tl.store(out_ptr + off, off * 0 + tl.program_id(0), mask=off < N)


@tilescope.jit
def does_not_build(out_ptr, B: tl.constexpr):
    tl.store(out_ptr + tl.arange(0, B), no_such_value)  # noqa: F821


def test_a_grid_axis_of_zero_launches_nothing():
    out = np.full(64, -1, dtype=np.int32)
    for grid in [(0,), (0, 4), (3, 0, 2)]:
        r = fill_program_ids[grid](out, 64, B=32)
        assert r.ok() and not r.findings and not r.error
    np.testing.assert_array_equal(out, -1)


def test_a_grid_axis_of_zero_still_builds_the_kernel():
    with pytest.raises(tilescope.KernelError, match="no_such_value"):
        does_not_build[(0,)](np.zeros(8, dtype=np.float32), B=8)


def test_a_negative_grid_axis_is_an_error():
    with pytest.raises(tilescope.KernelError, match="axis of size -1"):
        fill_program_ids[(-1,)](np.zeros(8, dtype=np.int32), 8, B=8)


@tilescope.jit
def store_launch_like_params(out_ptr, num_warps: tl.constexpr, num_stages: tl.constexpr):
    tl.store(out_ptr, num_warps * 100 + num_stages)


def test_parameters_named_like_launch_options_bind_as_parameters():
    out = np.zeros(1, dtype=np.int32)
    store_launch_like_params[(1,)](out, num_warps=8, num_stages=3)
    assert out[0] == 803
    store_launch_like_params[(1,)](out, 2, 5)
    assert out[0] == 205


def test_launch_options_the_kernel_does_not_declare_are_accepted_and_unused():
    out = np.zeros(64, dtype=np.int32)
    fill_program_ids[(2,)](out, 64, B=32, num_warps=4, num_stages=2, extern_libs={"libdevice": "x.bc"},
                           maxnreg=128, enable_fp_fusion=False)
    np.testing.assert_array_equal(out, np.repeat([0, 1], 32))


def test_an_unknown_keyword_is_still_an_error():
    with pytest.raises(TypeError, match="not_a_param"):
        fill_program_ids[(1,)](np.zeros(8, dtype=np.int32), 8, B=8, not_a_param=1)


def test_a_script_that_raises_gets_the_summary_counting_kernels_that_did_not_build():
    p = run("run", os.path.join(SCRIPTS, "raising_script.py"))
    assert p.returncode == 1, p.stderr
    assert "caught: KernelError" in p.stdout
    assert "ValueError: the script's own error" in p.stderr
    assert "undefined_name" in p.stderr  # the build error, at the kernel's line
    summary = p.stderr.strip().splitlines()[-1]
    assert summary.startswith("tilescope: 2 launch(es), 0 error finding(s), 1 launch(es) that did not build"), summary


def test_a_script_making_cuda_tensors_runs_unchanged_with_device_cpu():
    pytest.importorskip("torch")
    p = run("run", "--device", "cpu", os.path.join(SCRIPTS, "cuda_tensor_script.py"))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "cuda script: all checks passed" in p.stdout
    assert "--device cpu)" in p.stderr.strip().splitlines()[-1]


@pytest.mark.skipif(torch_has_cuda(), reason="the default is --device cpu only where torch has no GPU")
def test_device_cpu_is_the_default_without_a_gpu_and_is_announced():
    pytest.importorskip("torch")
    p = run("run", os.path.join(SCRIPTS, "cuda_tensor_script.py"))
    assert p.returncode == 0, p.stdout + p.stderr
    announcements = [ln for ln in p.stderr.splitlines() if "(--device cpu)" in ln]
    assert len(announcements) == 1, p.stderr


def test_the_redirect_is_undone_when_it_ends():
    torch = pytest.importorskip("torch")
    from tilescope.cuda_redirect import CudaRedirect
    before = torch.cuda.is_available, torch.cuda.synchronize, torch.cuda.Event
    with CudaRedirect():
        assert torch.cuda.is_available()
        x = torch.zeros(4, device="cuda")
        assert x.is_cuda and x.device == torch.device("cuda", 0)
        with tilescope.cuda_redirect.real_devices():
            assert x.device.type == "cpu"
    assert (torch.cuda.is_available, torch.cuda.synchronize, torch.cuda.Event) == before
    assert x.device.type == "cpu" and not x.is_cuda


def test_tensors_the_script_makes_on_the_host_stay_host_tensors_under_the_redirect():
    torch = pytest.importorskip("torch")
    from tilescope.cuda_redirect import CudaRedirect
    with CudaRedirect():
        host = torch.ones(3)
        gpu = torch.ones(3, device="cuda")
        assert not host.is_cuda and host.device.type == "cpu"
        assert (gpu * 2).is_cuda and not (gpu * 2).cpu().is_cuda
        assert gpu.to(host).device.type == "cpu" and host.to(gpu).is_cuda
        assert gpu.get_device() == 0


def test_a_run_with_an_unknown_device_is_refused():
    p = run("run", "--device", "tpu", os.path.join(SCRIPTS, "raising_script.py"))
    assert p.returncode == 2 and "invalid choice: 'tpu'" in p.stderr

