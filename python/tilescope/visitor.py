"""The AST visitor: builds tilescope IR from a kernel's Python source.

It handles syntax only: names and scopes, build-time (constexpr) values,
control flow, calls of other jit functions, and source locations. Every
tile operation goes to the C++ semantic layer through builtins.py or the
operator table below; no promotion, broadcasting or shape rule is here.

Build time vs run time, as in Triton: Python values (constexpr parameters,
numbers, dtypes, tuples) are computed here while building; tiles are IR
values. An `if` on a Python value picks a branch; on a tile it is an IR
if. `for` over range / tl.range is one IR loop; tl.static_range unrolls.
"""
import ast
import builtins as py_builtins
import operator

from . import _core, attributes, flow, pitfalls
from . import builtins as tl_builtins
from ._core import Tensor, ts
from .kernel_names import _Undefined, assigned_names, builtin_name, is_constexpr_annotation, jit_function  # noqa: F401
from .kernel_statements import StatementBuilder
from .source import source_of

# Python operator -> (C++ semantic function, Python's own for constexprs).
BINARY = {
    ast.Add: (ts.add, operator.add), ast.Sub: (ts.sub, operator.sub), ast.Mult: (ts.mul, operator.mul),
    ast.Div: (ts.truediv, operator.truediv), ast.FloorDiv: (ts.floordiv, operator.floordiv),
    ast.Mod: (ts.mod, operator.mod), ast.LShift: (ts.lshift, operator.lshift),
    ast.RShift: (ts.rshift, operator.rshift), ast.BitAnd: (ts.and_, operator.and_),
    ast.BitOr: (ts.or_, operator.or_), ast.BitXor: (ts.xor, operator.xor),
    ast.Pow: (None, operator.pow), ast.MatMult: (None, operator.matmul),
}
COMPARE = {
    ast.Lt: (ts.lt, operator.lt), ast.LtE: (ts.le, operator.le), ast.Gt: (ts.gt, operator.gt),
    ast.GtE: (ts.ge, operator.ge), ast.Eq: (ts.eq, operator.eq), ast.NotEq: (ts.ne, operator.ne),
    ast.Is: (None, operator.is_), ast.IsNot: (None, operator.is_not),
    ast.In: (None, lambda a, b: a in b), ast.NotIn: (None, lambda a, b: a not in b),
}
# Plain Python functions a kernel may call on build-time values.
PY_FUNCTIONS = {py_builtins.len, py_builtins.min, py_builtins.max, py_builtins.int, py_builtins.float,
                py_builtins.bool, py_builtins.abs, py_builtins.isinstance, py_builtins.tuple, py_builtins.list,
                py_builtins.str, py_builtins.getattr, py_builtins.hasattr, py_builtins.round, py_builtins.divmod,
                py_builtins.zip, py_builtins.enumerate, py_builtins.reversed, py_builtins.sorted, py_builtins.any,
                py_builtins.all, py_builtins.sum, py_builtins.type}


_Return = flow.Return
# Python's min and max on tiles are Triton's tl.minimum and tl.maximum.
_ON_TILES = {py_builtins.min: "minimum", py_builtins.max: "maximum"}



class KernelBuilder(StatementBuilder):
    """Builds one function's body into the kernel being built (a C++
    Builder is active). Inlined calls get a KernelBuilder of their own."""

    def __init__(self, fn, env, depth=0):
        self.src = source_of(fn)
        self.env = env
        self.depth = depth              # runtime loop/if nesting
        self.bound_at = {name: depth for name in env}
        self.runtime_kinds = []         # "loop" / "if" of each runtime construct being built

    # ---- locations and errors -------------------------------------------
    def at(self, node):
        line, col = self.src.position(node)
        _core.set_loc(line, col)

    def error(self, node, message):
        line, col = self.src.position(node)
        return _core.BuildError(self.src.file, line, col, message)

    # ---- entry ------------------------------------------------------------
    def run_body(self):
        _core.set_file(self.src.file)
        try:
            self.block(self.src.tree.body)
        except _Return as r:
            return r.value
        return None

    def block(self, stmts):
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, ast.If) and flow.holds_return(stmt):
                # The rest of the block goes into the branches (flow.py).
                self.statement(stmt, stmts[i + 1:])
                return
            self.statement(stmt)

    def statement(self, node, rest=None):
        method = getattr(self, "stmt_" + type(node).__name__, None)
        if method is None:
            raise self.error(node, f"'{type(node).__name__}' statements are not supported in a tile kernel")
        try:
            method(node) if rest is None else method(node, rest)
        except (_core.BuildError, _Return, KeyboardInterrupt):
            raise
        except RecursionError:
            raise self.error(node, "the kernel's calls nest too deeply (recursion is not supported)") from None
        except Exception as e:  # a Python error on the user's line, said as a build error there
            raise self.error(node, f"{type(e).__name__}: {e}") from None

    # ---- names ----------------------------------------------------------------
    def lookup(self, name, node):
        if name in self.env:
            value = self.env[name]
            if isinstance(value, _Undefined):
                raise self.error(node, f"'{name}' is assigned only inside the runtime {value.kind} above, so it "
                                       "has no value here; give it a value before the "
                                       f"{value.kind} (e.g. {name} = tl.zeros(...)) and assign it inside")
            return value
        if name in self.src.closure:
            return self.src.closure[name]
        if name in self.src.globals:
            return self.src.globals[name]
        if hasattr(py_builtins, name):
            return getattr(py_builtins, name)
        raise self.error(node, f"name '{name}' is not defined")

    def bind(self, name, value, node):
        value = _core.unwrap(value)
        if (isinstance(value, Tensor) or _core.is_block_ptr(value)) and \
                any(v is value for k, v in self.env.items() if k != name):
            self.at(node)
            value = value.copy()  # a second name for a tile is a copy, as in `auto b = a;`
        old = self.env.get(name)
        if name in self.env and self.bound_at.get(name, 0) < self.depth and not isinstance(old, _Undefined):
            # Bound outside the loop/if being built: write its register.
            if isinstance(old, Tensor):
                self.at(node)
                old.assign(value)
                return
            if _core.is_block_ptr(old):
                self.at(node)
                old.assign(value)
                return
            if old is not value and not (type(old) is type(value) and old == value):
                raise self.error(node, f"'{name}' holds the compile-time value {old!r} outside this runtime "
                                       f"loop or if, and cannot change inside it (to {_core.describe(value)}); "
                                       "make it a tile before the loop, e.g. with tl.full")
            return
        self.env[name] = value
        self.bound_at[name] = self.depth

    def assign_target(self, target, value, node):
        if isinstance(target, ast.Name):
            self.bind(target.id, value, node)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if isinstance(value, Tensor):
                raise self.error(node, "a tile cannot be unpacked into several names; tl.split or indexing "
                                       "into tiles is not what Python's unpacking does")
            values = list(value)
            if len(values) != len(target.elts):
                raise self.error(node, f"cannot unpack {len(values)} values into {len(target.elts)} names")
            for t, v in zip(target.elts, values):
                self.assign_target(t, v, node)
        else:
            raise self.error(target, f"assignment to {type(target).__name__.lower()} is not supported in a tile "
                                     "kernel: tiles are values; store to memory with tl.store")

    # ---- statements ---------------------------------------------------------
    def const_int(self, value, node, what):
        value = _core.unwrap(value)
        if not isinstance(value, int):
            raise self.error(node, f"{what} must be compile-time integers, got {_core.describe(value)}")
        return value

    # ---- expressions ---------------------------------------------------------
    def expr(self, node):
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            raise self.error(node, f"{pitfalls.construct_name(node)} is not supported in a tile kernel")
        return method(node)

    def expr_Constant(self, node):
        return node.value

    def expr_Name(self, node):
        return self.lookup(node.id, node)

    def expr_Tuple(self, node):
        return tuple(self.expr(e) for e in node.elts)

    def expr_List(self, node):
        return [self.expr(e) for e in node.elts]

    def expr_JoinedStr(self, node):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            else:
                parts.append(format(_core.describe_value(self.expr(v.value))))
        return "".join(parts)

    def expr_Attribute(self, node):
        return attributes.attribute(self, _core.unwrap(self.expr(node.value)), node)

    def expr_Subscript(self, node):
        base = _core.unwrap(self.expr(node.value))
        if not isinstance(base, Tensor):
            index = self.expr(node.slice) if not isinstance(node.slice, ast.Slice) else self.py_slice(node.slice)
            return base[_core.unwrap(index)]
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        new_axis = []
        for item in items:
            if isinstance(item, ast.Slice) and item.lower is None and item.upper is None and item.step is None:
                new_axis.append(False)
            elif isinstance(item, ast.Constant) and item.value is None:
                new_axis.append(True)
            else:
                raise self.error(item, f"tile indexing takes only None and ':' (as in x[:, None]); got "
                                       f"'{self.src.segment(item)}'")
        self.at(node)
        return ts.subscript(base, new_axis)

    def py_slice(self, s):
        part = lambda n: None if n is None else _core.unwrap(self.expr(n))  # noqa: E731
        return slice(part(s.lower), part(s.upper), part(s.step))

    def expr_BinOp(self, node):
        left = self.expr(node.left)
        right = self.expr(node.right)
        return self.binary(node, node.op, left, right)

    def binary(self, node, op, left, right):
        left, right = _core.unwrap(left), _core.unwrap(right)
        tile_fn, py_fn = BINARY[type(op)]
        if not isinstance(left, Tensor) and not isinstance(right, Tensor):
            try:
                return py_fn(left, right)
            except ZeroDivisionError:
                raise self.error(node, "division by zero in a compile-time expression") from None
        if tile_fn is None:
            raise pitfalls.unsupported_operator(self, node, op)
        if _core.is_block_ptr(left) or _core.is_block_ptr(right):
            raise self.error(node, "arithmetic on a block pointer is not defined; move it with tl.advance")
        self.at(node)
        return tile_fn(left, right)

    def expr_UnaryOp(self, node):
        value = _core.unwrap(self.expr(node.operand))
        if not isinstance(value, Tensor):
            return {ast.Not: operator.not_, ast.USub: operator.neg, ast.UAdd: operator.pos,
                    ast.Invert: operator.invert}[type(node.op)](value)
        self.at(node)
        if isinstance(node.op, ast.Not):
            return ts.logical_not(value)
        if isinstance(node.op, ast.USub):
            return ts.neg(value)
        if isinstance(node.op, ast.Invert):
            return ts.invert(value)
        return value

    def expr_BoolOp(self, node):
        is_and = isinstance(node.op, ast.And)
        result = _core.unwrap(self.expr(node.values[0]))
        for operand in node.values[1:]:
            if not isinstance(result, Tensor):
                # Python's short circuit on build-time values.
                if bool(result) != is_and:
                    return result
                result = _core.unwrap(self.expr(operand))
                continue
            value = _core.unwrap(self.expr(operand))
            self.at(node)
            result = ts.logical_and(result, value) if is_and else ts.logical_or(result, value)
        return result

    def expr_Compare(self, node):
        if len(node.ops) > 1:
            raise pitfalls.chained_comparison(self, node)
        left = _core.unwrap(self.expr(node.left))
        right = _core.unwrap(self.expr(node.comparators[0]))
        tile_fn, py_fn = COMPARE[type(node.ops[0])]
        if not isinstance(left, Tensor) and not isinstance(right, Tensor):
            return py_fn(left, right)
        if isinstance(node.ops[0], (ast.Is, ast.IsNot)) and (left is None or right is None):
            return py_fn(left, right)  # `x_ptr is not None`: a tile is never None
        if tile_fn is None:
            raise self.error(node, f"'{self.src.segment(node)}': 'is' and 'in' compare Python objects at build "
                                   "time, not tiles; compare tile values with == or !=")
        self.at(node)
        return tile_fn(left, right)

    def expr_IfExp(self, node):
        cond = _core.unwrap(self.expr(node.test))
        if isinstance(cond, Tensor):
            raise pitfalls.tile_as_bool(self, node.test, cond, "a conditional expression (a if c else b)")
        return self.expr(node.body if cond else node.orelse)

    def expr_Call(self, node):
        fn = self.expr(node.func)
        if isinstance(_core.unwrap(fn), Tensor):
            raise pitfalls.tile_called(self, node)
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                args.extend(self.expr(a.value))
            else:
                args.append(self.expr(a))
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                kwargs.update(self.expr(k.value))
            else:
                kwargs[k.arg] = self.expr(k.value)
        return self.call(node, fn, args, kwargs)

    def call(self, node, fn, args, kwargs):
        if isinstance(fn, attributes.BoundMethod):
            return self.call_builtin(node, fn.name, fn.fn, [fn.tile] + args, kwargs)
        name = builtin_name(fn)
        if name is not None:
            if name in ("range", "static_range"):
                raise self.error(node, f"{name}(...) is only a loop's iterable: for i in {name}(...)")
            impl = tl_builtins.TABLE.get(name)
            if name in tl_builtins.REFUSED:
                raise self.error(node, f"tl.{name} cannot run in tilescope: {tl_builtins.REFUSED[name]}")
            if impl is None or name in tl_builtins.NOT_YET:
                raise self.error(node, f"tl.{name} is not supported by tilescope yet")
            return self.call_builtin(node, name, impl, args, kwargs)
        inner = jit_function(fn)
        if inner is not None:
            return self.inline(node, inner, args, kwargs)
        if fn is py_builtins.print:
            raise pitfalls.python_print(self, node)
        if fn is py_builtins.range:
            raise self.error(node, "range(...) is only a loop's iterable: for i in range(...)")
        tiles = any(isinstance(_core.unwrap(a), Tensor) for a in list(args) + list(kwargs.values()))
        if tiles and _ON_TILES.get(fn) and not kwargs:
            return self.fold_min_max(node, _ON_TILES[fn], args)
        if tiles:
            what = getattr(fn, "__name__", "a Python function")
            raise self.error(node, f"'{what}' is a plain Python function and cannot take tiles; decorate it with "
                                   "@triton.jit to call it from a kernel, or use the tl. function of that name")
        if fn in PY_FUNCTIONS or callable(fn):
            return fn(*[_core.unwrap(a) for a in args], **{k: _core.unwrap(v) for k, v in kwargs.items()})
        raise self.error(node, f"{_core.describe(fn)} is not callable")

    def fold_min_max(self, node, name, args):
        values = list(_core.unwrap(args[0])) if len(args) == 1 else list(args)
        if len(values) < 2:
            raise self.error(node, f"{name[:3]}() on tiles takes at least two values")
        result = values[0]
        for v in values[1:]:
            result = self.call_builtin(node, name, tl_builtins.TABLE[name], [result, v], {})
        return result

    def call_builtin(self, node, name, impl, args, kwargs):
        self.at(node)
        _CALLERS.append((self, node))
        try:
            return impl(*args, **kwargs)
        except TypeError as e:
            message = str(e).replace(impl.__name__ + "()", f"tl.{name}()")
            raise self.error(node, message) from None
        finally:
            _CALLERS.pop()

    def inline(self, node, fn, args, kwargs):
        import inspect
        sig = inspect.signature(fn)
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError as e:
            raise self.error(node, f"{fn.__name__}(): {e}") from None
        bound.apply_defaults()
        callee_src = source_of(fn)
        writes = assigned_names(callee_src.tree.body)
        self.at(node)
        env = {}
        for name, value in bound.arguments.items():
            value = _core.unwrap(value)
            # The callee's own name for a tile it reassigns is its own copy.
            if (isinstance(value, Tensor) or _core.is_block_ptr(value)) and name in writes:
                value = value.copy()
            env[name] = value
        callee = KernelBuilder(fn, env, self.depth)
        try:
            result = callee.run_body()
        finally:
            _core.set_file(self.src.file)
        return result


# The builder and call node of each builtin being called, innermost last: a
# builtin that takes a @triton.jit function (tl.reduce, tl.associative_scan)
# builds its body from there.
_CALLERS = []


def inline_jit(fn, args):
    """Builds the @triton.jit function `fn` on `args` where the current
    builtin is called (into the block the C++ op has open)."""
    builder, node = _CALLERS[-1]
    inner = jit_function(_core.unwrap(fn))
    if inner is None:
        raise builder.error(node, f"the combine function must be a @triton.jit function, got {_core.describe(fn)}")
    result = builder.inline(node, inner, list(args), {})
    builder.at(node)
    return result
