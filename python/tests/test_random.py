"""tl.randint, tl.randint4x, tl.rand, tl.rand4x, tl.randn, tl.philox against
a numpy Philox written here from the algorithm's definition (Salmon et
al., SC 2011: Philox4x32-10 with the Weyl key steps 0x9E3779B9 and
0xBB67AE85 and the multipliers 0xD2511F53 and 0xCD9E8D57; counter
(offset, 0, 0, 0), key (seed low, seed high)), and Triton's uint32 -> float
mapping: the bits as int32, x < 0 folded to -x - 1, times 4.6566127342e-10
in float32. Integer outputs and rand must match bit for bit."""
import numpy as np
import pytest

import tilescope
import tilescope.language as tl

M32 = np.uint64(0xFFFFFFFF)


def philox4x32(seed, c0, c1, c2, c3, rounds=10):
    """Reference Philox4x32: uint64 numpy arithmetic, masked to 32 bits."""
    c = [np.asarray(v, np.int64).astype(np.uint64) & M32 for v in (c0, c1, c2, c3)]
    seed = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
    k0, k1 = seed & M32, (seed >> np.uint64(32)) & M32
    for _ in range(rounds):
        prod_a = np.uint64(0xD2511F53) * c[0]       # both < 2^32: the product fits in 64 bits
        prod_b = np.uint64(0xCD9E8D57) * c[2]
        c = [((prod_b >> np.uint64(32)) ^ c[1] ^ k0) & M32, prod_b & M32,
             ((prod_a >> np.uint64(32)) ^ c[3] ^ k1) & M32, prod_a & M32]
        k0 = (k0 + np.uint64(0x9E3779B9)) & M32
        k1 = (k1 + np.uint64(0xBB67AE85)) & M32
    return [v.astype(np.uint32) for v in c]


def to_uniform(u):
    x = u.view(np.int32).astype(np.int64)
    x = np.where(x < 0, -x - 1, x)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


def test_reference_matches_the_published_philox4x32_10_answer():
    # Random123's known-answer vectors for philox4x32_10 (counter, key -> output).
    out = philox4x32(0, 0, 0, 0, 0)
    assert [int(v) for v in out] == [0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8]
    out = philox4x32((0xFFFFFFFF << 32) | 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF)
    assert [int(v) for v in out] == [0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD]
    out = philox4x32((0x299F31D0 << 32) | 0xA4093822, 0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344)
    assert [int(v) for v in out] == [0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1]


@tilescope.jit
def ints_kernel(seed, out_ptr, base, B: tl.constexpr):
    offs = base + tl.program_id(0) * B + tl.arange(0, B)
    a, b, c, d = tl.randint4x(seed, offs)
    one = tl.randint(seed, offs)
    p = out_ptr + offs - base
    tl.store(p, a)
    tl.store(p + 4 * B, b)
    tl.store(p + 8 * B, c)
    tl.store(p + 12 * B, d)
    tl.store(p + 16 * B, one)


@pytest.mark.parametrize("seed,base", [(0, 0), (42, 7), (123456789, 1 << 20), (-5, 3), (1 << 40, 0)])
def test_randint4x_and_randint_are_bit_exact(seed, base):
    B, P = 16, 4
    out = np.zeros(20 * B, np.uint32)
    r = ints_kernel[(P,)](seed, out, base, B=B)
    assert r.ok(), r.report()
    offs = base + np.arange(P * B)
    want = philox4x32(seed, offs, 0, 0, 0)
    for k in range(4):
        np.testing.assert_array_equal(out[k * P * B:(k + 1) * P * B], want[k])
    np.testing.assert_array_equal(out[16 * B:], want[0])


@tilescope.jit
def floats_kernel(out_ptr, seed, B: tl.constexpr, ROUNDS: tl.constexpr):
    offs = tl.arange(0, B)
    tl.store(out_ptr + offs, tl.rand(seed, offs, ROUNDS))
    u1, u2, u3, u4 = tl.rand4x(seed, offs, ROUNDS)
    tl.store(out_ptr + B + offs, u2)
    tl.store(out_ptr + 2 * B + offs, u4)
    tl.store(out_ptr + 3 * B + offs, tl.randn(seed, offs, ROUNDS))


@pytest.mark.parametrize("seed,rounds", [(1, 10), (987654321, 10), (77, 6)])
def test_rand_is_bit_exact_and_randn_follows_box_muller(seed, rounds):
    B = 256
    out = np.zeros(4 * B, np.float32)
    assert floats_kernel[(1,)](out, seed, B=B, ROUNDS=rounds).ok()
    i = philox4x32(seed, np.arange(B), 0, 0, 0, rounds)
    u = [to_uniform(v) for v in i]
    np.testing.assert_array_equal(out[:B], u[0])
    np.testing.assert_array_equal(out[B:2 * B], u[1])
    np.testing.assert_array_equal(out[2 * B:3 * B], u[3])
    assert 0.0 <= out[:3 * B].min() and out[:3 * B].max() < 1.0
    u1 = np.maximum(np.float32(1e-7), u[0]).astype(np.float64)
    normal = np.sqrt(-2.0 * np.log(u1)) * np.cos(2 * np.pi * u[1].astype(np.float64))
    np.testing.assert_allclose(out[3 * B:], normal, rtol=1e-5, atol=1e-5)


@tilescope.jit
def philox_kernel(out_ptr, seed, B: tl.constexpr):
    i = tl.arange(0, B)
    a, b, c, d = tl.philox(seed, i, i + 1, i * 3, i ^ 5)
    tl.store(out_ptr + i, a)
    tl.store(out_ptr + B + i, b)
    tl.store(out_ptr + 2 * B + i, c)
    tl.store(out_ptr + 3 * B + i, d)


def test_philox_with_four_counters_is_bit_exact():
    B = 32
    out = np.zeros(4 * B, np.uint32)
    assert philox_kernel[(1,)](out, 2024, B=B).ok()
    i = np.arange(B)
    want = philox4x32(2024, i, i + 1, i * 3, i ^ 5)
    np.testing.assert_array_equal(out.reshape(4, B), np.stack(want))


@tilescope.jit
def float_seed_kernel(out_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    tl.store(out_ptr + i, tl.rand(1.5, i))


def test_a_float_seed_is_an_error_at_the_call():
    with pytest.raises(tilescope.KernelError) as e:
        float_seed_kernel[(1,)](np.zeros(4, np.float32), B=4)
    assert "test_random.py:" in str(e.value) and "the seed must be an integer" in str(e.value)
    assert "random.py" not in str(e.value).split("error:")[0].replace("test_random.py", "")
