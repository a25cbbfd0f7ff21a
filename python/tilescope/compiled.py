"""What `kernel.warmup(...)` returns, as Triton's compiled kernel: launchable
with `[grid](*args)`, with the metadata scripts read to size their launches.

tilescope interprets kernels, so register and shared-memory figures are
nominal: 32 registers per thread, no spills, 1 KiB of shared memory
(scripts compute occupancy from them and divide by both)."""
import types

NOMINAL_REGISTERS = 32
NOMINAL_SHARED_BYTES = 1024


class CompiledKernel:
    def __init__(self, jit_function, options):
        self.function = jit_function
        self.name = jit_function.fn.__name__
        self.n_regs = NOMINAL_REGISTERS
        self.n_spills = 0
        self.n_max_threads = 1024
        self.packed_metadata = ()
        num_warps = options.get("num_warps", 4)
        self.metadata = types.SimpleNamespace(shared=NOMINAL_SHARED_BYTES, num_warps=num_warps, num_stages=options.get("num_stages", 3),
                                              num_ctas=1, name=self.name, target=None)
        self.asm = {}
        self.src = jit_function.src

    def _init_handles(self):
        pass

    def __getitem__(self, grid):
        from .jit import _caller
        return lambda *args, **kwargs: self.function.launch(grid, args, kwargs, _caller(2))

    def __repr__(self):
        return f"<tilescope compiled kernel {self.name}>"
