"""Triton's builtins by name, each with Triton's signature, mapped onto the
C++ semantic layer (_tilescope). Python binds the arguments (positional,
keyword, defaults); every rule about them (promotion, broadcasting,
shapes, dtypes) is decided in C++. Values that are plain Python numbers at
build time stay Python where Triton keeps them Python (constexpr math).
"""
from . import _core, language
from . import random as _random
from ._core import ts

_HINTS_NOTE = "a hint for Triton's compiler; it changes nothing in the interpreter"


def _dtype_name(d):
    return getattr(d, "ts_name", None) or str(d)


def _shape(args):
    # broadcast_to(x, (2, 3)) and broadcast_to(x, 2, 3) are both Triton's.
    if len(args) == 1 and isinstance(_core.unwrap(args[0]), (tuple, list)):
        args = _core.unwrap(args[0])
    return [_core.unwrap(a) for a in args]


def _int_const(x, what):
    x = _core.unwrap(x)
    if not isinstance(x, int) or isinstance(x, bool):
        raise _core.build_error(f"{what} must be a compile-time integer (tl.constexpr), got {_core.describe(x)}")
    return x


def program_id(axis):
    return ts.program_id(_int_const(axis, "program_id's axis"))


def num_programs(axis):
    return ts.num_programs(_int_const(axis, "num_programs's axis"))


def arange(start, end):
    return ts.arange(_int_const(start, "arange's start"), _int_const(end, "arange's end"))


def zeros(shape, dtype):
    return ts.full(_shape([shape]), 0, _dtype_name(dtype))


def full(shape, value, dtype):
    return ts.full(_shape([shape]), _core.unwrap(value), _dtype_name(dtype))


def zeros_like(input):
    return ts.zeros_like(input)


def load(pointer, mask=None, other=None, boundary_check=(), padding_option="", cache_modifier="",
         eviction_policy="", volatile=False):
    if _core.is_block_ptr(pointer):
        return _core.block_load(pointer, boundary_check, padding_option)
    if boundary_check or padding_option:
        raise _core.build_error("boundary_check and padding_option apply to block pointers (tl.make_block_ptr); "
                                "for a tile of pointers use mask= and other=")
    return ts.load(pointer, _core.unwrap(mask), _core.unwrap(other))


def store(pointer, value, mask=None, boundary_check=(), cache_modifier="", eviction_policy=""):
    if _core.is_block_ptr(pointer):
        return _core.block_store(pointer, value, boundary_check)
    if boundary_check:
        raise _core.build_error("boundary_check applies to block pointers (tl.make_block_ptr); "
                                "for a tile of pointers use mask=")
    ts.store(pointer, _core.unwrap(value), _core.unwrap(mask))


def _atomic(op):
    def fn(pointer, val, mask=None, sem=None, scope=None):
        return ts.atomic(op, pointer, _core.unwrap(val), _core.unwrap(mask), None, _core.unwrap(sem),
                         _core.unwrap(scope))
    fn.__name__ = "atomic_" + op
    return fn


atomic_add = _atomic("add")
atomic_max = _atomic("max")
atomic_min = _atomic("min")
atomic_and = _atomic("and")
atomic_or = _atomic("or")
atomic_xor = _atomic("xor")
atomic_xchg = _atomic("xchg")


def atomic_cas(pointer, cmp, val, sem=None, scope=None):
    return ts.atomic("cas", pointer, _core.unwrap(val), None, _core.unwrap(cmp), _core.unwrap(sem),
                     _core.unwrap(scope))


def where(condition, x, y):
    condition = _core.unwrap(condition)
    if isinstance(condition, _core.Tensor) and condition.dtype != "i1" and not condition.is_ptr:
        # Triton converts a condition that is not i1 to i1 (x != 0), with a warning.
        condition = ts.cast(condition, "i1", False)
    return ts.where(condition, _core.unwrap(x), _core.unwrap(y))


def maximum(x, y, propagate_nan=None):
    return ts.maximum(_core.unwrap(x), _core.unwrap(y), _propagates_nan(propagate_nan))


def minimum(x, y, propagate_nan=None):
    return ts.minimum(_core.unwrap(x), _core.unwrap(y), _propagates_nan(propagate_nan))


def _propagates_nan(p):
    # tl.PropagateNan.ALL (or True) keeps NaN; NONE, False and None drop it.
    p = _core.unwrap(p)
    return p is not None and p is not False and "NONE" not in str(p).upper()


def clamp(x, min, max, propagate_nan=None):
    return ts.clamp(_core.unwrap(x), _core.unwrap(min), _core.unwrap(max), _propagates_nan(propagate_nan))


def fma(x, y, z):
    return ts.fma(_core.unwrap(x), _core.unwrap(y), _core.unwrap(z))


def _unary(name, op):
    def fn(x):
        return op(_core.tile(x))
    fn.__name__ = name
    return fn


exp = _unary("exp", ts.exp)
exp2 = _unary("exp2", ts.exp2)
log = _unary("log", ts.log)
log2 = _unary("log2", ts.log2)
sqrt = _unary("sqrt", ts.sqrt)
# f32 only, as Triton's (libdevice); the rule is in the C++ front end.
sqrt_rn = _unary("sqrt_rn", ts.sqrt_rn)
rsqrt = _unary("rsqrt", ts.rsqrt)
sin = _unary("sin", ts.sin)
cos = _unary("cos", ts.cos)
sigmoid = _unary("sigmoid", ts.sigmoid)
tanh = _unary("tanh", ts.tanh)
abs = _unary("abs", ts.abs)
floor = _unary("floor", ts.floor)
ceil = _unary("ceil", ts.ceil)
erf = _unary("erf", ts.erf)
log1p = _unary("log1p", ts.log1p)
expm1 = _unary("expm1", ts.expm1)
rint = _unary("rint", ts.rint)
round = _unary("round", ts.round)
# libdevice's functions of C's math library (TL_LIBDEVICE_UNARY / _BINARY in ir.h).
LIBDEVICE_UNARY = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cosh", "sinh", "tan", "log10",
                   "trunc", "erfc", "lgamma", "tgamma", "logb"]
LIBDEVICE_BINARY = ["atan2", "hypot", "fmod", "copysign", "fdim", "nextafter", "remainder"]


def _binary(name):
    op = getattr(ts, name)

    def fn(x, y):
        return op(_core.unwrap(x), _core.unwrap(y))
    fn.__name__ = name
    return fn


for _name in LIBDEVICE_UNARY:
    globals()[_name] = _unary(_name, getattr(ts, _name))
for _name in LIBDEVICE_BINARY:
    globals()[_name] = _binary(_name)
del _name


def div_rn(x, y):
    return ts.div_rn(_core.unwrap(x), _core.unwrap(y))


def fdiv(x, y, ieee_rounding=False):
    return ts.fdiv(_core.unwrap(x), _core.unwrap(y))


def pow(x, y):
    return ts.pow(_core.unwrap(x), _core.unwrap(y))


def umulhi(x, y):
    return ts.umulhi(_core.unwrap(x), _core.unwrap(y))


def cdiv(x, div):
    x, div = _core.unwrap(x), _core.unwrap(div)
    if isinstance(x, int) and isinstance(div, int):
        return (x + div - 1) // div
    return ts.cdiv(x, div)


def cast(input, dtype, fp_downcast_rounding=None, bitcast=False):
    dtype = language.ours(_core.unwrap(dtype))
    if isinstance(dtype, language.pointer_type) or getattr(_core.unwrap(input), "is_ptr", False):
        return pointer_cast(_core.tile(input), dtype)
    if isinstance(dtype, language.dtype) and dtype.is_fp8():
        raise _core.build_error(f"{dtype!r}: fp8 tiles are not supported by tilescope yet")
    return ts.cast_rounded(_core.tile(input), _dtype_name(dtype), bool(_core.unwrap(bitcast)),
                           _core.unwrap(fp_downcast_rounding))


def to(input, dtype, fp_downcast_rounding=None, bitcast=False):
    return cast(input, dtype, fp_downcast_rounding, bitcast)


def pointer_cast(x, dtype):
    """A cast to or from a pointer type: the same element type is the same
    pointer; anything else (reinterpreting memory, an integer as an
    address) cannot be bounds-checked, and is refused at the line."""
    if x.is_ptr and isinstance(dtype, language.pointer_type) and dtype.element_ty.ts_name == x.dtype:
        return x
    what = f"a tile of pointers to {x.dtype}" if x.is_ptr else f"a {x.dtype} tile"
    raise _core.build_error(f"casting {what} to {dtype!r} is not supported by tilescope yet: every pointer must "
                            "come from a pointer argument (plus integer offsets), so that each access can be "
                            "checked against its buffer")


def expand_dims(input, axis):
    axis = _core.unwrap(axis)
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    return ts.expand_dims(input, [_int_const(a, "expand_dims's axis") for a in axes])


def broadcast_to(input, *shape):
    return ts.broadcast_to(_core.tile(input), _shape(shape))


def reshape(input, *shape, can_reorder=False):
    return ts.reshape(input, _shape(shape))


view = reshape


def ravel(x, can_reorder=False):
    x = _core.tile(x)
    n = 1
    for s in x.shape:
        n *= s
    return ts.reshape(x, [n])


def swizzle2d(i, j, size_i, size_j, size_g):
    """Triton's grouped ordering of a (size_i, size_j) grid: (i, j) mapped so
    that groups of size_g rows are walked column by column. Python's
    operators on numbers, the semantic layer's on tiles."""
    def op(f, a, b):
        a, b = _core.unwrap(a), _core.unwrap(b)
        if isinstance(a, _core.Tensor) or isinstance(b, _core.Tensor):
            return f(a, b)
        return _PY_OPS[f](a, b)
    ij = op(ts.add, op(ts.mul, i, size_j), j)
    size_gj = op(ts.mul, size_g, size_j)
    off_i = op(ts.mul, op(ts.floordiv, ij, size_gj), size_g)
    size_g = op(_min, op(ts.sub, size_i, off_i), size_g)
    ij = op(ts.mod, ij, size_gj)
    return op(ts.add, off_i, op(ts.mod, ij, size_g)), op(ts.floordiv, ij, size_g)


def _min(a, b):
    return ts.minimum(a, b, False)


_PY_OPS = {ts.add: lambda a, b: a + b, ts.mul: lambda a, b: a * b, ts.sub: lambda a, b: a - b,
           ts.floordiv: lambda a, b: a // b, ts.mod: lambda a, b: a % b, _min: lambda a, b: a if a < b else b}


def trans(input, *dims):
    dims = _shape(dims)
    return ts.permute(input, dims) if dims else ts.trans(input)


def permute(input, *dims):
    return ts.permute(input, _shape(dims))


def _axis(axis):
    axis = _core.unwrap(axis)
    return None if axis is None else _int_const(axis, "axis")


def sum(input, axis=None, keep_dims=False, dtype=None):
    return ts.sum(input, _axis(axis), bool(_core.unwrap(keep_dims)), None if dtype is None else _dtype_name(dtype))


def _with_index_dtype(value, input):
    # Triton's max/min with return_indices reduce (value, index) pairs in the
    # input's own dtype (only bf16 goes to f32); without indices a narrow
    # input is widened to i32/f32 first. The widened maximum is one of the
    # inputs, so narrowing it back is exact.
    d = input.dtype
    return value if d == "bf16" or value.dtype == d else ts.cast(value, d, False)


def max(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False):
    keep = bool(_core.unwrap(keep_dims))
    if _core.unwrap(return_indices):
        return _with_index_dtype(ts.max(input, _axis(axis), keep), input), ts.argmax(input, _axis(axis), keep)
    return ts.max(input, _axis(axis), keep)


def min(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False):
    keep = bool(_core.unwrap(keep_dims))
    if _core.unwrap(return_indices):
        return _with_index_dtype(ts.min(input, _axis(axis), keep), input), ts.argmin(input, _axis(axis), keep)
    return ts.min(input, _axis(axis), keep)


def argmax(input, axis, tie_break_left=True, keep_dims=False):
    return ts.argmax(input, _axis(axis), bool(_core.unwrap(keep_dims)))


def argmin(input, axis, tie_break_left=True, keep_dims=False):
    return ts.argmin(input, _axis(axis), bool(_core.unwrap(keep_dims)))


def dot(input, other, acc=None, input_precision=None, allow_tf32=None, max_num_imprecise_acc=None,
        out_dtype=None):
    precision = _core.unwrap(input_precision)
    if precision is not None and _core.unwrap(allow_tf32) is not None:
        raise _core.build_error("dot: give input_precision or allow_tf32, not both")
    if precision is None:
        allow = _core.unwrap(allow_tf32)
        precision = "ieee" if allow is False else "tf32"
    out = None if out_dtype is None else _dtype_name(out_dtype)
    return ts.dot(input, other, acc, str(precision), out)


def static_assert(cond, msg=""):
    ts.static_assert_(bool(_core.unwrap(cond)), str(_core.unwrap(msg)) or "tl.static_assert failed")


def static_print(*values):
    print(*[_core.describe_value(v) for v in values])


def device_print(prefix, *args, hex=False):
    tiles = [_core.tile(a) for a in args]
    ts.device_print(str(_core.unwrap(prefix)), tiles)


def device_assert(cond, msg="", mask=None):
    ts.device_assert(_core.tile(cond), str(_core.unwrap(msg)) or "tl.device_assert failed")


def _hint_values(values):
    values = _core.unwrap(values)
    values = list(values) if isinstance(values, (tuple, list)) else [values]
    return [_int_const(v, "a hint's value") for v in values]


def _hint(name):
    def fn(input, values):
        if isinstance(_core.unwrap(input), (int, float)):
            return input  # a Python number: nothing to annotate
        return getattr(ts, name)(_core.tile(input), _hint_values(values))
    fn.__name__ = name
    return fn


multiple_of = _hint("multiple_of")
max_contiguous = _hint("max_contiguous")
max_constancy = _hint("max_constancy")


def debug_barrier():
    ts.debug_barrier()


def assume(cond):
    cond = _core.unwrap(cond)
    if not isinstance(cond, (bool, int)):
        ts.assume(cond)


def dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None, fast_math=False, lhs_k_pack=True,
               rhs_k_pack=True, out_dtype=None):
    return ts.dot_scaled(_core.tile(lhs), _core.tile(rhs))


def make_block_ptr(base, shape, strides, offsets, block_shape, order):
    return _core.make_block_ptr(base, shape, strides, offsets, block_shape, order)


def advance(base, offsets):
    return _core.advance(base, offsets)


# ---- Scans, sorts and permutations -----------------------------------------

def _tiles(input):
    """A tile or a tuple of tiles as a list, and whether it was one tile."""
    input = _core.unwrap(input)
    if isinstance(input, (tuple, list)):
        return [_core.tile(x) for x in input], False
    return [_core.tile(input)], True


def _combine(combine_fn):
    """The @triton.jit combine function as the callback the C++ op calls once,
    with its block arguments, to build the function's body into its block."""
    from . import visitor

    def build(lhs, rhs):
        out = _core.unwrap(visitor.inline_jit(combine_fn, list(lhs) + list(rhs)))
        if not isinstance(out, (tuple, list)):
            out = [out]
        return [_core.tile(o) for o in out]
    return build


def _flag(x):
    return bool(_core.unwrap(x))


def cumsum(input, axis=0, reverse=False, dtype=None):
    return ts.cumsum(_core.tile(input), _int_const(axis, "cumsum's axis"), _flag(reverse),
                     None if _core.unwrap(dtype) is None else _dtype_name(_core.unwrap(dtype)))


def cumprod(input, axis=0, reverse=False):
    return ts.cumprod(_core.tile(input), _int_const(axis, "cumprod's axis"), _flag(reverse))


def associative_scan(input, axis, combine_fn, reverse=False):
    tiles, single = _tiles(input)
    out = ts.associative_scan(tiles, _int_const(axis, "associative_scan's axis"), _combine(combine_fn),
                              _flag(reverse))
    return out[0] if single else tuple(out)


def reduce(input, axis, combine_fn, keep_dims=False):
    tiles, single = _tiles(input)
    out = ts.reduce(tiles, _axis(axis), _combine(combine_fn), _flag(keep_dims))
    return out[0] if single else tuple(out)


def xor_sum(input, axis=None, keep_dims=False):
    return ts.xor_sum(_core.tile(input), _axis(axis), _flag(keep_dims))


def sort(x, dim=None, descending=False):
    return ts.sort(_core.tile(x), _axis(dim), _flag(descending))


def flip(x, dim=None):
    return ts.flip(_core.tile(x), _axis(dim))


def join(a, b):
    return ts.join(_core.tile(a), _core.tile(b))


def split(a):
    return tuple(ts.split(_core.tile(a)))


def interleave(a, b):
    return ts.interleave(_core.tile(a), _core.tile(b))


def gather(src, index, axis):
    return ts.gather(_core.tile(src), _core.tile(index), _int_const(axis, "gather's axis"))


def histogram(input, num_bins, mask=None):
    mask = _core.unwrap(mask)
    return ts.histogram(_core.tile(input), _int_const(num_bins, "histogram's num_bins"),
                        None if mask is None else _core.tile(mask))


# Random numbers (random.py).
philox = _random.philox
randint = _random.randint
randint4x = _random.randint4x
rand = _random.rand
rand4x = _random.rand4x
randn = _random.randn
randn4x = _random.randn4x
uint_to_uniform_float = _random.uint_to_uniform_float
pair_uniform_to_normal = _random.pair_uniform_to_normal


# Builtins Triton has that tilescope does not yet: named so the error says
# which op, never "unknown name".
NOT_YET = {"softmax", "broadcast"}
# Builtins tilescope cannot run, and why, said at the call's line.
REFUSED = {
    "inline_asm_elementwise": "it runs the given PTX assembly, which the CPU interpreter cannot execute; "
                              "write the computation with tl operations",
    "make_tensor_descriptor": "tensor descriptors are not supported by tilescope yet; use tl.make_block_ptr",
    "load_tensor_descriptor": "tensor descriptors are not supported by tilescope yet; use tl.make_block_ptr",
    "store_tensor_descriptor": "tensor descriptors are not supported by tilescope yet; use tl.make_block_ptr",
    "extern_elementwise": "it calls an external library function that tilescope cannot run",
}

TABLE = {name: fn for name, fn in globals().items()
         if callable(fn) and not name.startswith("_") and name not in ("ts", "language", "pointer_cast")}
for _skip in ("_core", "ts"):
    TABLE.pop(_skip, None)

# libdevice's other spellings of builtins (libdevice.fabs is tl.abs).
TABLE.update({alias: TABLE[name] for alias, name in language.LIBDEVICE_ALIASES.items()})

# Methods of a tile (x.to(...), x.sum(1), ...): the builtin with the tile first.
TENSOR_METHODS = {"to", "reshape", "view", "trans", "permute", "sum", "max", "min", "argmax", "argmin",
                  "broadcast_to", "expand_dims", "cast", "exp", "exp2", "log", "log2", "sqrt", "abs", "sigmoid",
                  "floor", "ceil", "cos", "sin", "rsqrt", "tanh", "erf"}
# Scans, sorts and permutations.
TENSOR_METHODS |= {"cumsum", "cumprod", "associative_scan", "reduce", "xor_sum", "sort", "flip", "join", "split",
                   "interleave", "gather", "histogram"}
