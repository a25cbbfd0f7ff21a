// The tilescope command as a user runs it: exit statuses, messages for bad
// arguments, --help everywhere, and the outputs tools read (--json, traces).
#include <sys/wait.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "trace.h"

namespace {

struct Outcome {
  int status = -1;  // exit status; -1 if the process did not exit normally
  std::string out;  // stdout and stderr together
};

Outcome run_cli(const std::string& args) {
  std::string cmd = std::string(TILESCOPE_CLI) + " " + args + " 2>&1";
  Outcome o;
  FILE* f = popen(cmd.c_str(), "r");
  REQUIRE(f != nullptr);
  std::array<char, 4096> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) o.out.append(buf.data(), n);
  int st = pclose(f);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return o;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// `tilescope args` is refused as a usage error: exit status 2 and `message`.
void check_usage_error(const std::string& args, const std::string& message) {
  Outcome o = run_cli(args);
  INFO("tilescope " << args << "\n" << o.out);
  CHECK(o.status == 2);
  CHECK(contains(o.out, message));
}

}  // namespace

TEST_CASE("cli: check --all passes all 12 puzzles with exit status 0") {
  Outcome o = run_cli("check --all --seeds 0");
  INFO(o.out);
  CHECK(o.status == 0);
  CHECK(contains(o.out, "12 of 12 kernels pass"));
}

TEST_CASE("cli: check --examples passes every example at its small sizes, and --all stays the 12 puzzles") {
  Outcome o = run_cli("check --examples --seeds 0");
  INFO(o.out);
  CHECK(o.status == 0);
  CHECK(contains(o.out, "11 of 11 kernels pass"));
  CHECK_FALSE(contains(o.out, "bench"));  // benchmark-size sets are for --gpu and bench
  Outcome one = run_cli("check e1_v2 e5_fwd --seeds 0");
  INFO(one.out);
  CHECK(one.status == 0);
  CHECK(contains(one.out, "2 of 2 kernels pass"));
}

TEST_CASE("cli: list shows the examples in their own section and show prints an example statement") {
  Outcome o = run_cli("list");
  INFO(o.out);
  CHECK(o.status == 0);
  CHECK(contains(o.out, "Examples from real workloads"));
  for (const char* id : {"e1_v1", "e1_v2", "e2", "e3", "e4_fused", "e4_splitk", "e5_fwd", "e5_bwd"})
    CHECK(contains(o.out, std::string("     ") + id + " "));
  CHECK(contains(o.out, "broken/interleaved_wrong_row_stride"));
  Outcome show = run_cli("show e4_splitk");
  INFO(show.out);
  CHECK(show.status == 0);
  CHECK(contains(show.out, "Example e4_splitk"));
  CHECK(contains(show.out, "atomic_add"));
}

TEST_CASE("cli: show prints the note on benchmark-size sets once, after the set lines") {
  Outcome show = run_cli("show e4_fused");
  INFO(show.out);
  CHECK(show.status == 0);
  const std::string note = "Sets marked 'GPU' are benchmark sizes";
  size_t count = 0;
  for (size_t at = show.out.find(note); at != std::string::npos; at = show.out.find(note, at + 1)) ++count;
  CHECK(count == 1);
  CHECK(show.out.rfind("grid ") < show.out.find(note));  // after the last set line
}

TEST_CASE("cli: check --all --stub reports every stub as failing, exit status 1, no crash") {
  Outcome o = run_cli("check --all --stub --seeds 0");
  INFO(o.out);
  CHECK(o.status == 1);
  CHECK(contains(o.out, "0 of 12 kernels pass"));
  CHECK(contains(o.out, "never written"));
}

TEST_CASE("cli: bad arguments give one clear message and exit status 2") {
  struct Case {
    const char* args;
    const char* message;
  } cases[] = {
      {"", "usage: tilescope"},
      {"frobnicate", "unknown command 'frobnicate'"},
      {"check 13", "no puzzle '13'"},
      {"check", "name a puzzle"},
      {"check 2 --bogus", "unknown option '--bogus'"},
      {"check 2 --seeds 1,x", "--seeds"},
      {"check 2 --threads", "needs a value"},
      {"check 2 --set 9z", "no size set '9z'"},
      {"check 1 2 --trace out.json", "exactly one puzzle"},
      {"check broken/nope", "no broken kernel"},
      {"compile 99", "no puzzle '99'"},
      {"show", "one puzzle"},
  };
  for (const Case& c : cases) check_usage_error(c.args, c.message);
}

TEST_CASE("cli: every command answers --help with exit status 0") {
  for (const char* cmd : {"--help", "list --help", "show --help", "check --help", "compile --help"}) {
    Outcome o = run_cli(cmd);
    INFO("tilescope " << cmd << "\n" << o.out);
    CHECK(o.status == 0);
    CHECK(contains(o.out, "usage: tilescope"));
  }
}

TEST_CASE("cli: compile --ir prints the kernel's IR with a runtime loop") {
  Outcome o = run_cli("compile 7 --ir");
  INFO(o.out);
  CHECK(o.status == 0);
  CHECK(contains(o.out, "kernel long_sum("));
  CHECK(contains(o.out, "for %"));
  CHECK(contains(o.out, "# line "));
}

TEST_CASE("cli: compile --plan prints the interpreter's plan with what each pass did") {
  Outcome o = run_cli("compile conv2d --plan");
  INFO(o.out);
  CHECK(o.status == 0);
  CHECK(contains(o.out, "plan of conv2d: "));
  CHECK(contains(o.out, "# hoisted before loop ["));
  CHECK(contains(o.out, "reads broadcast sources in place, as "));
  CHECK(contains(o.out, "fused into ["));
  Outcome off = run_cli("compile conv2d --plan --no-fuse");
  INFO(off.out);
  CHECK(off.status == 0);
  CHECK(contains(off.out, "(fusion and hoisting off)"));
  CHECK_FALSE(contains(off.out, "# "));
}

TEST_CASE("cli: a broken kernel's finding names the kernel line, --strict exits 3") {
  Outcome o = run_cli("check broken/missing_load_mask");
  INFO(o.out);
  CHECK(o.status == 1);
  CHECK(contains(o.out, "error: out-of-bounds load from x in program (6, 0, 0), lane [8]"));
  CHECK(contains(o.out, "b01_missing_load_mask.cpp:"));
  Outcome s = run_cli("check broken/missing_load_mask --strict");
  INFO(s.out);
  CHECK(s.status == 3);
}

TEST_CASE("cli: --trace writes a trace that loads back") {
  Outcome o = run_cli("check 4 --seeds 0 --set 4a --trace cli_trace_p04.json");
  INFO(o.out);
  REQUIRE(o.status == 0);
  tl::Trace t = tl::load_trace("cli_trace_p04.json");
  CHECK(t.kernel == "outer_add_block");
  CHECK(t.programs.size() == 12);  // canonical grid (4, 3, 1)
  CHECK_FALSE(t.truncated);
  std::remove("cli_trace_p04.json");
}

TEST_CASE("cli: --json output is JSON for tools") {
  Outcome o = run_cli("check 2 --seeds 0 --json");
  INFO(o.out);
  CHECK(o.status == 0);
  CHECK(o.out.front() == '[');
  CHECK(contains(o.out, "\"pass\": true"));
  Outcome l = run_cli("list --json");
  CHECK(l.status == 0);
  CHECK(contains(l.out, "\"long_softmax\""));
}

#ifdef TILESCOPE_HAVE_GPU
TEST_CASE("cli: check --gpu --json is one JSON object, with or without a GPU") {
  Outcome o = run_cli("check 2 broken/missing_load_mask --gpu --json --seeds 0 --set canonical");
  INFO(o.out);
  CHECK((o.status == 0 || o.status == 1));
  nlohmann::json j = nlohmann::json::parse(o.out);  // throws (and fails the test) on anything else
  if (j["device"].is_null()) {
    CHECK(j["compiled"] == 2);
    CHECK(j["compile_failures"].empty());
  } else {
    REQUIRE(j["kernels"].size() == 2);
    CHECK(j["kernels"][0]["all_match"] == true);
    CHECK(j["kernels"][1]["runs"][0].contains("caveat"));  // its out-of-bounds load makes the output undefined
  }
}

TEST_CASE("cli: compile --cuda takes a broken kernel, and --every-load keeps its loads") {
  Outcome plain = run_cli("compile broken/missing_load_mask --cuda");
  Outcome kept = run_cli("compile broken/missing_load_mask --cuda --every-load");
  INFO(plain.out);
  CHECK(plain.status == 0);
  CHECK(kept.status == 0);
  CHECK(contains(plain.out, "__global__ void __launch_bounds__(128) missing_load_mask_B0_32("));
  CHECK(contains(kept.out, "= ts_load_kept(r"));
  CHECK_FALSE(contains(plain.out, "= ts_load_kept(r"));
}

TEST_CASE("cli: compile --bench prints the CUDA a bench case times, and names the cases when it is wrong") {
  Outcome e1 = run_cli("compile e1_v1 --cuda --bench e1_v1_128");
  INFO(e1.out);
  CHECK(e1.status == 0);
  CHECK(contains(e1.out, "e1_split_activation_v1_BM_128_BN_64_BK_32("));
  CHECK(contains(e1.out, "ts_cp_async16(ts_dst"));  // its operands are staged by cp.async
  check_usage_error("compile e1_v1 --cuda --bench p11", "no benchmark case 'p11' for this kernel; the cases are p02,");
  check_usage_error("compile e1_v1 --cuda --bench e1_v1 --set bench", "--bench and --set both choose the sizes; give one");
}

TEST_CASE("cli: compile --variant prints the CUDA of a bench case's other blocks, --cluster its clusters") {
  Outcome v = run_cli("compile 11 --cuda --bench p11 --variant 1 --warps 8 --wgmma --tma --cluster");
  INFO(v.out);
  CHECK(v.status == 0);
  CHECK(contains(v.out, "batched_matmul_B0_256_B1_128_B2_1_B_MID_32("));
  CHECK(contains(v.out, "ts_tma_load_3d_mc(ts_stage"));
  check_usage_error("compile 11 --cuda --bench p11 --variant 2", "--variant 2: case 'p11' has block variants 1 to 1");
  check_usage_error("compile 11 --cuda --variant 1", "--variant needs --bench CASE");
  check_usage_error("compile 11 --cuda --bench p11 --wgmma --cluster", "--cluster needs --wgmma --tma");
}

TEST_CASE("cli: bench --groups-waited is refused without --warps and --wgmma (the tuner tries both forms)") {
  check_usage_error("bench --gpu --case p11 --groups-waited", "--groups-waited needs --warps and --wgmma");
  check_usage_error("bench --gpu --case p11 --warps 8 --groups-waited", "--groups-waited needs --warps and --wgmma");
}

TEST_CASE("cli: compile --warp-specialize prints a producer warpgroup's kernel, and needs --wgmma --tma") {
  Outcome v = run_cli("compile e4_rows --cuda --bench e4_rows_k100864 --variant 7 --warps 8 --wgmma --tma --warp-specialize");
  INFO(v.out);
  CHECK(v.status == 0);
  CHECK(contains(v.out, "384 threads per program (8 warps and a producer warpgroup)"));
  CHECK(contains(v.out, "const int tid = threadIdx.x - 256;"));
  check_usage_error("compile e4_rows --cuda --wgmma --warp-specialize", "--warp-specialize needs --wgmma --tma");
  check_usage_error("bench --gpu --case e4_rows --warp-specialize", "--warp-specialize needs --warps, --wgmma and --tma");
}

TEST_CASE("cli: --producer-warpgroups 2 prints two producer warpgroups' kernel, and is refused without --warp-specialize or past 2") {
  Outcome v = run_cli("compile e4_rows --cuda --bench e4_rows_k100864 --variant 7 --warps 8 --wgmma --tma --warp-specialize "
                      "--producer-warpgroups 2");
  INFO(v.out);
  CHECK(v.status == 0);
  CHECK(contains(v.out, "512 threads per program (8 warps and two producer warpgroups)"));
  check_usage_error("compile e4_rows --cuda --wgmma --tma --producer-warpgroups 2", "--producer-warpgroups needs --warp-specialize");
  check_usage_error("compile e4_rows --cuda --wgmma --tma --warp-specialize --producer-warpgroups 3",
                    "--producer-warpgroups must be 1 or 2, got 3");
  check_usage_error("bench --gpu --case e4_rows --warps 8 --wgmma --tma --producer-warpgroups 2",
                    "--producer-warpgroups needs --warp-specialize");
}

TEST_CASE("cli: bench --copies-first is refused without --warps and --wgmma (the tuner tries both orders)") {
  check_usage_error("bench --gpu --case e4_rows --copies-first", "--copies-first needs --warps and --wgmma");
  check_usage_error("bench --gpu --case e4_rows --warps 8 --copies-first", "--copies-first needs --warps and --wgmma");
}
#endif
