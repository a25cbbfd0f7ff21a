// The examples of EXAMPLES.md (puzzles/examples/): each passes in the
// interpreter at its small sizes; benchmark-size sets stay out of `check`
// unless named; the E2 -> E3 round trip holds its bound; E4 fused and
// split-K equal the unfused baseline (E3, then a product); and a kernel
// that leaves an extra output unwritten fails on that output.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "half.h"
#include "harness.h"
#include "inputs.h"
#include "registry.h"
#include "tl.h"

namespace {

const puzzles::Puzzle& example(const char* id) {
  const puzzles::Puzzle* p = puzzles::find_puzzle(id);
  REQUIRE(p != nullptr);
  REQUIRE(p->example);
  return *p;
}

const puzzles::SizeSet& set_named(const puzzles::Puzzle& p, const char* name) {
  const puzzles::SizeSet* s = puzzles::find_set(p, name);
  REQUIRE(s != nullptr);
  return *s;
}

float bf16(const tl::Buffer& b, int64_t i) { return tl::bf16_to_float(b.as<uint16_t>()[i]); }

// Runs an example's own kernel on `b` (as made by make_buffers).
void launch(const puzzles::Puzzle& p, const puzzles::SizeSet& set, puzzles::RunBuffers& b) {
  tl::RunResult r = tl::run(*p.solution, puzzles::grid_for(set), puzzles::launch_args(set, b));
  REQUIRE(r.findings.empty());
}

// E3 on E2's outputs: buffers of e3 filled from an e2 run.
puzzles::RunBuffers unpack(const puzzles::RunBuffers& packed, const puzzles::SizeSet& set) {
  const puzzles::Puzzle& e3 = example("e3");
  puzzles::RunBuffers b = puzzles::make_buffers(e3, set, 0);
  b.inputs[0] = packed.output;
  b.inputs[1] = packed.extra_outputs[0];
  b.inputs[2] = packed.extra_outputs[1];
  launch(e3, set, b);
  return b;
}

}  // namespace

TEST_CASE("the examples are eleven kernels apart from the twelve puzzles, found by id", "[examples]") {
  CHECK(puzzles::all_puzzles().size() == 12);
  const auto& all = puzzles::all_examples();
  REQUIRE(all.size() == 11);
  std::set<std::string> ids;
  for (const puzzles::Puzzle& e : all) {
    INFO(e.id);
    CHECK(e.example);
    CHECK(ids.insert(e.id).second);
    CHECK(puzzles::find_puzzle(e.id) == &e);
    CHECK(e.solution != nullptr);
    CHECK(e.statement.size() > 300);
    CHECK(e.extra_outputs.size() == (e.extra_reference ? e.extra_outputs.size() : 0));
    bool has_bench = false;
    for (const puzzles::SizeSet& s : e.sets) has_bench |= s.large && s.name.rfind("bench", 0) == 0;
    CHECK(has_bench);
  }
  CHECK(puzzles::find_puzzle("0") == nullptr);
}

TEST_CASE("every example passes in the interpreter at its small sizes, three seeds, with no finding", "[examples]") {
  for (const puzzles::Puzzle& e : puzzles::all_examples()) {
    puzzles::PuzzleReport r = puzzles::check_puzzle(e, puzzles::Variant::Solution);
    INFO(e.id << " max err " << r.max_err);
    CHECK(r.pass);
    CHECK(r.runs >= 3 * 3);
    for (const puzzles::SetReport& s : r.sets) {
      CHECK(s.name.rfind("bench", 0) != 0);  // benchmark sizes only when named
      for (const puzzles::RunReport& run : s.runs) {
        CHECK(run.findings.empty());
        CHECK(run.extra_outputs.size() == e.extra_outputs.size());
      }
    }
  }
}

TEST_CASE("check skips a benchmark-size set unless it is named", "[examples]") {
  // A copy of e5_bwd whose small canonical set is marked large too, so the
  // test stays fast (its benchmark set stays large: unmarked, the unnamed
  // check ran it, 302592 rows, most of this test's time).
  puzzles::Puzzle e = example("e5_bwd");
  for (puzzles::SizeSet& s : e.sets)
    if (s.name == "canonical") s.large = true;
  CHECK(std::count_if(e.sets.begin(), e.sets.end(), [](const puzzles::SizeSet& s) { return s.large; }) == 2);
  puzzles::CheckOptions opt;
  opt.seeds = {0};
  puzzles::PuzzleReport skipped = puzzles::check_puzzle(e, puzzles::Variant::Solution, opt);
  for (const puzzles::SetReport& s : skipped.sets) CHECK(s.name != "canonical");
  opt.sets = {"canonical"};
  puzzles::PuzzleReport named = puzzles::check_puzzle(e, puzzles::Variant::Solution, opt);
  REQUIRE(named.sets.size() == 1);
  CHECK(named.sets[0].name == "canonical");
  CHECK(named.pass);
}

TEST_CASE("E2 then E3 gives back each value within scale / 2 plus bf16 rounding, at every bit width", "[examples]") {
  const puzzles::Puzzle& e2 = example("e2");
  for (const char* name : {"canonical", "1bit", "4bit", "8bit"}) {
    const puzzles::SizeSet& set = set_named(e2, name);
    puzzles::RunBuffers packed = puzzles::make_buffers(e2, set, 7);
    launch(e2, set, packed);
    puzzles::RunBuffers y = unpack(packed, set);
    const tl::Buffer& x = packed.inputs[0];
    double worst = 0;
    for (int64_t i = 0; i < x.numel(); ++i) {
      const int64_t row = i / 256;
      const double scale = bf16(packed.extra_outputs[0], row);
      const double got = bf16(y.output, i), want = bf16(x, i);
      // The stored scale and minimum are bf16 roundings of the f32 ones
      // (relative 2^-9 each, times up to QMAX steps), and Y rounds to bf16.
      const double qmax = (1 << set["BITS"]) - 1;
      const double bound = scale / 2 + 0x1p-8 * (std::fabs(want) + qmax * scale + 1e-3);
      worst = std::max(worst, std::fabs(got - want) / bound);
    }
    INFO("set " << name << ": worst |Y - X| / bound " << worst);
    CHECK(worst <= 1.0);
  }
}

TEST_CASE("E2 then E3 is exact for rows already on the quantization grid", "[examples]") {
  const puzzles::Puzzle& e2 = example("e2");
  const puzzles::SizeSet& set = set_named(e2, "canonical");  // 2-bit
  puzzles::RunBuffers packed = puzzles::make_buffers(e2, set, 0);
  tl::Buffer& x = packed.inputs[0];
  // xmin = -1, scale = 0.25: codes 0..3 are -1, -0.75, -0.5, -0.25, all exact in bf16;
  // each row holds code 0 and code 3, so E2 finds exactly that scale and minimum.
  for (int64_t i = 0; i < x.numel(); ++i) {
    const int64_t code = (i % 256 == 0) ? 0 : (i % 256 == 1) ? 3 : (i * 7 + i / 256) % 4;
    x.as<uint16_t>()[i] = tl::float_to_bf16(-1.0f + 0.25f * static_cast<float>(code));
  }
  launch(e2, set, packed);
  puzzles::RunBuffers y = unpack(packed, set);
  for (int64_t i = 0; i < x.numel(); ++i) REQUIRE(y.output.as<uint16_t>()[i] == x.as<uint16_t>()[i]);
}

TEST_CASE("E4 fused, split-K and rows equal the unfused baseline (E3, then the product) within 2e-2", "[examples]") {
  for (const char* id : {"e4_fused", "e4_splitk", "e4_rows"}) {
    const puzzles::Puzzle& e4 = example(id);
    for (const puzzles::SizeSet& set : e4.sets) {
      if (set.large) continue;
      INFO(id << " set " << set.name);
      puzzles::RunBuffers b = puzzles::make_buffers(e4, set, 3);
      launch(e4, set, b);
      // Unfused: E3 expands the packed rows into X [K * G, GROUP] = [K, CIN] bf16.
      const puzzles::Puzzle& e3 = example("e3");
      puzzles::SizeSet rows = set_named(e3, "canonical");
      rows.sizes = {{"R", set["K"] * set["CIN"] / 256}};
      puzzles::RunBuffers x = puzzles::make_buffers(e3, rows, 0);
      x.inputs[0] = b.inputs[1];
      x.inputs[1] = b.inputs[2];
      x.inputs[2] = b.inputs[3];
      launch(e3, rows, x);
      const int64_t k_size = set["K"], cout = set["COUT"], cin = set["CIN"];
      double diff_sq = 0, ref_sq = 0;
      for (int64_t o = 0; o < cout; ++o)
        for (int64_t c = 0; c < cin; ++c) {
          double acc = 0;
          for (int64_t k = 0; k < k_size; ++k) acc += double(bf16(b.inputs[0], k * cout + o)) * bf16(x.output, k * cin + c);
          const double d = b.output.as<float>()[o * cin + c] - acc;
          diff_sq += d * d;
          ref_sq += acc * acc;
        }
      CHECK(std::sqrt(diff_sq / ref_sq) <= 2e-2);
    }
  }
}

namespace {
// E2 that forgets to store the minimum: P and S are right, Mn never written.
void quant_pack_without_min(tl::Ptr X, tl::Ptr P, tl::Ptr S, tl::Ptr Mn, tl::Int R, tl::Const GROUP, tl::Const BITS) {
  const int VPW = 32 / BITS, NWORDS = GROUP / VPW, QMAX = (1 << BITS) - 1;
  auto row = tl::program_id(0);
  auto w = tl::arange(0, NWORDS);
  auto j = tl::arange(0, VPW);
  auto x = tl::load(X + row * GROUP + w.col() * VPW + j.row()).to(tl::f32);
  auto xmin = tl::min(x);
  auto range = tl::max(x) - xmin;
  auto scale = tl::where(range > 0.0f, range / QMAX, 1.0f);
  tl::store(S + row, scale);
  auto q = tl::minimum(tl::maximum(((x - xmin) / scale + (0.5f - 1e-6f)).to(tl::i32), 0), QMAX);
  tl::store(P + row * NWORDS + w, tl::sum(q << (j * BITS).row(), 1));
  (void)Mn;
  (void)R;
}
}  // namespace

TEST_CASE("an extra output left unwritten fails the run on that output, with its elements listed", "[examples]") {
  static const tl::KernelDef kernel("quant_pack_without_min", quant_pack_without_min,
                                    {"X", "P", "S", "Mn", "R", "GROUP", "BITS"});
  const puzzles::Puzzle& e2 = example("e2");
  puzzles::RunReport r = puzzles::run_kernel(e2, kernel, set_named(e2, "canonical"), 0);
  CHECK(r.status == puzzles::RunStatus::Fail);
  CHECK(r.err == 0);  // P is right
  REQUIRE(r.extra_outputs.size() == 2);
  CHECK(r.extra_outputs[0].passed());
  CHECK_FALSE(r.extra_outputs[1].passed());
  CHECK(r.extra_outputs[1].name == "Mn");
  CHECK(r.never_written == 37);
  REQUIRE_FALSE(r.mismatches.empty());
  CHECK(r.mismatches[0].label == "Mn[0]");
  CHECK(r.mismatches[0].kind == puzzles::MismatchKind::NeverWritten);
  bool names_mn = false;
  for (const std::string& why : puzzles::failure_reasons(r)) names_mn |= why.find("wrong output Mn") != std::string::npos;
  CHECK(names_mn);
}
