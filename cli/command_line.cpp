#include "command_line.h"

#include <exception>

namespace cli {

const std::vector<CommandInfo>& command_table() {
  // Each command's options live here, not in its cmd_*.cpp file, so the
  // command line can be parsed (and fuzzed) without linking the commands.
  static const std::vector<CommandInfo> table = {
      {"list", "list the puzzles",
       {{"json", false, "", "print the list as JSON"},
        {"help", false, "", "show this help"}}},
      {"show", "print a puzzle's statement and size sets",
       {{"help", false, "", "show this help"}}},
      {"check", "run puzzle kernels in the interpreter and check them",
       {
           {"all", false, "", "check all 12 puzzles"},
           {"examples", false, "", "check every example of EXAMPLES.md (e1_v1 ... e5_bwd) at its small sizes"},
           {"stub", false, "", "check the learner stubs instead of the reference solutions"},
           {"seeds", true, "LIST", "seeds to run, comma-separated (default 0,1,2)"},
           {"set", true, "NAME", "run only this size set (canonical, 2a, 8d, ...)"},
           {"trace", true, "FILE", "write the trace of one run (see --trace-set, --trace-seed) as JSON"},
           {"trace-set", true, "NAME", "the size set of the traced run (default canonical)"},
           {"trace-seed", true, "N", "the seed of the traced run (default the first seed)"},
           {"threads", true, "N", "interpreter threads (default: all cores)"},
           {"verbose", false, "", "details of every failing run and one line per run"},
           {"strict", false, "", "stop at the first sanitizer finding (exit status 3)"},
           {"max-steps", true, "N", "steps one program may take before the launch stops as a runaway (default 2^27; 0: none)"},
           {"progress", false, "", "report progress on stderr for launches over a second (default: when stderr is a terminal)"},
           {"no-progress", false, "", "never report progress"},
           {"json", false, "", "print the reports as JSON"},
           {"gpu", false, "", "run on the GPU too and compare with the interpreter (CUDA back end)"},
           {"warps", true, "N", "with --gpu: warps per program (default 4)"},
           {"wgmma", false, "", "with --gpu: Hopper wgmma for the tf32, bf16 and f16 dots that fit it (sm_90a; not yet the default)"},
           {"stages", true, "N", "with --gpu: cp.async pipeline stages of pipelined dots, 2 to 4 (default: the code generator's choice)"},
           {"wgmma-wait", false, "", "with --wgmma: wait for every wgmma group at once instead of leaving one iteration's in flight"},
           {"tma", false, "", "with --wgmma: the TMA unit copies the staged tiles that are plain rectangles of a 2-D tensor (cp.async where the launch cannot describe them)"},
           {"cluster", false, "", "with --tma: programs that copy the same tile run in clusters of two sharing it by TMA multicast (p11's C^T form)"},
           {"no-dot-pairs", false, "", "with --wgmma: one wgmma per dot, never one for two dots of one A whose B tiles sit side by side"},
           {"tf32-cut", false, "", "with --gpu: cut staged f32 dot operands to tf32 in shared memory instead of letting the tensor cores drop the low bits"},
           {"line-info", false, "", "with --gpu: compile with -lineinfo (source lines for compute-sanitizer and Nsight; slower to compile)"},
           {"no-cache", false, "", "with --gpu: compile every kernel, ignoring the cubin cache"},
           {"help", false, "", "show this help"},
       }},
      {"compile", "print a kernel's IR (or its CUDA with --cuda)",
       {
           {"ir", false, "", "print the IR (the default)"},
           {"plan", false, "", "print the interpreter's plan: its steps, and which the fusion and hoisting passes moved"},
           {"no-fuse", false, "", "with --plan: the plan with fusion and hoisting off (as TILESCOPE_FUSE=0)"},
           {"cuda", false, "", "print the CUDA C++ the GPU back end generates"},
           {"warps", true, "N", "with --cuda: warps per program (default 4)"},
           {"every-load", false, "", "with --cuda: keep every load, even unused ones (as gpu-run --every-load)"},
           {"stages", true, "N", "with --cuda: cp.async pipeline stages, 2 to 4 (default: the code generator's choice)"},
           {"no-ldmatrix", false, "", "with --cuda: tensor-core fragments by one shared load per word"},
           {"no-row-runs", false, "", "with --cuda: a tile reduced over its last axis held striped, not in runs along its rows"},
           {"register-a", false, "", "with --cuda --wgmma: a 16-bit dot's B computed in registers is fed to wgmma from registers as C^T's A instead of written to the stage"},
           {"b-in-stage", false, "", "with --cuda --wgmma: a tf32 dot run as C^T (B with n along its rows, p11) writes B^T into the stage from registers and keeps its groups in flight, instead of waiting for each group"},
           {"no-decoupled", false, "", "with --cuda --wgmma --tma: a tf32 dot run as C^T with its groups waited for (p11) publishes each stage with one block barrier an iteration, instead of each warpgroup copying and waiting for its own part of B and a stage refilled once every warp arrived on its empty barrier"},
           {"no-b-tma", false, "", "with --cuda --wgmma --tma: a tf32 dot run as C^T with its groups waited for (p11) copies its B by cp.async into padded rows, instead of by TMA in 128-byte swizzled columns"},
           {"warp-specialize", false, "", "with --cuda --wgmma --tma: a loop whose dot operand is computed in registers (E4's X) runs as a producer warpgroup, which computes it into the stage and issues the copies, and the --warps consumer warps, which only run the dots"},
           {"producer-warpgroups", true, "N", "with --warp-specialize: the producer's warpgroups, 1 (the default) or 2 (each computes half the operand; the consumers take the registers the producers give back)"},
           {"wgmma", false, "", "with --cuda: Hopper wgmma for the tf32, bf16 and f16 dots that fit it (sm_90a)"},
           {"tma", false, "", "with --cuda --wgmma: TMA copies for the staged tiles that are plain rectangles of a 2-D tensor"},
           {"cluster", false, "", "with --tma: neighbouring programs that copy the same tile run in clusters of two, each bringing half of it to both (TMA multicast; p11's C^T form)"},
           {"stub", false, "", "the learner stub instead of the reference solution"},
           {"set", true, "NAME", "the size set whose constants specialize the kernel (default canonical)"},
           {"bench", true, "CASE", "the sizes and blocks of a `tilescope bench` case instead (p11, e1_v1_128, ...)"},
           {"variant", true, "N", "with --bench: the case's Nth other block sizes the autotuner tries (1, 2, ...)"},
           {"no-lines", false, "", "leave out the kernel line of each instruction"},
           {"help", false, "", "show this help"},
       }},
      {"view", "replay a launch as memory grids in the viewer (or a screenshot)",
       {
           {"stub", false, "", "view the learner stub instead of the reference solution"},
           {"set", true, "NAME", "the size set of the viewed run (default canonical, or the one a broken kernel names)"},
           {"seed", true, "N", "the seed of the viewed run (default 0)"},
           {"program", true, "X,Y,Z", "select this program first (missing axes are 0)"},
           {"event", true, "K", "select event K of that program"},
           {"mode", true, "MODE", "color tensors by: access (default), coverage, values"},
           {"values", true, "WHICH", "values mode shows: after (default), before, stored"},
           {"tab", true, "TAB", "details tab: puzzle, legend, dot, gpu"},
           {"frame", true, "WHAT", "tensors framed on the selected event's cells (selection, default) or whole"},
           {"gpu", false, "", "also run the launch on the GPU and show interpreter vs GPU (needs a CUDA driver)"},
           {"screenshot", true, "FILE", "render the UI into a PNG and exit (no window; needs an X display or Xvfb)"},
           {"cells", true, "FILE", "with --screenshot: write where each grid cell was drawn, as JSON"},
           {"size", true, "WxH", "window or screenshot size in pixels (default 1600x1000)"},
           {"frames", true, "N", "with --screenshot: frames rendered before the capture (default 4)"},
           {"mouse", true, "X,Y", "with --screenshot: the mouse pointer's position in pixels (shows hover effects)"},
           {"help", false, "", "show this help"},
       }},
      {"bench", "time the kernels on the GPU at scale (--gpu)",
       {
           {"gpu", false, "", "time the CUDA back end's kernels (required for now)"},
           {"case", true, "LIST", "cases to run, comma-separated (p02,p04,...,p11, e1_v1,e1_v1_128,e1_v2,e2,e3,e4_fused,e4_splitk,e4_rows,e5_fwd,e5_bwd, ...; default all)"},
           {"runs", true, "N", "timed runs per case, the median is reported (default 100, at least 100)"},
           {"warmup", true, "N", "untimed launches first (default 10)"},
           {"warps", true, "N", "warps per program, and no autotuning (default: the autotuner tries 4 and 8 warps, memory-bound cases 1 and 2 too and a persistent launch, dot cases 2, 3 and 4 pipeline stages, some cases other blocks; the fastest is reported with its configuration)"},
           {"stages", true, "N", "with --warps: cp.async pipeline stages of pipelined dots, 2 to 4 (default: the code generator's choice)"},
           {"no-ldmatrix", false, "", "tensor-core fragments by one shared load per word instead of ldmatrix (to compare)"},
           {"wgmma", false, "", "the autotuner also tries Hopper wgmma for the tf32, bf16 and f16 dots that fit it, with and without TMA copies (sm_90a; with --warps: always on)"},
           {"tma", false, "", "with --warps: TMA copies for the staged tiles of wgmma dots that are plain rectangles of a 2-D tensor"},
           {"cluster", false, "", "with --tma: programs that copy the same tile run in clusters of two sharing it by TMA multicast (p11's C^T form)"},
           {"variant", true, "N", "with --warps: each case's Nth other block sizes (those the autotuner tries) instead of its own"},
           {"no-dot-pairs", false, "", "with --wgmma: one wgmma per dot, never one for two dots of one A whose B tiles sit side by side (to compare)"},
           {"no-small-in-stage", false, "", "a pipelined loop's other loads read from global memory again at every element a broadcast spreads them over, instead of through the stages (to compare)"},
           {"no-operand-runs", false, "", "a wgmma operand computed in registers is held one value a thread per stripe, stored and computed a value at a time, instead of in runs of 16 bytes along its rows (to compare)"},
           {"no-row-runs", false, "", "a tile reduced over its last axis is held striped, one column a thread, instead of in runs along its rows that give each warp whole rows (to compare)"},
           {"register-a", false, "", "with --warps and --wgmma: a 16-bit dot's B computed in registers (E4's X) is fed to wgmma from registers as C^T's A, not written to the stage (slower so far; to compare)"},
           {"b-in-stage", false, "", "with --warps and --wgmma: a tf32 dot run as C^T (p11) writes B^T into the stage from registers, its groups in flight (slower so far; to compare)"},
           {"no-decoupled", false, "", "a tf32 dot run as C^T with its groups waited for (p11's TMA form) publishes each stage with one block barrier an iteration, instead of each warpgroup waiting only for its own part of B and a stage refilled once every warp arrived on its empty barrier (to compare)"},
           {"no-b-tma", false, "", "a tf32 dot run as C^T with its groups waited for (p11's TMA form) copies its B by cp.async into padded rows, instead of by TMA in 128-byte swizzled columns (to compare)"},
           {"warp-specialize", false, "", "with --warps, --wgmma and --tma: a loop whose dot operand is computed in registers (E4's X) runs as a producer warpgroup (the operand and the copies) and the --warps consumer warps (the dots)"},
           {"producer-warpgroups", true, "N", "with --warp-specialize: the producer's warpgroups, 1 (the default) or 2 (each computes half the operand)"},
           {"groups-waited", false, "", "with --warps and --wgmma: each iteration's wgmma groups waited for at once, none left in flight (to compare; p11's C^T form waits unless --b-in-stage)"},
           {"copies-first", false, "", "with --warps and --wgmma: a loop whose groups stay in flight issues its next copies between the barrier and its first wgmma, not after its last (to compare; E4's forms)"},
           {"tf32-cut", false, "", "cut staged f32 dot operands to tf32 in shared memory instead of letting the tensor cores drop the low bits"},
           {"verify", false, "", "also compare each output with the reference (slow at these sizes)"},
           {"flush-l2", false, "", "overwrite a buffer of twice the L2 cache before each timed run, as Triton's do_bench does, instead of rotating the inputs among copies"},
           {"line-info", false, "", "compile with -lineinfo (source lines for Nsight and compute-sanitizer; slower to compile)"},
           {"no-cache", false, "", "compile every kernel, ignoring the cubin cache"},
           {"json", false, "", "print the results as JSON"},
           {"json-out", true, "FILE", "also write the results as JSON to FILE (one run for the table and the JSON)"},
           {"help", false, "", "show this help"},
       }},
      {"gpu-run", "launch one kernel once on the GPU (for compute-sanitizer)",
       {
           {"set", true, "NAME", "the size set (default: canonical, or the broken kernel's own)"},
           {"seed", true, "N", "the input seed (default 0)"},
           {"stub", false, "", "the learner stub instead of the reference solution"},
           {"warps", true, "N", "warps per program (default 4)"},
           {"wgmma", false, "", "Hopper wgmma for the tf32, bf16 and f16 dots that fit it (sm_90a)"},
           {"tma", false, "", "with --wgmma: TMA copies for the staged tiles that are plain rectangles of a 2-D tensor"},
           {"cluster", false, "", "with --tma: programs that copy the same tile run in clusters of two sharing it by TMA multicast"},
           {"every-load", false, "", "keep every load the kernel writes, even unused ones (for compute-sanitizer)"},
           {"help", false, "", "show this help"},
       }},
  };
  return table;
}

const CommandInfo* find_command(std::string_view name) {
  for (const CommandInfo& c : command_table())
    if (name == c.name) return &c;
  return nullptr;
}

const std::vector<OptionSpec>& options_of(std::string_view command) {
  const CommandInfo* c = find_command(command);
  if (!c) std::terminate();  // a typo in a cmd_*.cpp file, not user input
  return c->options;
}

CommandLine parse_command_line(const std::vector<std::string>& argv) {
  CommandLine line;
  if (argv.size() < 2) return line;  // Usage
  const std::string& name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    line.kind = CommandLine::Kind::Help;
    return line;
  }
  if (name == "--version") {
    line.kind = CommandLine::Kind::Version;
    return line;
  }
  line.command = find_command(name);
  if (!line.command) {
    line.kind = CommandLine::Kind::Error;
    line.error = "unknown command '" + name + "'";
    return line;
  }
  try {
    line.args = Args(argv, 2, line.command->options);
    line.kind = CommandLine::Kind::Run;
  } catch (const UsageError& e) {
    line.kind = CommandLine::Kind::Error;
    line.error = e.what();
  }
  return line;
}

}  // namespace cli
