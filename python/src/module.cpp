// _tilescope: the C++ semantic layer, interpreter and checker for the
// Python front end (python/tilescope/). The visitor there maps Python
// syntax onto these functions; every rule stays in C++.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "error.h"

namespace tilescope_py {
void bind_tiles(pybind11::module_& m);
void bind_launch(pybind11::module_& m);
void bind_scans(pybind11::module_& m);
void bind_ops(pybind11::module_& m);
#ifdef TILESCOPE_HAVE_PICTURES
void bind_render(pybind11::module_& m);
#endif
#ifdef TILESCOPE_TEST_KERNELS
void bind_test_kernels(pybind11::module_& m);
#endif
}  // namespace tilescope_py

PYBIND11_MODULE(_tilescope, m) {
  m.doc() = "tilescope's semantic layer, interpreter and checker, for the Python front end";
  tilescope_py::bind_launch(m);
  // The text of a kernel's file that is not on disk (a notebook cell), so
  // diagnostics show its line and caret.
  m.def("set_source_text", &tl::set_source_text);
  tilescope_py::bind_tiles(m);
  tilescope_py::bind_scans(m);
  tilescope_py::bind_ops(m);
#ifdef TILESCOPE_HAVE_PICTURES
  tilescope_py::bind_render(m);
#endif
#ifdef TILESCOPE_TEST_KERNELS
  tilescope_py::bind_test_kernels(m);
#endif
}
