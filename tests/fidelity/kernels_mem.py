"""Memory: atomics (add on ints and floats across programs, max/min/and/
or/xor/xchg/cas), masked loads with other=, block pointers with
boundary_check and padding_option, advance."""
import triton
import triton.language as tl

from corpus import Case, In, Out, Scalar
from kernels_common import N

R, C = 8, 16


@triton.jit
def tile_offsets(R: tl.constexpr, C: tl.constexpr):
    # The offsets of a row-major [R, C] tile: how the block-pointer kernels
    # read or write their plain (unchecked) side.
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    return r[:, None] * C + c[None, :]


@triton.jit
def atomic_add_collide_kernel(X, ACC, BLOCK: tl.constexpr):
    # every program adds its block onto the same 8 counters
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(ACC + offs % 8, tl.load(X + pid * BLOCK + offs))


@triton.jit
def atomic_add_old_kernel(X, ACC, OLD, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_add(ACC + offs, tl.load(X + offs), mask=offs < BLOCK - 5)
    tl.store(OLD + offs, old, mask=offs < BLOCK - 5)


@triton.jit
def atomic_max_kernel(X, ACC, OLD, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(OLD + offs, tl.atomic_max(ACC + offs, tl.load(X + offs)))


@triton.jit
def atomic_min_kernel(X, ACC, OLD, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(OLD + offs, tl.atomic_min(ACC + offs, tl.load(X + offs)))


@triton.jit
def atomic_bits_kernel(X, A, O, XO, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.atomic_and(A + offs, x)
    tl.atomic_or(O + offs, x)
    tl.atomic_xor(XO + offs, x)


@triton.jit
def atomic_xchg_kernel(X, ACC, OLD, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(OLD + offs, tl.atomic_xchg(ACC + offs, tl.load(X + offs)))


@triton.jit
def atomic_cas_kernel(CMP, VAL, ACC, OLD, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(OLD + offs, tl.atomic_cas(ACC + offs, tl.load(CMP + offs), tl.load(VAL + offs)))


@triton.jit
def atomic_max_collide_kernel(X, ACC, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    tl.atomic_max(ACC + offs % 4, tl.load(X + pid * BLOCK + offs))


@triton.jit
def masked_load_kernel(X, O, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(O + offs, tl.load(X + offs, mask=offs < n, other=-7))


@triton.jit
def block_load_kernel(X, O, rows, cols, R: tl.constexpr, C: tl.constexpr, OFF_R: tl.constexpr,
                      OFF_C: tl.constexpr):
    p = tl.make_block_ptr(X, shape=(rows, cols), strides=(cols, 1), offsets=(OFF_R, OFF_C), block_shape=(R, C),
                          order=(1, 0))
    x = tl.load(p, boundary_check=(0, 1), padding_option="zero")
    tl.store(O + tile_offsets(R, C), x)


@triton.jit
def block_load_nan_kernel(X, O, rows, cols, R: tl.constexpr, C: tl.constexpr):
    p = tl.make_block_ptr(X, shape=(rows, cols), strides=(cols, 1), offsets=(2, 3), block_shape=(R, C),
                          order=(1, 0))
    x = tl.load(p, boundary_check=(0, 1), padding_option="nan")
    tl.store(O + tile_offsets(R, C), x)


@triton.jit
def block_load_rows_kernel(X, O, rows, cols, R: tl.constexpr, C: tl.constexpr):
    # only dimension 0 checked; the columns stay inside the buffer
    p = tl.make_block_ptr(X, shape=(rows, cols), strides=(cols, 1), offsets=(5, 0), block_shape=(R, C),
                          order=(1, 0))
    x = tl.load(p, boundary_check=(0,), padding_option="zero")
    tl.store(O + tile_offsets(R, C), x)


@triton.jit
def block_store_kernel(X, O, rows, cols, R: tl.constexpr, C: tl.constexpr):
    x = tl.load(X + tile_offsets(R, C))
    p = tl.make_block_ptr(O, shape=(rows, cols), strides=(cols, 1), offsets=(3, 6), block_shape=(R, C),
                          order=(1, 0))
    tl.store(p, x, boundary_check=(0, 1))


@triton.jit
def block_advance_kernel(X, O, rows, cols, R: tl.constexpr, C: tl.constexpr):
    p = tl.make_block_ptr(X, shape=(rows, cols), strides=(cols, 1), offsets=(0, 0), block_shape=(R, C),
                          order=(1, 0))
    acc = tl.zeros((R, C), dtype=tl.float32)
    for i in range(3):
        acc += tl.load(p, boundary_check=(0, 1), padding_option="zero")
        p = tl.advance(p, (R // 2, C // 2))
    tl.store(O + tile_offsets(R, C), acc)


def _any_values(dt):
    # The atomics' operands: every value for integers, the finite specials
    # (corpus.gen's "finite") for floats.
    return "finite" if dt[0] == "f" else "general"


def cases():
    out = []
    P = 4
    for dt in ("i32", "u32", "i64", "f32"):
        kind = "small" if dt[0] != "f" else "small_int"
        out.append(Case(f"atomic_add_collide_{dt}", "atomic", atomic_add_collide_kernel,
                        [In("x", dt, (P * N,), kind=kind), In("acc", dt, (8,), kind="small_int" if dt[0] == "f"
                                                                 else "small", inout=True), N], grid=(P,)))
    for dt in ("i32", "f32", "f16", "i64"):
        out.append(Case(f"atomic_add_old_{dt}", "atomic", atomic_add_old_kernel,
                        [In("x", dt, (N,), kind=_any_values(dt)),
                         In("acc", dt, (N,), kind=_any_values(dt), inout=True),
                         Out("old", dt, (N,)), N]))
    for dt in ("i32", "u32", "i64", "f32"):
        for name, k in (("max", atomic_max_kernel), ("min", atomic_min_kernel), ("xchg", atomic_xchg_kernel)):
            out.append(Case(f"atomic_{name}_{dt}", "atomic", k,
                            [In("x", dt, (N,), kind=_any_values(dt)),
                             In("acc", dt, (N,), kind=_any_values(dt), inout=True),
                             Out("old", dt, (N,)), N]))
    for dt in ("i32", "u64"):
        out.append(Case(f"atomic_bits_{dt}", "atomic", atomic_bits_kernel,
                        [In("x", dt, (N,)), In("a", dt, (N,), inout=True), In("o", dt, (N,), inout=True),
                         In("xo", dt, (N,), inout=True), N]))
    out.append(Case("atomic_cas_i32", "atomic", atomic_cas_kernel,
                    [In("cmp", "i32", (N,), kind="small_int"), In("val", "i32", (N,)),
                     In("acc", "i32", (N,), kind="small_int", inout=True), Out("old", "i32", (N,)), N]))
    out.append(Case("atomic_max_collide_i32", "atomic", atomic_max_collide_kernel,
                    [In("x", "i32", (P * N,)), In("acc", "i32", (4,), inout=True), N], grid=(P,)))
    for dt in ("f32", "i8", "u16"):
        out.append(Case(f"masked_load_{dt}", "memory", masked_load_kernel,
                        [In("x", dt, (N,)), Out("o", dt, (N,)), Scalar("n", 37), N]))
    rows, cols = 11, 19
    for (offr, offc) in ((0, 0), (4, 8), (-3, -5)):
        out.append(Case(f"block_load_{offr}_{offc}", "block_ptr", block_load_kernel,
                        [In("x", "f32", (rows * cols,)), Out("o", "f32", (R, C)), Scalar("rows", rows),
                         Scalar("cols", cols), R, C, offr, offc]))
    out.append(Case("block_load_nan", "block_ptr", block_load_nan_kernel,
                    [In("x", "f32", (rows * cols,), kind="finite"), Out("o", "f32", (R, C)), Scalar("rows", rows),
                     Scalar("cols", cols), R, C]))
    out.append(Case("block_load_rows_i16", "block_ptr", block_load_rows_kernel,
                    [In("x", "i16", (rows * C,)), Out("o", "i16", (R, C)), Scalar("rows", rows),
                     Scalar("cols", C), R, C]))
    out.append(Case("block_store", "block_ptr", block_store_kernel,
                    [In("x", "f32", (R * C,)), Out("o", "f32", (rows * cols,)), Scalar("rows", rows),
                     Scalar("cols", cols), R, C]))
    out.append(Case("block_advance", "block_ptr", block_advance_kernel,
                    [In("x", "f32", (rows * cols,), kind="small_int"), Out("o", "f32", (R, C)), Scalar("rows", rows),
                     Scalar("cols", cols), R, C]))
    return out
