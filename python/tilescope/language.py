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
            self.name, self.name.replace("fp8", "float8"))

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
            self.ts_name, 64 if self.ts_name in ("i64", "u64", "f64") else 8 if self.is_fp8() else 32)

    def is_ptr(self):
        return False

    def is_block(self):
        return False

    def is_fp8(self):
        return self.ts_name.startswith("f8")

    def is_int_signed(self):
        return self.ts_name in ("i8", "i16", "i32", "i64")

    def is_int_unsigned(self):
        return self.ts_name in ("i1", "u8", "u16", "u32", "u64")

    def is_fp16(self):
        return self.ts_name == "f16"

    def is_bf16(self):
        return self.ts_name == "bf16"

    def is_fp32(self):
        return self.ts_name == "f32"

    def is_fp64(self):
        return self.ts_name == "f64"

    @property
    def scalar(self):
        return self


class pointer_type(dtype):
    """A pointer to `element_ty` elements: what `ptr.dtype` is for a
    pointer tile, and what `x.to(tl.pointer_type(tl.float16))` names."""

    def __init__(self, element_ty, address_space=1, const=False):
        element_ty = ours(getattr(element_ty, "value", element_ty))
        if not isinstance(element_ty, dtype):
            raise TypeError(f"pointer_type takes a dtype, got {element_ty!r}")
        super().__init__("ptr<" + element_ty.ts_name + ">", "pointer<" + element_ty.name + ">")
        self.element_ty = element_ty
        self.address_space = address_space

    def __repr__(self):
        return f"pointer<{self.element_ty!r}>"

    def is_ptr(self):
        return True

    def is_floating(self):
        return False

    def is_int(self):
        return False

    @property
    def primitive_bitwidth(self):
        return 64


class block_type:
    """`x.type` of a tile with a shape: its element type and its shape."""

    def __init__(self, element_ty, shape):
        self.element_ty = element_ty
        self.shape = tuple(shape)
        self.numel = 1
        for s in self.shape:
            self.numel *= s

    def __repr__(self):
        return f"<{list(self.shape)}, {self.element_ty!r}>"

    def __eq__(self, other):
        return isinstance(other, block_type) and (other.element_ty, other.shape) == (self.element_ty, self.shape)

    def __hash__(self):
        return hash((self.element_ty, self.shape))

    @property
    def scalar(self):
        return self.element_ty

    def is_block(self):
        return True

    def is_ptr(self):
        return False

    def get_block_shapes(self):
        return self.shape


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
# Triton's fp8 formats: names a kernel can compare with and test for; the
# semantic layer has no fp8 element type, so a tile of one is a build error.
float8e5 = dtype("f8e5", "fp8e5")
float8e5b16 = dtype("f8e5b16", "fp8e5b16")
float8e4nv = dtype("f8e4nv", "fp8e4nv")
float8e4b8 = dtype("f8e4b8", "fp8e4b8")
float8e4b15 = dtype("f8e4b15", "fp8e4b15")
DTYPES = [int1, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16, float32, float64]
FP8 = [float8e5, float8e5b16, float8e4nv, float8e4b8, float8e4b15]
BY_TS_NAME = {d.ts_name: d for d in DTYPES + FP8}
BY_NAME = {d.name: d for d in DTYPES + FP8}


def ours(obj):
    """Triton's own dtype object (where Triton is installed, a kernel's
    `tl.int1` is Triton's: only triton.jit is replaced) as ours, so that
    `x.dtype == tl.int1` compares like with like; anything else unchanged."""
    if type(obj).__module__.startswith("triton.") and isinstance(getattr(obj, "name", None), str):
        if type(obj).__name__ == "pointer_type" and hasattr(obj, "element_ty"):
            return pointer_type(obj.element_ty)
        return BY_NAME.get(obj.name, obj)
    return obj


def type_of(ts_dtype, is_ptr, shape=()):
    """The dtype object of a tile's elements (a pointer_type for pointers),
    or with a shape, the block_type that Triton's `x.type` is."""
    element = BY_TS_NAME[ts_dtype]
    if is_ptr:
        element = pointer_type(element)
    return block_type(element, shape) if len(shape) else element


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
# Scans, sorts and permutations.
BUILTIN_NAMES += ["associative_scan", "reduce", "sort", "flip", "join", "split", "interleave", "gather", "histogram"]
# Random numbers (random.py).
BUILTIN_NAMES += ["philox", "randint", "randint4x", "rand", "rand4x", "randn", "randn4x", "uint_to_uniform_float",
                  "pair_uniform_to_normal"]
# libdevice's functions of C's math library.
LIBDEVICE = ["acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "cosh", "sinh", "tan", "log10", "trunc",
             "erfc", "lgamma", "tgamma", "logb", "atan2", "hypot", "fmod", "copysign", "fdim", "nextafter",
             "remainder"]
BUILTIN_NAMES += LIBDEVICE
BUILTIN_NAMES += ["ravel", "swizzle2d"]
# Named so that a kernel using them gets an error that says why at its line.
BUILTIN_NAMES += ["inline_asm_elementwise", "make_tensor_descriptor", "load_tensor_descriptor",
                  "store_tensor_descriptor", "extern_elementwise"]
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
                   "max", "min", "cdiv", "rint", "round"] + LIBDEVICE)
# libdevice: the same, and its other spellings of builtins tilescope has
# (fast_expf is exp, whose f32 form on the GPU is the fast one already).
LIBDEVICE_ALIASES = {"fabs": "abs", "nearbyint": "rint", "fmax": "maximum", "fmin": "minimum", "fast_expf": "exp",
                     "fast_logf": "log", "fast_log2f": "log2", "fast_log10f": "log10", "fast_sinf": "sin",
                     "fast_cosf": "cos", "fast_tanf": "tan", "fast_powf": "pow", "fast_dividef": "fdiv"}
libdevice = _Namespace(list(vars(math)))
for _alias in LIBDEVICE_ALIASES:
    setattr(libdevice, _alias, _builtin(_alias))
del _alias
extra = _Namespace([])
extra.cuda = _Namespace([])
extra.cuda.libdevice = libdevice
extra.libdevice = libdevice
