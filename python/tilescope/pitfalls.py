"""Mistakes people make in Python itself while writing a tile kernel, each
caught while building, at its line, with a message that names the fix.

Measured in Triton 3.6: a chained comparison in a mask gets only
"simultaneous multiple comparison is not supported" from its compiler and
runs silently in its interpreter; a missing comma before a parenthesis
gets "unhashable type: 'tensor'".
"""
import ast

_OPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
        ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
_BITOPS = (ast.BitAnd, ast.BitOr, ast.BitXor)


def chained_comparison(v, node):
    """`a < n & b < m` is Python's `a < (n & b) < m`, not two masks."""
    seg = lambda n: v.src.segment(n, parens=True)  # noqa: E731
    parts = [node.left] + node.comparators
    middle = [p for p in parts[1:-1] if isinstance(p, ast.BinOp) and isinstance(p.op, _BITOPS)]
    if middle:
        m = middle[0]
        sym = {ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^"}[type(m.op)]
        i = parts.index(m)
        first = f"({seg(parts[i - 1])} {_OPS[type(node.ops[i - 1])]} {seg(m.left)})"
        second = f"({seg(m.right)} {_OPS[type(node.ops[i])]} {seg(parts[i + 1])})"
        return v.error(node, f"'{seg(node)}' is a chained comparison: in Python '{sym}' binds tighter than "
                             f"'{_OPS[type(node.ops[i - 1])]}', so this compares against '{seg(m)}'; parenthesize "
                             f"each comparison: {first} {sym} {second}")
    return v.error(node, f"'{seg(node)}' is a chained comparison, which tiles do not have; write each "
                         "comparison in parentheses and combine them with & (e.g. (a < b) & (b < c))")


def tile_called(v, node):
    """`(mids + i) ((mids + r) < N0)`: a missing comma makes a call of a tile."""
    seg = lambda n: v.src.segment(n, parens=True)  # noqa: E731
    if node.args and not node.keywords:
        args = ", ".join(v.src.segment(a) for a in node.args)
        return v.error(node, f"'{seg(node)}' calls the tile '{seg(node.func)}' as if it were a function: a comma "
                             f"is missing before the parenthesis; write '{seg(node.func)}, {args}'")
    return v.error(node, f"'{seg(node.func)}' is a tile, not a function: a tile cannot be called")


def python_print(v, node):
    return v.error(node, "Python's print runs once while the kernel is built, not in each program; use "
                         "tl.device_print(\"x\", x) to print tiles at run time, or tl.static_print for "
                         "build-time values")


def python_assert(v, node):
    return v.error(node, "Python's assert is not a kernel check; use tl.device_assert(cond, \"msg\") to check "
                         "tiles at run time, or tl.static_assert(cond, \"msg\") for build-time values")


def tile_as_bool(v, node, tile, where):
    shape = list(tile.shape)
    return v.error(node, f"a tile {tile.type} used as {where}: Python needs one bool here; use tl.where(cond, a, b) "
                         "to choose per lane" + (", or reduce it first (e.g. tl.max(x) > 0)" if shape else ""))


def check_condition(v, node, tile, keyword):
    if list(tile.shape):
        raise tile_as_bool(v, node, tile, f"the condition of '{keyword}'")


def unsupported_operator(v, node, op):
    if isinstance(op, ast.MatMult):
        return v.error(node, "'@' on tiles: use tl.dot(a, b) for a matrix product")
    if isinstance(op, ast.Pow):
        return v.error(node, "'**' on tiles is not supported: use x * x, or tl.exp2(y * tl.log2(x))")
    return v.error(node, f"the operator {type(op).__name__} is not supported on tiles")


def construct_name(node):
    names = {"Lambda": "a lambda", "ListComp": "a list comprehension", "DictComp": "a dict comprehension",
             "SetComp": "a set comprehension", "GeneratorExp": "a generator expression", "Dict": "a dict display",
             "Set": "a set display", "Await": "await", "Yield": "yield", "YieldFrom": "yield from",
             "NamedExpr": "an assignment expression (:=)", "Starred": "a starred expression",
             "Slice": "a slice outside indexing"}
    return names.get(type(node).__name__, f"the expression '{type(node).__name__}'")

