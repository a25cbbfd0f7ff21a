// Ops that move data between elements: broadcast, reshape (expand_dims)
// and permute (trans). A move is a register copy when every thread
// already holds the source elements of its destination elements (reshape
// always, broadcasts that only add leading axes, anything from a one-element
// tile); otherwise the source tile goes through shared memory: owners write
// it row-major, a barrier, every thread reads what its elements need, and a
// second barrier before the buffer is reused.
#include "codegen_emitter.h"

namespace tl::gpu::detail {

namespace {

// For each destination axis, how far one step along it moves in the
// source's row-major order (0 where a broadcast stretches).
std::vector<int64_t> source_steps(const ir::Instr& in, const ir::Shape& src, const ir::Shape& dst) {
  std::vector<int64_t> sst = row_major_strides(src), steps(dst.size(), 0);
  switch (in.op) {
    case ir::Op::Reshape: return row_major_strides(dst);  // row-major order is kept: same flat index
    case ir::Op::Broadcast: {
      size_t pad = dst.size() - src.size();  // right-aligned
      for (size_t i = 0; i < src.size(); ++i) steps[pad + i] = src[i] == 1 ? 0 : sst[i];
      return steps;
    }
    case ir::Op::Permute:
      for (size_t i = 0; i < dst.size(); ++i) steps[i] = sst[in.dims[i]];
      return steps;
    default: return steps;
  }
}

int64_t source_element(int64_t e, const ir::Shape& dst, const std::vector<int64_t>& dst_strides,
                       const std::vector<int64_t>& steps) {
  int64_t f = 0;
  for (size_t i = 0; i < dst.size(); ++i) f += (e / dst_strides[i]) % dst[i] * steps[i];
  return f;
}

}  // namespace

std::string Emitter::coordinate(const std::string& e, const ir::Shape& shape, size_t axis) {
  std::vector<int64_t> st = row_major_strides(shape);
  if (shape[axis] == 1) return "0";
  std::string q = st[axis] == 1 ? e : "(" + e + " / " + std::to_string(st[axis]) + ")";
  if (axis == 0) return q;  // the outermost axis needs no wrap
  return "(" + q + " % " + std::to_string(shape[axis]) + ")";
}

std::string Emitter::flat_index(const std::vector<std::string>& coords, const ir::Shape& shape) {
  const std::vector<int64_t> st = row_major_strides(shape);
  std::string flat;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    std::string term = st[i] == 1 ? coords[i] : "(" + coords[i] + ") * " + std::to_string(st[i]);
    flat += (flat.empty() ? "" : " + ") + term;
  }
  return flat.empty() ? "0" : flat;
}

void Emitter::spill_to_smem(int r, const std::string& var, const std::string& ctype, int64_t byte_offset,
                            const std::function<std::string(const std::string&)>& convert) {
  TileLayout l = layout(r);
  line(ctype + "* " + var + " = reinterpret_cast<" + ctype + "*>(ts_smem" +
       (byte_offset ? " + " + std::to_string(byte_offset) : "") + ");");
  std::string guard = owner_guard(l);  // a replicated tile is written once per element
  if (!guard.empty()) open("if (" + guard + ")");
  for_slots(l.slots, [&](const std::string& s) { line(var + "[" + element(l, s) + "] = " + convert(at(r, s)) + ";"); });
  if (!guard.empty()) close();
}

void Emitter::movement(const ir::Instr& in) {
  const int src = in.args[0], dst = in.dst;
  const ir::Shape& ss = type(src).shape;
  const ir::Shape& ds = type(dst).shape;
  const TileLayout ls = layout(src), ld = layout(dst);
  const std::vector<int64_t> steps = source_steps(in, ss, ds), dst_strides = row_major_strides(ds);

  // Does every thread hold its sources already, each slot's in one slot?
  std::vector<int64_t> from(static_cast<size_t>(ld.slots), -1);
  bool local = true;
  for (int64_t s = 0; s < ld.slots && local; ++s)
    for (int64_t t = 0; t < threads_ && local; ++t) {
      int64_t have = ls.slot_of(source_element(ld.element_of(s, t), ds, dst_strides, steps), t);
      local = have >= 0 && (from[s] < 0 || from[s] == have);
      from[s] = have;
    }
  if (local) {
    bool same = true, wrapped = true;
    for (int64_t s = 0; s < ld.slots; ++s) {
      same &= from[s] == s;
      wrapped &= from[s] == s % ls.slots;
    }
    if (same || wrapped || ld.slots == 1) {
      assign(dst, [&](const std::string& s) {
        std::string slot = ld.slots == 1 ? std::to_string(from[0]) : same ? s : s + " % " + std::to_string(ls.slots);
        return at(src, slot);
      });
    } else {
      declare(dst);
      for (int64_t s = 0; s < ld.slots; ++s) line(at(dst, std::to_string(s)) + " = " + at(src, std::to_string(from[s])) + ";");
    }
    return;
  }

  // Runs along the rows (CodegenOptions::row_runs) read a broadcast row's
  // same columns in every stripe: its sources repeat every `vec` slots, and
  // only those are read (read at every slot, p09's masked loads of a row
  // stayed 64 loads a thread where 4 differ).
  int64_t period = 0;
  if (!ld.mma && ld.vec > 1 && ld.slots > ld.vec && ld.slots % ld.vec == 0) {
    bool repeats = true;
    for (int64_t s = ld.vec; s < ld.slots && repeats; ++s)
      for (int64_t t = 0; t < threads_ && repeats; ++t)
        repeats = source_element(ld.element_of(s, t), ds, dst_strides, steps) ==
                  source_element(ld.element_of(s % ld.vec, t), ds, dst_strides, steps);
    if (repeats) period = ld.vec;
  }
  // Index arithmetic is recomputed where it is needed.
  if (try_remat_move(in, period)) return;

  // Through shared memory. Element sizes: registers of the value type, or
  // 8-byte pointers.
  const std::string t = reg_type(src);
  const int64_t elem = type(src).is_ptr ? 8 : byte_size(type(src).dtype);
  need_smem(ls.n * elem);
  declare(dst);
  open("");
  spill_to_smem(src, "sm", t, 0, [](const std::string& x) { return x; });
  line("__syncthreads();");
  for_slots(ld.slots, [&](const std::string& s) {
    // Runs along the rows name a slot's row and column directly
    // (element_coordinates): the slots of a run then read one address.
    std::vector<std::string> coords;
    if (!ld.mma && ld.vec > 1) {
      coords = element_coordinates(ld, ds, s);
    } else {
      line("const unsigned e = " + element(ld, s) + ";");
      for (size_t i = 0; i < ds.size(); ++i) coords.push_back(coordinate("e", ds, i));
    }
    std::string idx;
    for (size_t i = 0; i < ds.size(); ++i) {
      if (steps[i] == 0 || ds[i] == 1) continue;
      const std::string& c = coords[i];
      idx += (idx.empty() ? "" : " + ") + (steps[i] == 1 ? c : c + " * " + std::to_string(steps[i]));
    }
    line(at(dst, s) + " = sm[" + (idx.empty() ? "0" : idx) + "];");
  });
  line("__syncthreads();");
  close();
}

}  // namespace tl::gpu::detail
