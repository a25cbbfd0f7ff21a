"""`python3 -m tilescope run script.py [args]`: the script runs unchanged,
every triton.jit kernel it launches goes through tilescope, and each
launch's findings are printed (stderr) as they come. Whatever way the
script ends (normally, sys.exit, an exception), the summary line follows."""
import contextlib
import os
import runpy
import sys
import traceback

from . import cuda_redirect, options, triton_shim
from .result import KernelError, save_trace


class Tally:
    """What the summary line counts."""

    def __init__(self, trace_dir):
        self.trace_dir = trace_dir
        self.launches = 0
        self.findings = 0
        self.not_built = 0
        self.printed_errors = set()

    def on_launch(self, result):
        self.launches += 1
        options.print_findings(result)
        self.findings += sum(f.severity == "error" for f in result.findings)
        if result.error:  # printed as it comes: the script may catch the KernelError
            self.not_built += 1
            self.printed_errors.add(result.error)
            sys.stderr.write(result.error if result.error.endswith("\n") else result.error + "\n")
        if self.trace_dir and result.traced:
            save_trace(result, os.path.join(self.trace_dir, f"{self.launches:03d}_{result.kernel}.json"))

    def summary(self, provider, device):
        text = f"tilescope: {self.launches} launch(es), {self.findings} error finding(s)"
        if self.not_built:
            text += f", {self.not_built} launch(es) that did not build"
        where = f", --device {device}" if device in ("cpu", "cuda") else ""
        return text + f" (triton from {provider}{where})\n"


def choose_device(requested):
    """"cpu" (redirect torch's cuda to the host) or "cuda" (leave torch
    alone); the default is cpu where torch sees no GPU."""
    if requested in ("cpu", "cuda"):
        return requested
    if not cuda_redirect.torch_importable():
        return "none"
    return "cuda" if cuda_redirect.torch_has_cuda() else "cpu"


def run_script(path, argv, trace_dir=None, strict=False, gpu_compare=False, device="auto", all_configs=False):
    if not os.path.isfile(path):
        sys.stderr.write(f"tilescope run: error: no such script '{path}'\n")
        return 2
    announce = device == "auto"
    device = choose_device(device)
    if device == "cpu" and not cuda_redirect.torch_importable():
        sys.stderr.write("tilescope run: error: --device cpu redirects torch's CUDA tensors, but torch is not "
                         "installed\n")
        return 2
    options.configure(strict=strict, gpu_compare=gpu_compare, raise_on_error=True, device=device,
                      all_configs=all_configs)
    if trace_dir:
        options.configure(trace="full")
        os.makedirs(trace_dir, exist_ok=True)
    tally = Tally(trace_dir)
    options.set_reporter(tally.on_launch)
    redirect = contextlib.nullcontext()
    if device == "cpu":
        if announce:
            sys.stderr.write("tilescope: torch has no GPU here: the script's 'cuda' tensors live in host memory "
                             "(--device cpu)\n")
        redirect = cuda_redirect.CudaRedirect()
    status = 0
    provider = "?"
    try:
        with redirect:
            provider = triton_shim.install()
            status = _run(path, argv, tally.printed_errors)
    finally:
        options.set_reporter(None)
        sys.stderr.write(tally.summary(provider, device))
    if status == 0 and (tally.findings or tally.not_built):
        status = 1
    return status


def _run(path, argv, printed_errors):
    """Runs the script as __main__; its exit status."""
    sys.argv = [path] + list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        runpy.run_path(path, run_name="__main__")
    except KernelError as e:
        if str(e) not in printed_errors:
            sys.stderr.write(str(e) + "\n")
        return 1
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except KeyboardInterrupt:
        sys.stderr.write("tilescope run: interrupted\n")
        return 130
    except BaseException:  # the script's own error: shown as Python shows it, then the summary
        traceback.print_exc()
        return 1
    return 0
