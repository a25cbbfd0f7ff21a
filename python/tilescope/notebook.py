"""Inline pictures of a launch in Jupyter: what the viewer's Tensors window
shows for one program and event, drawn on the CPU by the same model the
viewer uses (viz/model_picture.h), as PNG images in plain HTML: no server,
no JavaScript.

    result = kernel[grid](...)            # launched with tracing on
    result                                # in a notebook: findings and the picture
    tilescope.picture(result, program=(6, 0, 0), event="first finding", buffers=["z"])
"""
import base64
import html
import itertools

from ._core import ts

# The viewer's palette (viz/model_colors.h): the legend says what each color means.
LEGEND = [
    ("loaded", (66, 135, 245), False),
    ("stored", (245, 140, 40), False),
    ("atomic", (186, 96, 226), False),
    ("masked lane", (128, 128, 128), True),
    ("out of bounds", (232, 36, 36), False),
    ("untouched", (62, 66, 76), False),
]
MAX_LINKED_EVENTS = 24  # events of the table that get a picture of their own

_ids = itertools.count()


def available():
    """Whether the extension was built with the PNG renderer (libstb-dev)."""
    return hasattr(ts, "picture")


def _trace_of(obj):
    if obj is None or isinstance(obj, ts.Trace):
        return obj
    native = getattr(obj, "native", obj)
    return ts.trace_of(native)


def _program_index(trace, program):
    if program is None:
        return -1
    if isinstance(program, int):
        return program
    pid = tuple(program) + (0,) * (3 - len(tuple(program)))
    index = trace.program_at(list(pid))
    if index < 0:
        raise IndexError(f"program {pid} was not recorded (grid {trace.grid})")
    return index


def _buffer_indices(trace, buffers):
    if buffers is None:
        return []
    names = trace.buffers
    out = []
    for b in ([buffers] if isinstance(buffers, (str, int)) else buffers):
        if isinstance(b, int):
            out.append(b)
        elif b in names:
            out.append(names.index(b))
        else:
            raise KeyError(f"no buffer '{b}' in the launch (buffers: {', '.join(names)})")
    return out


class Picture:
    """The panes of one program and event. `program`: an index into the
    recorded programs or a program id tuple; `event`: an index, or None /
    "first finding" for the first finding's (else the program's last);
    `buffers`: names or indices (default all). Displays itself in Jupyter."""

    def __init__(self, source, program=None, event=None, buffers=None, width=480, max_height=360,
                 dim_earlier=True, report="", caption=""):
        self.trace = _trace_of(source)
        self.report = report
        self.caption = caption
        self.data = None
        if self.trace is None:
            return
        if event == "first finding":
            event = None
        self._args = (self.trace, _program_index(self.trace, program), -1 if event is None else int(event),
                      _buffer_indices(self.trace, buffers), float(width), float(max_height), bool(dim_earlier))
        self.data = ts.picture(*self._args)

    @property
    def panes(self):
        return self.data["panes"] if self.data else []

    def png(self, pane=0):
        """One pane's PNG bytes."""
        return self.panes[pane]["png"]

    def _repr_png_(self):
        """Every pane stacked in one image."""
        return ts.picture_png(*self._args) if self.panes else None

    def _repr_html_(self):
        return render_html(self)


def _img(png, width, height, alt):
    data = base64.b64encode(png).decode("ascii")
    return (f'<img src="data:image/png;base64,{data}" width="{width}" height="{height}" alt="{html.escape(alt)}" '
            'style="image-rendering:pixelated;display:block">')


def legend_html():
    items = []
    for name, (r, g, b), hatched in LEGEND:
        style = f"background:rgb({r},{g},{b});"
        if hatched:
            style += ("background-image:repeating-linear-gradient(135deg,transparent 0 3px,"
                      "rgb(92,92,92) 3px 4px);")
        items.append(f'<span style="display:inline-block;width:11px;height:11px;{style}'
                     f'vertical-align:middle;margin:0 3px 0 10px"></span>{name}')
    return '<div style="font:12px sans-serif;margin:4px 0">' + "".join(items) + "</div>"


def _panes_html(data):
    out = []
    for p in data["panes"]:
        caption = html.escape(p["title"])
        if p["summary"]:
            caption += " &middot; " + html.escape(p["summary"])
        if p["framed"]:
            r0, c0, r1, c1 = p["content"]
            caption += f' <span style="color:#888">(framed: rows {r0}..{r1 - 1}, columns {c0}..{c1 - 1})</span>'
        out.append(f'<div style="margin:6px 0"><div style="font:12px monospace">{caption}</div>'
                   + _img(p["png"], p["width"], p["height"], p["title"]) + "</div>")
    return "".join(out)


def _events_table(pic, uid):
    """Every event of the shown program, each linked to a picture of it
    (pictures below the table, anchors only: no script)."""
    trace, program = pic.trace, pic.data["program"]
    if program < 0:
        return ""
    events = trace.events(program)
    rows, pictures = [], []
    for e in events:
        k = e["index"]
        linked = k < MAX_LINKED_EVENTS and e["buffer"] is not None
        label = f'<a href="#{uid}-e{k}">#{k}</a>' if linked else f"#{k}"
        where = f'{e.get("line", "")}'
        flag = '<b style="color:rgb(232,36,36)">finding</b>' if e["finding"] else ""
        mark = ' style="background:#fff3c4"' if k == pic.data["event"] else ""
        rows.append(f'<tr{mark}><td>{label}</td><td>{e["kind"]}</td><td>{html.escape(e["buffer"] or "")}</td>'
                    f'<td>{where}</td><td>{e["lanes"]}</td><td>{e["masked"]}</td><td>{e["out_of_bounds"]}</td>'
                    f"<td>{flag}</td></tr>")
        if linked:
            one = ts.picture(trace, program, k, [trace.buffers.index(e["buffer"])], 320.0, 200.0, True)
            pictures.append(f'<div id="{uid}-e{k}" style="margin:6px 0"><div style="font:12px monospace">'
                            f'#{k} {e["kind"]} at line {where}</div>' + _panes_html(one) + "</div>")
    head = ("<tr><th>event</th><th>kind</th><th>buffer</th><th>line</th><th>lanes</th><th>masked</th>"
            "<th>out of bounds</th><th></th></tr>")
    return (f'<details style="font:12px sans-serif"><summary>{len(events)} events of program '
            f'{tuple(pic.data["pid"])}</summary><table style="font:12px monospace;border-collapse:collapse">'
            f"{head}{''.join(rows)}</table>{''.join(pictures)}</details>")


def render_html(pic):
    uid = f"tilescope-{next(_ids)}"
    parts = [f'<div class="tilescope-result" id="{uid}">']
    if pic.caption:
        parts.append(f'<div style="font:bold 13px sans-serif;margin:4px 0">{html.escape(pic.caption)}</div>')
    if pic.report:
        parts.append(f'<pre style="font-size:12px;white-space:pre-wrap">{html.escape(pic.report)}</pre>')
    if pic.data is None:
        parts.append('<div style="font:12px sans-serif;color:#888">no trace recorded: launch with '
                     "tilescope.configure(trace=\"full\") (or tilescope.trace(kernel)) for pictures</div>")
    else:
        parts.append(f'<div style="font:12px monospace">{html.escape(pic.data["event_line"])}</div>')
        parts.append(legend_html())
        parts.append(_panes_html(pic.data))
        parts.append(_events_table(pic, uid))
    parts.append("</div>")
    return "".join(parts)


def result_html(result, **options):
    """A launch's Result as HTML: its findings, then the picture of the
    first finding (or the last program's last event)."""
    report = result.error or result.report()
    if not available() or not result.traced:
        return Picture(None, report=report)._repr_html_()
    return Picture(result, report=report, **options)._repr_html_()


def in_notebook():
    """Whether an IPython kernel with a rich display runs this code."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"
