"""Launch options for every launch (tilescope.configure), and the hook that
`python3 -m tilescope run` uses to print findings as they come."""
import os
import sys

_options = {
    "trace": "off",        # "off", "full"
    "strict": False,       # stop a launch at its first finding
    "threads": 0,          # interpreter threads, 0: all cores
    "gpu_compare": os.environ.get("TILESCOPE_GPU_COMPARE", "") not in ("", "0"),
    "gpu_time": False,
    "raise_on_error": True,  # a kernel that does not build raises tilescope.KernelError
    "device": "auto",      # run mode: "cpu" when torch's cuda is redirected to the host
    "all_configs": False,  # autotuned kernels: check every configuration, not only the first
}
_reporter = None
launches = []  # every Result, when recording (run mode)


def configure(**kwargs):
    for k, v in kwargs.items():
        if k not in _options:
            raise TypeError(f"tilescope.configure: unknown option '{k}' (known: {', '.join(_options)})")
        _options[k] = v


def current():
    return _options


def set_reporter(fn):
    global _reporter
    _reporter = fn


def report(result):
    if _reporter is not None:
        _reporter(result)


def print_findings(result):
    text = result.report() if (result.findings or result.gpu) and not result.error else ""
    if text:
        sys.stderr.write(text if text.endswith("\n") else text + "\n")
