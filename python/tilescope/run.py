"""`python3 -m tilescope run script.py [args]`: the script runs unchanged,
every triton.jit kernel it launches goes through tilescope, and each
launch's findings are printed (stderr) as they come."""
import os
import runpy
import sys

from . import options, triton_shim
from .result import KernelError, save_trace


def run_script(path, argv, trace_dir=None, strict=False, gpu_compare=False):
    if not os.path.isfile(path):
        sys.stderr.write(f"tilescope run: error: no such script '{path}'\n")
        return 2
    provider = triton_shim.install()
    options.configure(strict=strict, gpu_compare=gpu_compare, raise_on_error=True)
    if trace_dir:
        options.configure(trace="full")
        os.makedirs(trace_dir, exist_ok=True)
    errors = [0]
    count = [0]

    def on_launch(result):
        count[0] += 1
        options.print_findings(result)
        errors[0] += sum(f.severity == "error" for f in result.findings)
        if trace_dir and result.traced:
            save_trace(result, os.path.join(trace_dir, f"{count[0]:03d}_{result.kernel}.json"))

    options.set_reporter(on_launch)
    sys.argv = [path] + list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    status = 0
    try:
        runpy.run_path(path, run_name="__main__")
    except KernelError as e:
        sys.stderr.write(str(e) + "\n")
        status = 1
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        options.set_reporter(None)
    sys.stderr.write(f"tilescope: {count[0]} launch(es), {errors[0]} error finding(s)"
                     f" (triton from {provider})\n")
    if status == 0 and errors[0]:
        status = 1
    return status
