"""numpy arrays and torch tensors as tilescope buffers, strides in elements.

Host memory (numpy arrays, CPU tensors) is wrapped, not copied: results land
in it. Tensors on a GPU are staged the way Triton's own interpreter does it:
each device storage a launch touches is copied to host memory once, every
view of it is wrapped at its own offset and strides inside that one copy (so
what a kernel writes through one view, it reads through another), and after
the launch only the storages whose bytes the kernel changed are copied back."""
from ._core import ts

# numpy's dtype names and torch's, as tilescope's.
_NUMPY = {"float32": "f32", "float16": "f16", "float64": "f64", "bfloat16": "bf16", "bool": "i1", "int8": "i8",
          "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32",
          "uint64": "u64"}


def is_torch(x):
    return type(x).__module__.startswith("torch") and hasattr(x, "data_ptr")


def is_array(x):
    """A buffer argument: a numpy array, a torch tensor, or a tensor seen
    through triton.reinterpret."""
    return is_torch(x) or hasattr(x, "__array_interface__") or type(x).__name__ == "TensorWrapper"


class HostStaging:
    """Host copies of the device storages one launch touches."""

    def __init__(self):
        self._storages = {}  # (device, storage pointer) -> [device bytes, host bytes, host bytes before]

    def host_pointer(self, x):
        """The address, in host memory, of device tensor x's first element."""
        import torch
        storage = x.untyped_storage()
        key = (str(x.device), storage.data_ptr())
        entry = self._storages.get(key)
        if entry is None:
            device_bytes = torch.empty(0, dtype=torch.uint8, device=x.device).set_(storage)
            host = device_bytes.cpu()
            entry = self._storages[key] = [device_bytes, host, host.clone()]
        return entry[1].data_ptr() + x.storage_offset() * x.element_size()

    def copy_back(self):
        """Writes back each storage the kernel changed; returns their count."""
        changed = 0
        for device_bytes, host, before in self._storages.values():
            if not host.equal(before):
                device_bytes.copy_(host)
                changed += 1
        self._storages.clear()
        return changed

    def __bool__(self):
        return bool(self._storages)


def torch_dtype_name(x):
    return str(x.dtype).replace("torch.", "")


def as_buffer(name, x, staging=None, describe_only=False):
    """x as a tilescope buffer. describe_only: for building the IR, where
    only the dtype and shape matter (a device tensor is not staged)."""
    from .triton_runtime import TensorWrapper
    if isinstance(x, TensorWrapper):
        dtype = getattr(x.dtype, "ts_name", None) or _NUMPY.get(str(x.dtype).replace("torch.", ""))
        if dtype is None:
            raise TypeError(f"argument '{name}' is reinterpreted as {x.dtype}, which tilescope does not have")
        return ts.wrap(name, dtype, buffer_pointer(x.base, staging, describe_only), list(x.shape), list(x.stride()))
    if is_torch(x):
        dtype = _NUMPY.get(torch_dtype_name(x))
        if dtype is None:
            raise TypeError(f"argument '{name}' has dtype {x.dtype}, which tilescope does not have")
        return ts.wrap(name, dtype, buffer_pointer(x, staging, describe_only, name), list(x.shape),
                       list(x.stride()))
    return _numpy_buffer(name, x)


def buffer_pointer(x, staging, describe_only, name="x"):
    """Where the interpreter reads torch tensor x: its own memory on the
    host, its staged copy for a device tensor."""
    from .cuda_redirect import real_devices
    with real_devices():  # under --device cpu, 'cuda' tensors are host tensors
        on_host = x.device.type == "cpu"
    if on_host:
        return x.data_ptr()
    if describe_only:
        return 0
    if staging is not None:
        return staging.host_pointer(x)
    raise TypeError(f"argument '{name}' is a tensor on {x.device}, which this launch cannot stage to "
                    f"host memory: pass {name}.cpu()")


def _numpy_buffer(name, x):
    iface = x.__array_interface__
    import numpy as np
    dt = np.dtype(iface["typestr"]) if "descr" not in iface or len(iface["descr"]) <= 1 else x.dtype
    dtype = _NUMPY.get(getattr(x, "dtype", dt).name)
    if dtype is None:
        raise TypeError(f"argument '{name}' has dtype {getattr(x, 'dtype', dt)}, which tilescope does not have")
    if iface.get("readonly") or (iface["data"][1] if isinstance(iface["data"], tuple) else False):
        raise TypeError(f"argument '{name}' is a read-only array; a kernel's buffers must be writable "
                        f"(np.array({name}) makes a writable copy)")
    shape = list(iface["shape"])
    itemsize = dt.itemsize
    strides = []
    for s in iface.get("strides") or []:
        if s % itemsize:
            raise TypeError(f"argument '{name}' has a stride of {s} bytes, not a whole number of elements")
        strides.append(s // itemsize)
    return ts.wrap(name, dtype, iface["data"][0], shape, strides)
