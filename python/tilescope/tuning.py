"""Autotuning under tilescope: checked, never timed.

A script's `@triton.autotune` names configurations that Triton would time on
the GPU and pick from. tilescope checks kernels instead: it launches the
configuration Triton would launch first (by default), or checks every
configuration once (`--all-configs`, tilescope.configure(all_configs=True))
and then launches the first. Interpreted runs are never timed.

Where Triton is installed its own Autotuner and Heuristics wrap tilescope's
JIT function; `triton_do_bench` is the benchmark function handed to them.
Where it is not, `Autotuner` and `Heuristics` here do the same work."""
import inspect

from . import options


class Config:
    """triton.Config: meta-parameters and launch options of one variant."""

    def __init__(self, kwargs=None, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, **rest):
        self.kwargs = dict(kwargs or {})
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.rest = rest

    def all_kwargs(self):
        launch = {"num_warps": self.num_warps, "num_stages": self.num_stages, "num_ctas": self.num_ctas}
        if self.maxnreg is not None:
            launch["maxnreg"] = self.maxnreg
        return {**self.kwargs, **launch}

    def __str__(self):
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [f"num_warps: {self.num_warps}", f"num_stages: {self.num_stages}", f"num_ctas: {self.num_ctas}"]
        return ", ".join(parts)

    __repr__ = __str__


def triton_do_bench(fn, quantiles=None, **kwargs):
    """The benchmark function tilescope hands Triton's Autotuner: with
    all_configs it runs the configuration once (a checked launch), else
    nothing; either way every configuration scores the same, so Triton
    keeps the first."""
    if options.current().get("all_configs"):
        fn()
    return [0.0 for _ in quantiles] if quantiles is not None else 0.0


class _Wrapper:
    """What autotune and heuristics both are: a launchable kernel."""

    def __init__(self, fn):
        self.fn = fn
        base = fn
        while not inspect.isfunction(base):
            base = base.fn
        self.base_fn = base
        self.arg_names = list(inspect.signature(base).parameters)
        self.__name__ = base.__name__

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, warmup=False, **kwargs)

    def warmup(self, *args, grid=None, **kwargs):
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def named(self, args, kwargs):
        return {**dict(zip(self.arg_names, args)), **kwargs}


class Autotuner(_Wrapper):
    def __init__(self, fn, configs, key=(), prune_configs_by=None, reset_to_zero=None, restore_value=None,
                 pre_hook=None, post_hook=None, **unused):
        super().__init__(fn)
        self.configs = list(configs) or [Config()]
        self.keys = list(key or ())
        self.prune_configs_by = prune_configs_by or {}
        self.reset_to_zero = list(reset_to_zero or ())
        self.pre_hook = pre_hook
        self.post_hook = post_hook
        self.best_config = None

    def prune(self, named):
        configs = self.configs
        early = self.prune_configs_by.get("early_config_prune")
        if early is not None:
            configs = list(early(configs, named)) or configs
        return configs

    def run(self, *args, grid, warmup=False, **kwargs):
        named = self.named(args, kwargs)
        configs = self.prune(named)
        if options.current().get("all_configs"):
            for config in configs[1:]:
                self._launch(config, args, kwargs, grid, warmup)
        self.best_config = configs[0]
        return self._launch(configs[0], args, kwargs, grid, warmup)

    def _launch(self, config, args, kwargs, grid, warmup):
        named = {**self.named(args, kwargs), **config.all_kwargs()}
        if config.pre_hook is not None:
            config.pre_hook(named)
        if self.pre_hook is not None and not warmup:
            self.pre_hook(named)
        for name in self.reset_to_zero:
            if hasattr(named.get(name), "zero_"):
                named[name].zero_()
        result = self.fn.run(*args, grid=grid, warmup=warmup, **{**kwargs, **config.all_kwargs()})
        if self.post_hook is not None and not warmup:
            self.post_hook(named, None)
        return result


class Heuristics(_Wrapper):
    def __init__(self, fn, values):
        super().__init__(fn)
        self.values = values

    def run(self, *args, grid, warmup=False, **kwargs):
        for name, rule in self.values.items():
            kwargs[name] = rule(self.named(args, kwargs))
        return self.fn.run(*args, grid=grid, warmup=warmup, **kwargs)


def autotune(configs, key=None, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None,
             post_hook=None, **unused):
    return lambda fn: Autotuner(fn, configs, key, prune_configs_by, reset_to_zero, restore_value, pre_hook,
                                post_hook)


def heuristics(values):
    return lambda fn: Heuristics(fn, values)


def over_triton(triton_autotune):
    """Triton's own autotune, handed tilescope's benchmark function."""
    accepts = "do_bench" in inspect.signature(triton_autotune).parameters

    def autotune_checked(*args, **kwargs):
        if accepts:
            kwargs.setdefault("do_bench", triton_do_bench)
            return triton_autotune(*args, **kwargs)
        decorate = triton_autotune(*args, **kwargs)

        def apply(fn):
            tuner = decorate(fn)
            tuner.do_bench = triton_do_bench
            return tuner
        return apply
    autotune_checked.__wrapped__ = triton_autotune
    return autotune_checked
