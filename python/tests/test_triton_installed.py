"""With Triton installed, its own autotune, heuristics and Config work over
tilescope's JIT function: the first configuration is launched (each with
all_configs), interpreted runs are never timed."""
import numpy as np
import pytest

from tilescope import options, triton_shim

pytestmark = pytest.mark.skipif(not triton_shim.triton_installed(), reason="needs Triton installed")


@pytest.fixture(scope="module")
def triton():
    if triton_shim.install() != "triton":
        pytest.skip("the triton module in use is tilescope's")
    import triton as real
    return real


def kernels(triton):
    import triton.language as tl

    @triton.jit
    def record_block(out_ptr, N, BLOCK: tl.constexpr):
        off = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + off, off * 0 + BLOCK, mask=off < N)
    return record_block


def count_launches(fn):
    launched = []
    options.set_reporter(lambda r: launched.append(r.kernel))
    try:
        fn()
    finally:
        options.set_reporter(None)
    return launched


def test_tritons_autotune_launches_the_first_configuration_untimed(triton):
    record_block = kernels(triton)
    configs = [triton.Config({"BLOCK": 16}, num_warps=2), triton.Config({"BLOCK": 64}, num_warps=8)]
    tuned = triton.autotune(configs=configs, key=["N"])(record_block)
    out = np.zeros(100, dtype=np.int32)
    launched = count_launches(lambda: tuned[lambda meta: (triton.cdiv(100, meta["BLOCK"]),)](out, 100))
    assert launched == ["record_block"]
    np.testing.assert_array_equal(out, 16)


def test_all_configs_checks_each_of_tritons_configurations(triton):
    record_block = kernels(triton)
    configs = [triton.Config({"BLOCK": 16}), triton.Config({"BLOCK": 32}), triton.Config({"BLOCK": 64})]
    tuned = triton.autotune(configs=configs, key=["N"])(record_block)
    out = np.zeros(100, dtype=np.int32)
    options.configure(all_configs=True)
    try:
        launched = count_launches(lambda: tuned[lambda meta: (triton.cdiv(100, meta["BLOCK"]),)](out, 100))
    finally:
        options.configure(all_configs=False)
    assert len(launched) == 4  # each configuration checked, then the chosen one launched
    np.testing.assert_array_equal(out, 16)


def test_tritons_heuristics_over_tilescopes_jit(triton):
    record_block = kernels(triton)
    tuned = triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["N"]) // 8})(record_block)
    out = np.zeros(100, dtype=np.int32)
    tuned[lambda meta: (triton.cdiv(100, meta["BLOCK"]),)](out, 100)
    np.testing.assert_array_equal(out, 16)


def test_benchmarks_are_not_timed_with_triton_installed(triton):
    calls = []
    assert triton.testing.do_bench(lambda: calls.append(1), quantiles=[0.5, 0.2, 0.8]) == [0.0, 0.0, 0.0]
    assert calls == []
