"""`x.attr` in a kernel: what a tile, a Python number or any build-time
object answers, as Triton answers it.

A tile's `dtype` is its element type, a pointer_type for a tile of
pointers (so `ptr.dtype.element_ty` is what it points to); its `type` is
that element type for a 0-d tensor and a block_type (element type and
shape) otherwise, as Triton's `x.type`. Methods (`x.to`, `x.sum`, ...)
are the builtins with the tile first. A Python number used like a tile
(`(-float("inf")).to(tl.float32)`) is a 0-d tensor first, as Triton's
constexpr numbers are.
"""
from . import _core, language
from . import builtins as tl_builtins
from ._core import Tensor, ts


class BoundMethod:
    """x.sum / x.to ... : a builtin waiting for its call, with x first."""

    def __init__(self, fn, tile, name):
        self.fn = fn
        self.tile = tile
        self.name = name


def attribute(builder, base, node):
    """The value of `base.<node.attr>`; build errors at the node."""
    if isinstance(base, Tensor):
        return tensor_attribute(builder, base, node)
    if isinstance(base, (int, float)) and not isinstance(base, bool) and node.attr in tl_builtins.TENSOR_METHODS:
        builder.at(node)
        return BoundMethod(tl_builtins.TABLE[node.attr], ts.scalar(base), node.attr)
    try:
        return language.ours(getattr(base, node.attr))
    except AttributeError:
        raise builder.error(node, f"{_core.describe(base)} has no attribute '{node.attr}'") from None


def tensor_attribute(builder, t, node):
    attr = node.attr
    if attr == "dtype":
        return language.type_of(t.dtype, t.is_ptr)
    if attr == "type":
        return language.type_of(t.dtype, t.is_ptr, tuple(t.shape))
    if attr == "shape":
        return tuple(t.shape)
    if attr == "numel":
        n = 1
        for s in t.shape:
            n *= s
        return n
    if attr == "T":
        builder.at(node)
        return ts.trans(t)
    if attr in tl_builtins.TENSOR_METHODS:
        return BoundMethod(tl_builtins.TABLE[attr], t, attr)
    raise builder.error(node, f"a tile has no attribute '{attr}'")
