// The semantic layer's tile functions, bound one to one: each takes Python
// tiles and numbers, reports the visitor's current location, and calls the
// very tl:: function a C++ kernel calls. No rule is decided here.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <optional>

#include "convert.h"
#include "error.h"

namespace tilescope_py {

namespace {

using tl::Operand;
using tl::Tensor;

Operand op(py::handle h, const char* what = "an operand") { return to_operand(h, what); }

tl::Shape to_shape(py::handle h) {
  tl::Shape s;
  if (py::isinstance<py::int_>(h)) return {h.cast<int64_t>()};
  for (py::handle d : h) {
    if (!py::isinstance<py::int_>(d))
      throw tl::BuildError(current_loc(), "a tile shape holds compile-time integers (tl.constexpr), got a " +
                                              type_name(d) + "; shapes cannot depend on runtime values");
    s.push_back(d.cast<int64_t>());
  }
  return s;
}

std::optional<int> to_axis(py::handle h) {
  if (h.is_none()) return std::nullopt;
  if (!py::isinstance<py::int_>(h))
    throw tl::BuildError(current_loc(), "axis must be a compile-time integer or None, got a " + type_name(h));
  return h.cast<int>();
}

tl::Precision to_precision(const std::string& s) {
  if (s == "tf32") return tl::Precision::tf32;
  if (s == "tf32x3") return tl::Precision::tf32x3;
  if (s == "ieee") return tl::Precision::ieee;
  throw tl::BuildError(current_loc(), "input_precision must be \"tf32\", \"tf32x3\" or \"ieee\", got \"" + s + "\"");
}

// Python's operator `SYM` on two operands, as C++ spells it.
#define TS_BINARY(NAME, SYM) \
  m.def(NAME, [](py::handle a, py::handle b) { return at_current([&] { return op(a) SYM op(b); }); })

using Unary = Tensor (*)(const Tensor&, std::source_location);
void def_unary(py::module_& m, const char* name, Unary f) {
  m.def(name, [f](const Tensor& x) { return at_current([&] { return f(x, std::source_location::current()); }); });
}

}  // namespace

void bind_tiles(py::module_& m) {
  py::class_<Tensor>(m, "Tensor")
      .def_property_readonly("dtype", [](const Tensor& t) { return std::string(tl::name(t.dtype())); })
      .def_property_readonly("is_ptr", [](const Tensor& t) { return t.type().is_ptr; })
      .def_property_readonly("shape", [](const Tensor& t) { return t.shape(); })
      .def_property_readonly("type", [](const Tensor& t) { return t.type().str(); })
      .def_property_readonly("reg", &Tensor::reg)
      .def_static("wrap", &Tensor::wrap)
      // A second name for the same value: its own register, so assigning
      // one later (in a loop) does not change the other.
      .def("copy", [](const Tensor& t) { return at_current([&] { return Tensor(t); }); })
      // `name = value` where `name` was bound outside the loop or if being
      // built: the value is written into its register (loop-carried).
      .def("assign", [](Tensor& self, py::handle value) {
        at_current([&] { self = op(value, "the assigned value"); });
      })
      .def("__repr__", [](const Tensor& t) { return "<tile " + t.type().str() + ">"; });

  m.def("at_file", &set_loc_file);
  m.def("at", &set_loc);

  // Creation.
  m.def("program_id", [](int axis) { return at_current([&] { return tl::program_id(axis); }); });
  m.def("num_programs", [](int axis) { return at_current([&] { return tl::num_programs(axis); }); });
  m.def("arange", [](int64_t lo, int64_t hi) { return at_current([&] { return tl::arange(lo, hi); }); });
  m.def("full", [](py::handle shape, py::handle value, py::handle dtype) {
    return at_current([&] { return tl::full(to_shape(shape), op(value, "the fill value"), to_dtype(dtype)); });
  });
  m.def("zeros_like", [](const Tensor& x) { return at_current([&] { return tl::zeros_like(x); }); });
  m.def("scalar", [](py::handle v) { return at_current([&] { return tl::scalar(op(v)); }); });

  // Memory.
  m.def("load", [](const Tensor& ptr, py::handle mask, py::handle other) {
    return at_current([&] {
      if (mask.is_none()) {
        if (!other.is_none()) return tl::load(ptr, Operand(true), op(other, "other"));
        return tl::load(ptr);
      }
      if (other.is_none()) return tl::load(ptr, op(mask, "the mask"));
      return tl::load(ptr, op(mask, "the mask"), op(other, "other"));
    });
  });
  m.def("store", [](const Tensor& ptr, py::handle value, py::handle mask) {
    at_current([&] {
      if (mask.is_none()) tl::store(ptr, op(value, "the stored value"));
      else tl::store(ptr, op(value, "the stored value"), op(mask, "the mask"));
    });
  });
  m.def("atomic_add", [](const Tensor& ptr, py::handle value, py::handle mask) {
    return at_current([&] {
      if (mask.is_none()) return tl::atomic_add(ptr, op(value, "the added value"));
      return tl::atomic_add(ptr, op(value, "the added value"), op(mask, "the mask"));
    });
  });

  // Operators, by Python's spelling.
  TS_BINARY("add", +);
  TS_BINARY("sub", -);
  TS_BINARY("mul", *);
  TS_BINARY("mod", %);
  TS_BINARY("and_", &);
  TS_BINARY("or_", |);
  TS_BINARY("xor", ^);
  TS_BINARY("lshift", <<);
  TS_BINARY("rshift", >>);
  TS_BINARY("eq", ==);
  TS_BINARY("ne", !=);
  TS_BINARY("lt", <);
  TS_BINARY("le", <=);
  TS_BINARY("gt", >);
  TS_BINARY("ge", >=);
  m.def("truediv", [](py::handle a, py::handle b) { return at_current([&] { return tl::truediv(op(a), op(b)); }); });
  m.def("floordiv", [](py::handle a, py::handle b) { return at_current([&] { return tl::floordiv(op(a), op(b)); }); });
  m.def("neg", [](py::handle a) { return at_current([&] { return -op(a); }); });
  m.def("invert", [](py::handle a) { return at_current([&] { return ~op(a); }); });
  m.def("logical_and", [](py::handle a, py::handle b) { return at_current([&] { return tl::logical_and(op(a), op(b)); }); });
  m.def("logical_or", [](py::handle a, py::handle b) { return at_current([&] { return tl::logical_or(op(a), op(b)); }); });
  m.def("logical_not", [](py::handle a) { return at_current([&] { return tl::logical_not(op(a)); }); });
  m.def("subscript", [](const Tensor& x, const std::vector<bool>& new_axis) {
    std::vector<tl::Index> items;
    for (bool n : new_axis) items.push_back(n ? tl::Index::NewAxis : tl::Index::Keep);
    return at_current([&] { return tl::subscript(x, items); });
  });

  // Elementwise functions.
  m.def("where", [](py::handle c, py::handle a, py::handle b) {
    return at_current([&] { return tl::where(op(c, "the condition"), op(a), op(b)); });
  });
  m.def("maximum", [](py::handle a, py::handle b, bool nan) {
    return at_current([&] { return tl::maximum(op(a), op(b), nan); });
  }, py::arg("a"), py::arg("b"), py::arg("propagate_nan") = false);
  m.def("minimum", [](py::handle a, py::handle b, bool nan) {
    return at_current([&] { return tl::minimum(op(a), op(b), nan); });
  }, py::arg("a"), py::arg("b"), py::arg("propagate_nan") = false);
  m.def("fma", [](py::handle a, py::handle b, py::handle c) {
    return at_current([&] { return tl::fma(op(a), op(b), op(c)); });
  });
  m.def("cdiv", [](py::handle a, py::handle b) { return at_current([&] { return tl::cdiv(op(a), op(b)); }); });
  def_unary(m, "exp", &tl::exp);
  def_unary(m, "exp2", &tl::exp2);
  def_unary(m, "log", &tl::log);
  def_unary(m, "log2", &tl::log2);
  def_unary(m, "sqrt", &tl::sqrt);
  def_unary(m, "rsqrt", &tl::rsqrt);
  def_unary(m, "sin", &tl::sin);
  def_unary(m, "cos", &tl::cos);
  def_unary(m, "sigmoid", &tl::sigmoid);
  def_unary(m, "tanh", &tl::tanh);
  def_unary(m, "abs", &tl::abs);
  def_unary(m, "floor", &tl::floor);
  def_unary(m, "ceil", &tl::ceil);
  m.def("cast", [](const Tensor& x, py::handle dtype, bool bitcast) {
    return at_current([&] { return x.to(to_dtype(dtype), bitcast); });
  });

  // Shapes.
  m.def("expand_dims", [](const Tensor& x, std::vector<int> axes) {
    return at_current([&] { return tl::expand_dims(x, axes); });
  });
  m.def("broadcast_to", [](const Tensor& x, py::handle shape) {
    return at_current([&] { return tl::broadcast_to(x, to_shape(shape)); });
  });
  m.def("reshape", [](const Tensor& x, py::handle shape) {
    return at_current([&] { return tl::reshape(x, to_shape(shape)); });
  });
  m.def("trans", [](const Tensor& x) { return at_current([&] { return tl::trans(x); }); });
  m.def("permute", [](const Tensor& x, std::vector<int> dims) { return at_current([&] { return tl::permute(x, dims); }); });

  // Reductions.
  m.def("sum", [](const Tensor& x, py::handle axis, bool keep_dims, py::handle dtype) {
    return at_current([&] {
      if (dtype.is_none()) return tl::sum(x, to_axis(axis), keep_dims);
      return tl::sum(x, to_axis(axis), keep_dims, to_dtype(dtype));
    });
  });
  m.def("max", [](const Tensor& x, py::handle axis, bool keep_dims) {
    return at_current([&] { return tl::max(x, to_axis(axis), keep_dims); });
  });
  m.def("min", [](const Tensor& x, py::handle axis, bool keep_dims) {
    return at_current([&] { return tl::min(x, to_axis(axis), keep_dims); });
  });
  m.def("argmax", [](const Tensor& x, int axis, bool keep_dims) {
    return at_current([&] { return tl::argmax(x, axis, keep_dims); });
  });
  m.def("argmin", [](const Tensor& x, int axis, bool keep_dims) {
    return at_current([&] { return tl::argmin(x, axis, keep_dims); });
  });
  m.def("dot", [](const Tensor& a, const Tensor& b, std::optional<Tensor> acc, const std::string& precision,
                  py::handle out_dtype) {
    return at_current([&] {
      const tl::Precision p = to_precision(precision);
      if (!acc) {
        if (out_dtype.is_none()) return tl::dot(a, b, p);
        const tl::DType d = to_dtype(out_dtype);
        return tl::dot(a, b, Tensor(), p, d);  // no acc: the product's own zeros
      }
      if (out_dtype.is_none()) return tl::dot(a, b, *acc, p);
      return tl::dot(a, b, *acc, p, to_dtype(out_dtype));
    });
  });

  // Control flow: the visitor builds each body inside these.
  py::class_<tl::Range>(m, "Range")
      .def(py::init([](py::handle lo, py::handle hi, py::handle step) {
        return at_current([&] {
          return new tl::Range(op(lo, "a range bound"), op(hi, "a range bound"), op(step, "a range step"),
                               std::source_location::current());
        });
      }))
      // Opens the loop's body; returns the induction variable.
      .def("begin", [](tl::Range& r) { return at_current([&] { return *r.begin(); }); })
      // Closes it (begin's iterator steps once to the end).
      .def("end", [](tl::Range& r) {
        at_current([&] {
          tl::Range::Iter it(&r);
          ++it;
        });
      });
  m.def("join_if", [](const Tensor& then_value, const Tensor& else_value, const std::string& name) {
    return at_current([&] { return tl::detail::join_if_branches(then_value, else_value, name, current_loc()); });
  });
  m.def("if_", [](const Tensor& cond, const std::function<void()>& then_body,
                  const std::optional<std::function<void()>>& else_body) {
    at_current([&] {
      if (else_body) tl::if_(cond, then_body, *else_body);
      else tl::if_(cond, then_body);
    });
  });

  // while on a runtime condition: `cond` builds the condition (re-run
  // before each iteration), `body` the body.
  m.def("while_", [](const std::function<Tensor()>& cond, const std::function<void()>& body) {
    at_current([&] { tl::while_(cond, body); });
  });

  // Block pointers (tl.make_block_ptr): a value of the front end whose
  // components are tiles, loop-carried by assignment like a tile.
  py::class_<tl::BlockPtr>(m, "BlockPtr")
      .def_property_readonly("block_shape", &tl::BlockPtr::block_shape)
      .def_property_readonly("dtype", [](const tl::BlockPtr& p) { return std::string(tl::name(p.dtype())); })
      .def("copy", [](const tl::BlockPtr& p) { return at_current([&] { return tl::BlockPtr(p); }); })
      .def("assign", [](tl::BlockPtr& self, const tl::BlockPtr& value) { at_current([&] { self = value; }); })
      .def("__repr__", [](const tl::BlockPtr& p) {
        return "<block pointer " + std::string(tl::name(p.dtype())) + tl::ir::shape_str(p.block_shape()) + ">";
      });
  auto operands = [](py::handle list, const char* what) {
    std::vector<Operand> out;
    for (py::handle h : list) out.push_back(op(h, what));
    return out;
  };
  m.def("make_block_ptr", [operands](const Tensor& base, py::list shape, py::list strides, py::list offsets,
                                     std::vector<int64_t> block_shape, std::vector<int> order) {
    return at_current([&] {
      return tl::make_block_ptr(base, operands(shape, "a block pointer's shape"),
                                operands(strides, "a block pointer's stride"),
                                operands(offsets, "a block pointer's offset"), block_shape, order);
    });
  });
  m.def("advance", [operands](const tl::BlockPtr& p, py::list offsets) {
    return at_current([&] { return tl::advance(p, operands(offsets, "an advance offset")); });
  });
  auto padding_of = [](const std::string& s) {
    return s == "zero" ? tl::Padding::Zero : s == "nan" ? tl::Padding::Nan : tl::Padding::None;
  };
  m.def("block_load", [padding_of](const tl::BlockPtr& p, std::vector<int> boundary_check, const std::string& padding) {
    return at_current([&] { return tl::load(p, boundary_check, padding_of(padding)); });
  });
  m.def("block_store", [](const tl::BlockPtr& p, py::handle value, std::vector<int> boundary_check) {
    at_current([&] { tl::store(p, op(value, "the stored value"), boundary_check); });
  });

  // Debugging.
  m.def("static_assert_", [](bool cond, const std::string& msg) {
    at_current([&] { tl::static_assert_(cond, msg.c_str()); });
  });
  m.def("device_print", [](const std::string& prefix, std::vector<Tensor> values) {
    at_current([&] {
      if (values.size() == 1) tl::print(prefix.c_str(), values[0]);
      else if (values.size() == 2) tl::print(prefix.c_str(), values[0], values[1]);
      else throw tl::BuildError(current_loc(), "device_print takes one or two tiles after the prefix, got " +
                                                   std::to_string(values.size()));
    });
  });
  m.def("device_assert", [](const Tensor& cond, const std::string& msg) {
    at_current([&] { tl::device_assert(cond, msg.c_str()); });
  });
}

}  // namespace tilescope_py
