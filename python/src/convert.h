// Python values as the semantic layer's arguments: tiles and numbers as
// tl::Operand, dtype names as tl::DType, and the location of the Python
// syntax node being built. Nothing here decides semantics.
#pragma once
#include <utility>
#include <pybind11/pybind11.h>

#include <string>

#include "builder.h"
#include "kernel.h"
#include "tl.h"

namespace puzzles {
struct Puzzle;
struct SizeSet;
}  // namespace puzzles

namespace tilescope_py {

namespace py = pybind11;

// The location the visitor named last (`_tilescope.at(line, col)`), in the
// file it named with `_tilescope.at_file(path)`.
const tl::SrcLoc& current_loc();
void set_loc_file(std::string file);
void set_loc(uint32_t line, uint32_t col);

// A tile (tl::Tensor) or a Python number as an operand; anything else is a
// BuildError at the current location naming what was given.
tl::Operand to_operand(py::handle h, const char* what);
// "f32", "float32", "fp32", "int8", "bfloat16", ... or a dtype object
// with a tilescope name in `.ts_name` or a Triton name as str().
tl::DType to_dtype(py::handle h);
std::string type_name(py::handle h);

// A kernel the program owns for its whole life (a registry's, a test's),
// handed to Python without taking ownership.
py::object borrowed(const tl::KernelDef* k);

// A puzzle or example by key and one of its size sets by name; a Python
// ValueError naming what is missing otherwise.
std::pair<const puzzles::Puzzle*, const puzzles::SizeSet*> puzzle_and_set(const std::string& key,
                                                                           const std::string& set);

// Runs `f` with every semantic function reporting the current location.
template <class F>
auto at_current(F&& f) {
  tl::detail::LocOverride scope(current_loc());
  return f();
}

}  // namespace tilescope_py
