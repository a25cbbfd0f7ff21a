// The block-pointer kernels of block_ptr_kernels.h against plain C++
// references (packed 2-bit codes, a matmul with a K loop advancing its
// block pointers, a boundary-checked tail copy), the broken tail copy's
// BlockPtrOutOfShape findings pinned to line, program and lane, their
// trace JSON form, and the same kernels through NVRTC and the host
// emulation of the generated CUDA.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "block_ptr_kernels.h"
#include "findings.h"
#include "gpu_vs_interp.h"
#include "interpreter.h"
#include "ir.h"

namespace {

using tl::DType;
using namespace bp_kernels;

constexpr int64_t kR = 37, kW = 5;                    // pack2: 37 rows of 5 words (80 codes)
constexpr int64_t kM = 70, kN = 45, kK = 50;          // bp_matmul
constexpr int64_t kRows = 37, kCols = 45, kB = 16;    // tail_copy

double code(int64_t i) { return static_cast<double>((i * 7 + i / 3) % 4); }
double minus_one(int64_t) { return -1; }
double index_value(int64_t i) { return static_cast<double>(i); }

tl::Grid pack_grid() { return {tl::cdiv(kR, 8), tl::cdiv(kW, 4)}; }
tl::Grid copy_grid() { return {tl::cdiv(kRows, kB), tl::cdiv(kCols, kB)}; }

const tl::Finding* find_dim(const tl::RunResult& r, int dim) {
  for (const tl::Finding& f : r.findings)
    if (f.kind == tl::FindingKind::BlockPtrOutOfShape && !f.examples.empty() && f.examples[0].dim == dim) return &f;
  return nullptr;
}

}  // namespace

TEST_CASE("pack2 packs 2-bit codes into i32 words through a 3-D block pointer and unpack2 restores them",
          "[block_ptr][kernels]") {
  tl::KernelDef pack("pack2", pack2), unpack("unpack2", unpack2);
  tl::Buffer codes = filled("codes", DType::i8, {kR, kW * 16}, code);
  tl::Buffer words = filled("words", DType::i32, {kR, kW}, minus_one);
  tl::RunResult r1 = tl::run(pack, pack_grid(), {codes, words, kR, kW, 8, 4});
  CHECK(r1.findings.empty());
  const std::vector<uint32_t> want = pack2_reference(codes, kR, kW);
  for (int64_t i = 0; i < kR * kW; ++i) {
    INFO("word " << i);
    CHECK(static_cast<int32_t>(words.get(i)) == static_cast<int32_t>(want[static_cast<size_t>(i)]));
  }
  tl::Buffer back = filled("back", DType::i8, {kR, kW * 16}, minus_one);
  tl::RunResult r2 = tl::run(unpack, pack_grid(), {words, back, kR, kW, 8, 4});
  CHECK(r2.findings.empty());
  for (int64_t i = 0; i < kR * kW * 16; ++i) {
    INFO("code " << i);
    CHECK(back.get(i) == codes.get(i));
  }
}

TEST_CASE("a block-pointer matmul whose sizes are not multiples of the blocks matches a reference",
          "[block_ptr][kernels]") {
  tl::KernelDef k("bp_matmul", bp_matmul);
  tl::Buffer a = filled("a", DType::f32, {kM, kK}, wave), b = filled("b", DType::f32, {kK, kN}, wave);
  tl::Buffer c = filled("c", DType::f32, {kM, kN}, minus_one);
  tl::RunResult r = tl::run(k, {tl::cdiv(kM, 32), tl::cdiv(kN, 32)}, {a, b, c, kM, kN, kK, 32, 32, 16});
  CHECK(r.findings.empty());
  CHECK(tl::ir::verify(*r.kernel).empty());
  const std::vector<double> want = matmul_reference(a, b, kM, kN, kK);
  double err = 0, norm = 0;
  for (int64_t i = 0; i < kM * kN; ++i) {
    err += std::pow(c.get(i) - want[static_cast<size_t>(i)], 2);
    norm += std::pow(want[static_cast<size_t>(i)], 2);
  }
  CHECK(std::sqrt(err / norm) < 3e-3);  // tf32 inputs (SEMANTICS §8)
}

TEST_CASE("a boundary-checked tail copy of a [R, C] matrix copies every element and nothing else",
          "[block_ptr][kernels]") {
  tl::KernelDef k("tail_copy", tail_copy);
  tl::Buffer src = filled("src", DType::f32, {kRows, kCols}, index_value);
  tl::Buffer dst = filled("dst", DType::f32, {kRows, kCols}, minus_one);
  tl::RunResult r = tl::run(k, copy_grid(), {src, dst, kRows, kCols, kB, kB});
  CHECK(r.findings.empty());
  for (int64_t i = 0; i < kRows * kCols; ++i) CHECK(dst.get(i) == i);
}

TEST_CASE("the tail copy without boundary_check is flagged per dim at its load, program and lane",
          "[block_ptr][kernels][findings]") {
  tl::KernelDef k("tail_copy_broken", tail_copy_broken);
  tl::Buffer src = filled("src", DType::f32, {kRows, kCols}, index_value);
  tl::Buffer dst = filled("dst", DType::f32, {kRows, kCols}, minus_one);
  tl::RunResult r = tl::run(k, copy_grid(), {src, dst, kRows, kCols, kB, kB});
  // The store is boundary-checked, so the result is even right: only the
  // sanitizer shows that the load reads other rows' elements.
  for (int64_t i = 0; i < kRows * kCols; ++i) CHECK(dst.get(i) == i);

  // Columns 45..47 of the last column block: first in program (0, 2, 0),
  // lane [0, 13]. Lanes outside on both dims count once, for dim 0.
  const tl::Finding* cols = find_dim(r, 1);
  REQUIRE(cols);
  CHECK(static_cast<int>(r.locations.at(static_cast<size_t>(cols->loc)).line) == g_broken_load_line);
  CHECK(cols->examples[0].pid == std::array<int64_t, 3>{0, 2, 0});
  CHECK(cols->examples[0].lane_index == std::vector<int64_t>{0, 13});
  CHECK(cols->examples[0].index == 45);
  CHECK(cols->examples[0].extent == 45);
  CHECK(cols->examples[0].offset == 45);  // row 1's first element: inside the buffer
  CHECK(cols->lanes == 16 * 3 * 2 + 5 * 3);
  CHECK(cols->programs == 3);
  const std::string text = tl::format_finding(*cols, tl::context_of(r));
  INFO(text);
  CHECK(text.find("error: load from src through a block pointer outside its shape on dim 1 (offset 45 of shape 45) "
                  "in program (0, 2, 0), lane [0, 13]; add boundary_check=(1,)") != std::string::npos);

  // Rows 37..47 of the last row block: program (2, 0, 0), lane [5, 0].
  const tl::Finding* rows = find_dim(r, 0);
  REQUIRE(rows);
  CHECK(static_cast<int>(r.locations.at(static_cast<size_t>(rows->loc)).line) == g_broken_load_line);
  CHECK(rows->examples[0].pid == std::array<int64_t, 3>{2, 0, 0});
  CHECK(rows->examples[0].lane_index == std::vector<int64_t>{5, 0});
  CHECK(rows->examples[0].index == 37);
  CHECK(rows->examples[0].extent == 37);
  CHECK(rows->lanes == 11 * 16 * 3);
  CHECK(rows->message.find("add boundary_check=(0,)") != std::string::npos);
  // Those rows are past the buffer's end too: the ordinary bounds check still applies.
  bool oob = false;
  for (const tl::Finding& f : r.findings) oob |= f.kind == tl::FindingKind::OutOfBoundsLoad;
  CHECK(oob);
}

TEST_CASE("block-pointer findings keep their dim, index and extent in trace JSON, traces without them load",
          "[block_ptr][kernels][trace]") {
  tl::KernelDef k("tail_copy_broken", tail_copy_broken);
  tl::Buffer src = filled("src", DType::f32, {kRows, kCols}, index_value);
  tl::Buffer dst = filled("dst", DType::f32, {kRows, kCols}, minus_one);
  tl::RunOptions opt;
  opt.trace = tl::TraceMode::Full;
  tl::RunResult r = tl::run(k, copy_grid(), {src, dst, kRows, kCols, kB, kB}, opt);
  REQUIRE(r.trace);
  const std::string json = tl::trace_to_json(*r.trace);
  tl::Trace back = tl::trace_from_json(json);
  REQUIRE(back.findings.size() == r.trace->findings.size());
  bool seen = false;
  for (size_t i = 0; i < back.findings.size(); ++i) {
    if (back.findings[i].kind != tl::FindingKind::BlockPtrOutOfShape) continue;
    seen = true;
    const tl::FindingExample &x = back.findings[i].examples.at(0), &y = r.trace->findings[i].examples.at(0);
    CHECK(x.dim == y.dim);
    CHECK(x.index == y.index);
    CHECK(x.extent == y.extent);
    CHECK(x.event == y.event);
  }
  CHECK(seen);
  // A trace written before block pointers has no "block" member anywhere.
  nlohmann::json doc = nlohmann::json::parse(json);
  for (auto& f : doc["findings"])
    for (auto& e : f["examples"]) e.erase("block");
  for (auto& f : doc["findings"])
    if (f["kind"] == "block_ptr_out_of_shape") f["kind"] = "out_of_bounds_load";
  tl::Trace old = tl::trace_from_json(doc.dump());
  for (const tl::Finding& f : old.findings)
    for (const tl::FindingExample& e : f.examples) CHECK(e.dim == -1);
}

#ifdef TILESCOPE_HAVE_GPU
TEST_CASE("the block-pointer kernels lower to CUDA that NVRTC compiles", "[block_ptr][kernels][gpu][nvrtc]") {
  tl::KernelDef pack("pack2", pack2), unpack("unpack2", unpack2), mm("bp_matmul", bp_matmul),
      copy("tail_copy", tail_copy), broken("tail_copy_broken", tail_copy_broken);
  tl::Buffer codes("codes", DType::i8, {kR, kW * 16}), words("words", DType::i32, {kR, kW});
  tl::Buffer a("a", DType::f32, {kM, kK}), b("b", DType::f32, {kK, kN}), c("c", DType::f32, {kM, kN});
  tl::Buffer src("src", DType::f32, {kRows, kCols}), dst("dst", DType::f32, {kRows, kCols});
  for (int warps : {4, 8}) {
    INFO(warps << " warps");
    CHECK(gpu_check::nvrtc_error(pack, {codes, words, kR, kW, 8, 4}, warps) == "");
    CHECK(gpu_check::nvrtc_error(unpack, {words, codes, kR, kW, 8, 4}, warps) == "");
    CHECK(gpu_check::nvrtc_error(mm, {a, b, c, kM, kN, kK, 32, 32, 16}, warps) == "");
    CHECK(gpu_check::nvrtc_error(copy, {src, dst, kRows, kCols, kB, kB}, warps) == "");
    CHECK(gpu_check::nvrtc_error(broken, {src, dst, kRows, kCols, kB, kB}, warps) == "");
  }
}

namespace {

using Compare = void (*)(const tl::KernelDef&, tl::Grid, std::vector<tl::Buffer>, std::vector<tl::Buffer>,
                         const gpu_check::Bind&, int);

// The three kernels through `compare` (emulated or on a GPU): pack and
// unpack and the copy at `warps`, the matmul (tensor-core fragments) at 4
// and 8 warps.
void compare_kernels(Compare compare, const std::vector<int>& warps_list) {
  static const tl::KernelDef pack("pack2", pack2), unpack("unpack2", unpack2), mm("bp_matmul", bp_matmul),
      copy("tail_copy", tail_copy);
  auto pack_bufs = [] {
    return std::vector<tl::Buffer>{filled("codes", DType::i8, {kR, kW * 16}, code),
                                   filled("words", DType::i32, {kR, kW}, minus_one)};
  };
  auto unpack_bufs = [] {
    tl::Buffer codes = filled("codes", DType::i8, {kR, kW * 16}, code);
    tl::Buffer words("words", DType::i32, {kR, kW});
    const std::vector<uint32_t> w = pack2_reference(codes, kR, kW);
    for (int64_t i = 0; i < kR * kW; ++i) words.set(i, static_cast<int32_t>(w[static_cast<size_t>(i)]));
    return std::vector<tl::Buffer>{words, filled("back", DType::i8, {kR, kW * 16}, minus_one)};
  };
  auto mm_bufs = [] {
    return std::vector<tl::Buffer>{filled("a", DType::f32, {kM, kK}, wave), filled("b", DType::f32, {kK, kN}, wave),
                                   filled("c", DType::f32, {kM, kN}, minus_one)};
  };
  auto copy_bufs = [] {
    return std::vector<tl::Buffer>{filled("src", DType::f32, {kRows, kCols}, index_value),
                                   filled("dst", DType::f32, {kRows, kCols}, minus_one)};
  };
  for (int warps : warps_list) {
    compare(pack, pack_grid(), pack_bufs(), pack_bufs(),
            [](auto& v) { return std::vector<tl::Arg>{v[0], v[1], kR, kW, 8, 4}; }, warps);
    compare(unpack, pack_grid(), unpack_bufs(), unpack_bufs(),
            [](auto& v) { return std::vector<tl::Arg>{v[0], v[1], kR, kW, 8, 4}; }, warps);
    compare(copy, copy_grid(), copy_bufs(), copy_bufs(),
            [](auto& v) { return std::vector<tl::Arg>{v[0], v[1], kRows, kCols, kB, kB}; }, warps);
  }
  for (int warps : {4, 8})
    compare(mm, {tl::cdiv(kM, 32), tl::cdiv(kN, 32)}, mm_bufs(), mm_bufs(),
            [](auto& v) { return std::vector<tl::Arg>{v[0], v[1], v[2], kM, kN, kK, 32, 32, 16}; }, warps);
}

}  // namespace

TEST_CASE("emulated: the block-pointer kernels compute what the interpreter computes",
          "[block_ptr][kernels][gpu][emulated]") {
  compare_kernels(gpu_check::compare_emulated, {1, 4});
}

TEST_CASE("GPU: the block-pointer kernels compute what the interpreter computes", "[block_ptr][kernels][gpu][run]") {
  compare_kernels(gpu_check::compare_on_device, {1, 4, 8});
}
#endif  // TILESCOPE_HAVE_GPU
