"""What the kernel builder knows of the names it meets: Triton's builtins
(however a script spells them), jit functions, constexpr annotations, and
the names a block of statements assigns."""
import ast

class _Undefined:
    """A name bound only inside a runtime loop or if, used after it."""

    def __init__(self, name, kind):
        self.name = name
        self.kind = kind


def builtin_name(obj):
    """The Triton builtin `obj` is (tl.load, triton.language.math.exp, triton.cdiv, ...), or None."""
    name = getattr(obj, "_ts_builtin", None)
    if name:
        return name
    # Triton writes some of its builtins (tl.sum, tl.max, tl.cdiv, tl.sigmoid,
    # ...) as @jit functions in triton/language/standard.py: they are its
    # builtins all the same, resolved by name, never inlined.
    inner = getattr(obj, "fn", None)
    if callable(inner) and not isinstance(obj, type) and \
            (getattr(inner, "__module__", "") or "").startswith("triton.language"):
        return inner.__name__
    module = getattr(obj, "__module__", None) or ""
    if isinstance(obj, type) and module.startswith("triton.language") and obj.__name__ in ("range", "static_range"):
        return obj.__name__  # classes in Triton: the loop iterables
    if module.startswith("triton.language") or module in ("triton", "triton.runtime", "triton.runtime.jit"):
        fname = getattr(obj, "__name__", None)
        if fname == "jit":
            return None
        if fname and callable(obj) and not isinstance(obj, type):
            return fname
    return None


def jit_function(obj):
    """The Python function of a @triton.jit / @tilescope.jit object, or None."""
    if getattr(obj, "_ts_jit", False):
        return obj.fn
    if type(obj).__name__ in ("JITFunction", "KernelInterface", "InterpretedFunction") and callable(
            getattr(obj, "fn", None)):
        return obj.fn
    return None


def is_constexpr_annotation(node, src):
    if node is None:
        return False
    # `B: tl.constexpr`, and the string form `B: "tl.constexpr"` Triton accepts too.
    text = src.segment(node).strip().strip("'\"").strip()
    return text.endswith("constexpr")


def assigned_names(nodes):
    """Every name a list of statements assigns (loop-carried candidates)."""
    names = set()
    for stmt in nodes:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                names.add(n.id)
    return names
