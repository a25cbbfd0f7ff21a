"""Inline pictures and the puzzle helper for notebooks: a Result shows its
findings and the picture of its first finding, `tilescope.puzzles.test`
checks every size set and seed and pictures the first failure, and the
pictures hold the viewer's colors in the counts the launch's lanes give."""
import io
import linecache
import os

import numpy as np
import pytest

import tilescope
import tilescope.language as tl
from tilescope import notebook
from tilescope.puzzles import test as puzzle_test

pytestmark = pytest.mark.skipif(not notebook.available(), reason="built without libstb-dev: no pictures")

LOADED, STORED, MASKED, OOB = (66, 135, 245), (245, 140, 40), (128, 128, 128), (232, 36, 36)


@tilescope.trace
def add_block_no_store_mask(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off = tl.program_id(0) * B0 + tl.arange(0, B0)
    x = tl.load(x_ptr + off, mask=off < N0)
    tl.store(z_ptr + off, x + 10.0)


@tilescope.jit
def add_mask2_kernel(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off = tl.program_id(0) * B0 + tl.arange(0, B0)
    x = tl.load(x_ptr + off, mask=off < N0)
    tl.store(z_ptr + off, x + 10.0, mask=off < N0)


def add2_spec(x):
    return x + 10.0


def pixels(png):
    Image = pytest.importorskip("PIL.Image")
    return Image.open(io.BytesIO(png)).convert("RGB")


def count(img, color):
    return sum(1 for p in img.getdata() if p == color)


def broken_result():
    x = np.arange(200, dtype=np.float32)
    z = np.zeros(256, dtype=np.float32)[:200]
    return add_block_no_store_mask[(7,)](x, z, 200, B0=32)


def test_a_result_shows_its_findings_and_the_picture_of_the_first_one():
    r = broken_result()
    html = r._repr_html_()
    assert "out-of-bounds store to z_ptr" in html
    assert "data:image/png;base64," in html
    assert "program (6, 0, 0), event #1 store" in html
    pic = r.picture()
    z = [p for p in pic.panes if p["title"].startswith("z_ptr ")][0]
    assert z["counts"]["OUT OF BOUNDS"] == 24 and z["counts"]["stored"] == 8
    img = pixels(pic.png(pic.panes.index(z)))
    cell = z["cell"]
    assert count(img, OOB) > 24 * (cell - 2) ** 2 * 0.7  # 24 red cells, less grid lines
    assert count(img, STORED) > 8 * (cell - 2) ** 2 * 0.7
    assert count(img, LOADED) == 0  # the load on x is another pane


def test_picture_options_choose_program_event_and_buffers():
    r = broken_result()
    pic = r.picture(program=(0,), event=0, buffers=["x_ptr"])
    assert [p["title"] for p in pic.panes] == ["x_ptr f32[200]"]
    assert pic.data["pid"] == (0, 0, 0) and pic.data["event"] == 0
    assert pic.panes[0]["counts"]["loaded"] == 32
    img = pixels(pic.png())
    assert count(img, LOADED) > 0 and count(img, OOB) == 0
    stacked = pixels(r.picture()._repr_png_())
    assert stacked.size[1] == sum(p["height"] for p in r.picture().panes) + 8
    with pytest.raises(KeyError, match="no buffer 'q'"):
        r.picture(buffers=["q"])
    with pytest.raises(IndexError, match="was not recorded"):
        r.picture(program=(9, 0, 0))
    with pytest.raises(IndexError, match="event index 5"):
        r.picture(program=0, event=5)


def test_the_events_table_links_each_event_to_its_picture():
    html = broken_result()._repr_html_()
    assert "2 events of program (6, 0, 0)" in html
    for k in (0, 1):
        anchor = html.split(f'href="#')[1].split('"')[0].rsplit("-e", 1)[0]
        assert f'href="#{anchor}-e{k}"' in html and f'id="{anchor}-e{k}"' in html


def test_an_untraced_result_says_how_to_get_pictures():
    x = np.arange(200, dtype=np.float32)
    z = np.zeros(200, dtype=np.float32)
    r = add_mask2_kernel[(7,)](x, z, 200, B0=32)
    html = r._repr_html_()
    assert "no trace recorded" in html and "data:image/png" not in html
    assert r._repr_png_() is None


def test_view_in_a_notebook_without_a_display_returns_the_picture(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setattr(notebook, "in_notebook", lambda: True)
    shown = tilescope.view(broken_result(), buffers=["z_ptr"])
    assert isinstance(shown, notebook.Picture)
    assert [p["title"] for p in shown.panes] == ["z_ptr f32[200]"]


def test_puzzle_helper_passes_a_solution_with_the_tail_program_pictured():
    r = puzzle_test(add_mask2_kernel, add2_spec, nelem={"N0": 200}, B={"B0": 32})
    assert r.passed and bool(r)
    assert "12 runs (4 size sets)" in r.summary
    x, z = r.picture.panes
    assert x["summary"] == "#0 load: 8 loaded, 24 masked out-of-bounds"
    assert z["summary"] == "#1 store: 8 stored, 24 masked out-of-bounds"
    assert 'data-passed="true"' in r._repr_html_()
    img = pixels(r.picture.png(0))
    assert count(img, LOADED) > 0 and count(img, MASKED) > 0 and count(img, STORED) == 0
    assert puzzle_test(add_mask2_kernel, add2_spec, viz=False).picture is None


def test_puzzle_helper_explains_a_failure_and_pictures_its_first_finding():
    r = puzzle_test(add_block_no_store_mask.fn, add2_spec, puzzle=2)
    assert not r.passed
    assert "first: set canonical, seed 0: out-of-bounds access" in r.summary
    assert "out-of-bounds store to z in program (6, 0, 0)" in r.report
    assert "tl.store(z_ptr + off, x + 10.0)" in r.report  # the line of the store
    z = r.picture.panes[1]
    assert z["counts"]["OUT OF BOUNDS"] == 24
    assert 'data-passed="false"' in r._repr_html_()


def test_puzzle_helper_fails_a_stub_and_a_misfit_kernel_without_raising():
    @tilescope.jit
    def add_kernel(x_ptr, z_ptr, N0, B0: tl.constexpr):
        off_x = tl.arange(0, B0)
        x = tl.load(x_ptr + off_x)
        # Finish me!

    r = puzzle_test(add_kernel, add2_spec, nelem={"N0": 32}, B={"B0": 32})
    assert r.puzzle == 1 and not r.passed
    assert "32 elements never written" in r.summary

    @tilescope.jit
    def sum_kernel(x_ptr, z_ptr, N0, WIDTH, B0: tl.constexpr):
        pass

    r = puzzle_test(sum_kernel, None)
    assert not r.passed and "WIDTH" in r.report
    with pytest.raises(ValueError, match="pass puzzle=N"):
        puzzle_test(add_block_no_store_mask.fn.__class__, None)


def test_a_kernel_defined_outside_any_file_still_shows_its_line():
    # What a notebook cell is: code whose file exists only in linecache.
    name = "/nonexistent/ipykernel_cell_1.py"
    source = ("import tilescope.language as tl\n"
              "def add_mask2_kernel(x_ptr, z_ptr, N0, B0: tl.constexpr):\n"
              "    off = tl.program_id(0) * B0 + tl.arange(0, B0)\n"
              "    tl.store(z_ptr + off, tl.load(x_ptr + off, mask=off < N0) + 10.0)\n")
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    scope = {}
    exec(compile(source, name, "exec"), scope)
    assert not os.path.exists(name)
    r = puzzle_test(scope["add_mask2_kernel"], add2_spec, viz=False)
    assert not r.passed
    line = "tl.store(z_ptr + off, tl.load(x_ptr + off, mask=off < N0) + 10.0)"
    lines = r.report.splitlines()
    at = [i for i, text in enumerate(lines) if text.strip() == line]
    assert at, r.report
    assert lines[at[0] + 1].strip() == "^"
