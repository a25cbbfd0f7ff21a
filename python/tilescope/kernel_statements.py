"""Statements of a kernel's body, for the kernel builder (visitor.py):
assignments, return, and control flow. An `if` on a build-time value picks
a branch; on a tile it is an IR if; `for` over range / tl.range is one IR
loop, tl.static_range unrolls; `while` on a tile is one IR loop."""
import ast
import builtins as py_builtins

from . import _core, flow, pitfalls
from ._core import Tensor, ts
from .kernel_names import _Undefined, assigned_names, builtin_name

_Return = flow.Return


class StatementBuilder:
    """The statement half of KernelBuilder (which supplies expr, block,
    bind, error and the rest)."""

    def stmt_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # a docstring
        self.expr(node.value)

    def stmt_Pass(self, node):
        pass

    def stmt_Assign(self, node):
        value = self.expr(node.value)
        for target in node.targets:
            self.assign_target(target, value, node)

    def stmt_AnnAssign(self, node):
        if node.value is None:
            raise self.error(node, "a declaration without a value is not supported; give it a value")
        self.assign_target(node.target, self.expr(node.value), node)

    def stmt_AugAssign(self, node):
        if not isinstance(node.target, ast.Name):
            raise self.error(node.target, "augmented assignment to anything but a name is not supported")
        current = self.lookup(node.target.id, node.target)
        value = self.binary(node, node.op, current, self.expr(node.value))
        self.bind(node.target.id, value, node)

    def stmt_Return(self, node):
        if "loop" in self.runtime_kinds:
            raise self.error(node, "return inside a runtime loop is not supported (Triton's compiler refuses it "
                                   "too); assign the value to a name and return after the loop")
        raise _Return(None if node.value is None else self.expr(node.value))

    def stmt_Assert(self, node):
        raise pitfalls.python_assert(self, node)

    def stmt_Break(self, node):
        raise self.error(node, "break is not supported in a tile kernel loop (Triton has none either); use a "
                               "while loop with a condition")

    def stmt_Continue(self, node):
        raise self.error(node, "continue is not supported in a tile kernel loop; wrap the rest of the body in "
                               "an if")

    def stmt_If(self, node, rest=None):
        cond = _core.unwrap(self.expr(node.test))
        if not isinstance(cond, Tensor):
            branch = node.body if cond else node.orelse
            self.block(branch if rest is None else branch + rest)
            return
        pitfalls.check_condition(self, node.test, cond, "if")
        if rest is not None:
            return flow.returning_if(self, node, cond, node.body + rest, node.orelse + rest)
        self.at(node)
        self.materialize_carried(node.body + node.orelse, node)
        new = {}
        then_body = lambda: new.__setitem__("then", self.runtime_body(node.body, "if"))  # noqa: E731
        else_body = (lambda: new.__setitem__("else", self.runtime_body(node.orelse, "if"))) \
            if node.orelse else None  # noqa: E731
        self.at(node)
        ts.if_(cond, then_body, else_body)
        # A name first assigned in both branches has a value after the if.
        for name, value in new.get("then", {}).items():
            other = new.get("else", {}).get(name)
            if isinstance(value, Tensor) and isinstance(other, Tensor):
                self.at(node)
                self.env[name] = ts.join_if(value, other, name)
                self.bound_at[name] = self.depth

    def stmt_For(self, node):
        if node.orelse:
            raise self.error(node, "for ... else is not supported in a tile kernel")
        it = node.iter
        if not isinstance(it, ast.Call):
            raise self.error(it, "a tile kernel loops over range(...), tl.range(...) or tl.static_range(...)")
        fn = self.expr(it.func)
        name = builtin_name(fn)
        args = [self.expr(a) for a in it.args]
        kwargs = {k.arg: self.expr(k.value) for k in it.keywords}
        if fn is py_builtins.range or name == "range":
            self.runtime_for(node, args, kwargs)
        elif name == "static_range":
            bounds = [self.const_int(a, it, "tl.static_range's bounds") for a in args]
            for i in range(*bounds):
                self.assign_target(node.target, i, node)
                self.block(node.body)
        else:
            raise self.error(it, "a tile kernel loops over range(...), tl.range(...) or tl.static_range(...)")

    def runtime_for(self, node, args, kwargs):
        args = [_core.unwrap(a) for a in args]
        if not 1 <= len(args) <= 3:
            raise self.error(node.iter, f"range takes 1 to 3 arguments, got {len(args)}")
        lo, hi, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) == 3 else 1)
        if not isinstance(node.target, ast.Name):
            raise self.error(node.target, "the loop variable of a runtime loop must be one name")
        self.materialize_carried(node.body, node)
        self.at(node)
        loop = ts.Range(lo, hi, step)
        iv = loop.begin()
        self.depth += 1
        self.runtime_kinds.append("loop")
        before = self.defined_names()
        self.env[node.target.id] = iv
        self.bound_at[node.target.id] = self.depth
        try:
            self.block(node.body)
        finally:
            self.depth -= 1
            self.runtime_kinds.pop()
        self.forget_new(before, "loop")
        self.at(node)
        loop.end()

    def stmt_While(self, node):
        if node.orelse:
            raise self.error(node, "while ... else is not supported in a tile kernel")
        if not hasattr(ts, "while_"):
            raise self.error(node, "while loops are not supported by this build of tilescope")
        self.materialize_carried([node.test] + node.body, node)

        def cond():
            c = _core.unwrap(self.expr(node.test))
            if not isinstance(c, Tensor):
                raise self.error(node.test, "a while loop's condition must be a runtime scalar (a comparison of "
                                            f"tiles), got the compile-time value {c!r}")
            pitfalls.check_condition(self, node.test, c, "while")
            self.at(node.test)
            return c

        def body():
            self.runtime_body(node.body, "loop")

        self.depth += 1
        self.runtime_kinds.append("loop")
        before = self.defined_names()
        try:
            self.at(node)
            ts.while_(cond, body)
        finally:
            self.depth -= 1
            self.runtime_kinds.pop()
        self.forget_new(before, "loop")

    def runtime_body(self, stmts, kind):
        """Builds a runtime loop's or if's body; returns the names it bound
        first, with their values at its end."""
        self.depth += 1
        self.runtime_kinds.append(kind)
        before = self.defined_names()
        try:
            self.block(stmts)
            return {n: self.env[n] for n in self.defined_names() - before}
        finally:
            self.depth -= 1
            self.runtime_kinds.pop()
            self.forget_new(before, kind)

    def defined_names(self):
        return {n for n, v in self.env.items() if not isinstance(v, _Undefined)}

    def forget_new(self, before, kind):
        # Names first bound inside a runtime body have no value after it.
        for name in self.defined_names() - before:
            self.env[name] = _Undefined(name, kind)
            self.bound_at[name] = self.depth

    def materialize_carried(self, stmts, node):
        """Names a runtime body assigns that hold Python numbers outside it
        become 0-d tiles first: their register is defined before the body,
        as Triton does with a loop-carried constexpr."""
        carried = []
        for name in assigned_names(stmts):
            value = self.env.get(name)
            if name in self.env and isinstance(value, (bool, int, float)) and not isinstance(value, _Undefined):
                self.at(node)
                self.env[name] = ts.scalar(value)
                carried.append(name)
        return carried
