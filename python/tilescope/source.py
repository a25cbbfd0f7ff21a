"""A kernel function's source: its AST (parsed once per function), the file it
lives in, and how the dedented AST's positions map back to the file's lines
and columns."""
import ast
import inspect
import linecache
import os
import textwrap

from . import _core

_cache = {}


class FunctionSource:
    def __init__(self, fn):
        self.fn = fn
        self.name = fn.__name__
        try:
            file = inspect.getsourcefile(fn) or inspect.getfile(fn)
            lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise _core.BuildError("<unknown>", 0, 0,
                                   f"the source of '{fn.__name__}' cannot be read ({e}); tilescope builds a kernel "
                                   "from its source, so define it in a .py file") from None
        self.file = _core.source_path(file)
        if not os.path.exists(file):  # a notebook cell: diagnostics read its text from here
            _core.ts.set_source_text(self.file, "".join(linecache.getlines(file)))
        text = "".join(lines)
        dedented = textwrap.dedent(text)
        first = next((ln for ln in lines if ln.strip()), "")
        # textwrap.dedent removed the first line's indentation from every line.
        self.indent = len(first) - len(first.lstrip())
        self.line_offset = start - 1
        try:
            module = ast.parse(dedented)
        except SyntaxError as e:
            raise _core.BuildError(self.file, (e.lineno or 1) + self.line_offset, (e.offset or 1) + self.indent,
                                   f"syntax error: {e.msg}") from None
        defs = [n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not defs:
            raise _core.BuildError(self.file, start, 1, f"'{fn.__name__}' is not a function definition")
        self.tree = defs[0]
        self.text = dedented
        self.globals = fn.__globals__
        # Names a closure captured (kernels defined inside functions).
        self.closure = {}
        if fn.__closure__:
            for name, cell in zip(fn.__code__.co_freevars, fn.__closure__):
                try:
                    self.closure[name] = cell.cell_contents
                except ValueError:
                    pass

    def position(self, node):
        """(line, col) in the file, 1-based, of an AST node."""
        return node.lineno + self.line_offset, node.col_offset + 1 + self.indent

    def segment(self, node, parens=False):
        """The node's source text; with parens, with the parentheses around it
        (ast positions leave them out: `(c + 0)` is `c + 0`)."""
        text = ast.get_source_segment(self.text, node) or ""
        if not parens or not text or node.lineno != node.end_lineno:
            return text
        line = self.text.splitlines()[node.lineno - 1]
        start, end = node.col_offset, node.end_col_offset
        while True:
            a, b = start - 1, end
            while a >= 0 and line[a] == " ":
                a -= 1
            while b < len(line) and line[b] == " ":
                b += 1
            if a >= 0 and b < len(line) and line[a] == "(" and line[b] == ")":
                start, end = a, b + 1
            else:
                return line[start:end]


def source_of(fn):
    src = _cache.get(fn)
    if src is None:
        src = FunctionSource(fn)
        _cache[fn] = src
    return src
