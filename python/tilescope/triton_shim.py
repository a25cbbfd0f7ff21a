"""`triton` for scripts run by `python3 -m tilescope run` where Triton is not
installed (a laptop, a machine without an NVIDIA GPU, CI): triton.jit,
triton.cdiv, triton.language and the decorators scripts commonly use,
so that `import triton` and `import triton.language as tl` work unchanged.
Where Triton is installed, its own modules stay and only triton.jit is
replaced, so every kernel is launched through tilescope."""
import importlib.util
import sys
import types

from . import language
from .jit import JITFunction, jit


class Config:
    def __init__(self, kwargs=None, num_warps=4, num_stages=2, num_ctas=1, maxnreg=None, pre_hook=None, **rest):
        self.kwargs = dict(kwargs or {})
        self.num_warps = num_warps
        self.num_stages = num_stages


class _Tuned:
    """@triton.autotune / @triton.heuristics over a kernel: tilescope checks
    correctness, so it launches the first configuration."""

    def __init__(self, kernel, configs=(), values=None):
        self.kernel = kernel
        self.configs = list(configs)
        self.values = values or {}
        self.fn = kernel.fn if hasattr(kernel, "fn") else kernel

    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            if self.configs:
                kwargs = {**self.configs[0].kwargs, **kwargs}
            if self.values:
                names = list(self._signature().parameters)
                meta = {**dict(zip(names, args)), **kwargs}
                for k, f in self.values.items():
                    kwargs[k] = f(meta)
            return self.kernel[grid](*args, **kwargs)
        return launch

    def _signature(self):
        import inspect
        return inspect.signature(self.fn)


def autotune(configs, key=None, **kwargs):
    return lambda kernel: _Tuned(kernel, configs=configs)


def heuristics(values):
    return lambda kernel: _Tuned(kernel, values=values)


def cdiv(x, y):
    return (x + y - 1) // y


def next_power_of_2(n):
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


def _module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


def install():
    """Makes `import triton` work and launch through tilescope; returns
    "triton" when Triton itself is installed, "tilescope" when provided."""
    if "triton" in sys.modules and isinstance(getattr(sys.modules["triton"], "jit", None), type(jit)) and \
            sys.modules["triton"].jit is jit:
        return "tilescope"
    if importlib.util.find_spec("triton") is not None:
        import triton
        triton.jit = jit
        return "triton"
    tl = language
    sys.modules["triton.language"] = tl
    _module("triton.language.math", **vars(tl.math))
    extra = _module("triton.language.extra")
    extra.libdevice = _module("triton.language.extra.libdevice", **vars(tl.math))
    extra.cuda = _module("triton.language.extra.cuda")
    extra.cuda.libdevice = extra.libdevice
    testing = _module("triton.testing", do_bench=lambda fn, *a, **k: (fn(), 0.0)[1])
    _module("triton", jit=jit, cdiv=cdiv, next_power_of_2=next_power_of_2, language=tl, Config=Config,
            autotune=autotune, heuristics=heuristics, testing=testing, JITFunction=JITFunction,
            __version__="tilescope")
    return "tilescope"


def uninstall():
    for name in [n for n in sys.modules if n == "triton" or n.startswith("triton.")]:
        if getattr(sys.modules[name], "__version__", None) == "tilescope" or name.startswith("triton.language"):
            del sys.modules[name]
