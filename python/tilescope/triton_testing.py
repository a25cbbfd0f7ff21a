"""`triton.testing` under tilescope: benchmarks are not timed.

tilescope interprets kernels to check them; timing interpreted runs would
take minutes at benchmark sizes and measure nothing a user wants. So
`do_bench` runs nothing and answers 0.0 (or one 0.0 per quantile), and a
`perf_report` benchmark prints one line saying it was skipped. Tutorials
and test suites that only *define* benchmarks, or run them at the end,
finish with their checks intact. (tilescope's own GPU timing is
`tilescope bench` and the gpu_time launch option.)"""
import sys

_skipped = set()


def _say_skipped(what):
    if what not in _skipped:
        _skipped.add(what)
        sys.stderr.write(f"tilescope: {what} skipped: interpreted kernels are not timed\n")


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean", **kwargs):
    """Runs nothing; 0.0 ms, or one 0.0 per requested quantile."""
    _say_skipped("triton.testing.do_bench")
    if quantiles is not None:
        return [0.0 for _ in quantiles]
    return 0.0


def do_bench_cudagraph(fn, rep=20, grad_to_none=None, quantiles=None, return_mode="mean"):
    return do_bench(fn, quantiles=quantiles)


class Benchmark:
    """What one perf_report plots (kept as given)."""

    def __init__(self, x_names, x_vals, line_arg, line_vals, line_names, plot_name, args, xlabel="", ylabel="",
                 x_log=False, y_log=False, styles=None, color=None):
        self.x_names = x_names
        self.x_vals = x_vals
        self.line_arg = line_arg
        self.line_vals = line_vals
        self.line_names = line_names
        self.plot_name = plot_name
        self.args = args
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.x_log = x_log
        self.y_log = y_log
        self.styles = styles
        self.color = color


class Mark:
    """A perf_report-decorated benchmark: `.run(...)` prints that it was
    skipped; calling the function itself still works."""

    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)

    def run(self, show_plots=False, print_data=False, save_path="", return_df=False, **kwargs):
        benches = self.benchmarks if isinstance(self.benchmarks, list) else [self.benchmarks]
        for bench in benches:
            _say_skipped(f"benchmark '{getattr(bench, 'plot_name', self.fn.__name__)}'")
        return [] if return_df and len(benches) > 1 else None


def perf_report(benchmarks):
    return lambda fn: Mark(fn, benchmarks)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Triton's assert_close, on whatever numpy can read (tensors too)."""
    import numpy as np

    def host(v):
        if hasattr(v, "detach"):
            v = v.detach().cpu()
            if str(v.dtype) == "torch.bfloat16":
                v = v.float()
            return v.numpy()
        return np.asarray(v)

    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    np.testing.assert_allclose(host(x), host(y), atol=atol, rtol=rtol, err_msg=err_msg, equal_nan=True)


def get_dram_gbps(device=None):
    from .cuda_redirect import DEVICE_FIGURES as f
    return f["mem_clock_rate_khz"] * 1e3 * 2 * f["mem_bus_width"] / 8 / 1e9


def get_max_tensorcore_tflops(dtype, clock_rate, device=None):
    return 989.0


def set_gpu_clock(ref_sm_clock=1350, ref_mem_clock=1215):
    import contextlib
    return contextlib.nullcontext((ref_sm_clock, ref_mem_clock))
