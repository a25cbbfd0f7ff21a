"""libdevice's functions of C's math library (asin, atan2, ...) and its other
spellings of builtins (fabs, nearbyint, fast_expf, ...), through
`tl.math` and `libdevice`, against numpy in the operand's precision."""
import numpy as np
import pytest

import tilescope
import tilescope.language as tl
from tilescope.language import libdevice

UNARY = {"acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh, "atan": np.arctan,
         "atanh": np.arctanh, "cbrt": np.cbrt, "cosh": np.cosh, "sinh": np.sinh, "tan": np.tan,
         "log10": np.log10, "trunc": np.trunc}
BINARY = {"atan2": np.arctan2, "hypot": np.hypot, "fmod": np.fmod, "copysign": np.copysign,
          "nextafter": np.nextafter, "fdim": lambda x, y: np.maximum(x - y, 0)}
DOMAIN = {"log10": (0.01, 100.0), "acosh": (1.0, 4.0), "acos": (-1.0, 1.0), "asin": (-1.0, 1.0), "atanh": (-0.99, 0.99)}


def make_unary(name):
    fn = getattr(libdevice, name)

    @tilescope.jit
    def k(x_ptr, y_ptr, B: tl.constexpr):
        i = tl.arange(0, B)
        tl.store(y_ptr + i, fn(tl.load(x_ptr + i)))
    return k


def make_binary(name):
    fn = getattr(tl.math, name)

    @tilescope.jit
    def k(x_ptr, z_ptr, y_ptr, B: tl.constexpr):
        i = tl.arange(0, B)
        tl.store(y_ptr + i, fn(tl.load(x_ptr + i), tl.load(z_ptr + i)))
    return k


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_libdevice_function_matches_numpy(name, dtype):
    lo, hi = DOMAIN.get(name, (-3.0, 3.0))
    x = np.linspace(lo, hi, 64).astype(dtype)
    y = np.zeros(64, dtype)
    r = make_unary(name)[(1,)](x, y, B=64)
    assert r.ok(), r.report()
    ulp = np.spacing(np.abs(UNARY[name](x)).astype(dtype))
    assert np.all(np.abs(y - UNARY[name](x)) <= 2 * ulp), name


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_libdevice_function_matches_numpy(name):
    rng = np.random.default_rng(5)
    x = rng.uniform(-4, 4, 32).astype(np.float32)
    z = rng.uniform(-4, 4, 32).astype(np.float32)
    y = np.zeros(32, np.float32)
    r = make_binary(name)[(1,)](x, z, y, B=32)
    assert r.ok(), r.report()
    want = BINARY[name](x, z).astype(np.float32)
    assert np.all(np.abs(y - want) <= 2 * np.spacing(np.abs(want))), name


@tilescope.jit
def alias_kernel(x_ptr, y_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    x = tl.load(x_ptr + i)
    tl.store(y_ptr + i, libdevice.fabs(x) + libdevice.nearbyint(x) + libdevice.fmax(x, 0.5))


def test_libdevice_spellings_of_builtins():
    x = np.array([-2.5, -0.5, 0.5, 1.5, 2.5, -3.0, 0.0, 7.25], np.float32)
    y = np.zeros(8, np.float32)
    assert alias_kernel[(1,)](x, y, B=8).ok()
    np.testing.assert_array_equal(y, np.abs(x) + np.rint(x) + np.maximum(x, 0.5))


@tilescope.jit
def int_asin_kernel(x_ptr, B: tl.constexpr):
    i = tl.arange(0, B)
    tl.store(x_ptr + i, libdevice.asin(tl.load(x_ptr + i)))


def test_an_integer_operand_is_an_error_at_the_call():
    with pytest.raises(tilescope.KernelError) as e:
        int_asin_kernel[(1,)](np.zeros(4, np.int32), B=4)
    assert "test_libdevice_names.py:" in str(e.value) and "asin needs an f32 or f64 tile" in str(e.value)
