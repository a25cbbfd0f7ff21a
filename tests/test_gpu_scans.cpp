// The CUDA back end's scans, sorts and permutations: every op
// lowers to CUDA that NVRTC compiles for sm_90a, and the generated code,
// run on the CPU by the host emulation (gpu_host_runner.h), gives the
// interpreter's results bit for bit (floats too: the scan walks the axis
// in the interpreter's order).
#ifdef TILESCOPE_HAVE_GPU
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "codegen.h"
#include "gpu_host_runner.h"
#include "nvrtc_compiler.h"
#include "test_cache.h"
#include "scan_fixture.h"

using namespace scan_fixture;
using tl::DType;

namespace {

struct Case {
  std::string name;
  std::function<void(const P&)> body;
  DType dx, dz;
  int64_t nx, nz;
  tl::Grid grid{1};
};

// x holds small signed values with ties, NaN once when it is a float tile.
tl::Buffer input(DType d, int64_t n) {
  tl::Buffer b("x", d, {n});
  for (int64_t i = 0; i < n; ++i) {
    double v = std::fmod(static_cast<double>(i) * 7.0 + 3.0, 13.0) - 6.0;
    if (tl::is_float(d)) v = v * 0.37 + (i == 5 ? std::nan("") : 0.0);
    else if (tl::is_unsigned_int(d)) v = std::fabs(v);
    b.set(i, v);
  }
  return b;
}

std::vector<Case> cases() {
  std::vector<Case> c;
  auto tile2 = [](const P& p, int rows, int cols) {
    return tl::load(p.x + tl::arange(0, rows).col() * cols + tl::arange(0, cols).row());
  };
  auto out2 = [](const P& p, const tl::Tensor& v, int rows, int cols) {
    tl::store(p.z + tl::arange(0, rows).col() * cols + tl::arange(0, cols).row(), v);
  };
  c.push_back({"cumsum f32 along rows, reversed", [=](const P& p) { out2(p, tl::cumsum(tile2(p, 8, 16), 1, true), 8, 16); },
               DType::f32, DType::f32, 128, 128});
  c.push_back({"cumsum i8 along columns (widened)", [=](const P& p) { out2(p, tl::cumsum(tile2(p, 8, 16), 0), 8, 16); },
               DType::i8, DType::i32, 128, 128});
  c.push_back({"cumprod f32", [=](const P& p) {
                 auto i = tl::arange(0, 64);
                 tl::store(p.z + i, tl::cumprod(tl::load(p.x + i) * 0.5f + 1.0f));
               }, DType::f32, DType::f32, 64, 64});
  c.push_back({"associative_scan of a tuple, 512 lanes", [=](const P& p) {
                 auto i = tl::arange(0, 512);
                 auto r = tl::associative_scan({tl::load(p.x + i), i}, 0,
                                               [](const std::vector<tl::Tensor>& a, const std::vector<tl::Tensor>& b) {
                                                 auto take = b[0] >= a[0];
                                                 return std::vector<tl::Tensor>{tl::where(take, b[0], a[0]),
                                                                                tl::where(take, b[1], a[1])};
                                               });
                 tl::store(p.z + i, r[1]);
               }, DType::i32, DType::i32, 512, 512});
  c.push_back({"reduce with a combine function, keep_dims, and xor_sum", [=](const P& p) {
                 auto t = tile2(p, 8, 16);
                 auto m = tl::reduce(t, 1, [](const tl::Tensor& a, const tl::Tensor& b) { return a * 3 - b; });
                 tl::store(p.z + tl::arange(0, 8), m);
                 tl::store(p.z + 8 + tl::arange(0, 16), tl::xor_sum(t, 0));
                 tl::store(p.z + 24, tl::xor_sum(t));
               }, DType::i16, DType::i16, 128, 32});
  c.push_back({"sort f32 with NaN and ties, both directions", [=](const P& p) {
                 auto t = tile2(p, 4, 32);
                 out2(p, tl::sort(t), 4, 32);
                 tl::store(p.z + 128 + tl::arange(0, 32), tl::sort(tl::load(p.x + tl::arange(0, 32)), 0, true));
               }, DType::f32, DType::f32, 128, 160});
  c.push_back({"sort u8", [=](const P& p) { out2(p, tl::sort(tile2(p, 2, 64)), 2, 64); }, DType::u8, DType::u8, 128,
               128});
  c.push_back({"flip each dim", [=](const P& p) {
                 auto t = tile2(p, 4, 8);
                 out2(p, tl::flip(t, 0) * 100 + tl::flip(t), 4, 8);
               }, DType::i32, DType::i32, 32, 32});
  c.push_back({"join, split and interleave", [=](const P& p) {
                 auto i = tl::arange(0, 16);
                 auto a = tl::load(p.x + i), b = tl::load(p.x + 16 + i);
                 auto [lo, hi] = tl::split(tl::join(a, b));
                 tl::store(p.z + i, hi - lo);
                 tl::store(p.z + 16 + tl::arange(0, 32), tl::interleave(a, b));
               }, DType::f32, DType::f32, 32, 48});
  c.push_back({"gather along each axis, an index out of range", [=](const P& p) {
                 auto r = tl::arange(0, 4).col(), col = tl::arange(0, 8).row();
                 auto t = tile2(p, 4, 8);
                 out2(p, tl::gather(t, (col * 3 + r) % 8, 1) + tl::gather(t, (col + r) % 4, 0) +
                             tl::gather(t, 8 - col - r.to(DType::i64), 1), 4, 8);
               }, DType::i32, DType::i32, 32, 32});
  c.push_back({"histogram with and without a mask", [=](const P& p) {
                 auto i = tl::arange(0, 64);
                 auto t = tl::load(p.x + i);
                 tl::store(p.z + tl::arange(0, 8), tl::histogram(t, 8));
                 tl::store(p.z + 8 + tl::arange(0, 8), tl::histogram(t, 8, i % 3 == 0));
               }, DType::i8, DType::i32, 64, 16});
  c.push_back({"a scan in each of two programs", [=](const P& p) {
                 auto i = tl::arange(0, 32);
                 auto off = tl::program_id(0) * 32 + i;
                 tl::store(p.z + off, tl::cumsum(tl::load(p.x + off)));
               }, DType::f64, DType::f64, 64, 64, tl::Grid{2}});
  return c;
}

}  // namespace

TEST_CASE("every scan, sort and permutation op lowers to CUDA that NVRTC compiles for sm_90a, at 1, 4 and 8 warps", "[gpu][nvrtc]") {
  for (const Case& c : cases()) {
    tl::Buffer x = input(c.dx, c.nx), y = zeros("y", DType::f32, 1), z = zeros("z", c.dz, c.nz);
    g_body = c.body;
    tl::KernelDef k("k", kernel, {"x", "y", "z"});
    auto ir = tl::build_ir(k, {x, y, z});
    for (int warps : {1, 4, 8}) {
      INFO("case " << c.name << ", " << warps << " warps");
      tl::gpu::CodegenOptions cg;
      cg.num_warps = warps;
      tl::gpu::LoweredKernel lowered = tl::gpu::lower(*ir, cg);
      CHECK_NOTHROW(test_cache::nvrtc_compile(lowered));
    }
  }
}

TEST_CASE("emulated: every scan, sort and permutation op computes the interpreter's bits", "[gpu][emulated]") {
  for (const Case& c : cases()) {
    for (int warps : {1, 4}) {
      INFO("case " << c.name << ", " << warps << " warps");
      tl::Buffer xi = input(c.dx, c.nx), yi = zeros("y", DType::f32, 1), zi = zeros("z", c.dz, c.nz);
      tl::Buffer xe = xi, ye = yi, ze = zi;
      g_body = c.body;
      tl::KernelDef k("k", kernel, {"x", "y", "z"});
      tl::run(k, c.grid, {xi, yi, zi});
      auto ir = tl::build_ir(k, {xe, ye, ze});
      tl::gpu::CodegenOptions cg;
      cg.num_warps = warps;
      gpu_host::HostKernel hk(*ir, tl::gpu::lower(*ir, cg));
      hk.run(c.grid, {xe, ye, ze});
      int differ = 0;
      for (int64_t i = 0; i < c.nz; ++i)
        if (zi.get_bits(i) != ze.get_bits(i)) {
          if (differ++ < 4) UNSCOPED_INFO("element " << i << ": interpreter " << zi.get(i) << ", emulated " << ze.get(i));
        }
      CHECK(differ == 0);
    }
  }
}

TEST_CASE("the generated scan walks the axis in order and runs the combine block as scalar code", "[gpu][codegen]") {
  g_body = [](const P& p) {
    auto i = tl::arange(0, 32);
    tl::store(p.z + i, tl::cumsum(tl::load(p.x + i)));
  };
  tl::Buffer x = input(DType::f32, 32), y = zeros("y", DType::f32, 1), z = zeros("z", DType::f32, 32);
  tl::KernelDef k("k", kernel, {"x", "y", "z"});
  std::string cuda = tl::gpu::lower_to_cuda(*tl::build_ir(k, {x, y, z}));
  INFO(cuda);
  CHECK(cuda.find("for (unsigned q = 1; q <= k; ++q)") != std::string::npos);
  CHECK(cuda.find("__syncthreads();") != std::string::npos);
}

#endif
