"""Read bandwidth out of L2 on the GPU (is a kernel such as p11 L2-bound?).

Each program of a Triton kernel reads a chunk of one buffer with loads that bypass
L1 (cache_modifier ".cg"), pass after pass, a different chunk each pass, and sums
it; bytes read / kernel time is the rate. A buffer well inside the L2 measures the
L2's delivery to the SMs; one far larger measures HBM, for contrast. Prints one line
per buffer size; run on the device with Triton and PyTorch installed:

    python3 bench/l2_read_bandwidth.py
"""
import torch
import triton
import triton.language as tl


@triton.jit
def read_passes(x_ptr, out_ptr, chunk, chunks, passes, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for p in range(passes):
        base = ((pid + p) % chunks) * chunk
        for off in range(0, chunk, BLOCK):
            acc += tl.load(x_ptr + base + off + tl.arange(0, BLOCK), cache_modifier=".cg")
    tl.store(out_ptr + pid * BLOCK + tl.arange(0, BLOCK), acc)


def rate(mib, passes, programs_per_sm=4, block=2048, runs=20):
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    programs = sms * programs_per_sm
    n = mib * 1024 * 1024 // 4
    chunk = n // programs // block * block
    x = torch.rand(chunk * programs, device="cuda")
    out = torch.empty(programs * block, device="cuda")
    grid = (programs,)
    read_passes[grid](x, out, chunk, programs, passes, BLOCK=block, num_warps=8)  # compile, warm the L2
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(runs):
        start.record()
        read_passes[grid](x, out, chunk, programs, passes, BLOCK=block, num_warps=8)
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    times.sort()
    t = times[len(times) // 2]
    return x.numel() * 4 * passes / t


if __name__ == "__main__":
    print(torch.cuda.get_device_name(0))
    for mib, passes in [(8, 64), (16, 32), (24, 32), (32, 16), (2048, 1)]:
        print(f"buffer {mib:5d} MiB, {passes:3d} passes: {rate(mib, passes) / 1e12:6.2f} TB/s read")
