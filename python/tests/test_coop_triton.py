"""Programs that wait on each other through the Python front end
(docs/memory-model.md): spin locks, split-K semaphores and a last-program
reduction run to the end with no finding; the broken variants give
exactly the deadlock and race findings."""
import inspect
import time

import numpy as np

from tilescope import triton_shim

triton_shim.install()
import coop_kernels as ck  # noqa: E402


def line_of(fn, marker):
    lines, first = inspect.getsourcelines(fn.fn)
    return first + next(i for i, text in enumerate(lines) if marker in text)


def split_k(M, N, K, BM, BK, S, raise_flags=True, relaxed=False):
    rng = np.random.default_rng(0)
    A = rng.uniform(-0.5, 0.5, (M, K)).astype(np.float32)
    B = rng.uniform(-0.5, 0.5, (K, N)).astype(np.float32)
    C = np.zeros((M, N), np.float32)
    tiles = -(-M // BM) * -(-N // BM)
    W = np.zeros(tiles * S * BM * BM, np.float32)
    flags = np.zeros(tiles * S, np.int32)
    grid = (-(-M // BM), -(-N // BM), S)
    r = ck.split_k_semaphore[grid](A, B, C, W, flags, M, N, K, BM=BM, BN=BM, BK=BK, SPLIT_K=S,
                                   RAISE=raise_flags, RELAXED=relaxed)
    return r, A.astype(np.float64) @ B.astype(np.float64), C, flags


def test_split_k_semaphore_matches_numpy_with_no_finding():
    for M, N, K, S in [(64, 64, 512, 4), (50, 70, 300, 3)]:
        r, want, C, flags = split_k(M, N, K, 32, 32, S)
        assert r.ok() and not r.findings, r.report()
        assert np.linalg.norm(C - want) / np.linalg.norm(want) < 2e-3
        assert not flags.any()  # every flag lowered again


def test_split_k_flag_never_raised_is_one_deadlock():
    r, _, _, _ = split_k(64, 64, 512, 32, 32, 4, raise_flags=False)
    assert [f.kind for f in r.findings] == ["deadlock"], r.report()
    f = r.findings[0]
    assert "all 4 unfinished programs wait" in f.message
    assert f.line == line_of(ck.split_k_semaphore, "while tl.atomic_cas")
    assert "for Flags[1] to hold 1 (it holds 0)" in f.message


def test_split_k_relaxed_flag_is_a_race_on_the_partials():
    r, _, _, _ = split_k(64, 64, 512, 32, 32, 4, relaxed=True)
    assert [f.kind for f in r.findings] == ["read-write race"], r.report()
    assert r.findings[0].line == line_of(ck.split_k_semaphore, "acc += tl.load(W")
    assert r.findings[0].programs == 4


def last_reduces(n, block, rblock, relaxed=False):
    x = np.random.default_rng(1).uniform(-0.5, 0.5, n).astype(np.float32)
    out = np.zeros(1, np.float32)
    partials = np.zeros(-(-n // block), np.float32)
    count = np.zeros(1, np.int32)
    r = ck.last_program_reduces[(-(-n // block),)](x, out, partials, count, n, BLOCK=block, RBLOCK=rblock,
                                                   RELAXED=relaxed)
    return r, x, out, count


def test_last_program_reduces_with_no_finding():
    for n, block, rblock in [(1000, 64, 16), (70000, 128, 256)]:
        r, x, out, count = last_reduces(n, block, rblock)
        assert r.ok() and not r.findings, r.report()
        assert abs(out[0] - x.astype(np.float64).sum()) < 1e-3
        assert count[0] == 0


def test_last_program_reduces_with_a_relaxed_counter_races():
    r, _, _, _ = last_reduces(1000, 64, 16, relaxed=True)
    assert [f.kind for f in r.findings] == ["read-write race"], r.report()
    assert r.findings[0].line == line_of(ck.last_program_reduces, "acc += tl.load(Partials")
    assert r.findings[0].lanes == 15


def column_sums(rows, skip):
    x = np.random.default_rng(2).uniform(-1, 1, (rows, 48)).astype(np.float32)
    group = 4
    dw = np.zeros((group, 48), np.float32)
    lock = np.zeros(2 * group, np.int32)
    out = np.zeros(48, np.float32)
    r = ck.locked_column_sums[(rows,)](x, dw, lock, out, 48, GROUP=group, BLOCK=64, SKIP=skip)
    return r, x, dw


def test_the_tutorials_spin_lock_gives_no_finding_and_right_sums():
    r, x, dw = column_sums(30, -1)
    assert r.ok() and not r.findings, r.report()
    for g in range(4):
        np.testing.assert_allclose(dw[g], x[g::4].sum(axis=0), rtol=1e-5, atol=1e-5)


def test_a_row_that_skips_the_lock_is_one_race_at_its_line():
    r, _, _ = column_sums(32, 31)  # the last row of its group
    assert [f.kind for f in r.findings] == ["read-write race"], r.report()
    f = r.findings[0]
    assert f.line == line_of(ck.locked_column_sums, "unlocked read")
    assert f.examples[0]["pid"] == (31, 0, 0) and f.examples[0]["other_pid"] == (27, 0, 0)


def test_a_spin_on_a_flag_in_10k_programs_finishes_quickly():
    flag = np.zeros(1, np.int32)
    out = np.zeros(10000, np.int32)
    t0 = time.perf_counter()
    r = ck.wait_for_k[(10000,)](flag, out, 100)
    elapsed = time.perf_counter() - t0
    assert r.ok() and not r.findings, r.report()
    assert (out == np.arange(1, 10001)).all()
    assert elapsed < 2.0, elapsed
