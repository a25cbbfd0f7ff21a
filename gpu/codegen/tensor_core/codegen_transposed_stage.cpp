// A transposed wgmma's B written K-major into the stage by the threads
// (StagedLoad::written_transposed; p11's y). tf32 wgmma reads K-major
// operands only, and y has n along its rows: the C^T form fed y^T to wgmma
// from registers, which a group in flight may not have rewritten, so every
// group was waited for at once and the tensor cores idled through each
// iteration's wait, barrier and fragment loads. Written transposed into the
// stage, y^T is read by descriptor like x, and the groups may stay in flight.
//
// Each warp moves 4 k rows x 32 n of the tile a round: lane l reads the 16
// bytes at k = 4b + l / 8, n = 32c + 4 (l % 8) (8 lanes a 128-byte row
// segment), and stores its four values into rows n..n+3 of y^T. In the
// 128-byte swizzle, value (n, k) sits at n * 128 + ((k / 4) ^ (n % 8)) * 16
// + (k % 4) * 4: with every lane storing its j-th value, n % 8 would take
// two values across the warp (16-way bank conflicts). So lane l stores
// value (j + l / 2 % 4) % 4 at its j-th store, its four words rotated
// first (ts_rotate4): n % 8 then takes all eight values, k % 4 four, and
// the warp's 32 stores fall on 32 banks.
//
// A thread waits for its 16-byte reads at their first use, the stores: each
// refill (right after the iteration's stage is published, before its dots)
// stores the set of registers it read two refills before and reads that
// set again, two sets alternating. With one refill between read and store,
// the reads' latency (~1 us from L2 or memory under p11's load) was exposed
// every iteration, slower than the waited form.
#include <algorithm>

#include "codegen_emitter.h"

namespace tl::gpu::detail {

namespace {

// Register set `set` of the tile staged from register `reg`, and the flag
// that says which set the next refill takes.
std::string tw(int reg, int set) { return "ts_tw" + std::to_string(reg) + "_" + std::to_string(set); }
std::string parity(int reg) { return "ts_twp" + std::to_string(reg); }

// Vectors a thread moves a refill, of a tile of `outer` k rows x `inner` n.
int64_t rounds(int64_t outer, int64_t inner, int64_t threads) { return outer * inner / 4 / threads; }

}  // namespace

bool Emitter::fits_written_transposed(const StagedLoad& s) const {
  // 64 n a warpgroup: n = threads / 2, a multiple of 64, and each thread
  // moves 32 * n / 4 / threads = 4 vectors a refill.
  return type(s.reg).dtype == DType::f32 && s.outer_axis >= 0 && s.outer == 32 && sixty_four_columns_a_warpgroup(s);
}

std::string Emitter::transposed_stage_helpers() const {
  bool any = false;
  for (const Pipeline& p : pipelines_) any |= p.written_transposed() != nullptr;
  if (!any) return "";
  // w[j] = v's word (j + r) % 4, by selects on r's two bits.
  return "TS_INLINE void ts_rotate4(uint32_t* w, const ts_u4& v, int r) {\n"
         "  const bool one = (r & 1) != 0, two = (r & 2) != 0;\n"
         "  const uint32_t a0 = one ? v.y : v.x, a1 = one ? v.z : v.y, a2 = one ? v.w : v.z, a3 = one ? v.x : v.w;\n"
         "  w[0] = two ? a2 : a0;\n"
         "  w[1] = two ? a3 : a1;\n"
         "  w[2] = two ? a0 : a2;\n"
         "  w[3] = two ? a1 : a3;\n"
         "}\n";
}

int Emitter::transposed_depth(const Pipeline& p) const { return std::min(2, p.ahead - 1); }

void Emitter::declare_transposed_registers(const Pipeline& p) {
  const StagedLoad* s = p.written_transposed();
  if (!s) return;
  const int r = s->reg;
  const std::string n = std::to_string(rounds(s->outer, s->inner, threads_));
  line("ts_u4 " + tw(r, 0) + "[" + n + "];");
  if (transposed_depth(p) == 2) {
    line("ts_u4 " + tw(r, 1) + "[" + n + "];");
    line("bool " + parity(r) + " = false;");
  }
  // This thread's place in every round, computed once: warp w reads k rows
  // 8j + 4 (w / NB) + lane / 8 of round j and the n columns from
  // 32 (w % NB) + 4 (lane % 8) (NB = n / 32 = warps / 2, fits_written_transposed),
  // and stores value e of a vector at word T_e ^ 8j of y^T's stage region:
  // T_e = n_e * 32 + ((k / 4 ^ n_e % 8) << 2) + k % 4 for step 0's k, whose
  // k / 4 differs from step j's only in the bits of 2j, which the XOR
  // moves to the 16-byte chunk it names. The loop's refills then do no
  // index arithmetic but the reads' addresses.
  const std::string nb = std::to_string(s->inner / 32), id = std::to_string(r);
  uses_tid_ = true;
  line("const int ts_tk" + id + " = (tid >> 5) / " + nb + " * 4 + (tid >> 3 & 3);");
  line("const int ts_tn" + id + " = (tid >> 5) % " + nb + " * 32 + (tid & 7) * 4;");
  line("const int ts_trot" + id + " = tid >> 1 & 3;");
  line("int ts_tT" + id + "[4];");
  line("#pragma unroll");
  open("for (int ts_e = 0; ts_e < 4; ++ts_e)");
  line("const int ts_n = ts_tn" + id + " + ((ts_e + ts_trot" + id + ") & 3);");
  line("ts_tT" + id + "[ts_e] = ts_n * 32 + ((((ts_tk" + id + " >> 2) ^ ts_n) & 7) << 2) + (ts_tk" + id + " & 3);");
  close();
}

void Emitter::transposed_loads(const Pipeline& p, int set) {
  const StagedLoad& s = *p.written_transposed();
  uses_tid_ = true;
  if (opt_.comments)
    line("// %" + std::to_string(s.reg) + ": " + type(s.reg).str() + " into registers, 16 bytes a read, for y^T's rows");
  // Unrolled: the array's index must be a constant, or it goes to local memory.
  line("#pragma unroll");
  open("for (int ts_j = 0; ts_j < " + std::to_string(rounds(s.outer, s.inner, threads_)) + "; ++ts_j)");
  line("const int ts_o = ts_j * 8 + ts_tk" + std::to_string(s.reg) + ", ts_i = ts_tn" + std::to_string(s.reg) + ";");
  const VectorRead r = vector_read(s);
  const std::string dst = tw(s.reg, set) + "[ts_j]";
  open("if (" + r.all + " && ((uint64_t)ts_src & 15) == 0)");
  line(dst + " = *reinterpret_cast<const ts_u4*>(ts_src);");
  if (s.load->has_mask) {
    --indent_;
    line("} else if (" + r.none + ") {");
    ++indent_;
    line(dst + " = ts_u4{0u, 0u, 0u, 0u};");
  }
  open_else();
  // Tails and misaligned rows: element by element (unrolled, as the
  // words are registers).
  line("float ts_f[4];");
  line("#pragma unroll");
  open("for (int ts_e = 0; ts_e < 4; ++ts_e)");
  line("ts_f[ts_e] = " + r.element + ";");
  close();
  line(dst + " = ts_u4{ts_bitcast<uint32_t>(ts_f[0]), ts_bitcast<uint32_t>(ts_f[1]), ts_bitcast<uint32_t>(ts_f[2]), "
             "ts_bitcast<uint32_t>(ts_f[3])};");
  close();
  close();
}

void Emitter::transposed_stores(const Pipeline& p, int set, const std::string& stage) {
  const StagedLoad& s = *p.written_transposed();
  uses_tid_ = true;
  open("");
  line("uint32_t* const ts_td = reinterpret_cast<uint32_t*>(ts_smem + ts_pipe + (" + stage + ") * " +
       std::to_string(p.stage_bytes) + " + " + std::to_string(s.offset) + ");");
  const std::string id = std::to_string(s.reg);
  line("#pragma unroll");
  open("for (int ts_j = 0; ts_j < " + std::to_string(rounds(s.outer, s.inner, threads_)) + "; ++ts_j)");
  line("uint32_t ts_w[4];");
  line("ts_rotate4(ts_w, " + tw(s.reg, set) + "[ts_j], ts_trot" + id + ");");
  line("#pragma unroll");
  open("for (int ts_e = 0; ts_e < 4; ++ts_e)");
  line("ts_td[ts_tT" + id + "[ts_e] ^ (ts_j * 8)] = ts_w[ts_e];");
  close();
  close();
  // Generic-proxy stores, read by wgmma's async proxy after the barrier
  // that publishes the stage.
  line("ts_fence_proxy_async();");
  close();
}

void Emitter::transposed_prologue(const Pipeline& p, const std::string& t) {
  // Stage t's tile: stored at once, but the last `depth` stages', which
  // the first refills store (their register sets in order).
  const int depth = transposed_depth(p);
  const std::string first_pending = std::to_string(p.ahead - depth);
  if (depth == 2) {
    open("if ((" + t + ") == " + std::to_string(p.ahead - 1) + ")");
    transposed_loads(p, 1);
    open_else();
  }
  transposed_loads(p, 0);
  if (depth > 0) open("if ((" + t + ") < " + first_pending + ")");
  transposed_stores(p, 0, t);
  if (depth > 0) close();
  if (depth == 2) close();
}

void Emitter::transposed_refill(const Pipeline& p) {
  if (!p.written_transposed()) return;
  const StagedLoad& s = *p.written_transposed();
  const ir::Instr& loop = *p.loop;
  const std::string it = "it" + std::to_string(loop.dst), step = "(int64_t)" + name(loop.args[2]);
  const int depth = transposed_depth(p);
  AtIteration at(*this, p, "(" + reg_type(loop.dst) + ")(" + it + " + " + std::to_string(p.ahead) + " * " + step + ")");
  // A set holds iteration it + ahead - depth's tile when stored, and
  // reads iteration it + ahead's; with depth 0 (one iteration ahead) that
  // is the same tile, read and then stored at once.
  const int stored = p.ahead - depth;
  const std::string loaded = it + " + " + std::to_string(p.ahead) + " * " + step;
  auto store = [&](int set) {
    open("if (" + loop_runs(loop, it + " + " + std::to_string(stored) + " * " + step) + ")");
    transposed_stores(p, set, "(" + p.stage_var + " + " + std::to_string(stored) + ") % " + std::to_string(p.stages));
    close();
  };
  auto load = [&](int set) {
    open("if (" + loop_runs(loop, loaded) + ")");
    transposed_loads(p, set);
    close();
  };
  auto refill = [&](int set) {
    if (depth == 0) load(set);
    store(set);
    if (depth > 0) load(set);
  };
  if (opt_.comments) line("// %" + std::to_string(s.reg) + " written transposed: stored " + std::to_string(depth) +
                          " refills after its reads");
  if (depth == 2) {
    open("if (" + parity(s.reg) + ")");
    refill(1);
    open_else();
    refill(0);
    close();
    line(parity(s.reg) + " = !" + parity(s.reg) + ";");
  } else {
    refill(0);
  }
}

}  // namespace tl::gpu::detail
