// The CUDA back end for the atomics, math and casts without a GPU: every atomic (each
// dtype class, sem and scope), the new math, rtz casts, bitcasts and f16 /
// bf16 / int8 dots lower to CUDA that NVRTC compiles for sm_90a, and the
// text calls the prelude helper each op needs.
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "codegen.h"
#include "codegen_text.h"
#include "gpu_compare.h"
#include "gpu_host_runner.h"
#include "error.h"
#include "interpreter.h"
#include "nvrtc_compiler.h"
#include "test_cache.h"
#include "tl.h"

namespace {

template <class... P>
std::string compiled_cuda(void (*fn)(P...), std::vector<tl::Arg> args) {
  tl::KernelDef k("probe", fn);
  tl::gpu::LoweredKernel lowered = tl::gpu::lower(*tl::build_ir(k, args));
  test_cache::nvrtc_compile(lowered);
  return lowered.source;
}

using codegen_text::has;

}  // namespace

TEST_CASE("every atomic compiles with NVRTC for each dtype it allows", "[gpu][nvrtc]") {
  for (tl::DType d : {tl::DType::i32, tl::DType::u32, tl::DType::i64, tl::DType::u64, tl::DType::f32, tl::DType::f64}) {
    INFO(tl::name(d));
    tl::Buffer x("x", d, {64}), o("o", d, {64});
    std::string src = compiled_cuda(+[](tl::Ptr p, tl::Ptr out) {
      auto i = tl::arange(0, 64);
      auto v = tl::load(out + i);
      auto a = tl::atomic_max(p + i, v, i < 40);
      auto b = tl::atomic_min(p + i % 8, v, i < 40, "relaxed", "cta");
      auto c = tl::atomic_xchg(p + i, v, i > 3, "release", "sys");
      auto e = tl::atomic_cas(p + i, v, a, "acquire");
      tl::store(out + i, a + b + c + e);
    }, {x, o});
    CHECK(has(src, "ts_atomic_rmw<0, 0, 0>("));
    CHECK(has(src, "ts_atomic_rmw<1, 3, 1>("));
    CHECK(has(src, "ts_atomic_rmw<5, 2, 2>("));
    CHECK(has(src, "ts_atomic_rmw<6, 1, 0>("));
    CHECK(has(src, "// atomic_cas"));
  }
}

TEST_CASE("bitwise atomics compile with NVRTC on 32- and 64-bit integers", "[gpu][nvrtc]") {
  for (tl::DType d : {tl::DType::i32, tl::DType::u64}) {
    tl::Buffer x("x", d, {128}), o("o", d, {128});
    std::string src = compiled_cuda(+[](tl::Ptr p, tl::Ptr out) {
      auto i = tl::arange(0, 128);
      auto v = tl::load(out + i);
      tl::store(out + i, tl::atomic_and(p + i, v) | tl::atomic_or(p + i, v, i < 5) | tl::atomic_xor(p + i / 2, v));
    }, {x, o});
    CHECK(has(src, "ts_atomic_rmw<2, 0, 0>("));
    CHECK(has(src, "ts_atomic_rmw<3, 0, 0>("));
    CHECK(has(src, "ts_atomic_rmw<4, 0, 0>("));
  }
}

TEST_CASE("atomic_cas on 16-bit elements compiles with NVRTC", "[gpu][nvrtc]") {
  tl::Buffer x("x", tl::DType::f16, {64}), o("o", tl::DType::f16, {64});
  std::string src = compiled_cuda(+[](tl::Ptr p, tl::Ptr out) {
    auto i = tl::arange(0, 64);
    tl::store(out + i, tl::atomic_cas(p + i, tl::load(out + i), 1.0f));
  }, {x, o});
  CHECK(has(src, "ts_atomic_rmw<6, 0, 0>("));
}

TEST_CASE("the new math and rtz casts compile with NVRTC", "[gpu][nvrtc]") {
  tl::Buffer f("f", tl::DType::f32, {64}), h("h", tl::DType::f16, {64}), b("b", tl::DType::bf16, {64}),
      u("u", tl::DType::u32, {64}), l("l", tl::DType::i64, {64}), d("d", tl::DType::f64, {64});
  std::string src = compiled_cuda(+[](tl::Ptr x, tl::Ptr xh, tl::Ptr xb, tl::Ptr xu, tl::Ptr xl, tl::Ptr xd) {
    auto i = tl::arange(0, 64);
    auto v = tl::load(x + i);
    auto m = tl::erf(v) + tl::log1p(v) + tl::expm1(v) + tl::rint(v) + tl::round(v) + tl::pow(v, 1.5f) +
             tl::clamp(v, -1.0f, 1.0f, true) + tl::div_rn(v, 3.0f) + tl::fdiv(v, 7.0f);
    tl::store(x + i, m);
    tl::store(xh + i, tl::cast(m, tl::f16, false, "rtz"));
    tl::store(xb + i, tl::cast(m, tl::bf16, false, "rtz"));
    tl::store(xu + i, tl::umulhi(tl::load(xu + i), v.to(tl::u32, true)));
    tl::store(xl + i, tl::umulhi(tl::load(xl + i), tl::load(xl + i)));
    tl::store(xd + i, tl::cast(tl::cast(tl::load(xd + i), tl::f32, false, "rtz"), tl::f64, false, ""));
  }, {f, h, b, u, l, d});
  for (const char* fn : {"erff(", "log1pf(", "expm1f(", "rintf(", "roundf(", "powf(", "ts_fmax_nan(", "ts_fmin_nan(",
                         "__float2half_rz(", "__float2bfloat16_rz(", "ts_umulhi(", "__double2float_rz(",
                         "ts_bitcast<uint32_t>("})
    CHECK(has(src, fn));
}

TEST_CASE("f16, bf16 and int8 dots compile with NVRTC (mma for f16/bf16)", "[gpu][nvrtc]") {
  for (tl::DType d : {tl::DType::f16, tl::DType::bf16, tl::DType::i8}) {
    INFO(tl::name(d));
    tl::Buffer a("a", d, {32 * 32}), o("o", d == tl::DType::i8 ? tl::DType::i32 : tl::DType::f32, {32 * 32});
    std::string src = compiled_cuda(+[](tl::Ptr x, tl::Ptr z) {
      auto r = tl::arange(0, 32);
      auto t = tl::load(x + r.col() * 32 + r.row());
      tl::store(z + r.col() * 32 + r.row(), tl::dot(t, t));
    }, {a, o});
    if (d == tl::DType::f16) CHECK(has(src, "ts_mma_f16("));
    if (d == tl::DType::bf16) CHECK(has(src, "ts_mma_bf16("));
  }
}

TEST_CASE("an f16 dot with out_dtype=f16 compiles with NVRTC", "[gpu][nvrtc]") {
  tl::Buffer a("a", tl::DType::f16, {32 * 32}), o("o", tl::DType::f16, {32 * 32});
  compiled_cuda(+[](tl::Ptr x, tl::Ptr z) {
    auto r = tl::arange(0, 32);
    auto t = tl::load(x + r.col() * 32 + r.row());
    tl::store(z + r.col() * 32 + r.row(), tl::dot(t, t, tl::Tensor(), tl::ieee, tl::f16));
  }, {a, o});
}

namespace {
void atomics_and_math(tl::Ptr ci, tl::Ptr cf, tl::Ptr vi, tl::Ptr vf, tl::Ptr oi, tl::Ptr of) {
  auto i = tl::arange(0, 64);  // smaller than a 4-warp block: replicated lanes must issue once
  auto a = tl::load(vi + i), f = tl::load(vf + i);
  tl::store(oi + i, tl::atomic_max(ci + i, a, i % 3 != 0) + tl::atomic_min(ci + 64 + i, a, true, "relaxed", "cta"));
  tl::store(oi + 64 + i, tl::atomic_xor(ci + 128 + i, a) ^ tl::atomic_cas(ci + 192 + i, i, a));
  tl::store(oi + 128 + i, tl::atomic_and(ci + 256 + i, a) | tl::atomic_or(ci + 320 + i, a, i < 50));
  tl::store(oi + 192 + i, tl::umulhi(a, a * 7 + 3));
  tl::store(of + i, tl::atomic_max(cf + i, f) + tl::atomic_min(cf + 64 + i, f) + tl::atomic_xchg(cf + 128 + i, f));
  tl::store(of + 64 + i, tl::clamp(f, -0.5f, 0.5f) + tl::floor(f) + tl::ceil(f));
}
}  // namespace

TEST_CASE("emulated: atomics and the new math compute what the interpreter computes", "[gpu][emulated]") {
  auto buffers = [] {
    std::vector<tl::Buffer> b = {tl::Buffer("ci", tl::DType::i32, {384}), tl::Buffer("cf", tl::DType::f32, {192}),
                                 tl::Buffer("vi", tl::DType::i32, {64}),  tl::Buffer("vf", tl::DType::f32, {64}),
                                 tl::Buffer("oi", tl::DType::i32, {256}), tl::Buffer("of", tl::DType::f32, {128})};
    for (int k = 0; k < 384; ++k) b[0].set(k, (k * 37) % 101 - 50);
    for (int k = 0; k < 192; ++k) b[1].set(k, ((k * 13) % 17 - 8) * 0.25);
    for (int k = 0; k < 64; ++k) b[2].set(k, (k * 53) % 97 - 48);
    for (int k = 0; k < 64; ++k) b[3].set(k, ((k * 7) % 23 - 11) * 0.125);
    return b;
  };
  tl::KernelDef kernel("atomics_and_math", atomics_and_math);
  for (int warps : {1, 4}) {
    std::vector<tl::Buffer> ib = buffers(), eb = buffers();
    tl::run(kernel, {}, std::vector<tl::Arg>(ib.begin(), ib.end()));
    const std::vector<tl::Arg> args(eb.begin(), eb.end());
    auto ir = tl::build_ir(kernel, args);
    tl::gpu::CodegenOptions cg;
    cg.num_warps = warps;
    gpu_host::HostKernel k(*ir, tl::gpu::lower(*ir, cg));
    k.run({}, args);
    for (size_t i = 0; i < ib.size(); ++i) {
      tl::gpu::BufferDiff d = tl::gpu::diff_buffers(ib[i], eb[i], tl::gpu::tolerance_for(*ir, ib[i].dtype()));
      INFO(warps << " warps, buffer " << ib[i].name() << ": " << d.str());
      CHECK(d.pass);
    }
  }
}

#endif  // TILESCOPE_HAVE_GPU
