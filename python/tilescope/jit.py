"""`kernel[grid](*args, **kwargs)`, as Triton launches, through tilescope.

A launch binds the arguments to the kernel's parameters, classifies each as
Triton does (tl.constexpr by annotation; arrays and tensors as pointers;
Python ints as i32 when they fit, else i64; floats as f32), builds the IR
once per specialization through the visitor, and runs it with the public
C++ API's launch: the same checks, interpreter, sanitizer, trace and GPU
compare as a C++ program gets. Buffers are updated in place.
"""
import inspect
import sys

from . import _core, options
from ._core import ts
from .arrays import HostStaging, as_buffer, is_array
from .result import KernelError, Result
from .source import source_of
from .visitor import KernelBuilder, is_constexpr_annotation

# Launch keywords that are Triton's, not the kernel's: accepted, unused,
# unless the kernel has a parameter of that name.
LAUNCH_OPTIONS = {"num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion", "grid", "warmup",
                  "enable_warp_specialization", "launch_cooperative_grid", "debug", "sanitize_overflow",
                  "num_buffers_warp_spec", "num_consumer_groups", "reg_dec_producer", "reg_inc_consumer",
                  "extern_libs", "stream", "device", "device_type", "launch_pdl", "ir_override", "instrumentation_mode",
                  "allowed_dot_input_precisions", "default_dot_input_precision", "max_num_imprecise_acc_default",
                  "minRegAutoWS", "maxRegAutoWS", "pingpongAutoWS", "arch", "supported_fp8_dtypes"}


class KernelParam:
    """One parameter as Triton's decorators read it (autotune, heuristics)."""

    def __init__(self, num, name, is_constexpr, annotation, default):
        self.num = num
        self.name = name
        self.is_constexpr = is_constexpr
        self.annotation = annotation
        self.default = default
        self.do_not_specialize = False
        self.do_not_specialize_on_alignment = False

    def __repr__(self):
        return f"<KernelParam {self.num} {self.name}{': tl.constexpr' if self.is_constexpr else ''}>"


def scalar_dtype(value):
    if isinstance(value, bool):
        return "i1"
    if isinstance(value, int):
        if -2**31 <= value < 2**31:
            return "i32"
        if -2**63 <= value < 2**63:
            return "i64"
        if 0 <= value < 2**64:
            return "u64"
        raise OverflowError(value)
    return "f32"


class JITFunction:
    """A kernel: `@tilescope.jit`, or a @triton.jit kernel handed to tilescope."""

    _ts_jit = True

    def __init__(self, fn, trace=None):
        self.fn = fn
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.signature = inspect.signature(fn)
        self.trace = trace
        self._defs = {}
        self._constexpr = None

    def __repr__(self):
        return f"<tilescope kernel {self.fn.__name__}>"

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.launch(grid, args, kwargs, _caller(2))

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"'{self.fn.__name__}' is a kernel: launch it with {self.fn.__name__}[grid](...), or "
                           "call it from another kernel")

    def constexpr_params(self):
        if self._constexpr is None:
            src = source_of(self.fn)
            self._constexpr = {a.arg for a in src.tree.args.args + src.tree.args.kwonlyargs
                               if is_constexpr_annotation(a.annotation, src)}
        return self._constexpr

    # ---- what Triton's decorators and runtime read of a JIT function ----------
    @property
    def arg_names(self):
        return list(self.signature.parameters)

    @property
    def params(self):
        constexpr = self.constexpr_params()
        return [KernelParam(i, name, name in constexpr, p.annotation, p.default)
                for i, (name, p) in enumerate(self.signature.parameters.items())]

    @property
    def src(self):
        return source_of(self.fn).text

    @property
    def cache_key(self):
        return f"{self.fn.__module__}.{self.fn.__qualname__}:{hash(self.src)}"

    @property
    def __globals__(self):
        return self.fn.__globals__

    def repr(self, _=None):
        return self.fn.__name__

    def run(self, *args, grid, warmup=False, **kwargs):
        """Triton's JITFunction.run: what kernel[grid](...) and Triton's
        autotune/heuristics call."""
        if warmup:
            return self.warmup(*args, grid=grid, **kwargs)
        return self.launch(grid, args, kwargs, _caller(2))

    def warmup(self, *args, grid=None, **kwargs):
        """Builds the kernel for these arguments without launching it; the
        answer has what scripts read of Triton's compiled kernel."""
        from .compiled import CompiledKernel
        try:
            self.ir(*args, **kwargs)
        except Exception as e:  # a kernel that does not build says so here, as Triton's warmup does
            raise KernelError(str(e)) from None
        return CompiledKernel(self, kwargs)

    def bind(self, args, kwargs):
        """The kernel's arguments by parameter name, defaults applied;
        Triton's launch options (num_warps, ...) dropped unless the kernel
        has a parameter of that name."""
        names = self.signature.parameters
        kwargs = {k: v for k, v in kwargs.items() if k in names or k not in LAUNCH_OPTIONS}
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{self.fn.__name__}[grid](...): {e}") from None
        bound.apply_defaults()
        return bound.arguments

    def ir(self, *args, **kwargs):
        """The typed tile IR these arguments build (what `tilescope compile
        --ir` prints for a C++ kernel), without launching."""
        params = self.classify(self.bind(args, kwargs))
        kdef, names, cpp_args, keep = self.specialize(params, staging=None, for_ir=True)
        dtypes = [b.dtype if isinstance(b, ts.Buffer) else "i32" for b in cpp_args]
        consts = [a if not isinstance(a, ts.Buffer) and isinstance(a, int) else 0 for a in cpp_args]
        del keep
        return kdef.ir(dtypes, consts, True)

    # ---- launch ---------------------------------------------------------------
    def launch(self, grid, args, kwargs, where, launch_options=None):
        opts = dict(options.current())
        if self.trace:
            opts["trace"] = self.trace
        opts.update(launch_options or {})
        params = self.classify(self.bind(args, kwargs))
        meta = {name: value for name, (_, _, value) in params.items()}
        grid = _grid(grid(meta) if callable(grid) else grid)
        staging = HostStaging()
        kdef, cpp_names, cpp_args, keep = self.specialize(params, staging)
        native = ts.launch(kdef, cpp_names, grid, cpp_args, opts, where[0], where[1])
        staging.copy_back()
        result = Result(native, self.fn.__name__)
        del keep  # the arrays' buffers stay alive until the launch returned
        options.report(result)
        if result.error and opts.get("raise_on_error", True):
            raise KernelError(result.error)
        return result

    def classify(self, arguments):
        """name -> (kind, dtype, value): kind pointer, scalar or constexpr."""
        constexpr = self.constexpr_params()
        out = {}
        for name, value in arguments.items():
            value = _core.unwrap(value)
            if name in constexpr or value is None:
                out[name] = ("constexpr", None, value)
            elif is_array(value):
                out[name] = ("pointer", None, value)
            elif isinstance(value, (bool, int, float)):
                try:
                    out[name] = ("scalar", scalar_dtype(value), value)
                except OverflowError:
                    raise TypeError(f"{self.fn.__name__}: argument '{name}' = {value} does not fit in 64 bits")
            elif hasattr(value, "item") and hasattr(value, "dtype") and getattr(value, "shape", None) == ():
                item = value.item()  # a numpy scalar
                out[name] = ("scalar", scalar_dtype(item), item)
            else:
                raise TypeError(f"{self.fn.__name__}: argument '{name}' is {type(value).__name__}; a kernel takes "
                                "arrays or tensors (as pointers), ints, floats, and tl.constexpr values")
        return out

    def specialize(self, params, staging, for_ir=False):
        """The KernelDef for these parameters' kinds and dtypes (built once
        per specialization), and the launch's names and arguments. Device
        tensors are staged through `staging`; with for_ir, nothing is read
        from them (only their dtypes matter)."""
        buffers = {}
        for name, (kind, _, value) in params.items():
            if kind == "pointer":
                buffers[name] = as_buffer(name, value, staging, describe_only=for_ir)
        key = tuple((name, kind, dtype if kind != "pointer" else buffers[name].dtype,
                     _const_key(value) if kind == "constexpr" else None)
                    for name, (kind, dtype, value) in params.items())
        cpp_names, cpp_params, cpp_args, order = [], [], [], []
        for name, (kind, dtype, value) in params.items():
            if kind == "constexpr" and not (isinstance(value, int)):
                continue  # only Python sees it: the visitor reads it from the closure below
            cpp_names.append(name)
            order.append(name)
            if kind == "pointer":
                cpp_params.append((name, "pointer", buffers[name].dtype))
                cpp_args.append(buffers[name])
            elif kind == "scalar":
                cpp_params.append((name, "scalar", dtype))
                cpp_args.append(value)
            else:
                cpp_params.append((name, "constant", "i64"))
                cpp_args.append(int(value))
        kdef = self._defs.get(key)
        if kdef is None:
            constants = {name: value for name, (kind, _, value) in params.items() if kind == "constexpr"}

            def build(regs, consts, order=tuple(order), constants=constants):
                env = dict(constants)
                for name, reg in zip(order, regs):
                    if name not in constants:
                        env[name] = ts.Tensor.wrap(reg)
                KernelBuilder(self.fn, env).run_body()

            src = source_of(self.fn)
            kdef = ts.KernelDef(self.fn.__name__, cpp_params, src.file, src.position(src.tree)[0], build)
            self._defs[key] = kdef
        return kdef, cpp_names, cpp_args, list(buffers.values())


def _const_key(value):
    if isinstance(value, (int, float, bool, str, type(None))):
        return (type(value).__name__, value)
    return (type(value).__name__, repr(value))


def _grid(grid):
    if isinstance(grid, int):
        grid = (grid,)
    grid = [int(_core.unwrap(g)) for g in grid]
    if not 1 <= len(grid) <= 3:
        raise ValueError(f"a grid has 1 to 3 dimensions, got {len(grid)}")
    return grid


def _caller(depth):
    """(file, line) of the user's code that launched, for launch errors."""
    frame = sys._getframe(depth)
    while frame is not None and _core.in_tilescope(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return ("<unknown>", 0)
    return (_core.source_path(frame.f_code.co_filename), frame.f_lineno)


def jit(fn=None, **kwargs):
    """@tilescope.jit, with or without Triton's keyword arguments."""
    if fn is None:
        return lambda f: jit(f, **kwargs)
    inner = getattr(fn, "fn", None) if not inspect.isfunction(fn) else None
    return JITFunction(inner if callable(inner) else fn)


def trace(fn):
    """A kernel (a @triton.jit one, a @tilescope.jit one or a plain function)
    whose launches record a full trace: result.trace, save_trace, view."""
    inner = fn.fn if hasattr(fn, "fn") and callable(fn.fn) else fn
    return JITFunction(inner, trace="full")


