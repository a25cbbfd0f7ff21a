// The value checks through the public API: parameters that declare themselves
// inputs or outputs (tilescope::Role), and the optional reference check
// (Options::reference) with each mismatch traced to its program and lane.
#include <catch2/catch.hpp>

#include <string>

#include "tilescope/tilescope.h"

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// z[i] = x[i] + 1 for i < LIMIT only: a kernel that leaves z's tail
// unwritten and x's tail unread when LIMIT < N.
int g_store_line = 0;
void add_one_until(tl::Ptr x, tl::Ptr z, tl::Int N, tl::Int LIMIT, tl::Const BLOCK) {
  auto off = tl::program_id(0) * BLOCK + tl::arange(0, BLOCK);
  auto m = (off < N) & (off < LIMIT);
  auto v = tl::load(x + off, m, 0.0f) + 1.0f;
  g_store_line = __LINE__; tl::store(z + off, v, m);
}

const tilescope::Kernel with_roles("add_one_until", add_one_until,
                                   {{"x", tl::f32, {"N"}, tilescope::Role::In},
                                    {"z", tl::f32, {"N"}, tilescope::Role::Out},
                                    {"N"}, {"LIMIT"}, {"BLOCK"}});
const tilescope::Kernel without_roles("add_one_until", add_one_until,
                                      {{"x", tl::f32, {"N"}}, {"z", tl::f32, {"N"}}, {"N"}, {"LIMIT"}, {"BLOCK"}});

// Reads z before writing it: z[i] += x[i].
int g_read_line = 0;
void accumulate(tl::Ptr x, tl::Ptr z, tl::Int N, tl::Const BLOCK) {
  auto off = tl::program_id(0) * BLOCK + tl::arange(0, BLOCK);
  auto m = off < N;
  g_read_line = __LINE__; auto acc = tl::load(z + off, m, 0.0f);
  tl::store(z + off, acc + tl::load(x + off, m, 0.0f), m);
}

struct Bufs {
  tilescope::Buffer x{"x", tl::f32, {100}}, z{"z", tl::f32, {100}};
  Bufs() {
    for (int i = 0; i < 100; ++i) x.as<float>()[i] = static_cast<float>(i);
  }
};

}  // namespace

TEST_CASE("an Out parameter: elements never written are reported, with the count and the first ones", "[api][roles]") {
  Bufs b;
  tilescope::Result r = tilescope::launch(with_roles, {4}, {b.x, b.z, 100, 90, 32});
  INFO(r.report());
  REQUIRE(r.error.empty());
  REQUIRE(r.findings.size() == 2);
  const tl::Finding& unwritten = r.findings[0];
  CHECK(unwritten.kind == tl::FindingKind::NeverWritten);
  CHECK(unwritten.lanes == 10);
  CHECK(unwritten.examples.at(0).offset == 90);
  CHECK(contains(r.report(), "10 elements of z never written by kernel 'add_one_until', first z[90]"));
  // The In parameter's tail was never read either.
  CHECK(r.findings[1].kind == tl::FindingKind::InputNeverRead);
  CHECK(r.findings[1].message == "x[90:100]");
  CHECK_FALSE(r.ok());
  // The marks are the launch's own: z is not tracked afterwards.
  CHECK_FALSE(b.z.tracks_writes());
  // Undeclared roles: nothing to report.
  Bufs c;
  CHECK(tilescope::launch(without_roles, {4}, {c.x, c.z, 100, 90, 32}).findings.empty());
  // Everything written and read: nothing.
  CHECK(tilescope::launch(with_roles, {4}, {c.x, c.z, 100, 100, 32}).ok());
}

TEST_CASE("an Out parameter read before any write is an uninitialized read at the load", "[api][roles]") {
  const tilescope::Kernel k("accumulate", accumulate,
                            {{"x", tl::f32, {"N"}, tilescope::Role::In}, {"z", tl::f32, {"N"}, tilescope::Role::Out},
                             {"N"}, {"BLOCK"}});
  Bufs b;
  tilescope::Result r = tilescope::launch(k, {4}, {b.x, b.z, 100, 32});
  INFO(r.report());
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].kind == tl::FindingKind::UninitializedRead);
  CHECK(r.findings[0].lanes == 100);
  CHECK(r.findings[0].examples.at(0).pid == tilescope::Program{0, 0, 0});
  CHECK(r.run.locations.at(static_cast<size_t>(r.findings[0].loc)).line == static_cast<uint32_t>(g_read_line));
  // As InOut, the host's values are input: nothing to report.
  const tilescope::Kernel inout("accumulate", accumulate,
                                {{"x", tl::f32, {"N"}, tilescope::Role::In},
                                 {"z", tl::f32, {"N"}, tilescope::Role::InOut}, {"N"}, {"BLOCK"}});
  CHECK(tilescope::launch(inout, {4}, {b.x, b.z, 100, 32}).ok());
}

TEST_CASE("a role on a scalar parameter is a declaration error", "[api][roles]") {
  const tilescope::Kernel k("add_one_until", add_one_until,
                            {{"x"}, {"z"}, {"N", tl::i32, {}, tilescope::Role::In}, {"LIMIT"}, {"BLOCK"}});
  Bufs b;
  tilescope::Result r = tilescope::launch(k, {4}, {b.x, b.z, 100, 100, 32});
  CHECK(contains(r.error, "only a tl::Ptr parameter declares a dtype, a shape or a role"));
}

TEST_CASE("a reference check: every buffer diffed, each mismatch with the program and lane that stored it",
          "[api][reference]") {
  Bufs b;
  tilescope::Options o;
  o.reference = [](std::vector<tilescope::Buffer>& buf) {
    for (int i = 0; i < 100; ++i) buf[1].set(i, buf[0].get(i) + 1.0);
  };
  // Off by one where LIMIT stops at 90: z[90..99] keep the host's zeros.
  b.z.fill(0.0);
  tilescope::Result r = tilescope::launch(without_roles, {4}, {b.x, b.z, 100, 90, 32}, o);
  INFO(r.report());
  REQUIRE(r.error.empty());
  CHECK(r.trace == nullptr);  // traced internally only
  REQUIRE(r.reference.size() == 2);
  CHECK(r.reference[0].name == "x");
  CHECK(r.reference[0].pass());
  const tilescope::BufferDiff& z = r.reference[1];
  CHECK(z.name == "z");
  CHECK(z.total == 100);
  CHECK(z.mismatch_count == 10);
  REQUIRE(z.first.size() == 10);
  CHECK(z.first[0].index == std::vector<int64_t>{90});
  CHECK(z.first[0].expected == 91.0);
  CHECK(z.first[0].found == 0.0);
  CHECK(z.first[0].program == tilescope::Program{-1, -1, -1});  // nothing stored there
  CHECK_FALSE(r.ok());
  CHECK(contains(r.report(), "reference: z: 10 of 100 elements differ"));

  // A wrong value is traced to its store: the reference expects +2.
  Bufs c;
  tilescope::Options o2;
  o2.reference = [](std::vector<tilescope::Buffer>& buf) {
    for (int i = 0; i < 100; ++i) buf[1].set(i, buf[0].get(i) + (i == 37 ? 2.0 : 1.0));
  };
  tilescope::Result w = tilescope::launch(without_roles, {4}, {c.x, c.z, 100, 100, 32}, o2);
  INFO(w.report());
  REQUIRE(w.reference.size() == 2);
  REQUIRE(w.reference[1].mismatch_count == 1);
  const tilescope::Mismatch& m = w.reference[1].first.at(0);
  CHECK(m.index == std::vector<int64_t>{37});
  CHECK(m.program == tilescope::Program{1, 0, 0});
  CHECK(m.lane == std::vector<int64_t>{5});
  CHECK(m.line == g_store_line);
  CHECK(contains(w.report(), "z[37]: expected 39, found 38, stored by program (1, 0, 0), lane [5]"));
  // Matching everywhere: ok.
  tilescope::Options o3;
  o3.reference = [](std::vector<tilescope::Buffer>& buf) {
    for (int i = 0; i < 100; ++i) buf[1].set(i, buf[0].get(i) + 1.0);
  };
  Bufs d;
  CHECK(tilescope::launch(without_roles, {4}, {d.x, d.z, 100, 100, 32}, o3).ok());
}

TEST_CASE("a traced launch with a reference check keeps the expected values in the trace, through JSON",
          "[api][reference]") {
  Bufs b;
  tilescope::Options o;
  o.trace = tilescope::Tracing::Full;
  o.reference_rtol = 1e-4;
  o.reference = [](std::vector<tilescope::Buffer>& buf) {
    for (int i = 0; i < 100; ++i) buf[1].set(i, buf[0].get(i) + (i == 37 ? 2.0 : 1.0));
  };
  tilescope::Result r = tilescope::launch(without_roles, {4}, {b.x, b.z, 100, 100, 32}, o);
  REQUIRE(r.trace);
  REQUIRE(r.trace->buffers.size() == 2);
  const tl::TraceBuffer& z = r.trace->buffers[1];
  REQUIRE(z.values_expected.size() == 100);
  for (int i = 0; i < 100; ++i) {
    INFO("z[" << i << "]");
    CHECK(z.values_expected[i] == b.x.get(i) + (i == 37 ? 2.0 : 1.0));
    CHECK(z.values_after[i] == b.x.get(i) + 1.0);
  }
  CHECK(z.expected_rtol == 1e-4);
  CHECK(z.expected_atol == o.reference_atol);
  // The input matched its reference (left as it was): kept too.
  CHECK(r.trace->buffers[0].values_expected == r.trace->buffers[0].values_before);
  const tl::Trace back = tl::trace_from_json(tl::trace_to_json(*r.trace));
  CHECK(back.buffers[1].values_expected == z.values_expected);
  CHECK(back.buffers[1].expected_rtol == 1e-4);
  // Without a reference check the trace has none, and its JSON no such key.
  tilescope::Options plain;
  plain.trace = tilescope::Tracing::Full;
  tilescope::Result p = tilescope::launch(without_roles, {4}, {b.x, b.z, 100, 100, 32}, plain);
  REQUIRE(p.trace);
  CHECK(p.trace->buffers[1].values_expected.empty());
  CHECK(tl::trace_to_json(*p.trace).find("values_expected") == std::string::npos);
}
