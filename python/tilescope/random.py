"""Triton's random numbers (tl.philox, tl.randint, tl.randint4x, tl.rand,
tl.rand4x, tl.randn, tl.randn4x, tl.uint_to_uniform_float,
tl.pair_uniform_to_normal) with Triton's signatures, onto the C++ semantic
layer (interp/frontend/frontend_random.cpp holds the algorithm)."""
from . import _core
from ._core import ts

N_ROUNDS_DEFAULT = 10


def _rounds(n_rounds):
    n_rounds = _core.unwrap(n_rounds)
    if not isinstance(n_rounds, int) or isinstance(n_rounds, bool):
        raise _core.build_error(f"n_rounds must be a compile-time integer, got {_core.describe(n_rounds)}")
    return n_rounds


def _arg(x):
    x = _core.unwrap(x)
    if isinstance(x, float):
        return _core.tile(x)  # the C++ layer names the dtype in its error
    return x


def philox(seed, c0, c1, c2, c3, n_rounds=N_ROUNDS_DEFAULT):
    return tuple(ts.philox(_arg(seed), _arg(c0), _arg(c1), _arg(c2), _arg(c3), _rounds(n_rounds)))


def randint(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    return ts.randint(_arg(seed), _arg(offset), _rounds(n_rounds))


def randint4x(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    return tuple(ts.randint4x(_arg(seed), _arg(offset), _rounds(n_rounds)))


def rand(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    return ts.rand(_arg(seed), _arg(offset), _rounds(n_rounds))


def rand4x(seed, offsets, n_rounds=N_ROUNDS_DEFAULT):
    return tuple(ts.rand4x(_arg(seed), _arg(offsets), _rounds(n_rounds)))


def randn(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    return ts.randn(_arg(seed), _arg(offset), _rounds(n_rounds))


def randn4x(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    return tuple(ts.randn4x(_arg(seed), _arg(offset), _rounds(n_rounds)))


def uint_to_uniform_float(x):
    return ts.uint_to_uniform_float(_core.tile(x))


def pair_uniform_to_normal(u1, u2):
    return tuple(ts.pair_uniform_to_normal(_core.tile(u1), _core.tile(u2)))
