// A kernel definition: a C++ function over tl:: parameter types, built into
// IR once per specialization (pointer dtypes and constant values) and cached.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <source_location>
#include <string>
#include <utility>
#include <vector>

#include "ir.h"
#include "tl.h"

namespace tl {

struct ParamSpec {
  ir::ParamKind kind;
  DType dtype;  // scalar dtype; pointers get theirs from the launch
};

template <class T>
struct ParamTraits;
template <>
struct ParamTraits<Ptr> {
  static constexpr ParamSpec spec{ir::ParamKind::Pointer, DType::f32};
};
template <>
struct ParamTraits<Int> {
  static constexpr ParamSpec spec{ir::ParamKind::Scalar, DType::i32};
};
template <>
struct ParamTraits<Int64> {
  static constexpr ParamSpec spec{ir::ParamKind::Scalar, DType::i64};
};
template <>
struct ParamTraits<Float> {
  static constexpr ParamSpec spec{ir::ParamKind::Scalar, DType::f32};
};
template <>
struct ParamTraits<Const> {
  static constexpr ParamSpec spec{ir::ParamKind::Constant, DType::i64};
};

// What one launch binds to the parameters: each pointer's dtype and each
// constant's value (other entries unused). This is the specialization key.
struct Specialization {
  std::vector<DType> dtypes;
  std::vector<int64_t> constants;
  auto operator<=>(const Specialization&) const = default;
};

class KernelDef {
 public:
  // `param_names` (optional) name the parameters in dumps, traces and
  // messages; otherwise launches name pointers after their buffers.
  template <class... A>
  KernelDef(std::string name, void (*fn)(A...), std::vector<std::string> param_names = {},
            std::source_location loc = std::source_location::current())
      : name_(std::move(name)), names_(std::move(param_names)), loc_(SrcLoc::from(loc)) {
    params_ = {ParamTraits<std::remove_cvref_t<A>>::spec...};
    invoke_ = [fn](const std::vector<int>& regs, const std::vector<int64_t>& consts) {
      [&]<size_t... I>(std::index_sequence<I...>) {
        fn(make_param<std::remove_cvref_t<A>>(regs[I], consts[I])...);
      }(std::index_sequence_for<A...>{});
    };
  }

  // A kernel built by a function that is not a C++ kernel function (the
  // Python front end's visitor): `build` receives the parameters' registers
  // (-1 for constants) and the constants' values, and builds the body with
  // the tl:: functions, as a C++ kernel function would.
  using BuildFn = std::function<void(const std::vector<int>& regs, const std::vector<int64_t>& constants)>;
  KernelDef(std::string name, std::vector<ParamSpec> params, std::vector<std::string> param_names, SrcLoc loc,
            BuildFn build)
      : name_(std::move(name)), names_(std::move(param_names)), loc_(std::move(loc)), params_(std::move(params)),
        invoke_(std::move(build)) {}

  const std::string& name() const { return name_; }
  const std::vector<ParamSpec>& params() const { return params_; }
  const std::vector<std::string>& param_names() const { return names_; }
  const SrcLoc& loc() const { return loc_; }

  // The IR for one specialization, built on first use and then cached.
  // Throws BuildError (pointing at the kernel line) when the build fails.
  std::shared_ptr<const ir::Kernel> specialize(const Specialization& s) const;

 private:
  template <class T>
  static T make_param(int reg, int64_t value) {
    if constexpr (std::is_same_v<T, Const>) {
      (void)reg;
      return static_cast<Const>(value);
    } else {
      (void)value;
      return T(Tensor::wrap(reg));
    }
  }

  std::string name_;
  std::vector<std::string> names_;
  SrcLoc loc_;
  std::vector<ParamSpec> params_;
  std::function<void(const std::vector<int>&, const std::vector<int64_t>&)> invoke_;
  mutable std::mutex mu_;
  mutable std::map<Specialization, std::shared_ptr<const ir::Kernel>> cache_;
};

}  // namespace tl
