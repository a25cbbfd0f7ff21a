"""`python3 -m tilescope run --device cpu`: a script written for a GPU runs
unchanged on a host without one, its 'cuda' tensors made in host memory.

Two of torch's public mechanisms do the work:
  - a TorchFunctionMode (torch.overrides) sees every torch function and
    tensor method the script calls, and rewrites a 'cuda' device argument
    (`device='cuda'`, `torch.device('cuda:0')`, `.to('cuda')`, `.cuda()`,
    `pin_memory=True`) to the CPU before torch acts on it;
  - the functions of the public `torch.cuda` module that a script calls to
    ask about or manage its GPU (is_available, synchronize, Event, ...) are
    replaced, for the script's lifetime, by host stand-ins.
What neither can reach (a `torch.device('cuda')` compared with a tensor's
device, `tensor.is_cuda`, torch.Generator(device='cuda'), CUDA graphs,
libraries with their own CUDA code) is listed in docs/python.md."""
import contextlib
import time
import types

# The figures torch.cuda.get_device_properties and triton's driver report
# under the redirect: those of an NVIDIA H100 SXM5 80GB, so that scripts
# sizing their launches from the device make the choices they make there.
DEVICE_NAME = "NVIDIA H100 80GB HBM3 (tilescope --device cpu)"
DEVICE_FIGURES = {
    "total_memory": 85520809984,
    "multi_processor_count": 132,
    "major": 9,
    "minor": 0,
    "max_shared_memory": 232448,
    "max_num_regs": 65536,
    "warp_size": 32,
    "max_threads_per_multi_processor": 2048,
    "clock_rate_khz": 1980000,
    "mem_clock_rate_khz": 2619000,
    "mem_bus_width": 5120,
    "l2_cache_size": 52428800,
}


def device_properties():
    """torch.cuda.get_device_properties()'s answer under the redirect."""
    f = DEVICE_FIGURES
    return types.SimpleNamespace(name=DEVICE_NAME, total_memory=f["total_memory"], major=f["major"],
                                 minor=f["minor"], multi_processor_count=f["multi_processor_count"],
                                 is_integrated=0, is_multi_gpu_board=0, L2_cache_size=f["l2_cache_size"],
                                 max_threads_per_multi_processor=f["max_threads_per_multi_processor"],
                                 warp_size=f["warp_size"], gcnArchName="", uuid="tilescope-cpu")


def _is_cuda(device):
    import torch
    if isinstance(device, torch.device):
        return device.type == "cuda"
    if isinstance(device, str):
        return device == "cuda" or device.startswith("cuda:")
    return False


def _host_device(device):
    import torch
    if _is_cuda(device):
        return torch.device("cpu")
    if isinstance(device, int) and not isinstance(device, bool):
        return torch.device("cpu")  # `device=0` names GPU 0
    return device


def _rewrite(func, args, kwargs):
    """func's arguments with every 'cuda' device made the CPU."""
    import torch
    if "device" in kwargs:
        kwargs["device"] = _host_device(kwargs["device"])
    if kwargs.get("pin_memory"):
        kwargs["pin_memory"] = False
    if func in (torch.Tensor.to,) and len(args) > 1 and (_is_cuda(args[1]) or
                                                         (isinstance(args[1], int) and not isinstance(args[1], bool))):
        args = (args[0], torch.device("cpu")) + tuple(args[2:])
    return args, kwargs


_real = [0]  # > 0: tensors answer with their real device (tilescope's own reads)


class real_devices:
    """Within it, tensors report where they really are (host memory)."""

    def __enter__(self):
        _real[0] += 1

    def __exit__(self, *exc):
        _real[0] -= 1
        return False


def marked(x):
    """Whether tensor x stands for a CUDA tensor of the script."""
    return getattr(x, "_tilescope_cuda", False)


def _mark(value):
    if type(value).__module__.startswith("torch") and hasattr(value, "data_ptr"):
        try:
            value._tilescope_cuda = True
        except AttributeError:
            pass
    elif isinstance(value, (tuple, list)):
        for v in value:
            _mark(v)
    return value


def _any_marked(args, kwargs):
    for a in list(args) + list(kwargs.values()):
        if marked(a) or (isinstance(a, (tuple, list)) and any(marked(v) for v in a)):
            return True
    return False


def _mode_class():
    import torch
    from torch.overrides import TorchFunctionMode
    descriptors = {name: torch._C._TensorBase.__dict__.get(name) for name in ("device", "is_cuda", "is_cpu")}
    cuda0 = torch.device("cuda", 0)

    def answer_property(func, tensor):
        """A marked tensor's device, is_cuda and is_cpu, as on the GPU."""
        owner = getattr(func, "__self__", None)
        if owner is None or _real[0] or not marked(tensor):
            return _NOT_HANDLED
        if owner is descriptors["device"]:
            return cuda0
        if owner is descriptors["is_cuda"]:
            return True
        if owner is descriptors["is_cpu"]:
            return False
        return _NOT_HANDLED

    class CudaToHost(TorchFunctionMode):
        """Every torch call of the script, its 'cuda' devices made the CPU,
        and what it makes of 'cuda' tensors marked as 'cuda' tensors."""

        def __torch_function__(self, func, types_, args=(), kwargs=None):
            kwargs = dict(kwargs or {})
            if args:
                answer = answer_property(func, args[0])
                if answer is not _NOT_HANDLED:
                    return answer
            if func is torch.Tensor.get_device and marked(args[0]):
                return 0
            if func in (torch.Tensor.cuda, torch.Tensor.pin_memory):
                return args[0] if marked(args[0]) else _mark(args[0].clone())
            if func is torch.Tensor.is_pinned:
                return False
            if func is torch.Tensor.cpu or (func is torch.Tensor.to and _to_host(args, kwargs)):
                return args[0].clone() if marked(args[0]) else func(*args, **kwargs)
            to_cuda = _names_cuda(args, kwargs)
            inherit = _any_marked(args, kwargs)
            args, kwargs = _rewrite(func, args, kwargs)
            result = func(*args, **kwargs)
            return _mark(result) if to_cuda or (inherit and not _names_host(kwargs)) else result

    return CudaToHost


_NOT_HANDLED = object()


def _names_cuda(args, kwargs):
    return _is_cuda(kwargs.get("device")) or any(_is_cuda(a) for a in args[1:2])


def _names_host(kwargs):
    device = kwargs.get("device")
    return device is not None and not _is_cuda(device) and not isinstance(device, int)


def _to_host(args, kwargs):
    """tensor.to(...) asks for the host."""
    import torch
    target = kwargs.get("device", args[1] if len(args) > 1 else None)
    if isinstance(target, torch.Tensor):
        return not marked(target) and target.device.type == "cpu"
    return isinstance(target, (str, torch.device)) and torch.device(target).type == "cpu"


class Event:
    """torch.cuda.Event on the host: records wall-clock time."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        self.enable_timing = enable_timing
        self.t = None

    def record(self, stream=None):
        self.t = time.perf_counter()

    def synchronize(self):
        pass

    def wait(self, stream=None):
        pass

    def query(self):
        return True

    def elapsed_time(self, end):
        if self.t is None or end.t is None:
            raise RuntimeError("Event.elapsed_time: both events must be recorded first")
        return (end.t - self.t) * 1000.0


class Stream:
    """torch.cuda.Stream on the host: work is done when it is issued."""

    def __init__(self, device=None, priority=0, **kwargs):
        self.device = device
        self.priority = priority
        self.cuda_stream = 0

    def synchronize(self):
        pass

    def wait_stream(self, stream):
        pass

    def wait_event(self, event):
        pass

    def record_event(self, event=None):
        event = event or Event()
        event.record()
        return event

    def query(self):
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _cuda_stand_ins(torch):
    """name -> host stand-in for the torch.cuda functions scripts call."""
    props = device_properties()
    default_stream = Stream()

    @contextlib.contextmanager
    def device(_=None):
        yield

    @contextlib.contextmanager
    def stream(_=None):
        yield

    zero = (lambda *a, **k: 0)
    nothing = (lambda *a, **k: None)
    return {
        "is_available": lambda: True, "device_count": lambda: 1, "current_device": lambda: 0,
        "set_device": nothing, "synchronize": nothing, "empty_cache": nothing, "init": nothing,
        "is_initialized": lambda: True, "device": device, "stream": stream, "Stream": Stream, "Event": Event,
        "current_stream": lambda *a, **k: default_stream, "default_stream": lambda *a, **k: default_stream,
        "get_device_properties": lambda *a, **k: props, "get_device_name": lambda *a, **k: props.name,
        "get_device_capability": lambda *a, **k: (props.major, props.minor),
        "get_arch_list": lambda: [f"sm_{props.major}{props.minor}"],
        "is_bf16_supported": lambda *a, **k: True,
        "manual_seed": seed_host, "manual_seed_all": seed_host, "seed": nothing, "seed_all": nothing,
        "memory_allocated": zero, "max_memory_allocated": zero,
        "memory_reserved": zero, "max_memory_reserved": zero, "reset_peak_memory_stats": nothing,
        "reset_max_memory_allocated": nothing, "reset_accumulated_memory_stats": nothing,
        "mem_get_info": lambda *a, **k: (props.total_memory, props.total_memory),
    }


def seed_host(seed):
    """torch.cuda.manual_seed: the 'cuda' generator is the host's."""
    import torch
    torch.default_generator.manual_seed(int(seed))


class CudaRedirect:
    """The redirect, entered for a script's lifetime (a context manager)."""

    def __init__(self):
        self._saved = {}
        self._mode = None

    def __enter__(self):
        import torch
        cuda = torch.cuda
        for name, fn in _cuda_stand_ins(torch).items():
            self._saved[(cuda, name)] = getattr(cuda, name, _MISSING)
            setattr(cuda, name, fn)
        if hasattr(torch, "set_default_device"):
            real = torch.set_default_device
            self._saved[(torch, "set_default_device")] = real
            torch.set_default_device = lambda device: real(_host_device(device))
        self._mode = _mode_class()()
        self._mode.__enter__()
        return self

    def __exit__(self, *exc):
        self._mode.__exit__(*exc)
        for (owner, name), value in self._saved.items():
            if value is _MISSING:
                delattr(owner, name)
            else:
                setattr(owner, name, value)
        self._saved.clear()
        return False


_MISSING = object()


def torch_has_cuda():
    """Whether torch is importable and sees a GPU (no torch: False)."""
    try:
        import torch
    except ImportError:
        return False
    try:
        return bool(torch.cuda.is_available())
    except Exception:
        return False


def torch_importable():
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True
