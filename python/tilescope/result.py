"""What a launch returns: the C++ API's Result, read from Python."""
from ._core import ts


class KernelError(Exception):
    """A kernel that does not build, or a launch that does not fit it. str()
    is the compiler-style diagnostic ("file:line:col: error: ...")."""


class Finding:
    """One of the sanitizer's findings (kind, severity, message, line, examples)."""

    def __init__(self, d):
        self.kind = d["kind"]
        self.severity = d["severity"]
        self.message = d["message"]
        self.lanes = d["lanes"]
        self.programs = d["programs"]
        self.file = d.get("file")
        self.line = d.get("line")
        self.col = d.get("col")
        self.buffer = d.get("buffer")
        self.examples = d["examples"]
        self.text = d["text"]

    def __repr__(self):
        return f"<Finding {self.kind} at line {self.line}: {self.message}>"

    def __str__(self):
        return self.text


class Result:
    def __init__(self, native, kernel):
        self.native = native
        self.kernel = kernel
        self.error = native.error
        self.findings = [Finding(d) for d in native.findings]
        self.printed = native.printed
        self.stopped = native.stopped
        self.gpu = native.gpu

    @property
    def traced(self):
        return self.native.traced

    def ok(self):
        return self.native.ok()

    def report(self):
        return self.native.report()

    def __repr__(self):
        state = "error" if self.error else f"{len(self.findings)} finding(s)"
        return f"<tilescope.Result {self.kernel}: {state}>"

    def picture(self, program=None, event=None, buffers=None, **options):
        """The viewer's panes for one program and event, drawn inline in a
        notebook (tilescope.notebook.Picture)."""
        from .notebook import Picture
        return Picture(self, program, event, buffers, report=self.error or self.report(), **options)

    def _repr_html_(self):
        from .notebook import result_html
        return result_html(self)

    def _repr_png_(self):
        from .notebook import available
        return self.picture()._repr_png_() if available() and self.traced else None


def save_trace(result, path):
    ok, message = ts.save_trace(result.native, str(path))
    if not ok:
        raise RuntimeError(message)


def view(result, screenshot="", executable="", **picture):
    """Opens the viewer; in a notebook with no display attached, returns the
    inline picture instead (options as Result.picture)."""
    import os
    from . import notebook
    if not screenshot and not os.environ.get("DISPLAY") and notebook.in_notebook():
        return result.picture(**picture)
    ok, message = ts.view(result.native, executable, screenshot)
    if not ok:
        raise RuntimeError(message)
