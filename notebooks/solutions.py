"""Reference solutions of notebooks/tile_puzzles.ipynb, in Triton syntax.

Not part of the learners' notebook: CI (.ci/notebook.sh) runs the notebook
once with each stub cell replaced by the function of the same name from
this file, and once with the stubs as given. Every kernel here passes every
size set and seed of its puzzle (PUZZLES.md).
"""
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off_x = tl.arange(0, B0)
    x = tl.load(x_ptr + off_x)
    tl.store(z_ptr + off_x, x + 10.0)


@triton.jit
def add_mask2_kernel(x_ptr, z_ptr, N0, B0: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask = off_x < N0
    x = tl.load(x_ptr + off_x, mask=mask)
    tl.store(z_ptr + off_x, x + 10.0, mask=mask)


@triton.jit
def add_vec_kernel(x_ptr, y_ptr, z_ptr, N0, N1, B0: tl.constexpr, B1: tl.constexpr):
    off_x = tl.arange(0, B0)
    off_y = tl.arange(0, B1)
    x = tl.load(x_ptr + off_x)
    y = tl.load(y_ptr + off_y)
    tl.store(z_ptr + off_y[:, None] * N0 + off_x[None, :], x[None, :] + y[:, None])


@triton.jit
def add_vec_block_kernel(x_ptr, y_ptr, z_ptr, N0, N1, B0: tl.constexpr, B1: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0)
    off_y = tl.program_id(1) * B1 + tl.arange(0, B1)
    mx = off_x < N0
    my = off_y < N1
    x = tl.load(x_ptr + off_x, mask=mx)
    y = tl.load(y_ptr + off_y, mask=my)
    tl.store(z_ptr + off_y[:, None] * N0 + off_x[None, :], x[None, :] + y[:, None], mask=my[:, None] & mx[None, :])


@triton.jit
def mul_relu_block_kernel(x_ptr, y_ptr, z_ptr, N0, N1, B0: tl.constexpr, B1: tl.constexpr):
    off_x = tl.program_id(0) * B0 + tl.arange(0, B0)
    off_y = tl.program_id(1) * B1 + tl.arange(0, B1)
    mx = off_x < N0
    my = off_y < N1
    x = tl.load(x_ptr + off_x, mask=mx)
    y = tl.load(y_ptr + off_y, mask=my)
    z = tl.maximum(x[None, :] * y[:, None], 0)
    tl.store(z_ptr + off_y[:, None] * N0 + off_x[None, :], z, mask=my[:, None] & mx[None, :])


@triton.jit
def mul_relu_block_back_kernel(x_ptr, y_ptr, dz_ptr, dx_ptr, N0, N1, B0: tl.constexpr, B1: tl.constexpr):
    off_i = tl.program_id(0) * B0 + tl.arange(0, B0)
    off_j = tl.program_id(1) * B1 + tl.arange(0, B1)
    off_ji = off_j[:, None] * N0 + off_i[None, :]
    m = (off_j[:, None] < N1) & (off_i[None, :] < N0)
    x = tl.load(x_ptr + off_ji, mask=m)
    y = tl.load(y_ptr + off_j, mask=off_j < N1)
    dz = tl.load(dz_ptr + off_ji, mask=m)
    df = tl.where(x * y[:, None] > 0, 1.0, 0.0)
    tl.store(dx_ptr + off_ji, df * y[:, None] * dz, mask=m)


@triton.jit
def sum_kernel(x_ptr, z_ptr, N0, N1, T, B0: tl.constexpr, B1: tl.constexpr):
    off_i = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask_i = off_i < N0
    z = tl.zeros((B0,), dtype=tl.float32)
    for j in range(0, T, B1):
        off_j = j + tl.arange(0, B1)
        m = mask_i[:, None] & (off_j[None, :] < T)
        x = tl.load(x_ptr + off_i[:, None] * T + off_j[None, :], mask=m, other=0.0)
        z += tl.sum(x, axis=1)
    tl.store(z_ptr + off_i, z, mask=mask_i)


@triton.jit
def softmax_kernel(x_ptr, z_ptr, N0, N1, T, B0: tl.constexpr, B1: tl.constexpr):
    log2_e = 1.44269504
    off_i = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask_i = off_i < N0
    x_max = tl.full((B0,), -float("inf"), dtype=tl.float32)
    s = tl.zeros((B0,), dtype=tl.float32)
    for j in range(0, T, B1):
        off_j = j + tl.arange(0, B1)
        m = mask_i[:, None] & (off_j[None, :] < T)
        x = tl.load(x_ptr + off_i[:, None] * T + off_j[None, :], mask=m, other=-float("inf"))
        nm = tl.maximum(x_max, tl.max(x, axis=1))
        s = s * tl.exp2(log2_e * (x_max - nm)) + tl.sum(tl.exp2(log2_e * (x - nm[:, None])), axis=1)
        x_max = nm
    for j in range(0, T, B1):
        off_j = j + tl.arange(0, B1)
        m = mask_i[:, None] & (off_j[None, :] < T)
        x = tl.load(x_ptr + off_i[:, None] * T + off_j[None, :], mask=m, other=-float("inf"))
        z = tl.exp2(log2_e * (x - x_max[:, None])) / s[:, None]
        tl.store(z_ptr + off_i[:, None] * T + off_j[None, :], z, mask=m)


@triton.jit
def flashatt_kernel(q_ptr, k_ptr, v_ptr, z_ptr, N0, T, B0: tl.constexpr, B1: tl.constexpr):
    log2_e = 1.44269504
    off_i = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask_i = off_i < N0
    q = tl.load(q_ptr + off_i, mask=mask_i, other=0.0)
    x_max = tl.full((B0,), -float("inf"), dtype=tl.float32)
    s = tl.zeros((B0,), dtype=tl.float32)
    z = tl.zeros((B0,), dtype=tl.float32)
    for j in range(0, T, B1):
        off_j = j + tl.arange(0, B1)
        mask_j = off_j < T
        k = tl.load(k_ptr + off_j, mask=mask_j, other=0.0)
        v = tl.load(v_ptr + off_j, mask=mask_j, other=0.0)
        x = tl.where(mask_j[None, :], q[:, None] * k[None, :], -float("inf"))
        nm = tl.maximum(x_max, tl.max(x, axis=1))
        f = tl.exp2(log2_e * (x_max - nm))
        p = tl.exp2(log2_e * (x - nm[:, None]))
        s = s * f + tl.sum(p, axis=1)
        z = z * f + tl.sum(p * v[None, :], axis=1)
        x_max = nm
    tl.store(z_ptr + off_i, z / s, mask=mask_i)


@triton.jit
def conv2d_kernel(x_ptr, k_ptr, z_ptr, N0, H, W, KH: tl.constexpr, KW: tl.constexpr, B0: tl.constexpr):
    off_i = tl.program_id(0) * B0 + tl.arange(0, B0)
    mask_i = off_i < N0
    off_kh = tl.arange(0, KH)
    off_kw = tl.arange(0, KW)
    k = tl.load(k_ptr + off_kh[:, None] * KW + off_kw[None, :])
    for h in range(0, H):
        for w in range(0, W):
            hh = h + off_kh[None, :, None]
            ww = w + off_kw[None, None, :]
            m = mask_i[:, None, None] & (hh < H) & (ww < W)
            x = tl.load(x_ptr + off_i[:, None, None] * H * W + hh * W + ww, mask=m, other=0.0)
            z = tl.sum(tl.sum(x * k[None, :, :], axis=2), axis=1)
            tl.store(z_ptr + off_i * H * W + h * W + w, z, mask=mask_i)


@triton.jit
def dot_kernel(x_ptr, y_ptr, z_ptr, N0, N1, N2, MID, B0: tl.constexpr, B1: tl.constexpr, B2: tl.constexpr,
               B_MID: tl.constexpr):
    off_b = tl.program_id(2) * B2 + tl.arange(0, B2)[:, None, None]
    off_j = tl.program_id(0) * B0 + tl.arange(0, B0)[None, :, None]
    off_k = tl.program_id(1) * B1 + tl.arange(0, B1)[None, None, :]
    mb = off_b < N2
    mj = off_j < N0
    mk = off_k < N1
    z = tl.zeros((B2, B0, B1), dtype=tl.float32)
    for l in range(0, MID, B_MID):
        off_l = l + tl.arange(0, B_MID)
        ml = off_l < MID
        x = tl.load(x_ptr + off_b * N0 * MID + off_j * MID + off_l[None, None, :],
                    mask=mb & mj & ml[None, None, :], other=0.0)
        y = tl.load(y_ptr + off_b * MID * N1 + off_l[None, :, None] * N1 + off_k,
                    mask=mb & ml[None, :, None] & mk, other=0.0)
        z = tl.dot(x, y, acc=z)
    tl.store(z_ptr + off_b * N0 * N1 + off_j * N1 + off_k, z, mask=mb & mj & mk)


@triton.jit
def quant_dot_kernel(scale_ptr, offset_ptr, weight_ptr, activation_ptr, z_ptr, N0, N1, MID,
                     B0: tl.constexpr, B1: tl.constexpr, B_MID: tl.constexpr):
    FPINT: tl.constexpr = 8
    GROUP: tl.constexpr = 8
    off_j = tl.program_id(0) * B0 + tl.arange(0, B0)
    off_k = tl.program_id(1) * B1 + tl.arange(0, B1)
    mj = off_j < N0
    mk = off_k < N1
    z = tl.zeros((B0, B1), dtype=tl.float32)
    for l in range(0, MID, B_MID):
        off_l = l + tl.arange(0, B_MID)
        ml = off_l < MID
        m = mj[:, None] & ml[None, :]
        # Weight l is nibble l % 8 of word l // 8; its group g = l // 8 has
        # its scale, and its shift in nibble g % 8 of shift word g // 8.
        word = tl.load(weight_ptr + off_j[:, None] * (MID // FPINT) + (off_l // FPINT)[None, :], mask=m, other=0)
        code = (word >> ((off_l % FPINT) * 4)[None, :]) & 0xF
        g = off_l // GROUP
        scale = tl.load(scale_ptr + off_j[:, None] * (MID // GROUP) + g[None, :], mask=m, other=0.0)
        sword = tl.load(offset_ptr + off_j[:, None] * (MID // (GROUP * FPINT)) + (g // FPINT)[None, :], mask=m,
                        other=0)
        shift = (sword >> ((g % FPINT) * 4)[None, :]) & 0xF
        act = tl.load(activation_ptr + off_l[:, None] * N1 + off_k[None, :], mask=ml[:, None] & mk[None, :],
                      other=0.0)
        z = tl.dot(scale * (code - shift), act, acc=z)
    tl.store(z_ptr + off_j[:, None] * N1 + off_k[None, :], z, mask=mj[:, None] & mk[None, :])
