"""numpy arrays and torch tensors as tilescope buffers: their own memory,
wrapped (not copied), so results land in them; strides in elements."""
from ._core import ts

# numpy's dtype names and torch's, as tilescope's.
_NUMPY = {"float32": "f32", "float16": "f16", "float64": "f64", "bfloat16": "bf16", "bool": "i1", "int8": "i8",
          "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16", "uint32": "u32",
          "uint64": "u64"}


def is_torch(x):
    return type(x).__module__.startswith("torch") and hasattr(x, "data_ptr")


def is_array(x):
    return is_torch(x) or hasattr(x, "__array_interface__")


def as_buffer(name, x):
    if is_torch(x):
        if x.device.type != "cpu":
            raise TypeError(f"argument '{name}' is a tensor on {x.device}; tilescope interprets kernels on the CPU: "
                            f"pass {name}.cpu() (with gpu_compare=True tilescope runs the GPU side itself)")
        dtype = _NUMPY.get(str(x.dtype).replace("torch.", ""))
        if dtype is None:
            raise TypeError(f"argument '{name}' has dtype {x.dtype}, which tilescope does not have")
        return ts.wrap(name, dtype, x.data_ptr(), list(x.shape), list(x.stride()))
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
    if iface.get("strides") is None:
        strides = []
    else:
        strides = []
        for s in iface["strides"]:
            if s % itemsize:
                raise TypeError(f"argument '{name}' has a stride of {s} bytes, not a whole number of elements")
            strides.append(s // itemsize)
    return ts.wrap(name, dtype, iface["data"][0], shape, strides)
