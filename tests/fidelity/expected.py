"""Differences between Triton (recorded on a GPU) and tilescope that stay,
each with its cause; docs/fidelity.md explains each. compare.py counts a
case listed here as 'expected' only while it differs exactly as listed
(same kind; for values the same outputs and elements), so a fix or a
change shows up as a failure."""


# Causes shared by several cases (one per dtype, or one per platform quirk).
def _gpu_ftz(what):
    # The GPU flushes subnormals to zero where the interpreter does not.
    return f"GPU only: {what}; the interpreter keeps subnormals (IEEE)"


_FP_FUSION = ('GPU only: Triton compiles x * y + z with fp fusion on (enable_fp_fusion, the default), so LLVM '
              'contracts it into one fma (one rounding); the interpreter rounds the product and the sum separately, '
              'as the kernel is written')
_ALL_NAN_ARGMAX = ("argmax/argmin of an all-NaN row: Triton's combine compares with > and <, which a NaN never "
                   "satisfies, so the reduction tree's order picks the index (15 on the GPU); tilescope lets NaN never "
                   'win and an all-NaN row gives index 0')
_MIN_KEEPS_CHOSEN_ZERO = ('; and min with return_indices keeps the value at the chosen index: among equal -0.0 and '
                          "+0.0 the first (+0.0) on the GPU, where tilescope's min gives -0.0")

EXPECTED_DIFFERENCES = {
    'sort_f32_asc': {
        "kind": 'values',
        "diffs": {'o': [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]},
        "cause": ("Triton 3.6's tl.sort is not a permutation when a row holds NaN: its bitonic network decides each swap by comparisons that are false for NaN, so the NaN is lost and a neighbour duplicated (here -2.5 twice); tilescope's sort is stable and puts NaN above every number"),
    },
    'sort_f32_desc': {
        "kind": 'values',
        "diffs": {'o': [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13]},
        "cause": ("Triton 3.6's tl.sort is not a permutation when a row holds NaN: its bitonic network decides each swap by comparisons that are false for NaN, so the NaN is lost and a neighbour duplicated; tilescope's sort is stable and orders NaN above every number (first when descending)"),
    },
    'cumprod_f16': {
        "kind": 'values',
        "diffs": {'o': [29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]},
        "cause": ("order of the products: Triton's scan tree overflows an f16 partial product to inf and multiplies it by an underflowed 0 (NaN from there on); the interpreter's left-to-right product underflows to 0 first and stays 0"),
    },
    'erf_f32': {
        "kind": 'values',
        "diffs": {'o': [0, 9, 22]},
        "cause": _gpu_ftz("libdevice's erf runs with subnormals flushed to zero (Triton's default), so "
                          'erf(subnormal) is +-0 there'),
    },
    'expm1_f32': {
        "kind": 'values',
        "diffs": {'o': [2, 15, 17]},
        "cause": _gpu_ftz("libdevice's expm1 runs with subnormals flushed to zero, so expm1(subnormal) is 0 there"),
    },
    'log1p_f32': {
        "kind": 'values',
        "diffs": {'o': [2, 14, 15]},
        "cause": _gpu_ftz("libdevice's log1p runs with subnormals flushed to zero, so log1p(subnormal) is 0 there"),
    },
    'pow_f32': {
        "kind": 'values',
        "diffs": {'o': [21]},
        "cause": _gpu_ftz("libdevice's pow runs with subnormals flushed to zero, so pow(subnormal, 1) is 0 there"),
    },
    'atomic_add_old_f32': {
        "kind": 'values',
        "diffs": {"acc": [12, 13, 14, 15, 16]},
        "cause": _gpu_ftz('the f32 atomic add (atom.add.f32) flushes subnormal operands to zero, so x + acc of two '
                          'subnormals is +-0 there'),
    },
    'ceil_f32': {
        "kind": 'values',
        "diffs": {"o": [15, 19, 21]},
        "cause": _gpu_ftz('tl.ceil (cvt.rpi.ftz.f32) flushes a subnormal input to zero, so ceil(+subnormal) is 0 '
                          'there, 1 here'),
    },
    'floor_f32': {
        "kind": 'values',
        "diffs": {"o": [11, 15]},
        "cause": _gpu_ftz('tl.floor (cvt.rmi.ftz.f32) flushes a subnormal input to zero, so floor(-subnormal) is -0 '
                          'there, -1 here'),
    },
    'lit_mul_neg_i16': {
        "kind": 'values',
        "diffs": {"o": [0, 8]},
        "cause": ('GPU only: x * -2 on i16 where the product is exactly -32768 comes back +32768 when widened for the '
                  "store (LLVM treats Triton's narrow integer arithmetic as not overflowing when it rewrites x * -2 and "
                  "the sign extension); tilescope wraps in two's complement: -32768"),
    },
    'masked_load_u16': {
        "kind": 'tilescope_rejects',
        "cause": ("tilescope is stricter: tl.load(..., other=-7) into a u16 buffer is an error ('negative literal used "
                  "with unsigned type'); Triton converts -7 to u16 (65529) silently"),
    },
    'mul_add_bf16': {
        "kind": 'values',
        "diffs": {"o": [8, 12, 15, 17, 19, 22, 32, 45, 50, 52, 54, 55, 60]},
        "cause": _FP_FUSION,
    },
    'mul_add_f16': {
        "kind": 'values',
        "diffs": {"o": [1, 6, 9, 14, 16, 18, 29, 32, 40, 44, 46, 47, 48, 54, 55, 57, 58, 62]},
        "cause": _FP_FUSION,
    },
    'mul_add_f32': {
        "kind": 'values',
        "diffs": {"o": [0, 1, 5, 19, 21, 26, 31, 35, 39, 46, 51, 52, 54, 55, 62]},
        "cause": _FP_FUSION,
    },
    'mul_add_f64': {
        "kind": 'values',
        "diffs": {"o": [3, 9, 16, 38, 43, 52, 53, 56, 57, 59, 61, 62]},
        "cause": _FP_FUSION,
    },
    'reduce_bf16': {
        "kind": 'values',
        "diffs": {"amax": [4], "amin": [4]},
        "cause": _ALL_NAN_ARGMAX,
    },
    'reduce_f16': {
        "kind": 'values',
        "diffs": {"amax": [4], "amin": [4]},
        "cause": _ALL_NAN_ARGMAX,
    },
    'reduce_f32': {
        "kind": 'values',
        "diffs": {"amax": [4], "amin": [4]},
        "cause": _ALL_NAN_ARGMAX,
    },
    'reduce_f64': {
        "kind": 'values',
        "diffs": {"amax": [4], "amin": [4]},
        "cause": _ALL_NAN_ARGMAX,
    },
    'reduce_idx_bf16': {
        "kind": 'values',
        "diffs": {"imax": [4], "imin": [4], "min": [2]},
        "cause": _ALL_NAN_ARGMAX + _MIN_KEEPS_CHOSEN_ZERO,
    },
    'reduce_idx_f16': {
        "kind": 'values',
        "diffs": {"imax": [4], "imin": [4], "min": [2]},
        "cause": _ALL_NAN_ARGMAX + _MIN_KEEPS_CHOSEN_ZERO,
    },
    'reduce_idx_f32': {
        "kind": 'values',
        "diffs": {"imax": [4], "imin": [4], "min": [2]},
        "cause": _ALL_NAN_ARGMAX + _MIN_KEEPS_CHOSEN_ZERO,
    },
    'reduce_idx_f64': {
        "kind": 'values',
        "diffs": {"imax": [4], "imin": [4], "min": [2]},
        "cause": _ALL_NAN_ARGMAX + _MIN_KEEPS_CHOSEN_ZERO,
    },
    'rsqrt_f32': {
        "kind": 'values',
        "diffs": {"o": [5, 13, 15, 23, 24]},
        "cause": _gpu_ftz('tl.rsqrt (rsqrt.approx.ftz.f32) flushes a subnormal input to zero, so it gives +-inf '
                          'there, a finite value (or NaN for a negative one) here'),
    },
    'sin_f32': {
        "kind": 'values',
        "diffs": {"o": [4, 12, 14]},
        "cause": _gpu_ftz('tl.sin (sin.approx.ftz.f32) flushes subnormal inputs and results to zero, so '
                          'sin(subnormal) is +-0 there, the input itself here'),
    },
    'sqrt_f32': {
        "kind": 'values',
        "diffs": {"o": [1, 2, 9, 18, 22]},
        "cause": _gpu_ftz('tl.sqrt (sqrt.approx.ftz.f32) flushes a subnormal input to zero, so sqrt(+subnormal) is 0 '
                          'and sqrt(-subnormal) is -0 there, a normal value and NaN here'),
    },
    'tanh_f32': {
        "kind": 'values',
        "diffs": {"o": [19, 22, 24]},
        "cause": _gpu_ftz('libdevice tanh (tanh.approx.f32, ftz) flushes subnormal inputs and results to zero, so '
                          'tanh(subnormal) is +-0 there, the input itself here'),
    },
}
