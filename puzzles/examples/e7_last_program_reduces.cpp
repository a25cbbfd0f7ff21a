// Example E7 — a sum where the last program to finish reduces every
// program's partial ("e7_last_reduces"), and its broken variant: the
// counter taken with relaxed ordering (a race on the partials).
#include "examples/example_common.h"
#include "examples/example_defs.h"
#include "tl.h"

namespace puzzles {
namespace {

constexpr const char* kStatement = R"(Example E7 - last program reduces (e7_last_reduces)

Out = sum(X). Program p sums its BLOCK elements of X into Partials[p], then
counts itself in with an acq_rel atomic_add on Count. The program that sees
the count of all the others (old == programs - 1) is ordered after every
partial's store: it adds the partials in order, stores Out and resets Count
to 0 for the next launch. No program waits; the ordering comes from the
counter's release sequence.

Inputs:      X: f32[N]
Outputs:     Out: f32[1]; the workspace Partials: f32[cdiv(N, BLOCK)] (the
             block sums) and Count: i32[1], both zero at the start; Count ends zero
Parameters:  (X, Out, Partials, Count, N | BLOCK, RBLOCK)
Grid:        (cdiv(N, BLOCK), 1, 1)
Tolerance:   1e-5 relative
Benchmark:   N = 2^24, BLOCK = 4096, RBLOCK = 1024
)";

template <bool RELAXED>
void last_program_reduces(tl::Ptr X, tl::Ptr Out, tl::Ptr Partials, tl::Ptr Count, tl::Int N, tl::Const BLOCK,
                          tl::Const RBLOCK) {
  auto pid = tl::program_id(0);
  auto programs = tl::num_programs(0);
  auto offs = pid * BLOCK + tl::arange(0, BLOCK);
  tl::store(Partials + pid, tl::sum(tl::load(X + offs, offs < N, 0.0f)));
  auto before = tl::atomic_add(Count + 0, 1, true, RELAXED ? "relaxed" : "acq_rel");  // BUG when relaxed
  tl::if_(before == programs - 1, [&] {
    auto acc = tl::zeros({RBLOCK}, tl::f32);
    for (auto j : tl::range(0, programs, RBLOCK)) {
      auto r = j + tl::arange(0, RBLOCK);
      acc += tl::load(Partials + r, r < programs, 0.0f);
    }
    tl::store(Out + 0, tl::sum(acc));
    tl::atomic_xchg(Count + 0, 0, true, "relaxed");
  });
}

std::vector<double> reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  double total = 0;
  for (int64_t i = 0; i < s["N"]; ++i) total += in[0].get(i);
  return {total};
}

SizeSet set(std::string name, int64_t n, int64_t block, int64_t rblock, std::string stresses, bool large = false) {
  return examples::make_set(
      std::move(name), {{"N", n}}, {}, {{"BLOCK", block}, {"RBLOCK", rblock}}, std::move(stresses),
      [](const SizeSet& s) { return std::array<int64_t, 3>{examples::cdiv(s["N"], s["BLOCK"]), 1, 1}; }, large);
}

std::vector<std::vector<double>> workspace_reference(const SizeSet& s, const std::vector<tl::Buffer>& in) {
  const int64_t n = s["N"], block = s["BLOCK"];
  std::vector<double> partials(static_cast<size_t>(examples::cdiv(n, block)), 0.0);
  for (int64_t i = 0; i < n; ++i) partials[static_cast<size_t>(i / block)] += in[0].get(i);
  return {partials, {0.0}};
}

const std::vector<std::string> kParams = {"X", "Out", "Partials", "Count", "N", "BLOCK", "RBLOCK"};

}  // namespace

const tl::KernelDef& e7_relaxed_count() {
  static const tl::KernelDef k("e7_relaxed_count", last_program_reduces<true>, kParams);
  return k;
}

Puzzle make_e7_last_program_reduces() {
  static const tl::KernelDef kernel("e7_last_program_reduces", last_program_reduces<false>, kParams);
  Puzzle p = examples::example_puzzle("e7_last_reduces", "Last program reduces", kStatement, 1e-5);
  p.inputs = {{"X", tl::f32, dims({"N"})}};
  p.output = {"Out", tl::f32, [](const SizeSet&) { return std::vector<int64_t>{1}; }};
  p.extra_outputs = {
      {"Partials", tl::f32, [](const SizeSet& s) { return std::vector<int64_t>{examples::cdiv(s["N"], s["BLOCK"])}; },
       {}, true, 1e-5},
      {"Count", tl::i32, [](const SizeSet&) { return std::vector<int64_t>{1}; }, {}, true, 0}};
  p.extra_reference = workspace_reference;
  p.output_axes = {-1};
  p.owner = [](const SizeSet& s, const std::vector<int64_t>&) {
    return std::array<int64_t, 3>{examples::cdiv(s["N"], s["BLOCK"]) - 1, 0, 0};
  };
  p.sets = {set("canonical", 1000, 64, 16, "16 programs, the last one partly masked"),
            set("e7a", 70000, 128, 256, "547 programs: the reduction loops over three blocks of partials"),
            set("e7b", 50, 64, 16, "one program, which is also the last"),
            set("bench", int64_t{1} << 24, 4096, 1024, "benchmark size", true)};
  p.solution = p.stub = &kernel;
  p.reference = reference;
  return p;
}

}  // namespace puzzles
