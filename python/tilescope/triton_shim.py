"""`import triton` for scripts run by `python3 -m tilescope run`.

Where Triton is not installed (a laptop, a machine without an NVIDIA GPU,
CI), tilescope provides the `triton` package: every name Triton's tutorials
and common kernel libraries import, each working or a named no-op
(docs/python.md lists them). Where Triton is installed, its own modules
stay; tilescope replaces triton.jit (so every kernel launches through
tilescope), hands Triton's autotune a benchmark function that never times
interpreted runs, and makes Triton's benchmark helpers skip."""
import importlib.util
import sys
import types

from . import language, triton_runtime, triton_testing, tuning
from .compiled import CompiledKernel
from .jit import JITFunction, KernelParam, jit

# The Triton release whose Python API tilescope follows, with a local tag
# (PEP 440) so version checks in libraries compare as they would there.
TRITON_API_VERSION = "3.6.0+tilescope"


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


def _language_modules():
    tl = language
    sys.modules["triton.language"] = tl
    math = _module("triton.language.math", **vars(tl.math))
    extra = _module("triton.language.extra")
    extra.libdevice = _module("triton.language.extra.libdevice", **vars(tl.libdevice))
    extra.cuda = _module("triton.language.extra.cuda", libdevice=extra.libdevice)
    sys.modules["triton.language.extra.cuda.libdevice"] = extra.libdevice
    core = _module("triton.language.core", **{k: v for k, v in vars(tl).items() if not k.startswith("__")})
    return tl, math, extra, core


def _runtime_modules():
    rt = triton_runtime
    jit_module = _module("triton.runtime.jit", JITFunction=JITFunction, KernelParam=KernelParam, jit=jit)
    autotuner = _module("triton.runtime.autotuner", Autotuner=tuning.Autotuner, Heuristics=tuning.Heuristics,
                        Config=tuning.Config, autotune=tuning.autotune, heuristics=tuning.heuristics)
    errors = _module("triton.runtime.errors", OutOfResources=rt.OutOfResources)
    driver = _module("triton.runtime.driver", driver=rt.driver, active=rt.driver.active)
    runtime = _module("triton.runtime", driver=rt.driver, jit=jit_module, autotuner=autotuner, errors=errors,
                      JITFunction=JITFunction, Autotuner=tuning.Autotuner, Heuristics=tuning.Heuristics,
                      Config=tuning.Config, OutOfResources=rt.OutOfResources, KernelInterface=object)
    del driver
    return runtime


def _testing_module():
    t = triton_testing
    return _module("triton.testing", do_bench=t.do_bench, do_bench_cudagraph=t.do_bench_cudagraph,
                   perf_report=t.perf_report, Benchmark=t.Benchmark, Mark=t.Mark, assert_close=t.assert_close,
                   get_dram_gbps=t.get_dram_gbps, get_max_tensorcore_tflops=t.get_max_tensorcore_tflops,
                   set_gpu_clock=t.set_gpu_clock)


def _tools_modules():
    desc = _module("triton.tools.tensor_descriptor", TensorDescriptor=triton_runtime.TensorDescriptor)
    return _module("triton.tools", tensor_descriptor=desc)


def _provide():
    """Builds the `triton` package tilescope provides."""
    rt = triton_runtime
    tl, _, _, _ = _language_modules()
    runtime = _runtime_modules()
    profiler = _module("triton.profiler", **vars(rt.profiler))
    _module("triton.profiler.viewer", parse=lambda *a, **k: None)
    lib = rt.libtriton()
    _module("triton._C.libtriton", **vars(lib))
    _module("triton._C", libtriton=sys.modules["triton._C.libtriton"])
    compiler = _module("triton.compiler", CompiledKernel=CompiledKernel,
                       errors=_module("triton.compiler.errors", CompilationError=SyntaxError))
    _module("triton", jit=jit, cdiv=cdiv, next_power_of_2=next_power_of_2, language=tl, Config=tuning.Config,
            autotune=tuning.autotune, heuristics=tuning.heuristics, testing=_testing_module(),
            runtime=runtime, tools=_tools_modules(), profiler=profiler, compiler=compiler,
            JITFunction=JITFunction, KernelInterface=object, OutOfResources=rt.OutOfResources,
            CompilationError=SyntaxError, TensorWrapper=rt.TensorWrapper, reinterpret=rt.reinterpret,
            set_allocator=rt.set_allocator, must_use_result=lambda fn: fn, __version__=TRITON_API_VERSION,
            __tilescope__=True)


def _over_installed_triton():
    """Triton is installed: its modules stay; launches go through tilescope."""
    import triton
    import triton.testing
    triton.jit = jit
    triton.autotune = tuning.over_triton(triton.autotune)
    for name in ("do_bench", "do_bench_cudagraph", "perf_report"):
        setattr(triton.testing, name, getattr(triton_testing, name))


def triton_installed():
    """Whether Triton itself is installed (not the module tilescope provides)."""
    current = sys.modules.get("triton")
    if current is not None:
        return not getattr(current, "__tilescope__", False)
    try:
        return importlib.util.find_spec("triton") is not None
    except ValueError:
        return False


def install():
    """Makes `import triton` work and launch through tilescope; returns
    "triton" when Triton itself is installed, "tilescope" when provided."""
    current = sys.modules.get("triton")
    if current is not None and getattr(current, "jit", None) is jit:
        return "tilescope" if getattr(current, "__tilescope__", False) else "triton"
    if triton_installed():
        _over_installed_triton()
        return "triton"
    _provide()
    return "tilescope"


def uninstall():
    """Removes the `triton` package tilescope provided (not Triton's own)."""
    if not getattr(sys.modules.get("triton"), "__tilescope__", False):
        return
    for name in [n for n in sys.modules if n == "triton" or n.startswith("triton.")]:
        del sys.modules[name]
