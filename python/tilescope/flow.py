"""Early `return` inside a runtime `if`, as Triton allows it.

An `if` that holds a `return` (at any depth, constexpr branches included)
takes the rest of its block with it: `if c: A; return` followed by R is
built as `if c: A else: R`, and so on up the enclosing blocks. Each
branch then runs to the end of the function, so it is built as the
function's continuation: with the names as they were before the `if`,
free to rebind them (nothing after the `if` reads them), and a program
whose branch returned runs nothing after it: its later loads and stores
are skipped. A function that returns values joins them after the `if`.

`return` inside a runtime loop stays an error, as in Triton's compiler.
"""
import ast

from . import _core
from ._core import Tensor, ts


class Return(Exception):
    """A `return` being built: unwinds to the function's or branch's end."""

    def __init__(self, value):
        self.value = value


def holds_return(stmt):
    """Whether a statement holds a `return` of its own function."""
    todo = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        todo.extend(ast.iter_child_nodes(node))
    return False


def tail_branch(builder, stmts, saved_env):
    """Builds one branch of a returning runtime if (inside the C++ block
    ts.if_ has open): (returned, value)."""
    env, bound, depth = builder.env, builder.bound_at, builder.depth
    builder.depth += 1
    builder.env = dict(saved_env)
    builder.bound_at = {name: builder.depth for name in builder.env}
    builder.runtime_kinds.append("if")
    try:
        builder.block(stmts)
        return False, None
    except Return as r:
        value = _core.unwrap(r.value)
        if isinstance(value, (bool, int, float)):
            value = ts.scalar(value)  # a number returned here is a 0-d tensor of this branch
        return True, value
    finally:
        builder.env, builder.bound_at, builder.depth = env, bound, depth
        builder.runtime_kinds.pop()


def returning_if(builder, node, cond, body, orelse):
    """A runtime if whose branches both end the function; raises Return
    with the joined value when either branch returned."""
    saved = dict(builder.env)
    out = {}
    then_body = lambda: out.__setitem__("then", tail_branch(builder, body, saved))  # noqa: E731
    else_body = (lambda: out.__setitem__("else", tail_branch(builder, orelse, saved))) if orelse else None  # noqa
    builder.at(node)
    ts.if_(cond, then_body, else_body)
    then_ret, then_value = out["then"]
    else_ret, else_value = out.get("else", (False, None))
    if not then_ret and not else_ret:
        return
    if then_value is None and else_value is None:
        raise Return(None)
    if not (isinstance(then_value, Tensor) and isinstance(else_value, Tensor)):
        raise builder.error(node, "this function returns a value on one path through this if and none on another; "
                                  "return a value on every path")
    builder.at(node)
    raise Return(ts.join_if(then_value, else_value, "the returned value"))
