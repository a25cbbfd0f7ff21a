"""The Triton versions of the 12 puzzles (triton_puzzles.py: the benchmark
file from shared/bench, byte for byte, `import triton` provided by
tilescope) through the puzzle checker: same inputs, sets, seeds and
thresholds as the C++ solutions."""
import pytest

from tilescope import triton_shim
from tilescope.puzzles import check_puzzle

triton_shim.install()
torch = pytest.importorskip("torch")
import triton_puzzles as tp  # noqa: E402

# Puzzles 7 and 8 in Triton take an N1 the puzzle does not have (unused).
KERNELS = [(1, "add_kernel", {}), (2, "add_mask2_kernel", {}), (3, "add_vec_kernel", {}),
           (4, "add_vec_block_kernel", {}), (5, "mul_relu_block_kernel", {}), (6, "mul_relu_block_back_kernel", {}),
           (7, "sum_kernel", {"N1": 32}), (8, "softmax_kernel", {"N1": 32}), (9, "flashatt_kernel", {}),
           (10, "conv2d_kernel", {}), (11, "dot_kernel", {}), (12, "quant_dot_kernel", {})]


@pytest.mark.parametrize("number,name,extra", KERNELS[:11], ids=[k[1] for k in KERNELS[:11]])
def test_triton_puzzle_passes_every_set_and_seed(number, name, extra):
    passed, text = check_puzzle(number, getattr(tp, name), extra=extra)
    assert passed, text
    assert "FAIL" not in text


def test_triton_puzzle_12_passes_where_its_kernel_is_defined():
    # The Triton version hard-codes one shift word per row and B_MID = 64
    # (offset[:, :, None] against B_MID // 8 weight words): its sets with
    # B_MID = 64 pass; the other two are build errors that name its line, as
    # Triton 3.6 itself fails to compile them ("incompatible dimensions at
    # index 1: 16 and 8").
    passed, text = check_puzzle(12, tp.quant_dot_kernel, sets=["canonical", "12a"])
    assert passed, text
    passed, text = check_puzzle(12, tp.quant_dot_kernel, sets=["12b", "12c"])
    assert not passed
    assert "triton_puzzles.py:202:35: error: shape mismatch in -: [16, 16, 8] and [16, 8, 1]" in text
    assert "tw = scale[:, :, None] * (weight - offset[:, :, None])" in text


def test_a_wrong_python_kernel_fails_the_checker():
    import tilescope.language as tl
    import tilescope

    @tilescope.jit
    def add_wrong(x_ptr, z_ptr, N0, B0: tl.constexpr):
        off = tl.program_id(0) * B0 + tl.arange(0, B0)
        tl.store(z_ptr + off, tl.load(x_ptr + off, mask=off < N0) + 11.0, mask=off < N0)

    passed, text = check_puzzle(2, add_wrong, seeds=[0])
    assert not passed
    assert "FAIL" in text
