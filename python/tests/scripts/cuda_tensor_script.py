# A script written for a GPU, as people write them: CUDA tensors made every
# way torch offers, torch.cuda asked about the device and used for timing.
# The test runs it unchanged with `python3 -m tilescope run --device cpu`.
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def add(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n, BLOCK=64)
    return out


assert torch.cuda.is_available()
assert torch.cuda.device_count() >= 1
torch.cuda.set_device(0)
dev = torch.device("cuda", torch.cuda.current_device())
props = torch.cuda.get_device_properties(0)
assert props.multi_processor_count > 0 and props.total_memory > 0, props
torch.manual_seed(0)
torch.cuda.manual_seed(0)
with torch.cuda.device(0):
    x = torch.rand(1000, device="cuda")
y = torch.rand(1000).cuda()
z = torch.arange(1000, dtype=torch.float32).to("cuda")
w = torch.ones(1000).to(dev, non_blocking=True)
v = torch.zeros(1000, device=dev, pin_memory=False)
assert x.is_cuda and y.is_cuda and z.is_cuda and w.is_cuda and v.is_cuda
assert x.device == dev and (x + y).device == dev and torch.empty_like(x).device == dev
stream = torch.cuda.Stream()
start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
with torch.cuda.stream(stream):
    start.record()
    out = add(x, y)
    end.record()
torch.cuda.synchronize()
assert start.elapsed_time(end) >= 0
torch.cuda.empty_cache()
ref = x.cpu() + y.cpu()
assert not ref.is_cuda and ref.device.type == "cpu"
assert torch.allclose(out.cpu(), ref), (out.cpu() - ref).abs().max()
assert torch.equal(add(z, w).cpu(), z.cpu() + 1)
print("cuda script: all checks passed")
