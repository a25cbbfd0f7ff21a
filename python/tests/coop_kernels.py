"""Triton kernels whose programs wait on or synchronize with each other:
the Python twins of puzzles/examples/e6_split_k_semaphore.cpp and
e7_last_program_reduces.cpp (with their broken variants behind constexpr
switches), and the spin-lock accumulation of Triton's tutorial 05."""
import triton
import triton.language as tl


@triton.jit
def split_k_semaphore(A, B, C, W, Flags, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                      SPLIT_K: tl.constexpr, RAISE: tl.constexpr, RELAXED: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    s = tl.program_id(2)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(s * BK, K, BK * SPLIT_K):
        rk = k + tl.arange(0, BK)
        a = tl.load(A + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(B + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    tile = pid_m * tl.num_programs(1) + pid_n
    in_tile = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    if s > 0:
        tl.store(W + (tile * SPLIT_K + s) * (BM * BN) + in_tile, acc)
        if RAISE:
            if RELAXED:
                tl.atomic_xchg(Flags + tile * SPLIT_K + s, 1, sem="relaxed")
            else:
                tl.atomic_xchg(Flags + tile * SPLIT_K + s, 1, sem="release")
    else:
        for t in range(1, SPLIT_K):
            while tl.atomic_cas(Flags + tile * SPLIT_K + t, 1, 1, sem="acquire") != 1:
                pass
            acc += tl.load(W + (tile * SPLIT_K + t) * (BM * BN) + in_tile)
            tl.atomic_xchg(Flags + tile * SPLIT_K + t, 0, sem="relaxed")
        tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def last_program_reduces(X, Out, Partials, Count, N, BLOCK: tl.constexpr, RBLOCK: tl.constexpr,
                         RELAXED: tl.constexpr):
    pid = tl.program_id(0)
    programs = tl.num_programs(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(Partials + pid, tl.sum(tl.load(X + offs, mask=offs < N, other=0.0)))
    if RELAXED:
        before = tl.atomic_add(Count, 1, sem="relaxed")
    else:
        before = tl.atomic_add(Count, 1)
    if before == programs - 1:
        acc = tl.zeros((RBLOCK,), dtype=tl.float32)
        for j in range(0, programs, RBLOCK):
            r = j + tl.arange(0, RBLOCK)
            acc += tl.load(Partials + r, mask=r < programs, other=0.0)
        tl.store(Out, tl.sum(acc))
        tl.atomic_xchg(Count, 0, sem="relaxed")


@triton.jit
def locked_column_sums(X, DW, Lock, out, N, GROUP: tl.constexpr, BLOCK: tl.constexpr, SKIP: tl.constexpr):
    # Tutorial 05's pattern: each row adds itself into its group's partial
    # sum under a spin lock, the group's first row storing instead. Row SKIP
    # (if any) reads its group's sum without taking the lock.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(X + row * N + cols, mask=mask, other=0.0)
    group = row % GROUP
    Lock += group
    Count = Lock + GROUP
    DW = DW + group * N + cols
    if row == SKIP:
        tl.store(out + cols, tl.load(DW, mask=mask), mask=mask)  # unlocked read
    else:
        while tl.atomic_cas(Lock, 0, 1) == 1:
            pass
        count = tl.load(Count)
        if count == 0:
            tl.atomic_xchg(Count, 1)
        else:
            x += tl.load(DW, mask=mask)
        tl.store(DW, x, mask=mask)
        tl.atomic_xchg(Lock, 0)


@triton.jit
def wait_for_k(flag, out, K):
    pid = tl.program_id(0)
    if pid == K:
        tl.atomic_xchg(flag, 1)
    else:
        while tl.atomic_cas(flag, 1, 1, sem="acquire") != 1:
            pass
    tl.store(out + pid, pid + 1)
