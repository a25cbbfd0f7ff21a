"""The `triton` module tilescope provides where Triton is not installed:
every name tutorials and kernel libraries import works or is a named
no-op; autotune and heuristics check the configurations they would
launch; benchmarks are skipped, never timed."""
import re

import numpy as np
import pytest

from tilescope import options, triton_shim

TRITON_INSTALLED = triton_shim.triton_installed()
pytestmark = pytest.mark.skipif(TRITON_INSTALLED, reason="Triton is installed: its own module is used")

triton_shim.install()
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def record_block(out_ptr, N, BLOCK: tl.constexpr):
    off = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + off, off * 0 + BLOCK, mask=off < N)


class Launches:
    def __init__(self):
        self.kernels = []

    def __enter__(self):
        options.set_reporter(lambda r: self.kernels.append(r.kernel))
        return self

    def __exit__(self, *exc):
        options.set_reporter(None)


def test_the_version_is_a_release_with_a_local_tag():
    assert re.fullmatch(r"\d+\.\d+\.\d+\+tilescope", triton.__version__)
    packaging = pytest.importorskip("packaging.version")
    assert packaging.Version(triton.__version__) >= packaging.Version("3.0.0")


def test_every_name_tutorials_and_libraries_import_exists():
    import triton.language.extra.libdevice  # noqa: F401
    import triton.profiler as proton
    from triton._C.libtriton import nvidia
    from triton.language.extra.cuda import libdevice  # noqa: F401
    from triton.runtime import driver
    from triton.runtime.autotuner import Autotuner, Heuristics  # noqa: F401
    from triton.runtime.jit import JITFunction  # noqa: F401
    from triton.tools.tensor_descriptor import TensorDescriptor
    for name in ("jit", "cdiv", "next_power_of_2", "Config", "autotune", "heuristics", "set_allocator",
                 "reinterpret", "OutOfResources", "TensorWrapper", "testing", "runtime", "language"):
        assert hasattr(triton, name), name
    for name in ("do_bench", "do_bench_cudagraph", "perf_report", "Benchmark", "assert_close"):
        assert hasattr(triton.testing, name), name
    assert issubclass(triton.OutOfResources, Exception)
    for name in ("asin", "rsqrt", "tanh", "fabs", "fast_expf", "nearbyint"):
        assert hasattr(triton.language.extra.libdevice, name), name
        assert getattr(libdevice, name) is getattr(triton.language.extra.libdevice, name), name
    with proton.scope("region"):
        proton.start("session", hook="triton")
        proton.activate(0)
        proton.deactivate(0)
        proton.finalize()
    assert nvidia.cublas.CublasLt is not None
    assert driver.active.get_current_target().backend == "cuda"
    props = driver.active.utils.get_device_properties(0)
    for key in ("multiprocessor_count", "max_num_regs", "max_shared_mem", "warpSize", "max_threads_per_sm"):
        assert props[key] > 0, key
    desc = TensorDescriptor(np.zeros((4, 8)), shape=[4, 8], strides=[8, 1], block_shape=[2, 4])
    assert desc.block_shape == [2, 4]
    triton.set_allocator(lambda size, alignment, stream: None)


def test_benchmarks_are_skipped_in_one_line_and_never_run(capsys):
    calls = []

    @triton.testing.perf_report(triton.testing.Benchmark(
        x_names=["n"], x_vals=[2**20], line_arg="p", line_vals=["a"], line_names=["A"], plot_name="bench-a",
        args={}))
    def bench(n, p):
        calls.append(n)
        return triton.testing.do_bench(lambda: None)

    bench.run(print_data=True, show_plots=True)
    assert calls == []
    assert "benchmark 'bench-a' skipped" in capsys.readouterr().err
    ms, lo, hi = triton.testing.do_bench(lambda: calls.append(1), quantiles=[0.5, 0.2, 0.8])
    assert calls == [] and (ms, lo, hi) == (0.0, 0.0, 0.0)


def test_warmup_builds_and_answers_what_scripts_read_of_a_compiled_kernel():
    out = np.zeros(64, dtype=np.int32)
    kernel = record_block.warmup(out, 64, BLOCK=32, num_warps=4, num_stages=2, grid=(1,))
    kernel._init_handles()
    assert kernel.n_regs > 0 and kernel.metadata.shared > 0 and kernel.n_spills == 0
    assert not out.any()  # warmup launches nothing
    kernel[(2, 1, 1)](out, 64, 32)
    np.testing.assert_array_equal(out, 32)


def test_reinterpret_reads_the_same_memory_as_another_dtype():
    torch = pytest.importorskip("torch")

    @triton.jit
    def copy_bits(src_ptr, dst_ptr, B: tl.constexpr):
        off = tl.arange(0, B)
        tl.store(dst_ptr + off, tl.load(src_ptr + off))

    src = torch.tensor([1.0, -2.0, 0.5, 3.0])
    dst = torch.zeros(4, dtype=torch.int32)
    copy_bits[(1,)](triton.reinterpret(src, tl.int32), dst, B=4)
    assert dst.tolist() == src.view(torch.int32).tolist()


def autotuned(key=("N",)):
    configs = [triton.Config({"BLOCK": 16}, num_warps=2), triton.Config({"BLOCK": 32}, num_warps=4),
               triton.Config({"BLOCK": 64}, num_warps=8)]
    return triton.autotune(configs=configs, key=list(key))(record_block)


def test_autotune_launches_the_first_configuration_once():
    kernel = autotuned()
    out = np.zeros(100, dtype=np.int32)
    with Launches() as launches:
        kernel[lambda meta: (triton.cdiv(100, meta["BLOCK"]),)](out, 100)
    assert launches.kernels == ["record_block"]
    np.testing.assert_array_equal(out, 16)
    assert kernel.best_config.kwargs == {"BLOCK": 16}


def test_all_configs_checks_each_configuration_once_then_launches_the_first():
    kernel = autotuned()
    out = np.zeros(100, dtype=np.int32)
    options.configure(all_configs=True)
    try:
        with Launches() as launches:
            kernel[lambda meta: (triton.cdiv(100, meta["BLOCK"]),)](out, 100)
    finally:
        options.configure(all_configs=False)
    assert len(launches.kernels) == 3
    np.testing.assert_array_equal(out, 16)  # the first configuration's launch came last


def test_early_config_prune_is_applied_before_the_first_configuration_is_chosen():
    configs = [triton.Config({"BLOCK": 16}), triton.Config({"BLOCK": 64})]
    prune = {"early_config_prune": lambda cs, named: [c for c in cs if c.kwargs["BLOCK"] >= named["N"] // 2]}
    kernel = triton.autotune(configs=configs, key=["N"], prune_configs_by=prune)(record_block)
    out = np.zeros(100, dtype=np.int32)
    kernel[lambda meta: (triton.cdiv(100, meta["BLOCK"]),)](out, 100)
    np.testing.assert_array_equal(out, 64)


def test_heuristics_compute_meta_parameters_from_the_arguments():
    kernel = triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["N"]) // 4})(record_block)
    out = np.zeros(100, dtype=np.int32)
    kernel[lambda meta: (triton.cdiv(100, meta["BLOCK"]),)](out, 100)
    np.testing.assert_array_equal(out, 32)


def test_autotune_over_heuristics_over_jit_nests_as_in_triton():
    configs = [triton.Config({}, num_warps=4)]
    kernel = triton.autotune(configs=configs, key=[])(
        triton.heuristics({"BLOCK": lambda args: 8})(record_block))
    assert kernel.arg_names == ["out_ptr", "N", "BLOCK"]
    out = np.zeros(20, dtype=np.int32)
    kernel[(3,)](out, 20)
    np.testing.assert_array_equal(out, 8)


def test_a_jit_function_offers_what_tritons_decorators_read():
    assert record_block.arg_names == ["out_ptr", "N", "BLOCK"]
    assert [p.is_constexpr for p in record_block.params] == [False, False, True]
    assert "def record_block" in record_block.src
    out = np.zeros(8, dtype=np.int32)
    record_block.run(out, 8, BLOCK=8, grid=(1,), warmup=False, num_warps=4)
    np.testing.assert_array_equal(out, 8)
