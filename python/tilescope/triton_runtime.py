"""The parts of Triton's host-side API that scripts touch besides launching:
the active driver (device, target, device properties), what `warmup`
returns, the allocator hook, the profiler, tensor descriptors and
`reinterpret`, for the `triton` module tilescope provides where Triton is
not installed. Each either works or is a named no-op (docs/python.md)."""
import contextlib
import types

from . import cuda_redirect


class OutOfResources(Exception):
    """Triton raises it when a kernel needs more registers or shared memory
    than the device has; tilescope never does, scripts catch it."""

    def __init__(self, required=0, limit=0, name="shared memory"):
        self.required, self.limit, self.name = required, limit, name
        super().__init__(f"out of resource: {name}, required: {required}, hardware limit: {limit}")


class GPUTarget:
    def __init__(self, backend="cuda", arch=90, warp_size=32):
        self.backend, self.arch, self.warp_size = backend, arch, warp_size

    def __repr__(self):
        return f"GPUTarget(backend='{self.backend}', arch={self.arch!r}, warp_size={self.warp_size})"


def _torch_device():
    """The device a script makes its tensors on: cuda:0 where torch has a
    GPU or its cuda device is redirected to the host (--device cpu)."""
    import torch
    return torch.device("cuda", 0) if _redirected() or cuda_redirect.torch_has_cuda() else torch.device("cpu")


def _redirected():
    from . import options
    return options.current().get("device") == "cpu"


def device_properties_dict(device=None):
    """driver.active.utils.get_device_properties(): Triton's keys."""
    f = cuda_redirect.DEVICE_FIGURES
    return {"max_shared_mem": f["max_shared_memory"], "max_num_regs": f["max_num_regs"],
            "multiprocessor_count": f["multi_processor_count"], "warpSize": f["warp_size"],
            "sm_clock_rate": f["clock_rate_khz"], "mem_clock_rate": f["mem_clock_rate_khz"],
            "mem_bus_width": f["mem_bus_width"], "max_threads_per_sm": f["max_threads_per_multi_processor"]}


class _Benchmarker:
    def __call__(self, fn, *args, **kwargs):
        from .triton_testing import do_bench
        return do_bench(fn, *args, **kwargs)


def _driver():
    utils = types.SimpleNamespace(get_device_properties=device_properties_dict)
    major, minor = cuda_redirect.DEVICE_FIGURES["major"], cuda_redirect.DEVICE_FIGURES["minor"]
    active = types.SimpleNamespace(
        get_active_torch_device=_torch_device,
        get_current_target=lambda: GPUTarget("cuda", major * 10 + minor, 32),
        get_current_device=lambda: 0, set_current_device=lambda device: None,
        get_current_stream=lambda device=None: 0, get_device_capability=lambda device=None: (major, minor),
        get_benchmarker=_Benchmarker, get_empty_cache_for_benchmark=lambda: None,
        clear_cache=lambda cache: None, utils=utils)
    return types.SimpleNamespace(active=active, default=active, set_active=lambda driver: None,
                                 reset_active=lambda: None)


driver = _driver()

_allocator = [None]


def set_allocator(allocator):
    """Kept for kernels that ask for global scratch memory; tilescope's
    interpreter gives it from host memory itself."""
    _allocator[0] = allocator


class TensorWrapper:
    """triton.reinterpret(tensor, dtype): the same memory read as dtype."""

    def __init__(self, base, dtype):
        self.base = base
        self.dtype = dtype
        self.data = base
        self.device = base.device
        self.shape = base.shape

    def data_ptr(self):
        return self.base.data_ptr()

    def stride(self, *args):
        return self.base.stride(*args)

    def element_size(self):
        return self.base.element_size()

    def numel(self):
        return self.base.numel()

    def dim(self):
        return self.base.dim()

    def __str__(self):
        return f"TensorWrapper[{self.dtype}]({self.base})"


def reinterpret(tensor, dtype):
    if isinstance(tensor, TensorWrapper):
        return tensor.base if dtype == tensor.base.dtype else TensorWrapper(tensor.base, dtype)
    return TensorWrapper(tensor, dtype)


class TensorDescriptor:
    """triton.tools.tensor_descriptor.TensorDescriptor, host side: a tensor
    with the shape, strides and block shape a kernel's descriptor reads."""

    def __init__(self, base, shape, strides, block_shape, padding="zero"):
        self.base = base
        self.shape = list(shape)
        self.strides = list(strides)
        self.block_shape = list(block_shape)
        self.padding = padding
        if len(self.shape) != len(self.strides) or len(self.shape) != len(self.block_shape):
            raise ValueError(f"TensorDescriptor: shape {self.shape}, strides {self.strides} and block_shape "
                             f"{self.block_shape} must have the same rank")

    @staticmethod
    def from_tensor(tensor, block_shape, padding="zero"):
        return TensorDescriptor(tensor, tensor.shape, tensor.stride(), block_shape, padding)


@contextlib.contextmanager
def _scope(name, metrics=None):
    yield


def _profiler():
    """triton.profiler (proton): sessions and scopes are named no-ops."""
    nothing = (lambda *a, **k: None)
    return types.SimpleNamespace(start=lambda *a, **k: 0, activate=nothing, deactivate=nothing, finalize=nothing,
                                 scope=_scope, cpu_timed_scope=_scope, enter_scope=nothing, exit_scope=nothing,
                                 set_source=nothing, state=_scope, language=types.SimpleNamespace())


profiler = _profiler()


class CublasLt:
    """triton._C.libtriton.nvidia.cublas.CublasLt: matrix products that
    scripts compare kernels with, computed by torch on the tensors' device."""

    def __init__(self, workspace=None):
        self.workspace = workspace

    def matmul(self, a, b, c):
        import torch
        c.copy_(torch.matmul(a.float(), b.float()).to(c.dtype))

    def gemm(self, a, b, c, d, alpha=1.0, beta=0.0):
        import torch
        d.copy_((alpha * torch.matmul(a.float(), b.float()) + beta * c.float()).to(d.dtype))


def libtriton():
    """triton._C.libtriton as far as scripts reach into it."""
    nvidia = types.SimpleNamespace(cublas=types.SimpleNamespace(CublasLt=CublasLt))
    return types.SimpleNamespace(nvidia=nvidia)
