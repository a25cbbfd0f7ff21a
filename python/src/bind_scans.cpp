// Scans, sorts and permutations, bound one to one onto the tl::
// functions a C++ kernel calls. A combine function arrives as a Python
// callable that builds the @triton.jit function's body (the visitor does
// that); it runs once, inside the op's combine block.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <optional>

#include "convert.h"
#include "error.h"

namespace tilescope_py {

namespace {

using tl::Tensor;
using Callback = std::function<std::vector<Tensor>(const std::vector<Tensor>&, const std::vector<Tensor>&)>;

std::optional<int> axis_of(py::handle h) {
  if (h.is_none()) return std::nullopt;
  if (!py::isinstance<py::int_>(h))
    throw tl::BuildError(current_loc(), "axis must be a compile-time integer or None, got a " + type_name(h));
  return h.cast<int>();
}

}  // namespace

void bind_scans(py::module_& m) {
  m.def("cumsum", [](const Tensor& x, int axis, bool reverse, py::handle dtype) {
    return at_current([&] {
      if (dtype.is_none()) return tl::cumsum(x, axis, reverse);
      return tl::cumsum(x, axis, reverse, to_dtype(dtype));
    });
  });
  m.def("cumprod", [](const Tensor& x, int axis, bool reverse) {
    return at_current([&] { return tl::cumprod(x, axis, reverse); });
  });
  m.def("associative_scan", [](const std::vector<Tensor>& xs, int axis, const Callback& combine, bool reverse) {
    return at_current([&] { return tl::associative_scan(xs, axis, combine, reverse); });
  });
  m.def("reduce", [](const std::vector<Tensor>& xs, py::handle axis, const Callback& combine, bool keep_dims) {
    return at_current([&] { return tl::reduce(xs, axis_of(axis), combine, keep_dims); });
  });
  m.def("xor_sum", [](const Tensor& x, py::handle axis, bool keep_dims) {
    return at_current([&] { return tl::xor_sum(x, axis_of(axis), keep_dims); });
  });
  m.def("sort", [](const Tensor& x, py::handle dim, bool descending) {
    return at_current([&] { return tl::sort(x, axis_of(dim), descending); });
  });
  m.def("flip", [](const Tensor& x, py::handle dim) { return at_current([&] { return tl::flip(x, axis_of(dim)); }); });
  m.def("join", [](const Tensor& a, const Tensor& b) { return at_current([&] { return tl::join(a, b); }); });
  m.def("split", [](const Tensor& x) { return at_current([&] { return tl::split(x); }); });
  m.def("interleave", [](const Tensor& a, const Tensor& b) { return at_current([&] { return tl::interleave(a, b); }); });
  m.def("gather", [](const Tensor& src, const Tensor& index, int axis) {
    return at_current([&] { return tl::gather(src, index, axis); });
  });
  m.def("histogram", [](const Tensor& x, int num_bins, std::optional<Tensor> mask) {
    return at_current([&] { return mask ? tl::histogram(x, num_bins, *mask) : tl::histogram(x, num_bins); });
  });
}

}  // namespace tilescope_py
