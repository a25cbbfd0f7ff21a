#include "param_contract.h"

#include <optional>

namespace tilescope::detail {

namespace {

const char* kind_name(tl::ir::ParamKind k) {
  switch (k) {
    case tl::ir::ParamKind::Pointer: return "a tl::Ptr";
    case tl::ir::ParamKind::Scalar: return "a scalar";
    case tl::ir::ParamKind::Constant: return "a tl::Const";
  }
  return "a parameter";
}

std::optional<size_t> index_of(const Kernel& kernel, const std::string& name) {
  for (size_t i = 0; i < kernel.params().size(); ++i)
    if (kernel.params()[i].name == name) return i;
  return std::nullopt;
}

std::string shape_str(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string dims_str(const std::vector<Dim>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? ", " : "") + (dims[i].parameter.empty() ? std::to_string(dims[i].size) : dims[i].parameter);
  return s + "]";
}

std::string param_label(const Kernel& kernel, size_t i) {
  return "parameter " + std::to_string(i) + " ('" + kernel.params()[i].name + "')";
}

}  // namespace

std::string declaration_problem(const Kernel& kernel) {
  const auto& specs = kernel.def().params();
  const auto& params = kernel.params();
  if (params.empty()) return "";
  if (params.size() != specs.size())
    return "kernel '" + kernel.name() + "' declares " + std::to_string(params.size()) +
           " parameters, but its function takes " + std::to_string(specs.size());
  for (size_t i = 0; i < params.size(); ++i) {
    const Param& p = params[i];
    if (p.name.empty()) return "parameter " + std::to_string(i) + " of kernel '" + kernel.name() + "' has no name";
    if (index_of(kernel, p.name) != i)
      return "kernel '" + kernel.name() + "' declares two parameters named '" + p.name + "'";
    const bool pointer = specs[i].kind == tl::ir::ParamKind::Pointer;
    if (!pointer && (p.dtype || !p.shape.empty() || p.role != Role::Unspecified))
      return param_label(kernel, i) + " is " + kind_name(specs[i].kind) +
             "; only a tl::Ptr parameter declares a dtype, a shape or a role";
    for (const Dim& d : p.shape) {
      if (d.parameter.empty()) {
        if (d.size < 0) return "the shape of " + param_label(kernel, i) + " has a negative dimension";
        continue;
      }
      const std::optional<size_t> j = index_of(kernel, d.parameter);
      if (!j)
        return "the shape of " + param_label(kernel, i) + " names '" + d.parameter +
               "', which is not a parameter of kernel '" + kernel.name() + "'";
      if (specs[*j].kind == tl::ir::ParamKind::Pointer || specs[*j].dtype == tl::DType::f32)
        return "the shape of " + param_label(kernel, i) + " names '" + d.parameter +
               "', which is not an integer parameter";
    }
  }
  return "";
}

std::string argument_problem(const Kernel& kernel, const std::vector<Arg>& args) {
  const auto& params = kernel.params();
  if (params.empty()) return "";
  const std::string who = "launch of kernel '" + kernel.name() + "': ";
  for (size_t i = 0; i < params.size() && i < args.size(); ++i) {
    const Param& p = params[i];
    if (args[i].kind() != Arg::Kind::Buffer) continue;  // the interpreter names kind mismatches
    const Buffer& b = *args[i].buffer();
    if (p.dtype && b.dtype() != *p.dtype)
      return who + param_label(kernel, i) + " takes a buffer of dtype " + std::string(tl::name(*p.dtype)) + ", but buffer '" +
             b.name() + "' is " + std::string(tl::name(b.dtype()));
    if (p.shape.empty()) continue;
    std::vector<int64_t> expected;
    for (const Dim& d : p.shape) {
      if (d.parameter.empty()) {
        expected.push_back(d.size);
        continue;
      }
      const size_t j = *index_of(kernel, d.parameter);
      if (j >= args.size() || args[j].kind() != Arg::Kind::Int) return "";  // the interpreter names it
      expected.push_back(args[j].int_value());
    }
    if (b.shape() != expected) {
      std::string want = dims_str(p.shape);
      if (want != shape_str(expected)) want += " = " + shape_str(expected);
      return who + param_label(kernel, i) + " takes a buffer of shape " + want + ", but buffer '" + b.name() +
             "' has shape " + shape_str(b.shape());
    }
  }
  return "";
}

}  // namespace tilescope::detail
