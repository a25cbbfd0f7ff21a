// The IR's text form and checks: ir::print shows parameters, loops, ifs and
// each instruction's kernel line; ir::verify accepts every kernel the front
// end builds and reports broken hand-made IR; instruction_count counts
// nested blocks.
#include <catch2/catch.hpp>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "interpreter.h"
#include "ir.h"
#include "tl.h"

namespace {

using tl::DType;
namespace ir = tl::ir;

int g_arange_line = 0, g_for_line = 0, g_load_line = 0;

void add_one(tl::Ptr x, tl::Ptr y, tl::Int N, tl::Const B) {
  g_arange_line = __LINE__; auto off = tl::program_id(0) * B + tl::arange(0, B);
  g_load_line = __LINE__; auto v = tl::load(x + off, off < N, 0.0f);
  tl::store(y + off, v + 1, off < N);
}

void looped(tl::Ptr x, tl::Ptr y, tl::Int T) {
  auto acc = tl::zeros({16}, tl::f32);
  g_for_line = __LINE__; for (auto i : tl::range(0, T)) {
    acc += tl::load(x + i * 16 + tl::arange(0, 16));
    tl::if_(i > 2, [&] { acc = acc * 2.0f; }, [&] { acc = acc - 1.0f; });
  }
  tl::store(y + tl::arange(0, 16), acc);
}

void many_ops(tl::Ptr x, tl::Ptr y, tl::Ptr h) {
  auto r = tl::arange(0, 16).col(), c = tl::arange(0, 16).row();
  auto a = tl::load(x + r * 16 + c);
  auto d = tl::dot(a, tl::trans(a), tl::ieee);
  auto s = tl::sum(d, 1) + tl::max(d, 0) + tl::argmax(d, 1).to(tl::f32);
  auto p = tl::permute(d.reshape({4, 4, 16}), {2, 0, 1}).reshape({16, 16});
  auto w = tl::where(s > 0, tl::exp(s), tl::sqrt(tl::abs(s)));
  tl::store(y + tl::arange(0, 16), w + tl::sum(p, 0));
  tl::atomic_add(h + tl::arange(0, 16) % 4, 1.0f, tl::arange(0, 16) < 12);
  tl::print("w", w);
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The printed line holding `what`, or "" when none does.
std::string line_with(const std::string& text, const std::string& what) {
  for (auto& l : lines_of(text))
    if (l.find(what) != std::string::npos) return l;
  return "";
}

size_t indent(const std::string& l) { return l.find_first_not_of(' '); }

}  // namespace

TEST_CASE("ir::print shows the kernel's name and parameters") {
  tl::KernelDef k("add_one", add_one, {"x", "y", "N", "B"});
  tl::Buffer x("xb", DType::f32, {100}), y("yb", DType::f16, {100});
  auto r = tl::run(k, {4, 1, 1}, {x, y, 100, 32});
  std::string text = ir::print(*r.kernel);
  INFO(text);
  CHECK(text.rfind("kernel add_one(x: ptr<f32>, y: ptr<f16>, N: i32, B: const = 32) {", 0) == 0);
  CHECK(text.substr(text.size() - 2) == "}\n");
  CHECK(line_with(text, "ptr_param x") != "");
  CHECK(line_with(text, "scalar_param N") != "");
  // Unnamed parameters print as argN.
  tl::KernelDef anon("add_one", add_one);
  auto r2 = tl::run(anon, {4, 1, 1}, {x, y, 100, 32});
  CHECK(ir::print(*r2.kernel).find("(arg0: ptr<f32>, arg1: ptr<f16>, arg2: i32, arg3: const = 32)") != std::string::npos);
}

TEST_CASE("ir::print tags each instruction with its kernel line") {
  tl::KernelDef k("add_one", add_one, {"x", "y", "N", "B"});
  tl::Buffer x("xb", DType::f32, {100}), y("yb", DType::f32, {100});
  auto r = tl::run(k, {4, 1, 1}, {x, y, 100, 32});
  std::string text = ir::print(*r.kernel);
  INFO(text);
  std::string ar = line_with(text, "arange 0, 32");
  REQUIRE(ar != "");
  CHECK(ar.find("%") == 2);
  CHECK(ar.find(": i32[32] = arange 0, 32") != std::string::npos);
  CHECK(ar.substr(ar.size() - (7 + std::to_string(g_arange_line).size())) == "# line " + std::to_string(g_arange_line));
  std::string ld = line_with(text, "= load ");
  REQUIRE(ld != "");
  CHECK(ld.find("mask=%") != std::string::npos);
  CHECK(ld.find("other=%") != std::string::npos);
  CHECK(ld.find("# line " + std::to_string(g_load_line)) != std::string::npos);
  // Without locations, no line tags at all.
  std::string bare = ir::print(*r.kernel, false);
  CHECK(bare.find("# line") == std::string::npos);
  CHECK(lines_of(bare).size() == lines_of(text).size());
}

TEST_CASE("ir::print shows loops and ifs with their bodies indented and closed") {
  tl::KernelDef k("looped", looped, {"x", "y", "T"});
  tl::Buffer x("x", DType::f32, {64}), y("y", DType::f32, {16});
  auto r = tl::run(k, {}, {x, y, 4});
  std::string text = ir::print(*r.kernel);
  INFO(text);
  auto ls = lines_of(text);
  size_t f = 0;
  while (f < ls.size() && ls[f].find("for %") == std::string::npos) ++f;
  REQUIRE(f < ls.size());
  CHECK(ls[f].find(" in range(%") != std::string::npos);
  CHECK(ls[f].find(") {") != std::string::npos);
  CHECK(ls[f].find("# line " + std::to_string(g_for_line)) != std::string::npos);
  CHECK(indent(ls[f + 1]) == indent(ls[f]) + 2);
  std::string iff = line_with(text, "if %");
  REQUIRE(iff != "");
  CHECK(indent(iff) == indent(ls[f]) + 2);
  CHECK(line_with(text, "} else {") != "");
  // The loop closes at its own indentation, before the final store.
  size_t close = f + 1;
  while (close < ls.size() && !(ls[close] == std::string(indent(ls[f]), ' ') + "}")) ++close;
  REQUIRE(close < ls.size());
  bool load_inside = false, store_inside = false, store_after = false;
  for (size_t i = f + 1; i < close; ++i) {
    load_inside |= ls[i].find("= load ") != std::string::npos;
    store_inside |= ls[i].find("store ") != std::string::npos;
  }
  for (size_t i = close + 1; i < ls.size(); ++i) store_after |= ls[i].find("store ") != std::string::npos;
  CHECK(load_inside);
  CHECK_FALSE(store_inside);
  CHECK(store_after);
}

TEST_CASE("ir::print names reductions, dot precisions and permutations") {
  tl::KernelDef k("many_ops", many_ops);
  tl::Buffer x("x", DType::f32, {256}), y("y", DType::f32, {16}), h("h", DType::f32, {4});
  auto r = tl::run(k, {}, {x, y, h});
  std::string text = ir::print(*r.kernel);
  INFO(text);
  CHECK(line_with(text, "reduce.sum axis=1") != "");
  CHECK(line_with(text, "reduce.max axis=0") != "");
  CHECK(line_with(text, "reduce.argmax axis=1") != "");
  CHECK(line_with(text, "dot.ieee") != "");
  CHECK(line_with(text, "permute dims=[2,0,1]") != "");
  CHECK(line_with(text, "f32[16,16] = dot.ieee") != "");
  CHECK(line_with(text, "print %").find("\"w\"") != std::string::npos);
}

TEST_CASE("ir::verify finds no problems in kernels the front end builds") {
  tl::Buffer x("x", DType::f32, {256}), y("y", DType::f32, {100}), h("h", DType::f32, {4});
  tl::KernelDef k1("add_one", add_one), k2("looped", looped), k3("many_ops", many_ops);
  auto r1 = tl::run(k1, {4, 1, 1}, {x, y, 100, 32});
  auto r2 = tl::run(k2, {}, {x, y, 3});
  auto r3 = tl::run(k3, {}, {x, y, h});
  for (auto* r : {&r1, &r2, &r3}) {
    auto problems = ir::verify(*r->kernel);
    INFO(ir::print(*r->kernel));
    CHECK(problems.empty());
  }
}

TEST_CASE("ir::verify reports use before definition, dtype mismatches and bad shapes") {
  ir::Kernel k;
  k.name = "broken";
  k.regs.push_back({ir::Type{DType::i32, false, {4}}, ""});  // %0
  k.regs.push_back({ir::Type{DType::f32, false, {4}}, ""});  // %1
  k.regs.push_back({ir::Type{DType::i32, false, {4}}, ""});  // %2
  k.regs.push_back({ir::Type{DType::i32, false, {8}}, ""});  // %3
  auto instr = [](ir::Op op, int dst, std::vector<int> args) {
    ir::Instr in{};
    in.op = op;
    in.dst = dst;
    in.args = std::move(args);
    return in;
  };
  // %2 = add %0, %0 before %0 exists.
  k.body.instrs.push_back(instr(ir::Op::Add, 2, {0, 0}));
  auto p1 = ir::verify(k);
  REQUIRE_FALSE(p1.empty());
  CHECK(p1[0].find("before it is defined") != std::string::npos);

  ir::Kernel k2;
  k2.regs = k.regs;
  ir::Instr a = instr(ir::Op::Arange, 0, {});
  a.ival2 = 4;
  k2.body.instrs.push_back(std::move(a));
  ir::Instr c = instr(ir::Op::Const, 1, {});
  k2.body.instrs.push_back(std::move(c));
  k2.body.instrs.push_back(instr(ir::Op::Add, 2, {0, 1}));  // i32 + f32
  auto p2 = ir::verify(k2);
  REQUIRE(p2.size() >= 1);
  CHECK(p2[0].find("dtypes differ") != std::string::npos);

  ir::Kernel k3;
  k3.regs = k.regs;
  ir::Instr a3 = instr(ir::Op::Arange, 0, {});
  a3.ival2 = 4;
  k3.body.instrs.push_back(std::move(a3));
  k3.body.instrs.push_back(instr(ir::Op::Add, 3, {0, 0}));  // [4] + [4] -> [8]
  k3.body.instrs.push_back(instr(ir::Op::Neg, 2, {7}));     // %7 does not exist
  auto p3 = ir::verify(k3);
  REQUIRE(p3.size() >= 2);
  CHECK(p3.front().find("shape [4] differs from result [8]") != std::string::npos);
  CHECK(p3.back().find("%7 does not exist") != std::string::npos);
}

TEST_CASE("instruction_count counts nested loop and if bodies") {
  tl::KernelDef k("looped", looped);
  tl::Buffer x("x", DType::f32, {64}), y("y", DType::f32, {16});
  auto r = tl::run(k, {}, {x, y, 4});
  size_t top = r.kernel->body.instrs.size();
  size_t all = ir::instruction_count(r.kernel->body);
  CHECK(all > top);
  size_t manual = 0;
  std::function<void(const ir::Block&)> walk = [&](const ir::Block& b) {
    for (auto& in : b.instrs) {
      ++manual;
      if (in.body) walk(*in.body);
      if (in.else_body) walk(*in.else_body);
    }
  };
  walk(r.kernel->body);
  CHECK(all == manual);
  // Every printed instruction line is one instruction; braces are not.
  size_t printed = 0;
  for (auto& l : lines_of(ir::print(*r.kernel, false))) {
    auto t = l.substr(l.find_first_not_of(' '));
    if (t != "}" && t != "} else {" && t.rfind("kernel ", 0) != 0) ++printed;
  }
  CHECK(printed == all);
}
