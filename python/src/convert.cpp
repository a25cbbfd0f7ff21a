#include "convert.h"

#include <climits>

#include "error.h"
#include "harness.h"
#include "registry.h"

namespace tilescope_py {

namespace {
thread_local tl::SrcLoc g_loc;
}

const tl::SrcLoc& current_loc() { return g_loc; }
void set_loc_file(std::string file) { g_loc.file = std::move(file); }
void set_loc(uint32_t line, uint32_t col) {
  g_loc.line = line;
  g_loc.col = col;
}

std::string type_name(py::handle h) { return py::str(py::type::handle_of(h).attr("__name__")); }

tl::Operand to_operand(py::handle h, const char* what) {
  if (py::isinstance<tl::Tensor>(h)) return tl::Operand(h.cast<const tl::Tensor&>());
  if (py::isinstance<py::bool_>(h)) return tl::Operand(h.cast<bool>());
  if (py::isinstance<py::int_>(h)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow == 0) return tl::Operand(static_cast<int64_t>(v));
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(h.ptr());
      if (!PyErr_Occurred()) return tl::Operand(static_cast<uint64_t>(u));
      PyErr_Clear();
    }
    throw tl::BuildError(current_loc(), std::string("integer ") + std::string(py::str(h)) + " used as " + what +
                                            " does not fit in 64 bits");
  }
  if (py::isinstance<py::float_>(h)) return tl::Operand(h.cast<double>());
  throw tl::BuildError(current_loc(), std::string(what) + " must be a tile or a number, got " +
                                          (h.is_none() ? std::string("None") : "a " + type_name(h)));
}

tl::DType to_dtype(py::handle h) {
  std::string s;
  if (py::hasattr(h, "ts_name")) s = py::str(h.attr("ts_name"));
  else s = py::str(h);
  static const std::pair<const char*, const char*> aliases[] = {
      {"fp32", "f32"},    {"float32", "f32"},  {"fp16", "f16"},   {"float16", "f16"}, {"fp64", "f64"},
      {"float64", "f64"}, {"bfloat16", "bf16"}, {"int1", "i1"},   {"int8", "i8"},     {"int16", "i16"},
      {"int32", "i32"},   {"int64", "i64"},    {"uint8", "u8"},   {"uint16", "u16"},  {"uint32", "u32"},
      {"uint64", "u64"},  {"bool", "i1"},      {"torch.float32", "f32"}};
  for (const auto& [from, to] : aliases)
    if (s == from) s = to;
  if (auto d = tl::parse_dtype(s)) return *d;
  throw tl::BuildError(current_loc(), "'" + s + "' is not a dtype tilescope knows (f32, f16, bf16, f64, i1, i8, "
                                              "i16, i32, i64, u8, u16, u32, u64 or Triton's names for them)");
}

py::object borrowed(const tl::KernelDef* k) {
  return py::cast(std::shared_ptr<tl::KernelDef>(std::shared_ptr<tl::KernelDef>{}, const_cast<tl::KernelDef*>(k)));
}

std::pair<const puzzles::Puzzle*, const puzzles::SizeSet*> puzzle_and_set(const std::string& key,
                                                                           const std::string& set) {
  const puzzles::Puzzle* p = puzzles::find_puzzle(key);
  if (!p) throw py::value_error("no puzzle or example named '" + key + "'");
  const puzzles::SizeSet* s = puzzles::find_set(*p, set);
  if (!s) throw py::value_error("puzzle '" + key + "' has no size set '" + set + "'");
  return {p, s};
}

}  // namespace tilescope_py
