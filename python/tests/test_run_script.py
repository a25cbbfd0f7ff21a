"""`python3 -m tilescope run script.py` on an unmodified Triton script."""
import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "scripts", "unmodified_triton_script.py")


def triton_installed():
    try:
        return importlib.util.find_spec("triton") is not None and sys.modules.get("triton", None) is None
    except ValueError:  # the shim of another test is in sys.modules
        return False


def run(*args):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "tilescope", *args], capture_output=True, text=True, env=env,
                          timeout=120)


def test_an_unmodified_triton_script_runs_and_its_findings_are_printed():
    p = run("run", SCRIPT)
    assert p.returncode == 1, p.stderr  # an error finding
    assert "max error 0.0" in p.stdout  # the script itself ran to its end
    line = next(i + 1 for i, ln in enumerate(open(SCRIPT)) if "forgot the mask" in ln)
    assert f"unmodified_triton_script.py:{line}:5: error: out-of-bounds store to y_ptr in program (7, 0, 0), lane [104]" \
        in p.stderr
    assert "1 launch(es), 1 error finding(s)" in p.stderr
    if not triton_installed():
        assert "(triton from tilescope" in p.stderr


def test_run_saves_traces_when_asked(tmp_path):
    p = run("run", "--trace", str(tmp_path), SCRIPT)
    assert p.returncode == 1
    assert os.listdir(tmp_path) == ["001_scale_kernel.json"]


def test_run_without_a_script_says_so():
    p = run("run", "no_such_script.py")
    assert p.returncode == 2
    assert "no such script 'no_such_script.py'" in p.stderr


def test_help_is_there_for_every_command():
    for args in (["--help"], ["run", "--help"], ["check", "--help"]):
        p = run(*args)
        assert p.returncode == 0 and "usage:" in p.stdout


def test_check_command_checks_a_file_against_a_puzzle():
    p = run("check", os.path.join(HERE, "triton_puzzles.py"), "add_mask2_kernel", "2", "--seeds", "0")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "PASS" in p.stdout or "pass" in p.stdout
