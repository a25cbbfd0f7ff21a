"""Triton's random numbers: tl.philox, tl.randint, tl.randint4x, tl.rand,
tl.rand4x, tl.randn, tl.randn4x.

Counter-based Philox (Salmon et al., "Parallel random numbers: as easy as
1, 2, 3", SC 2011): Philox4x32-10 for 32-bit offsets, Philox4x64 for 64-bit
ones, keyed by the seed, with the round and key constants, the counter
layout (offset, 0, 0, 0) and the uint -> float conversion that Triton's
random module uses. Built from the semantic layer's own integer ops
(umulhi, *, ^, +, casts), so both back ends compute exactly these bits;
every op is at the user's call line.

Only randn goes through transcendental functions (log, sqrt, cos, sin in
the Box-Muller transform), so it matches Triton's GPU values within those
functions' ulp bounds, not bit for bit; the others are bit-exact.
"""
from . import _core
from ._core import ts

N_ROUNDS_DEFAULT = 10
# (round multiplier A, round multiplier B, key step A, key step B) by width.
_CONSTANTS = {
    32: (0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85),
    64: (0xD2E7470EE14C6C93, 0xCA5A826395121157, 0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B),
}
# The largest scale with (2^(bits-1) - 1) * scale < 1 in float rounding.
_SCALE = {32: 4.6566127342e-10, 64: 1.0842020432385337e-19}
_BITS = {"i32": 32, "u32": 32, "i64": 64, "u64": 64}


def _rounds(c0, c1, c2, c3, k0, k1, n_rounds, bits):
    mul_a, mul_b, key_a, key_b = _CONSTANTS[bits]
    for _ in range(n_rounds):
        old0, old2 = c0, c2
        c0 = ts.xor(ts.xor(ts.umulhi(mul_b, old2), c1), k0)
        c2 = ts.xor(ts.xor(ts.umulhi(mul_a, old0), c3), k1)
        c1 = ts.mul(mul_b, old2)
        c3 = ts.mul(mul_a, old0)
        k0 = ts.add(k0, key_a)
        k1 = ts.add(k1, key_b)
    return c0, c1, c2, c3


def _rounds_count(n_rounds):
    n_rounds = _core.unwrap(n_rounds)
    if not isinstance(n_rounds, int) or isinstance(n_rounds, bool) or n_rounds < 0:
        raise _core.build_error(f"n_rounds must be a compile-time integer >= 0, got {_core.describe(n_rounds)}")
    return n_rounds


def _int_tile(x, what):
    t = _core.tile(x)
    if t.is_ptr or t.dtype not in _BITS:
        raise _core.build_error(f"{what} must be 32- or 64-bit integers, got {_core.describe(t)}")
    return t


def philox(seed, c0, c1, c2, c3, n_rounds=N_ROUNDS_DEFAULT):
    """Four counters (one integer dtype, 32 or 64 bits) and a seed -> four
    uint tiles of random bits."""
    n_rounds = _rounds_count(n_rounds)
    seed = _core.tile(seed)
    if seed.is_ptr or seed.dtype in ("f16", "bf16", "f32", "f64"):
        raise _core.build_error(f"the seed must be an integer, got {_core.describe(seed)}")
    # As Triton: the seed widened to 64 bits (sign-extended if signed), its bits as uint64.
    seed = ts.cast(ts.cast(seed, "i64", False), "u64", True) if seed.dtype.startswith("i") and seed.dtype != "i1" \
        else ts.cast(seed, "u64", False)
    counters = [_int_tile(c, "philox's counters") for c in (c0, c1, c2, c3)]
    bits = _BITS[counters[0].dtype]
    if any(_BITS[c.dtype] != bits for c in counters):
        raise _core.build_error("philox's four counters must have one width, got "
                                + ", ".join(c.dtype for c in counters))
    if bits == 32:
        udt = "u32"
        k0 = ts.cast(ts.and_(seed, 0xFFFFFFFF), udt, False)
        k1 = ts.cast(ts.and_(ts.rshift(seed, 32), 0xFFFFFFFF), udt, False)
    else:
        udt = "u64"
        k0, k1 = seed, ts.cast(ts.scalar(0), udt, False)
    counters = [ts.cast(c, udt, True) for c in counters]
    return _rounds(*counters, k0, k1, n_rounds, bits)


def randint4x(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    offset = _int_tile(offset, "the offsets")
    zero = ts.mul(offset, 0)
    return philox(seed, offset, zero, zero, zero, n_rounds)


def randint(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    return randint4x(seed, offset, n_rounds)[0]


def uint_to_uniform_float(x):
    """Random bits -> a float uniform in [0, 1): the bits as a signed
    integer, folded onto [0, 2^(bits-1)) by -x - 1, times the scale."""
    x = _int_tile(x, "uint_to_uniform_float's input")
    bits = _BITS[x.dtype]
    x = ts.cast(x, "i32" if bits == 32 else "i64", True)
    x = ts.where(ts.lt(x, 0), ts.sub(ts.neg(x), 1), x)
    return ts.mul(x, _SCALE[bits])


def rand(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


def rand4x(seed, offsets, n_rounds=N_ROUNDS_DEFAULT):
    return tuple(uint_to_uniform_float(i) for i in randint4x(seed, offsets, n_rounds))


def pair_uniform_to_normal(u1, u2):
    """Box-Muller: two uniforms -> two standard normals."""
    u1 = ts.maximum(1.0e-7, _core.tile(u1), False)
    th = ts.mul(6.283185307179586, _core.tile(u2))
    r = ts.sqrt(ts.mul(-2.0, ts.log(u1)))
    return ts.mul(r, ts.cos(th)), ts.mul(r, ts.sin(th))


def randn(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    i1, i2, _, _ = randint4x(seed, offset, n_rounds)
    return pair_uniform_to_normal(uint_to_uniform_float(i1), uint_to_uniform_float(i2))[0]


def randn4x(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    return pair_uniform_to_normal(u1, u2) + pair_uniform_to_normal(u3, u4)


NAMES = ["philox", "randint", "randint4x", "rand", "rand4x", "randn", "randn4x", "uint_to_uniform_float",
         "pair_uniform_to_normal"]
