"""The extension module, the location being built, and the few helpers the
visitor and the builtins share."""
import os

try:
    import _tilescope as ts
except ImportError as e:  # pragma: no cover - depends on the build
    raise ImportError(
        "tilescope's extension module _tilescope was not found: build tilescope (cmake --build build) and put "
        "build/python on PYTHONPATH beside python/, e.g. PYTHONPATH=python:build/python") from e

Tensor = ts.Tensor
BuildError = ts.BuildError

# Where the visitor is: (file, line, col) of the node being built. The C++
# side has its own copy (ts.at / ts.at_file) for the semantic functions.
_loc = ["<unknown>", 0, 0]


def set_file(path):
    _loc[0] = path
    ts.at_file(path)


def set_loc(line, col):
    _loc[1] = line
    _loc[2] = col
    ts.at(line, col)


def loc():
    return tuple(_loc)


def build_error(message, line=None, col=None):
    """A BuildError at the node being built (or the given line and column)."""
    return BuildError(_loc[0], _loc[1] if line is None else line, _loc[2] if col is None else col, message)


def format_error(e):
    """A BuildError as the compiler-style text: file:line:col: error: ..."""
    file, line, col, message = e.args
    return ts.format_diagnostic(file, line, col, "error", message)


def unwrap(x):
    """A constexpr wrapper (ours or Triton's) as its value."""
    t = type(x)
    if t.__name__ == "constexpr" and hasattr(x, "value"):
        return x.value
    return x


def describe(x):
    if isinstance(x, Tensor):
        return f"a tile {x.type}"
    if x is None:
        return "None"
    return f"{type(x).__name__} {x!r}"


def describe_value(x):
    x = unwrap(x)
    return f"<tile {x.type}>" if isinstance(x, Tensor) else x


def tile(x):
    """A tile, or a Python number as a 0-d tile."""
    x = unwrap(x)
    if isinstance(x, Tensor):
        return x
    if isinstance(x, (bool, int, float)):
        return ts.scalar(x)
    raise build_error(f"expected a tile or a number, got {describe(x)}")


# ---- Block pointers: bound when the C++ layer has them --------------------

def is_block_ptr(x):
    return hasattr(ts, "BlockPtr") and isinstance(x, ts.BlockPtr)


def make_block_ptr(base, shape, strides, offsets, block_shape, order):
    if not hasattr(ts, "make_block_ptr"):
        raise build_error("tl.make_block_ptr is not supported by this build of tilescope")
    ints = lambda xs: [unwrap(v) for v in xs]  # noqa: E731
    return ts.make_block_ptr(base, ints(shape), ints(strides), ints(offsets),
                             [int(unwrap(b)) for b in block_shape], [int(unwrap(o)) for o in order])


def advance(base, offsets):
    if not is_block_ptr(base):
        raise build_error(f"tl.advance takes a block pointer (tl.make_block_ptr), got {describe(base)}")
    return ts.advance(base, [unwrap(v) for v in offsets])


def _dims(boundary_check):
    boundary_check = unwrap(boundary_check)
    if isinstance(boundary_check, int):
        return [boundary_check]
    return [int(unwrap(d)) for d in (boundary_check or ())]


def block_load(ptr, boundary_check, padding_option):
    padding = unwrap(padding_option) or ""
    if padding not in ("", "zero", "nan"):
        raise build_error(f'padding_option must be "zero" or "nan", got "{padding}"')
    return ts.block_load(ptr, _dims(boundary_check), padding)


def block_store(ptr, value, boundary_check):
    ts.block_store(ptr, unwrap(value), _dims(boundary_check))


def source_path(path):
    """A file path as diagnostics show it (absolute, so the source line can be read)."""
    return os.path.abspath(path) if path and not path.startswith("<") else path


def in_tilescope(frame_file):
    return os.path.dirname(os.path.abspath(frame_file)) == os.path.dirname(os.path.abspath(__file__))

