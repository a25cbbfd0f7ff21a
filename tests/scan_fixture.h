// A kernel harness for the scan, sort and permutation tests (test_scans.cpp,
// test_sort_gather.cpp, test_gpu_scans.cpp): each test writes its kernel
// body as a lambda over three pointers, and run() builds a fresh kernel from
// it and runs it on the interpreter.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "build_error_fixture.h"
#include "error.h"
#include "interpreter.h"
#include "kernel.h"
#include "tl.h"

namespace scan_fixture {

struct P {
  const tl::Ptr& x;
  const tl::Ptr& y;
  const tl::Ptr& z;
};
inline std::function<void(const P&)> g_body;
using build_error_fixture::g_line;  // set to __LINE__ on the kernel line a test points at
inline void kernel(tl::Ptr x, tl::Ptr y, tl::Ptr z) { g_body(P{x, y, z}); }

inline tl::Buffer buffer(const char* name, tl::DType d, const std::vector<double>& v) {
  tl::Buffer b(name, d, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) b.set(static_cast<int64_t>(i), v[i]);
  return b;
}

inline tl::Buffer zeros(const char* name, tl::DType d, int64_t n) { return tl::Buffer(name, d, {n}); }

inline std::vector<double> values(const tl::Buffer& b) {
  std::vector<double> v;
  for (int64_t i = 0; i < b.numel(); ++i) v.push_back(b.get(i));
  return v;
}

inline tl::RunResult run(std::function<void(const P&)> fn, tl::Buffer& x, tl::Buffer& y, tl::Buffer& z,
                         tl::Grid grid = {}) {
  g_body = std::move(fn);
  tl::KernelDef k("k", kernel, {"x", "y", "z"});
  return tl::run(k, grid, {x, y, z});
}

// The IR of a body, for dtypes of x, y, z.
inline std::shared_ptr<const tl::ir::Kernel> ir_of(std::function<void(const P&)> fn, std::vector<tl::DType> dtypes) {
  g_body = std::move(fn);
  tl::KernelDef k("k", kernel, {"x", "y", "z"});
  std::vector<tl::Buffer> b;
  for (tl::DType d : dtypes) b.emplace_back("b", d, std::vector<int64_t>{16});
  return tl::build_ir(k, {b[0], b[1], b[2]});
}

inline std::optional<tl::BuildError> build_error(std::function<void(const P&)> fn,
                                                 std::vector<tl::DType> dtypes = {tl::DType::f32, tl::DType::f32,
                                                                                  tl::DType::f32}) {
  g_body = std::move(fn);
  tl::KernelDef k("k", kernel);
  return build_error_fixture::specialize_error(k, tl::Specialization{dtypes, {0, 0, 0}});
}

}  // namespace scan_fixture
