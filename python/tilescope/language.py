"""Triton's `triton.language` names, for kernels written where Triton is not
installed: `import tilescope.language as tl`.

These objects only name things. A kernel is never run as Python: the
front end reads its source and maps each `tl.X` it finds onto the C++
semantic layer, so calling one of these functions outside a kernel is an
error that says so.
"""


class dtype:
    """An element type. `ts_name` is tilescope's name, `name` Triton's."""

    def __init__(self, ts_name, name):
        self.ts_name = ts_name
        self.name = name

    def __repr__(self):
        return "tl." + {"fp32": "float32", "fp16": "float16", "fp64": "float64", "bf16": "bfloat16"}.get(
            self.name, self.name)

    def __str__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, dtype) and other.ts_name == self.ts_name

    def __hash__(self):
        return hash(self.ts_name)

    def is_floating(self):
        return self.ts_name in ("f16", "bf16", "f32", "f64")

    def is_int(self):
        return not self.is_floating()

    @property
    def primitive_bitwidth(self):
        return {"i1": 1, "i8": 8, "u8": 8, "i16": 16, "u16": 16, "f16": 16, "bf16": 16}.get(
            self.ts_name, 64 if self.ts_name in ("i64", "u64", "f64") else 32)


int1 = dtype("i1", "int1")
int8 = dtype("i8", "int8")
int16 = dtype("i16", "int16")
int32 = dtype("i32", "int32")
int64 = dtype("i64", "int64")
uint8 = dtype("u8", "uint8")
uint16 = dtype("u16", "uint16")
uint32 = dtype("u32", "uint32")
uint64 = dtype("u64", "uint64")
float16 = dtype("f16", "fp16")
bfloat16 = dtype("bf16", "bf16")
float32 = dtype("f32", "fp32")
float64 = dtype("f64", "fp64")
bool_ = int1  # noqa: what Triton calls int1 in signatures
DTYPES = [int1, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16, float32, float64]
BY_TS_NAME = {d.ts_name: d for d in DTYPES}
BY_NAME = {d.name: d for d in DTYPES}


def ours(obj):
    """Triton's own dtype object (where Triton is installed, a kernel's
    `tl.int1` is Triton's: only triton.jit is replaced) as ours, so that
    `x.dtype == tl.int1` compares like with like; anything else unchanged."""
    if type(obj).__module__.startswith("triton.") and isinstance(getattr(obj, "name", None), str):
        return BY_NAME.get(obj.name, obj)
    return obj


class constexpr:
    """Marks a parameter as compile-time (`B0: tl.constexpr`), or wraps a value."""

    def __init__(self, value=None):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return f"constexpr[{self.value!r}]"


class PropagateNan:
    """tl.PropagateNan.ALL / NONE for maximum, minimum and clamp's propagate_nan."""
    NONE = "PropagateNan.NONE"
    ALL = "PropagateNan.ALL"


class tensor:
    """Only for annotations and isinstance checks in user code."""


def _builtin(name):
    def fn(*args, **kwargs):
        raise RuntimeError(
            f"tl.{name} is a tile operation: it runs inside a kernel launched through tilescope "
            f"(kernel[grid](...)), not as plain Python")

    fn.__name__ = name
    fn.__qualname__ = name
    fn._ts_builtin = name
    return fn


# Every name the front end knows (python/tilescope/builtins.py says what
# each maps onto); `tl.X` for these resolves to the builtin X.
BUILTIN_NAMES = [
    "program_id", "num_programs", "arange", "zeros", "zeros_like", "full", "load", "store", "atomic_add",
    "where", "maximum", "minimum", "clamp", "fma", "exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt",
    "sin", "cos", "sigmoid", "tanh", "abs", "floor", "ceil", "cdiv", "cast", "expand_dims", "broadcast_to",
    "broadcast", "reshape", "view", "trans", "permute", "sum", "max", "min", "argmax", "argmin", "dot",
    "static_assert", "static_print", "device_print", "device_assert", "multiple_of", "max_contiguous",
    "max_constancy", "debug_barrier", "assume", "range", "static_range", "make_block_ptr", "advance", "div_rn",
    "fdiv", "softmax", "xor_sum", "umulhi", "erf", "log1p", "expm1", "pow", "cumsum", "cumprod",
    "atomic_max", "atomic_min", "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg", "atomic_cas", "rint",
    "round", "dot_scaled",
]
# Scans, sorts and permutations (issue 15).
BUILTIN_NAMES += ["associative_scan", "reduce", "sort", "flip", "join", "split", "interleave", "gather", "histogram"]
for _n in BUILTIN_NAMES:
    globals()[_n] = _builtin(_n)
del _n
# Python keywords and clashes, as Triton spells them.
globals()["print"] = device_print  # noqa: F821  (tl.print is device_print)


def cdiv(x, div):
    """ceil(x / div) for Python ints (triton.cdiv); inside a kernel a builtin too."""
    if isinstance(x, int) and isinstance(div, int):
        return (x + div - 1) // div
    raise RuntimeError("tl.cdiv on tiles runs inside a kernel launched through tilescope")


cdiv._ts_builtin = "cdiv"


class _Namespace:
    def __init__(self, names):
        for n in names:
            setattr(self, n, globals()[n])


# tl.math.X and libdevice spellings of the same builtins.
math = _Namespace(["exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos", "sigmoid", "tanh",
                   "abs", "floor", "ceil", "fma", "div_rn", "fdiv", "umulhi", "erf", "log1p", "expm1", "pow",
                   "max", "min", "cdiv", "rint", "round"])
extra = _Namespace([])
extra.cuda = _Namespace([])
extra.cuda.libdevice = math
extra.libdevice = math
