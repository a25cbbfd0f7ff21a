// Small kernels that exercise what SEMANTICS.md defines beyond C++ and
// every op family of the CUDA back end: integer division by zero, INT_MIN /
// -1, wide shifts, saturating casts, f16/bf16 rounding, NaN-dropping
// max/min, masked loads without `other`, atomics, every dot flavour,
// permutes and reductions along each axis, loops (negative steps, zero
// trips, loop-carried pointers), if/else, 0-d loads/stores/atomics, where()
// on pointers, and tiles smaller and larger than a block. The GPU tests run
// each on the interpreter and the GPU and compare; the codegen tests compile
// each with NVRTC.
#pragma once
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "buffer.h"
#include "interpreter.h"
#include "kernel.h"
#include "tl.h"

namespace gpu_cases {

struct Case {
  std::string name;
  const tl::KernelDef* kernel;
  tl::Grid grid;
  std::function<std::vector<tl::Buffer>()> buffers;  // fresh, deterministic contents
  std::function<std::vector<tl::Arg>(std::vector<tl::Buffer>&)> args;
};

namespace detail {

inline tl::Buffer filled(const char* name, tl::DType d, int64_t n, const std::function<double(int64_t)>& f) {
  tl::Buffer b(name, d, {n});
  for (int64_t i = 0; i < n; ++i) b.set(i, f(i));
  return b;
}

// Deterministic values in [-0.5, 0.5): no std:: distribution, so every
// platform agrees.
inline double wave(int64_t i) { return std::fmod(static_cast<double>(i) * 0.6180339887, 1.0) - 0.5; }

inline std::vector<tl::Arg> all(std::vector<tl::Buffer>& b) { return {b.begin(), b.end()}; }

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

using namespace tl;

inline void int_div_mod(Ptr a, Ptr b, Ptr q, Ptr r, Ptr q8) {
  auto i = arange(0, 256);
  auto x = load(a + i), y = load(b + i);
  store(q + i, x / y);
  store(r + i, x % y);
  auto x8 = x.to(i8), y8 = y.to(i8);
  store(q8 + i, (x8 / y8).to(i32) * 1000 + (x8 % y8).to(i32));
}

inline void shifts(Ptr a, Ptr c, Ptr l, Ptr rs, Ptr ru) {
  auto i = arange(0, 64);
  auto x = load(a + i), n = load(c + i);
  store(l + i, x << n);
  store(rs + i, x >> n);
  store(ru + i, x.to(u32) >> n.to(u32));
}

inline void casts(Ptr f, Ptr o8, Ptr o16, Ptr o32, Ptr o64, Ptr ou8, Ptr ou32, Ptr ou64, Ptr oh, Ptr ob, Ptr obool, Ptr od) {
  auto i = arange(0, 32);
  auto x = load(f + i);
  store(o8 + i, x.to(i8));
  store(o16 + i, x.to(i16));
  store(o32 + i, x.to(i32));
  store(o64 + i, x.to(i64));
  store(ou8 + i, x.to(u8));
  store(ou32 + i, x.to(u32));
  store(ou64 + i, x.to(u64));
  store(oh + i, x.to(f16));
  store(ob + i, x.to(bf16));
  store(obool + i, x.to(i1));
  store(od + i, x.to(f64) * 3.0 + x.to(f16).to(f64) + x.to(bf16).to(f32).to(f64));
}

inline void int_to_float(Ptr a64, Ptr a32, Ptr of, Ptr oh, Ptr ob, Ptr od) {
  auto i = arange(0, 32);
  auto x = load(a64 + i), y = load(a32 + i);
  store(of + i, x.to(f32));
  store(oh + i, y.to(f16));
  store(ob + i, x.to(bf16));
  store(od + i, x.to(f64) + y.to(u32).to(f64));
}

inline void nan_max(Ptr a, Ptr b, Ptr mx, Ptr mn, Ptr rmax, Ptr rmin, Ptr amax, Ptr amin) {
  auto i = arange(0, 128);
  auto x = load(a + i), y = load(b + i);
  store(mx + i, maximum(x, y));
  store(mn + i, minimum(x, y));
  auto x2 = x.reshape({8, 16});
  store(rmax + arange(0, 8), max(x2, 1));
  store(rmin + arange(0, 16), min(x2, 0));
  store(amax + arange(0, 8), argmax(x2, 1));
  store(amin + arange(0, 16), argmin(x2, 0));
}

inline void masked(Ptr x, Ptr o1, Ptr o2, Int n) {
  auto i = arange(0, 256);
  auto m = i < n;
  store(o1 + i, load(x + i, m));  // no other: tl:: gives 0
  store(o2 + i, load(x + i, m, 7.0f));
}

inline void atomics(Ptr vals, Ptr acc_f, Ptr acc_i, Ptr priv, Ptr old_out, Ptr cnt) {
  auto pid = program_id(0);
  auto i = arange(0, 64);  // smaller than a block: replicated lanes must add once
  auto v = load(vals + i);
  atomic_add(acc_f + i, v);
  atomic_add(acc_i + i % 16, 1);
  auto wide = arange(0, 512);
  atomic_add(acc_i + 16 + wide % 32, 2);
  auto old = atomic_add(priv + pid * 64 + i, v, i % 3 != 0);  // masked lanes return 0
  store(old_out + pid * 64 + i, old);
  atomic_add(cnt, 1);
}

inline void half_math(Ptr a, Ptr b, Ptr o, Ptr s, Ptr cmp, Ptr bo) {
  auto i = arange(0, 64);
  auto x = load(a + i), y = load(b + i);  // f16
  store(o + i, x * y + x);                // rounded to f16 after each op
  store(s, sum(x));                       // an f16 sum adds in f16
  store(cmp + i, (x < y).to(i32) + (x == y).to(i32) * 2);
  auto xb = x.to(bf16), yb = y.to(bf16);
  store(bo + i, xb * yb - xb);
}

inline void dots(Ptr a, Ptr b, Ptr c, Ptr o1, Ptr o2, Ptr o3, Ptr o4, Ptr o5, Ptr o6) {
  auto m = arange(0, 32), k = arange(0, 16), n = arange(0, 32);
  auto A = load(a + m.col() * 16 + k.row());
  auto B = load(b + k.col() * 32 + n.row());
  auto off = m.col() * 32 + n.row();
  auto C = load(c + off);
  store(o1 + off, dot(A, B));
  store(o2 + off, dot(A, B, C, tl::ieee));
  store(o3 + off, dot(A, B, C, tl::tf32x3));
  store(o4 + off, dot(A.to(f16), B.to(f16)));
  store(o5 + off, dot(A.to(f16), B.to(f16), C.to(f16), tl::tf32, f16));
  store(o6 + off, dot(A.to(f64), B.to(f64)));
}

inline void int_and_batched_dots(Ptr a, Ptr b, Ptr oi, Ptr ob) {
  auto r = arange(0, 32);
  auto A = (load(a + r.col() * 32 + r.row()) * 37).to(i8);  // wraps into i8
  auto B = load(b + r.col() * 32 + r.row()).to(i8);
  store(oi + r.col() * 32 + r.row(), dot(A, B));
  auto t = arange(0, 2), s = arange(0, 16);
  auto off = (expand_dims(t, {1, 2}) * 16 + expand_dims(s, {0, 2})) * 16 + expand_dims(s, {0, 1});  // [2, 16, 16]
  auto X = load(a + off).to(f32) * 0.125f, Y = load(b + off).to(f32) * 0.5f;
  store(ob + off, dot(X, Y, X, tl::ieee));
}

inline void shapes(Ptr x, Ptr x2, Ptr o_perm, Ptr o_trans, Ptr o_s0, Ptr o_s1, Ptr o_s2, Ptr o_keep) {
  auto t = load(x + arange(0, 64)).reshape({2, 4, 8});
  store(o_perm + arange(0, 64), t.permute({2, 0, 1}).reshape({64}));
  auto big = load(x2 + arange(0, 1024)).reshape({16, 64});
  store(o_trans + arange(0, 1024), big.trans().reshape({1024}));
  store(o_s0 + arange(0, 32), sum(t, 0).reshape({32}));
  store(o_s1 + arange(0, 16), sum(t, 1).reshape({16}));
  store(o_s2 + arange(0, 8), sum(t, 2).reshape({8}));
  store(o_keep + arange(0, 64), (t - sum(t, 1, true)).reshape({64}));
}

inline void control(Ptr x, Ptr o, Int n, Int flag) {
  auto i = arange(0, 16);
  auto acc = zeros({16}, f32);
  for (auto j : range(n, -1, -3)) acc += load(x + j * 16 + i);  // n, n-3, ..., down to 0
  for (auto j : range(0, 0)) acc += j.to(f32) + 1000.0f;         // never runs
  auto p = x + i;
  for (auto j : range(0, 4)) {  // a loop-carried pointer tile
    acc += load(p) * j.to(f32);
    p += 16;
  }
  if_(flag > 0, [&] { acc = acc * 2.0f; }, [&] { acc = acc - 1.0f; });
  store(o + i, acc);
}

inline void scalars(Ptr x, Ptr o, Ptr cnt) {
  auto lin = (program_id(0) * num_programs(1) + program_id(1)) * num_programs(2) + program_id(2);
  auto v = load(x + lin);
  store(o + lin, v * 2.0f + lin.to(f32));
  atomic_add(cnt, 1);
}

inline void where_ptr(Ptr x, Ptr y, Ptr o) {
  auto i = arange(0, 256);
  auto p = where(i % 2 == 0, x + i, y + i / 2);
  store(o + i, load(p));
}

inline void bits(Ptr a, Ptr f, Ptr o_abs, Ptr o_neg, Ptr o_not, Ptr o_bits, Ptr o_fbits, Ptr o_b) {
  auto i = arange(0, 32);
  auto x = load(a + i);
  auto y = load(f + i);
  store(o_abs + i, abs(x));
  store(o_neg + i, -x);
  store(o_not + i, ~x);
  store(o_bits + i, y.to(i32, true));
  store(o_fbits + i, x.to(f32, true));
  store(o_b + i, (~(x > 0)).to(i32));
}

inline void math(Ptr a, Ptr o) {
  auto i = arange(0, 64);
  auto x = load(a + i);  // in (0.1, 10)
  std::vector<Tensor> r = {exp(x), exp2(x), log(x), log2(x), sqrt(x), rsqrt(x), sigmoid(x - 5.0f), tanh(x - 5.0f),
                           sin(x), cos(x), floor(x * 3.0f), ceil(x * 3.0f), fma(x, x, -x), x % 0.7f,
                           truediv(i, 7), abs(x - 5.0f)};
  for (size_t k = 0; k < r.size(); ++k) store(o + static_cast<int>(k) * 64 + i, r[k]);
}

inline void ints64(Ptr a, Ptr o, Ptr o8, Int64 big) {
  auto i = arange(0, 64);
  auto x = load(a + i);  // i64
  store(o + i, x * big + x);
  store(o8 + i, x.to(u8) + 250);
}

inline void layouts(Ptr x, Ptr y, Ptr o, Ptr o2, Ptr o3) {
  auto r = arange(0, 64), c = arange(0, 256);
  auto xv = load(x + r), yv = load(y + c);
  auto t = xv.col() * yv.row();  // [64, 256]
  store(o + r.col() * 256 + c.row(), t);
  store(o2 + c, sum(t, 0));
  store(o3 + r, max(t, 1) + sum(t, 1));
}

// Named after their parameters, as the puzzles are.
#define TS_CASE_KERNEL(fn, ...) \
  static const tl::KernelDef fn##_def(#fn, fn, std::vector<std::string>{__VA_ARGS__})

}  // namespace detail

inline const std::vector<Case>& all_cases() {
  using namespace detail;
  using tl::DType;
  TS_CASE_KERNEL(int_div_mod, "a", "b", "q", "r", "q8");
  TS_CASE_KERNEL(shifts, "a", "c", "l", "rs", "ru");
  TS_CASE_KERNEL(casts, "f", "o8", "o16", "o32", "o64", "ou8", "ou32", "ou64", "oh", "ob", "obool", "od");
  TS_CASE_KERNEL(int_to_float, "a64", "a32", "of", "oh", "ob", "od");
  TS_CASE_KERNEL(nan_max, "a", "b", "mx", "mn", "rmax", "rmin", "amax", "amin");
  TS_CASE_KERNEL(masked, "x", "o1", "o2", "n");
  TS_CASE_KERNEL(atomics, "vals", "acc_f", "acc_i", "priv", "old_out", "cnt");
  TS_CASE_KERNEL(half_math, "a", "b", "o", "s", "cmp", "bo");
  TS_CASE_KERNEL(dots, "a", "b", "c", "o1", "o2", "o3", "o4", "o5", "o6");
  TS_CASE_KERNEL(int_and_batched_dots, "a", "b", "oi", "ob");
  TS_CASE_KERNEL(shapes, "x", "x2", "o_perm", "o_trans", "o_s0", "o_s1", "o_s2", "o_keep");
  TS_CASE_KERNEL(control, "x", "o", "n", "flag");
  TS_CASE_KERNEL(scalars, "x", "o", "cnt");
  TS_CASE_KERNEL(where_ptr, "x", "y", "o");
  TS_CASE_KERNEL(bits, "a", "f", "o_abs", "o_neg", "o_not", "o_bits", "o_fbits", "o_b");
  TS_CASE_KERNEL(math, "a", "o");
  TS_CASE_KERNEL(ints64, "a", "o", "o8", "big");
  TS_CASE_KERNEL(layouts, "x", "y", "o", "o2", "o3");

  auto zeros = [](const char* n, DType d, int64_t len) { return filled(n, d, len, [](int64_t) { return 0.0; }); };
  auto f32s = [](const char* n, int64_t len, double scale = 1, double shift = 0) {
    return filled(n, DType::f32, len, [=](int64_t i) { return wave(i) * scale + shift; });
  };
  static const std::vector<double> kIntEdges = {0, -1, 1, 2147483647.0, -2147483648.0, 7, -7, 2, -2, 100000, -128, 127};
  static const std::vector<double> kFloatEdges = {kNaN, kInf, -kInf, 1e10, -1e10, 300.7, -300.7, 127.5, -128.9,
                                                  65535.9, 0.5, -0.5, -0.0, 1e-40, 65520, 3e38, -3e38, 4294967296.0,
                                                  -1.5, 2.5, 1e19, -1e19, 255.5, 256.5};
  static const std::vector<Case> cases = {
      {"int_div_mod", &int_div_mod_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(filled("a", DType::i32, 256, [](int64_t i) { return i < 12 ? kIntEdges[i] : std::floor(wave(i) * 2e9); }));
         b.push_back(filled("b", DType::i32, 256, [](int64_t i) {
           return i < 12 ? kIntEdges[(i * 5) % 12] : (i % 7 == 0 ? 0.0 : i % 11 == 0 ? -1.0 : std::floor(wave(i * 3) * 300));
         }));
         for (const char* n : {"q", "r", "q8"}) b.push_back(zeros(n, DType::i32, 256));
         return b;
       },
       all},
      {"shifts", &shifts_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(filled("a", DType::i32, 64, [](int64_t i) { return i % 2 ? -123456789.0 : std::floor(wave(i) * 4e9); }));
         b.push_back(filled("c", DType::i32, 64, [](int64_t i) { return static_cast<double>(i % 43) - 2; }));
         b.push_back(zeros("l", DType::i32, 64));
         b.push_back(zeros("rs", DType::i32, 64));
         b.push_back(zeros("ru", DType::u32, 64));
         return b;
       },
       all},
      {"casts", &casts_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(filled("f", DType::f32, 32, [](int64_t i) {
           return i < static_cast<int64_t>(kFloatEdges.size()) ? kFloatEdges[i] : wave(i) * 1000;
         }));
         const DType outs[] = {DType::i8, DType::i16, DType::i32, DType::i64, DType::u8, DType::u32,
                               DType::u64, DType::f16, DType::bf16, DType::i1, DType::f64};
         const char* names[] = {"o8", "o16", "o32", "o64", "ou8", "ou32", "ou64", "oh", "ob", "obool", "od"};
         for (int k = 0; k < 11; ++k) b.push_back(zeros(names[k], outs[k], 32));
         return b;
       },
       all},
      {"int_to_float", &int_to_float_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(filled("a64", DType::i64, 32, [](int64_t i) { return std::floor(wave(i) * 1.8e19) + (i % 3); }));
         b.push_back(filled("a32", DType::i32, 32, [](int64_t i) { return std::floor(wave(i * 7) * 4e9); }));
         for (auto [n, d] : {std::pair{"of", DType::f32}, {"oh", DType::f16}, {"ob", DType::bf16}, {"od", DType::f64}})
           b.push_back(zeros(n, d, 32));
         return b;
       },
       all},
      {"nan_max", &nan_max_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(filled("a", DType::f32, 128, [](int64_t i) { return i % 5 == 0 ? kNaN : i % 17 == 3 ? 0.25 : wave(i); }));
         b.push_back(filled("b", DType::f32, 128, [](int64_t i) { return i % 7 == 0 ? kNaN : wave(i * 3); }));
         for (auto [n, len] : {std::pair{"mx", 128}, {"mn", 128}, {"rmax", 8}, {"rmin", 16}})
           b.push_back(filled(n, DType::f32, len, [](int64_t) { return 0.0; }));
         b.push_back(zeros("amax", DType::i32, 8));
         b.push_back(zeros("amin", DType::i32, 16));
         return b;
       },
       all},
      {"masked", &masked_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(f32s("x", 100));
         b.push_back(zeros("o1", DType::f32, 256));
         b.push_back(zeros("o2", DType::f32, 256));
         return b;
       },
       [](std::vector<tl::Buffer>& b) { return std::vector<tl::Arg>{b[0], b[1], b[2], 100}; }},
      {"atomics", &atomics_def, {4, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(filled("vals", DType::f32, 64, [](int64_t i) { return static_cast<double>(i % 9) - 4; }));
         b.push_back(zeros("acc_f", DType::f32, 64));
         b.push_back(zeros("acc_i", DType::i32, 48));
         b.push_back(filled("priv", DType::f32, 256, [](int64_t i) { return 100.0 + static_cast<double>(i); }));
         b.push_back(zeros("old_out", DType::f32, 256));
         b.push_back(zeros("cnt", DType::i32, 1));
         return b;
       },
       all},
      {"half_math", &half_math_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(filled("a", DType::f16, 64, [](int64_t i) { return wave(i) * 30; }));
         b.push_back(filled("b", DType::f16, 64, [](int64_t i) { return i % 9 == 0 ? wave(i) * 30 : wave(i * 5) * 3; }));
         b.push_back(zeros("o", DType::f16, 64));
         b.push_back(zeros("s", DType::f16, 1));
         b.push_back(zeros("cmp", DType::i32, 64));
         b.push_back(zeros("bo", DType::bf16, 64));
         return b;
       },
       all},
      {"dots", &dots_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(f32s("a", 32 * 16, 2));
         b.push_back(f32s("b", 16 * 32, 3, 0.1));
         b.push_back(f32s("c", 32 * 32));
         for (const char* n : {"o1", "o2", "o3", "o4"}) b.push_back(zeros(n, DType::f32, 1024));
         b.push_back(zeros("o5", DType::f16, 1024));
         b.push_back(zeros("o6", DType::f64, 1024));
         return b;
       },
       all},
      {"int_and_batched_dots", &int_and_batched_dots_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(filled("a", DType::i32, 1024, [](int64_t i) { return std::floor(wave(i) * 500); }));
         b.push_back(filled("b", DType::i32, 1024, [](int64_t i) { return std::floor(wave(i * 3) * 250); }));
         b.push_back(zeros("oi", DType::i32, 1024));
         b.push_back(zeros("ob", DType::f32, 512));
         return b;
       },
       all},
      {"shapes", &shapes_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(f32s("x", 64));
         b.push_back(f32s("x2", 1024, 10));
         for (auto [n, len] : {std::pair{"o_perm", 64}, {"o_trans", 1024}, {"o_s0", 32}, {"o_s1", 16}, {"o_s2", 8}, {"o_keep", 64}})
           b.push_back(zeros(n, DType::f32, len));
         return b;
       },
       all},
      {"control_then", &control_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(f32s("x", 16 * 16));
         b.push_back(zeros("o", DType::f32, 16));
         return b;
       },
       [](std::vector<tl::Buffer>& b) { return std::vector<tl::Arg>{b[0], b[1], 10, 1}; }},
      {"control_else", &control_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(f32s("x", 16 * 16));
         b.push_back(zeros("o", DType::f32, 16));
         return b;
       },
       [](std::vector<tl::Buffer>& b) { return std::vector<tl::Arg>{b[0], b[1], 7, 0}; }},
      {"scalars", &scalars_def, {2, 3, 4},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(f32s("x", 24));
         b.push_back(zeros("o", DType::f32, 24));
         b.push_back(zeros("cnt", DType::i32, 1));
         return b;
       },
       all},
      {"where_ptr", &where_ptr_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(f32s("x", 256));
         b.push_back(f32s("y", 128, 1, 10));
         b.push_back(zeros("o", DType::f32, 256));
         return b;
       },
       all},
      {"bits", &bits_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(filled("a", DType::i32, 32, [](int64_t i) { return i < 12 ? kIntEdges[i] : std::floor(wave(i) * 4e9); }));
         b.push_back(f32s("f", 32, 100));
         for (const char* n : {"o_abs", "o_neg", "o_not", "o_bits"}) b.push_back(zeros(n, DType::i32, 32));
         b.push_back(zeros("o_fbits", DType::f32, 32));
         b.push_back(zeros("o_b", DType::i32, 32));
         return b;
       },
       all},
      {"math", &math_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(filled("a", DType::f32, 64, [](int64_t i) { return 5.05 + wave(i) * 9.9; }));
         b.push_back(zeros("o", DType::f32, 16 * 64));
         return b;
       },
       all},
      {"ints64", &ints64_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(filled("a", DType::i64, 64, [](int64_t i) { return std::floor(wave(i) * 1e15); }));
         b.push_back(zeros("o", DType::i64, 64));
         b.push_back(zeros("o8", DType::u8, 64));
         return b;
       },
       [](std::vector<tl::Buffer>& b) { return std::vector<tl::Arg>{b[0], b[1], b[2], int64_t{1} << 40}; }},
      {"layouts", &layouts_def, {1, 1, 1},
       [=] {
         std::vector<tl::Buffer> b;
         b.push_back(f32s("x", 64));
         b.push_back(f32s("y", 256));
         b.push_back(zeros("o", DType::f32, 64 * 256));
         b.push_back(zeros("o2", DType::f32, 256));
         b.push_back(zeros("o3", DType::f32, 64));
         return b;
       },
       all},
  };
  return cases;
}

#undef TS_CASE_KERNEL

}  // namespace gpu_cases
