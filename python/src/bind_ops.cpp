// Atomics, math, casts with rounding and hints, bound one
// to one onto the tl:: functions a C++ kernel calls. No rule is decided here.
#include <pybind11/stl.h>

#include <optional>

#include "convert.h"
#include "error.h"

namespace tilescope_py {

namespace {
using tl::Operand;
using tl::Tensor;

std::optional<Operand> maybe(py::handle h, const char* what) {
  if (h.is_none()) return std::nullopt;
  return to_operand(h, what);
}

std::string str_or_empty(py::handle h) { return h.is_none() ? std::string() : py::str(h).cast<std::string>(); }

using Unary = Tensor (*)(const Tensor&, std::source_location);
void def_unary(py::module_& m, const char* name, Unary f) {
  m.def(name, [f](const Tensor& x) { return at_current([&] { return f(x, std::source_location::current()); }); });
}

using Binary = Tensor (*)(const Operand&, const Operand&, std::source_location);
void def_binary(py::module_& m, const char* name, Binary f) {
  m.def(name, [f](py::handle a, py::handle b) {
    return at_current([&] { return f(to_operand(a, "an operand"), to_operand(b, "an operand"), std::source_location::current()); });
  });
}
}  // namespace

void bind_ops(py::module_& m) {
  // atomic(op, ptr, val, mask, cmp, sem, scope): op is add, max, ..., cas.
  m.def("atomic", [](const std::string& name, const Tensor& ptr, py::handle value, py::handle mask, py::handle cmp,
                     py::handle sem, py::handle scope) {
    return at_current([&] {
      return tl::atomic(name, ptr, to_operand(value, "the value"), maybe(mask, "the mask"), maybe(cmp, "cmp"),
                        str_or_empty(sem), str_or_empty(scope));
    });
  });
  m.def("clamp", [](py::handle x, py::handle lo, py::handle hi, bool propagate_nan) {
    return at_current([&] {
      return tl::clamp(to_operand(x, "x"), to_operand(lo, "min"), to_operand(hi, "max"), propagate_nan);
    });
  });
  def_unary(m, "erf", tl::erf);
  def_unary(m, "log1p", tl::log1p);
  def_unary(m, "expm1", tl::expm1);
  def_unary(m, "rint", tl::rint);
  def_unary(m, "round", tl::round);
  def_unary(m, "sqrt_rn", tl::sqrt_rn);
  def_binary(m, "pow", tl::pow);
#define TL_X(OP, NAME) def_unary(m, #NAME, tl::NAME);
  TL_LIBDEVICE_UNARY(TL_X)
#undef TL_X
#define TL_X(OP, NAME) def_binary(m, #NAME, tl::NAME);
  TL_LIBDEVICE_BINARY(TL_X)
#undef TL_X
  def_binary(m, "umulhi", tl::umulhi);
  def_binary(m, "div_rn", tl::div_rn);
  def_binary(m, "fdiv", tl::fdiv);
  // Random numbers: seed, offset (or four counters), n_rounds.
  m.def("philox", [](py::handle seed, py::handle c0, py::handle c1, py::handle c2, py::handle c3, int n) {
    return at_current([&] {
      return tl::philox(to_operand(seed, "the seed"), to_operand(c0, "a counter"), to_operand(c1, "a counter"),
                        to_operand(c2, "a counter"), to_operand(c3, "a counter"), n);
    });
  });
  using Random = Tensor (*)(const Operand&, const Operand&, int, std::source_location);
  using Random4 = tl::Tensor4 (*)(const Operand&, const Operand&, int, std::source_location);
  for (auto [name, f] : {std::pair<const char*, Random>{"randint", tl::randint}, {"rand", tl::rand}, {"randn", tl::randn}})
    m.def(name, [f](py::handle seed, py::handle offset, int n) {
      return at_current([&] { return f(to_operand(seed, "the seed"), to_operand(offset, "the offsets"), n, std::source_location::current()); });
    });
  for (auto [name, f] : {std::pair<const char*, Random4>{"randint4x", tl::randint4x}, {"rand4x", tl::rand4x},
                         {"randn4x", tl::randn4x}})
    m.def(name, [f](py::handle seed, py::handle offset, int n) {
      return at_current([&] { return f(to_operand(seed, "the seed"), to_operand(offset, "the offsets"), n, std::source_location::current()); });
    });
  m.def("uint_to_uniform_float", [](const Tensor& x) { return at_current([&] { return tl::uint_to_uniform_float(x); }); });
  m.def("pair_uniform_to_normal", [](const Tensor& a, const Tensor& b) {
    return at_current([&] { return tl::pair_uniform_to_normal(a, b); });
  });
  m.def("cast_rounded", [](const Tensor& x, py::handle dtype, bool bitcast, py::handle rounding) {
    return at_current([&] { return tl::cast(x, to_dtype(dtype), bitcast, str_or_empty(rounding)); });
  });
  using Hint = Tensor (*)(const Tensor&, std::vector<int64_t>, std::source_location);
  for (auto [name, f] : {std::pair<const char*, Hint>{"multiple_of", tl::multiple_of},
                         {"max_contiguous", tl::max_contiguous},
                         {"max_constancy", tl::max_constancy}})
    m.def(name, [f](const Tensor& x, std::vector<int64_t> values) {
      return at_current([&] { return f(x, values, std::source_location::current()); });
    });
  m.def("assume", [](py::handle cond) { at_current([&] { tl::assume(to_operand(cond, "the condition")); }); });
  m.def("debug_barrier", [] { at_current([&] { tl::debug_barrier(); }); });
  m.def("dot_scaled", [](const Tensor& a, const Tensor& b) { return at_current([&] { return tl::dot_scaled(a, b); }); });
}

}  // namespace tilescope_py
