// Block pointers (tl::make_block_ptr, tl::advance, load/store with
// boundary_check and padding): addressing through any strides, masking and
// padding, stores, loop-carried advance, index dtypes, the IR they lower
// to, the build errors, and the sanitizer's BlockPtrOutOfShape finding for
// a store. The real-style kernels are in test_block_ptr_kernels.cpp.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "build_error_fixture.h"
#include "error.h"
#include "findings.h"
#include "interpreter.h"
#include "ir.h"
#include "tl.h"

namespace {

using build_error_fixture::check_error;
using build_error_fixture::g_line;
using build_error_fixture::specialize_error;
using tl::DType;
using tl::Padding;

struct P {
  const tl::Ptr& x;
  const tl::Ptr& y;
  const tl::Int& n;
};
std::function<void(const P&)> g_body;
void kernel(tl::Ptr x, tl::Ptr y, tl::Int n) { g_body(P{x, y, n}); }

// x: f32 [8, 12] holding 0, 1, 2, ...; y: f32 [n_y] of zeros.
struct Run {
  tl::Buffer x{"x", DType::f32, {8, 12}};
  tl::Buffer y;
  tl::RunResult r;
};
Run launch(std::function<void(const P&)> fn, int64_t n_y = 64, int64_t n = 0, tl::RunOptions opt = {}) {
  Run run;
  for (int64_t i = 0; i < 96; ++i) run.x.set(i, static_cast<double>(i));
  run.y = tl::Buffer("y", DType::f32, {n_y});
  for (int64_t i = 0; i < n_y; ++i) run.y.set(i, 0);
  g_body = std::move(fn);
  tl::KernelDef k("bp", kernel, {"x", "y", "n"});
  run.r = tl::run(k, {}, {run.x, run.y, n}, opt);
  return run;
}

// Stores a [4, 4] tile row-major at y[0..16).
void store16(const P& p, const tl::Tensor& v) {
  auto i = tl::arange(0, 4);
  tl::store(p.y + i.col() * 4 + i.row(), v);
}

std::optional<tl::BuildError> build_error(std::function<void(const P&)> fn, DType x_dtype = DType::f32) {
  g_body = std::move(fn);
  tl::KernelDef k("bp_err", kernel);
  return specialize_error(k, tl::Specialization{{x_dtype, DType::f32, DType::i32}, {0, 0, 0}});
}

tl::BlockPtr x_block(const P& p, std::vector<tl::Operand> offsets, tl::Shape block = {4, 4}) {
  return tl::make_block_ptr(p.x, {8, 12}, {12, 1}, std::move(offsets), std::move(block), {1, 0});
}

}  // namespace

TEST_CASE("a block pointer load reads base + sum (offsets + i) * strides, through any strides", "[block_ptr]") {
  auto row_major = launch([](const P& p) { store16(p, tl::load(x_block(p, {2, 3}))); });
  CHECK(row_major.r.findings.empty());
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) CHECK(row_major.y.get(i * 4 + j) == (2 + i) * 12 + 3 + j);
  // The transpose of x as a [12, 8] tensor: strides (1, 12).
  auto transposed = launch([](const P& p) {
    store16(p, tl::load(tl::make_block_ptr(p.x, {12, 8}, {1, 12}, {3, 2}, {4, 4}, {0, 1})));
  });
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) CHECK(transposed.y.get(i * 4 + j) == (3 + i) + (2 + j) * 12);
  // Runtime offsets and a base that is a pointer plus a scalar.
  auto runtime = launch([](const P& p) { store16(p, tl::load(tl::make_block_ptr(p.x + 12, {7, 12}, {12, 1}, {p.n, p.n * 2}, {4, 4}, {1, 0}))); },
                        64, 1);
  CHECK(runtime.y.get(0) == 12 + 12 + 2);
}

TEST_CASE("order is checked to be a permutation but does not change addressing", "[block_ptr]") {
  auto a = launch([](const P& p) { store16(p, tl::load(tl::make_block_ptr(p.x, {8, 12}, {12, 1}, {1, 1}, {4, 4}, {1, 0}))); });
  auto b = launch([](const P& p) { store16(p, tl::load(tl::make_block_ptr(p.x, {8, 12}, {12, 1}, {1, 1}, {4, 4}, {0, 1}))); });
  for (int i = 0; i < 16; ++i) CHECK(a.y.get(i) == b.y.get(i));
}

TEST_CASE("boundary_check masks lanes outside the shape, padding gives 0, NaN, or 0 marked as without other", "[block_ptr]") {
  // Rows 6..9 of 8, columns 10..13 of 12: the lower-right 2 x 2 lanes are in.
  auto at = [](int i, int j) { return (6 + i) * 12 + 10 + j; };
  auto inside = [](int i, int j) { return i < 2 && j < 2; };
  for (Padding pad : {Padding::Zero, Padding::Nan, Padding::None}) {
    tl::RunOptions opt;
    opt.trace = tl::TraceMode::Full;
    auto run = launch([pad](const P& p) { store16(p, tl::load(x_block(p, {6, 10}), {0, 1}, pad)); }, 64, 0, opt);
    // Without padding the masked lanes are undefined (0 here), and storing
    // them is flagged, as for a masked load without `other`.
    if (pad == Padding::None) {
      REQUIRE(run.r.findings.size() == 1);
      CHECK(run.r.findings[0].kind == tl::FindingKind::UndefinedValueUsed);
    } else {
      CHECK(run.r.findings.empty());
    }
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        INFO("pad " << static_cast<int>(pad) << " lane " << i << ", " << j);
        const double v = run.y.get(i * 4 + j);
        if (inside(i, j)) CHECK(v == at(i, j));
        else if (pad == Padding::Nan) CHECK(std::isnan(v));
        else CHECK(v == 0);
      }
    // The trace shows the masked lanes; only Zero and Nan fill them.
    const tl::Event& load = run.r.trace->programs.at(0).events.at(0);
    REQUIRE(load.kind == tl::EventKind::Load);
    CHECK(load.has_other == (pad != Padding::None));
    CHECK(load.lanes[0] == tl::LaneState::Active);
    CHECK(load.lanes[2] == tl::LaneState::Masked);
    CHECK(load.lanes[15] == tl::LaneState::MaskedOutOfBounds);  // row 9, column 13: past x's end, never read
  }
  // Offsets below 0 are outside too; only dim 0 is checked here.
  auto neg = launch([](const P& p) { store16(p, tl::load(x_block(p, {-2, 0}), {0}, Padding::Nan)); });
  CHECK(std::isnan(neg.y.get(0)));
  CHECK(std::isnan(neg.y.get(7)));
  CHECK(neg.y.get(8) == 0);
  CHECK(neg.y.get(15) == 12 + 3);
  CHECK(neg.r.findings.empty());
}

TEST_CASE("a store through a block pointer writes only lanes inside the checked dims and broadcasts a scalar", "[block_ptr]") {
  // y as [6, 5]; a [4, 4] block at rows 4..7, columns 2..5.
  auto run = launch(
      [](const P& p) {
        tl::store(tl::make_block_ptr(p.y, {6, 5}, {5, 1}, {4, 2}, {4, 4}, {1, 0}), 9.0f, {0, 1});
      },
      30);
  CHECK(run.r.findings.empty());
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 5; ++c) {
      INFO(r << ", " << c);
      CHECK(run.y.get(r * 5 + c) == (r >= 4 && c >= 2 ? 9 : 0));
    }
}

TEST_CASE("advance moves the offsets, a block pointer reassigned in a loop is loop-carried", "[block_ptr]") {
  // Sums the three [4, 4] blocks of rows 0..3 along the columns.
  auto run = launch([](const P& p) {
    auto bp = x_block(p, {0, 0});
    auto acc = tl::zeros({4, 4}, tl::f32);
    for (auto k : tl::range(0, 3)) {
      (void)k;
      acc += tl::load(bp);
      bp = tl::advance(bp, {0, 4});
    }
    store16(p, acc);
    // advance down by a runtime amount after the loop.
    auto down = tl::advance(bp, {p.n, -12});
    tl::store(p.y + 16 + tl::arange(0, 4), tl::sum(tl::load(down), 1));
  }, 64, 2);
  CHECK(run.r.findings.empty());
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) CHECK(run.y.get(i * 4 + j) == 3 * (i * 12 + j) + 4 + 8);
  // Rows 2..5, columns 0..3.
  for (int i = 0; i < 4; ++i) CHECK(run.y.get(16 + i) == 4 * (2 + i) * 12 + 6);
  CHECK(tl::ir::verify(*run.r.kernel).empty());
}

TEST_CASE("shape and strides are i64, offsets are i32 unless one is i64, and advance keeps their dtype", "[block_ptr]") {
  std::vector<DType> dtypes;
  launch([&](const P& p) {
    auto a = x_block(p, {0, p.n});
    auto b = x_block(p, {p.n.to(tl::i64), 0});
    auto c = x_block(p, {int64_t{1} << 33, 0});
    for (const tl::BlockPtr* bp : {&a, &b, &c})
      dtypes.insert(dtypes.end(), {bp->shape()[0].dtype(), bp->strides()[1].dtype(), bp->offsets()[1].dtype()});
    dtypes.push_back(tl::advance(a, {3, 4}).offsets()[0].dtype());
    CHECK(a.dtype() == DType::f32);
    CHECK(a.rank() == 2);
    CHECK(a.block_shape() == tl::Shape{4, 4});
    CHECK(a.order() == std::vector<int>{1, 0});
  });
  CHECK(dtypes == std::vector<DType>{DType::i64, DType::i64, DType::i32, DType::i64, DType::i64, DType::i64,
                                     DType::i64, DType::i64, DType::i64, DType::i32});
}

TEST_CASE("the IR of a block-pointer access is ordinary pointer arithmetic plus shape checks on unchecked dims",
          "[block_ptr]") {
  auto run = launch([](const P& p) {
    auto v = tl::load(x_block(p, {0, 0}), {1}, Padding::Zero);
    tl::store(tl::make_block_ptr(p.y, {4, 4}, {4, 1}, {0, 0}, {4, 4}, {1, 0}), v, {0, 1});
  });
  const std::string text = tl::ir::print(*run.r.kernel);
  INFO(text);
  CHECK(tl::ir::verify(*run.r.kernel).empty());
  // The load checks dim 1 (a mask) and carries dim 0's offset and extent;
  // the store checks both and carries none.
  CHECK(text.find("in_shape(dim=0, %") != std::string::npos);
  CHECK(text.find("in_shape(dim=1") == std::string::npos);
  CHECK(text.find("ptr_add") != std::string::npos);
  int loads = 0, stores = 0;
  tl::ir::for_each_instr(run.r.kernel->body, [&](const tl::ir::Instr& in, const tl::ir::Block&) {
    if (in.op == tl::ir::Op::Load) {
      ++loads;
      CHECK(in.shape_dims == std::vector<int>{0});
      CHECK(in.has_mask);
      CHECK(in.has_other);
      CHECK(tl::ir::operand_count(in) == 3);
    }
    if (in.op == tl::ir::Op::Store) {
      ++stores;
      CHECK(in.shape_dims.empty());
      CHECK(tl::ir::operand_count(in) == 3);
    }
  });
  CHECK(loads == 1);
  CHECK(stores == 1);
}

TEST_CASE("a store through a block pointer outside its shape on an unchecked dim is a finding naming the store",
          "[block_ptr]") {
  // y as [4, 6] with rows 8 apart; a [4, 8] block: columns 6 and 7 are
  // outside (dim 1), yet inside the 64-element buffer, so only the new
  // finding sees them.
  auto run = launch([](const P& p) {
    g_line = __LINE__; tl::store(tl::make_block_ptr(p.y, {4, 6}, {8, 1}, {0, 0}, {4, 8}, {1, 0}), 1.0f, {0});
  });
  REQUIRE(run.r.findings.size() == 1);
  const tl::Finding& f = run.r.findings[0];
  CHECK(f.kind == tl::FindingKind::BlockPtrOutOfShape);
  CHECK(f.lanes == 8);
  CHECK(static_cast<int>(run.r.locations.at(static_cast<size_t>(f.loc)).line) == g_line);
  REQUIRE_FALSE(f.examples.empty());
  CHECK(f.examples[0].lane_index == std::vector<int64_t>{0, 6});
  CHECK(f.examples[0].dim == 1);
  CHECK(f.examples[0].index == 6);
  CHECK(f.examples[0].extent == 6);
  const std::string text = tl::format_finding(f, tl::context_of(run.r));
  INFO(text);
  CHECK(text.find("store to y through a block pointer outside its shape on dim 1 (offset 6 of shape 6)") !=
        std::string::npos);
  CHECK(text.find("add boundary_check=(1,)") != std::string::npos);
  CHECK(text.find("error:") != std::string::npos);
}

TEST_CASE("block pointer misuse is a build error at the kernel line", "[block_ptr]") {
  check_error(build_error([](const P& p) {
                g_line = __LINE__; (void)tl::make_block_ptr(p.x, {8, 12}, {12}, {0, 0}, {4, 4}, {1, 0});
              }),
              {"strides has 1 entries but block_shape has 2"});
  check_error(build_error([](const P& p) {
                g_line = __LINE__; (void)tl::make_block_ptr(p.x, {8, 12}, {12, 1}, {0, 0}, {4, 4}, {1});
              }),
              {"order has 1 entries"});
  check_error(build_error([](const P& p) {
                g_line = __LINE__; (void)tl::make_block_ptr(p.x, {8, 12}, {12, 1}, {0, 0}, {4, 6}, {1, 0});
              }),
              {"block_shape dim 1 is 6", "powers of two"});
  check_error(build_error([](const P& p) {
                g_line = __LINE__; (void)tl::make_block_ptr(p.x, {8, 12}, {12, 1}, {0, 0}, {4, 4}, {1, 1});
              }),
              {"order must be a permutation"});
  check_error(build_error([](const P& p) {
                g_line = __LINE__; (void)tl::make_block_ptr(p.n, {8, 12}, {12, 1}, {0, 0}, {4, 4}, {1, 0});
              }),
              {"needs a scalar pointer as its base", "got i32"});
  check_error(build_error([](const P& p) {
                g_line = __LINE__; (void)tl::make_block_ptr(p.x + tl::arange(0, 4), {8, 12}, {12, 1}, {0, 0}, {4, 4}, {1, 0});
              }),
              {"needs a scalar pointer as its base", "ptr<f32>[4]"});
  check_error(build_error([](const P& p) {
                g_line = __LINE__; (void)tl::make_block_ptr(p.x, {8, 12}, {12, 1.5}, {0, 0}, {4, 4}, {1, 0});
              }),
              {"strides must be integers", "float"});
  check_error(build_error([](const P& p) {
                auto bp = x_block(p, {0, 0});
                g_line = __LINE__; (void)tl::load(bp, {0, 2});
              }),
              {"boundary_check dim 2 is out of range for a rank-2 block pointer"});
  check_error(build_error([](const P& p) {
                auto bp = x_block(p, {0, 0});
                g_line = __LINE__; tl::store(bp, 1.0f, {0, 1}, Padding::Zero);
              }),
              {"takes no padding"});
  check_error(build_error([](const P& p) {
                auto bp = x_block(p, {0, 0});
                g_line = __LINE__; tl::store(bp, tl::zeros({4, 8}), {0, 1});
              }),
              {"value's shape [4, 8] is not the block shape [4, 4]"});
  check_error(build_error([](const P& p) {
                auto bp = x_block(p, {0, 0});
                g_line = __LINE__; tl::store(bp, tl::zeros({4}), {0, 1});
              }),
              {"value's shape [4] is not the block shape [4, 4]"});
  check_error(build_error(
                  [](const P& p) {
                    auto bp = tl::make_block_ptr(p.x, {8, 12}, {12, 1}, {0, 0}, {4, 4}, {1, 0});
                    g_line = __LINE__; (void)tl::load(bp, {0}, Padding::Nan);
                  },
                  DType::i32),
              {"padding Nan needs a float element type"});
  check_error(build_error([](const P& p) {
                auto bp = x_block(p, {0, 0});
                g_line = __LINE__; (void)tl::advance(bp, {1});
              }),
              {"1 offsets for a rank-2 block pointer"});
  check_error(build_error([](const P& p) {
                auto bp = x_block(p, {0, 0});
                g_line = __LINE__; (void)tl::advance(bp, {p.n.to(tl::i64), 0});
              }),
              {"offset 0 is i64 but the block pointer's offsets are i32"});
  check_error(build_error([](const P& p) {
                auto bp = x_block(p, {0, 0});
                auto wide = x_block(p, {0, 0}, {4, 8});
                for (auto k : tl::range(0, p.n)) {
                  (void)k;
                  g_line = __LINE__; bp = tl::advance(wide, {0, 4});
                }
              }),
              {"must keep its block shape", "[4, 4]", "[4, 8]"});
  // Valid uses build.
  CHECK_FALSE(build_error([](const P& p) {
                auto bp = x_block(p, {0, 0});
                tl::store(bp, tl::load(bp, {0, 1}, Padding::Zero) + 1.0f, {0, 1}, Padding::None);
              }).has_value());
}
